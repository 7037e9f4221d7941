/**
 * A false statement is refused twice: witness generation throws InputError naming the input, and a
 * witness computed anyway (`check: false`, what a prover ignoring the checks would hold) does not
 * satisfy the constraint system. Runs on the small shapes (inclusion-1, non-inclusion-1,
 * combined-1-1); the gadgets are the same in every shape.
 */
import { describe, expect, it } from 'vitest';
import { circuitFor, witnessFor, type CircuitInputs, type CircuitShape } from '../../src/prover/circuits/index.js';
import { BN254_R, isSatisfied } from '../../src/prover/r1cs.js';
import { isCairnError } from '../../src/errors/index.js';
import { buildFixture, cloneInputs } from './circuits-fixture.js';

const INC: CircuitShape = { kind: 'inclusion', height: 26, accounts: 1, addresses: 0 };
const NON: CircuitShape = { kind: 'non-inclusion', height: 26, accounts: 0, addresses: 1 };
const COMB: CircuitShape = { kind: 'combined', height: 26, accounts: 1, addresses: 1 };

/** Tamper, then expect an InputError on `field` and an unsatisfied unchecked witness. */
function refused(shape: CircuitShape, base: CircuitInputs, tamper: (x: CircuitInputs) => void, field: RegExp): void {
  const x = cloneInputs(base);
  tamper(x);
  let err: unknown;
  try {
    witnessFor(shape, x);
  } catch (e) {
    err = e;
  }
  expect(isCairnError(err) && err.code, String(err)).toBe('INPUT_INVALID');
  expect((err as { context: { field: string } }).context.field).toMatch(field);
  expect(isSatisfied(circuitFor(shape), witnessFor(shape, x, { check: false }))).toBe(false);
}

describe('inclusion: tampered inputs are refused', () => {
  const { inputs } = buildFixture(INC);
  const bump = (v: bigint): bigint => (v + 1n) % BN254_R;

  it('the honest witness satisfies (control)', () => {
    expect(isSatisfied(circuitFor(INC), witnessFor(INC, inputs))).toBe(true);
  });
  it('a wrong root', () => refused(INC, inputs, (x) => void (x.inclusion[0].root = bump(x.inclusion[0].root)), /^inclusion\[0\]\.root$/));
  it('a wrong leaf', () => refused(INC, inputs, (x) => void (x.inclusion[0].leaf = bump(x.inclusion[0].leaf)), /^inclusion\[0\]\.root$/));
  it.each([0, 9, 25])('a wrong sibling at level %i', (k) =>
    refused(INC, inputs, (x) => void (x.inclusion[0].pathElements[k] = bump(x.inclusion[0].pathElements[k])), /^inclusion\[0\]\.root$/),
  );
  it.each([0, 4, 25])('a flipped path bit %i', (k) => refused(INC, inputs, (x) => void (x.inclusion[0].pathIndex ^= 2 ** k), /^inclusion\[0\]\.root$/));
  it('a leaf index beyond 2^26 and malformed inputs are refused up front', () => {
    const x = cloneInputs(inputs);
    x.inclusion[0].pathIndex = 2 ** 26;
    expect(() => witnessFor(INC, x)).toThrow(/"inputs\.inclusion\[0\]\.pathIndex"/);
    const y = cloneInputs(inputs);
    y.inclusion[0].pathElements.pop();
    expect(() => witnessFor(INC, y)).toThrow(/"inputs\.inclusion\[0\]\.pathElements"/);
    const z = cloneInputs(inputs);
    z.inclusion[0].leaf = BN254_R;
    expect(() => witnessFor(INC, z)).toThrow(/"inputs\.inclusion\[0\]\.leaf"/);
    expect(() => witnessFor(INC, { inclusion: [], nonInclusion: [] })).toThrow(/expected 1 entries/);
  });
});

describe('non-inclusion: tampered inputs are refused', () => {
  const { inputs } = buildFixture(NON);
  const e = inputs.nonInclusion[0];

  it('the honest witness satisfies (control)', () => {
    expect(e.lowValue < e.value && e.value < e.nextValue).toBe(true);
    expect(isSatisfied(circuitFor(NON), witnessFor(NON, inputs))).toBe(true);
  });
  it('an address equal to the lower bound', () => refused(NON, inputs, (x) => void (x.nonInclusion[0].value = e.lowValue), /^nonInclusion\[0\]\.value$/));
  it('an address equal to the upper bound', () => refused(NON, inputs, (x) => void (x.nonInclusion[0].value = e.nextValue), /^nonInclusion\[0\]\.value$/));
  it('an address below the range', () => refused(NON, inputs, (x) => void (x.nonInclusion[0].value = e.lowValue - 1n), /^nonInclusion\[0\]\.value$/));
  it('an address above the range', () => refused(NON, inputs, (x) => void (x.nonInclusion[0].value = e.nextValue + 1n), /^nonInclusion\[0\]\.value$/));
  it('a widened range (another low element) does not reach the root', () =>
    refused(NON, inputs, (x) => void (x.nonInclusion[0].nextValue = (1n << 248n) - 1n), /^nonInclusion\[0\]\.root$/));
  it('a wrong nextIndex', () => refused(NON, inputs, (x) => void (x.nonInclusion[0].nextIndex += 1n), /^nonInclusion\[0\]\.root$/));
  it('a wrong address root', () => refused(NON, inputs, (x) => void (x.nonInclusion[0].root += 1n), /^nonInclusion\[0\]\.root$/));
  it('a wrong sibling and a wrong low-element index', () => {
    refused(NON, inputs, (x) => void (x.nonInclusion[0].pathElements[3] += 1n), /^nonInclusion\[0\]\.root$/);
    refused(NON, inputs, (x) => void (x.nonInclusion[0].lowIndex ^= 1), /^nonInclusion\[0\]\.root$/);
  });
});

describe('combined: either half failing fails the proof', () => {
  const { inputs } = buildFixture(COMB);
  it('a wrong leaf, then an address out of range', () => {
    expect(isSatisfied(circuitFor(COMB), witnessFor(COMB, inputs))).toBe(true);
    refused(COMB, inputs, (x) => void (x.inclusion[0].leaf += 1n), /^inclusion\[0\]\.root$/);
    refused(COMB, inputs, (x) => void (x.nonInclusion[0].value = x.nonInclusion[0].nextValue), /^nonInclusion\[0\]\.value$/);
  });
});

describe('the constraint system pins every variable', () => {
  it('every variable occurs in a constraint, and changing any sampled one breaks the witness', () => {
    for (const shape of [INC, NON]) {
      const r1cs = circuitFor(shape);
      const used = new Uint8Array(r1cs.nVars);
      for (const c of r1cs.constraints) for (const lc of [c.a, c.b, c.c]) for (const [i] of lc) used[i] = 1;
      expect(used.indexOf(0)).toBe(-1);

      const w = witnessFor(shape, buildFixture(shape).inputs);
      const sample = [1, 2, r1cs.nPublic + 1, r1cs.nPublic + 2, r1cs.nVars - 1];
      for (let k = 0; k < 7; k++) sample.push(1 + ((k * 2654435761) % (r1cs.nVars - 1)));
      for (const i of sample) {
        const bad = w.slice();
        bad[i] = (bad[i] + 1n) % BN254_R;
        expect(isSatisfied(r1cs, bad), `w[${i}]`).toBe(false);
      }
    }
  });
});

describe('v2: the one public input is the hash of the private values', () => {
  const V2INC: CircuitShape = { kind: 'inclusion', height: 32, accounts: 1, addresses: 0 };
  const V2NON: CircuitShape = { kind: 'non-inclusion', height: 40, accounts: 0, addresses: 1 };

  it('a changed public hash breaks the witness; a wrong leaf or root is refused', () => {
    const { inputs } = buildFixture(V2INC);
    const r1cs = circuitFor(V2INC);
    const w = witnessFor(V2INC, inputs);
    expect(r1cs.nPublic).toBe(1);
    expect(isSatisfied(r1cs, w)).toBe(true);
    const bad = w.slice();
    bad[1] = (bad[1] + 1n) % BN254_R;
    expect(isSatisfied(r1cs, bad)).toBe(false);
    refused(V2INC, inputs, (x) => void (x.inclusion[0].leaf += 1n), /^inclusion\[0\]\.root$/);
    refused(V2INC, inputs, (x) => void (x.inclusion[0].pathElements[31] += 1n), /^inclusion\[0\]\.root$/);
  });

  it('an address on its bound or a wrong low element is refused (height 40, leaf P(value, nextValue))', () => {
    const { inputs } = buildFixture(V2NON);
    expect(isSatisfied(circuitFor(V2NON), witnessFor(V2NON, inputs))).toBe(true);
    refused(V2NON, inputs, (x) => void (x.nonInclusion[0].value = x.nonInclusion[0].lowValue), /^nonInclusion\[0\]\.value$/);
    refused(V2NON, inputs, (x) => void (x.nonInclusion[0].lowIndex += 2 ** 39), /^nonInclusion\[0\]\.root$/);
  });
});
