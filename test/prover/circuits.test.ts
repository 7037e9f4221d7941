/**
 * Every v1 shape and a sample of v2 shapes (each v2 gadget: hash chains of 1 and several pairs, both
 * tree heights, the combined hash): the witness for real devnet trees satisfies the constraint
 * system, and its public inputs are exactly the vector `validityPublicInputs` (src/merkle/groth16/validity.ts)
 * derives for the same roots, leaves and addresses — the one `verifyValidityProof` checks real and
 * devnet proofs against.
 */
import { describe, expect, it } from 'vitest';
import { circuitFor, publicInputsFor, V1_SHAPES, V2_SHAPES, witnessFor, type CircuitShape } from '../../src/prover/circuits/index.js';
import { defineCircuit } from '../../src/prover/circuits/define.js';
import { buildR1cs, firstUnsatisfied } from '../../src/prover/r1cs.js';
import { validityPublicInputs } from '../../src/merkle/groth16/validity.js';
import { fromBytes32 } from '../../src/devnet/trees/merkle.js';
import { buildFixture } from './circuits-fixture.js';

const label = (s: CircuitShape): string => `${s.kind} ${s.accounts}/${s.addresses} (height ${s.height})`;
const V2_SAMPLE = V2_SHAPES.filter((s) => ['1/0', '3/0', '0/2', '2/2'].includes(`${s.accounts}/${s.addresses}`));

describe('validity circuits', () => {
  it.each([...V1_SHAPES, ...V2_SAMPLE].map((s) => [label(s), s] as const))('%s: witness satisfies, public inputs are validity.ts\'s', (_, shape) => {
    const r1cs = circuitFor(shape);
    const { inputs, state, addrs } = buildFixture(shape);
    const w = witnessFor(shape, inputs);
    expect(firstUnsatisfied(r1cs, w)).toBe(-1);

    const pub = validityPublicInputs(state, addrs);
    expect(r1cs.name).toBe(pub.circuit);
    expect(r1cs.nPublic).toBe(pub.inputs.length);
    expect(w.slice(1, 1 + r1cs.nPublic)).toEqual(pub.inputs.map(fromBytes32));
    expect(publicInputsFor(shape, inputs)).toEqual(pub.inputs.map(fromBytes32));
  });

  it('memoises per shape and builds deterministically', () => {
    const shape = V1_SHAPES[0];
    expect(circuitFor({ ...shape })).toBe(circuitFor(shape));
    const again = buildR1cs('again', defineCircuit(shape));
    const r1cs = circuitFor(shape);
    expect(again.nVars).toBe(r1cs.nVars);
    expect(again.constraints.length).toBe(r1cs.constraints.length);
    for (const i of [0, 1, 100, r1cs.constraints.length - 1]) expect(again.constraints[i]).toEqual(r1cs.constraints[i]);
  });

  it('rejects shapes no v1 circuit has', () => {
    for (const bad of [
      { kind: 'inclusion', height: 26, accounts: 5, addresses: 0 },
      { kind: 'inclusion', height: 40, accounts: 1, addresses: 0 },
      { kind: 'inclusion', height: 32, accounts: 9, addresses: 0 },
      { kind: 'combined', height: 40, accounts: 1, addresses: 1 },
      { kind: 'non-inclusion', height: 26, accounts: 0, addresses: 3 },
      { kind: 'combined', height: 26, accounts: 8, addresses: 1 },
    ]) expect(() => circuitFor(bad as CircuitShape), JSON.stringify(bad)).toThrow(/"shape"/);
  });
});

describe('sizes (the module docs of src/prover/circuits/index.ts quote them)', () => {
  it('has the documented constraint counts', () => {
    const count = (kind: CircuitShape['kind'], height: CircuitShape['height'], accounts: number, addresses: number): number =>
      circuitFor({ kind, height, accounts, addresses }).constraints.length;
    expect(count('inclusion', 26, 1, 0)).toBe(6294);
    expect(count('inclusion', 26, 8, 0)).toBe(50352);
    expect(count('non-inclusion', 26, 0, 1)).toBe(7053);
    expect(count('combined', 26, 4, 2)).toBe(39282);
    expect(count('inclusion', 32, 1, 0)).toBe(7987);
    expect(count('non-inclusion', 40, 0, 2)).toBe(21342);
  });
});
