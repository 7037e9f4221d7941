/**
 * The devnet's v1 validity circuits: `circuitFor(shape)` builds (once per shape) the rank-1
 * constraint system of Light's statement for that shape, `witnessFor(shape, inputs)` computes the
 * full witness for concrete trees — checking the statement as it goes, so inputs that do not satisfy
 * it (a path that misses the root, an address outside its low element's range) throw InputError
 * naming the input instead of yielding an unprovable witness.
 *
 * Sizes (constraints / variables, `npx vitest run test/prover/circuits.test.ts` prints them):
 * a Poseidon(2) is 240 constraints, a height-26 path 26·241 + 27 = 6,293, an address adds a
 * Poseidon(3) (261) and two 248-bit comparisons (498); each root check is 1. inclusion-1 6,294,
 * inclusion-8 50,352, non-inclusion-1 7,053, combined-4-2 39,282 constraints.
 */
import { InputError } from '../../errors.js';
import { BN254_R, buildR1cs, computeWitness, type R1cs } from '../r1cs.js';
import { defineCircuit, type CircuitInputs, type InclusionInput, type NonInclusionInput } from './define.js';
import { checkShape, circuitName, V1_HEIGHT, type CircuitShape } from './shapes.js';

export type { CircuitInputs, InclusionInput, NonInclusionInput } from './define.js';
export { circuitName, checkShape, shapeFor, V1_SHAPES, V1_HEIGHT, type CircuitShape } from './shapes.js';

const cache = new Map<string, R1cs>();

/**
 * The constraint system of `shape`, built on first use and memoised. Deterministic: the same shape
 * always gives the same system, variable for variable and constraint for constraint.
 *
 * @example
 * const r1cs = circuitFor({ kind: 'inclusion', height: 26, accounts: 1, addresses: 0 });
 * r1cs.name; // 'v1_inclusion_26_1'
 * r1cs.nPublic; // 2: root, leaf
 */
export function circuitFor(shape: CircuitShape): R1cs {
  const name = circuitName(shape);
  let r1cs = cache.get(name);
  if (!r1cs) {
    r1cs = buildR1cs(name, defineCircuit(shape, V1_HEIGHT));
    cache.set(name, r1cs);
  }
  return r1cs;
}

/**
 * The full witness of `shape` for `inputs` (length `nVars`, w[0] = 1, then the public inputs in
 * Light's order). Throws InputError naming the input when the inputs are malformed or do not
 * satisfy the statement. `{ check: false }` (tests only) returns the witness anyway, one the
 * constraint system then rejects.
 *
 * @example
 * const w = witnessFor(shape, { inclusion: [{ root, leaf, pathIndex: 5, pathElements }], nonInclusion: [] });
 * isSatisfied(circuitFor(shape), w); // true
 */
export function witnessFor(shape: CircuitShape, inputs: CircuitInputs, opts: { check?: boolean } = {}): bigint[] {
  checkShape(shape);
  checkInputs(shape, inputs);
  return computeWitness(defineCircuit(shape, V1_HEIGHT, inputs), opts);
}

/**
 * The public inputs of `inputs` in Light's order: inclusion roots, leaves, address roots, addresses
 * (w[1..nPublic] of the witness, without computing it).
 */
export function publicInputsOf(inputs: CircuitInputs): bigint[] {
  return [
    ...inputs.inclusion.map((x) => x.root),
    ...inputs.inclusion.map((x) => x.leaf),
    ...inputs.nonInclusion.map((x) => x.root),
    ...inputs.nonInclusion.map((x) => x.value),
  ];
}

function checkInputs(shape: CircuitShape, inputs: CircuitInputs): void {
  if (inputs === null || typeof inputs !== 'object') throw new InputError('inputs', 'expected { inclusion, nonInclusion }');
  const list = <T>(v: T[] | undefined, field: string, count: number): T[] => {
    if (!Array.isArray(v)) throw new InputError(field, 'expected an array', { got: typeof v });
    if (v.length !== count) throw new InputError(field, `expected ${count} entries for ${circuitName(shape)}, got ${v.length}`, { expected: String(count), got: v.length });
    return v;
  };
  list(inputs.inclusion, 'inputs.inclusion', shape.accounts).forEach((x: InclusionInput, i) => {
    const f = `inputs.inclusion[${i}]`;
    field(x?.root, `${f}.root`);
    field(x?.leaf, `${f}.leaf`);
    leafIndex(x?.pathIndex, `${f}.pathIndex`);
    path(x?.pathElements, `${f}.pathElements`);
  });
  list(inputs.nonInclusion, 'inputs.nonInclusion', shape.addresses).forEach((x: NonInclusionInput, i) => {
    const f = `inputs.nonInclusion[${i}]`;
    for (const k of ['root', 'value', 'lowValue', 'nextValue', 'nextIndex'] as const) field(x?.[k], `${f}.${k}`);
    leafIndex(x?.lowIndex, `${f}.lowIndex`);
    path(x?.pathElements, `${f}.pathElements`);
  });
}

function field(v: unknown, name: string): void {
  if (typeof v !== 'bigint' || v < 0n || v >= BN254_R) throw new InputError(name, 'expected a bigint field element, 0 <= x < r', { got: typeof v === 'bigint' ? String(v) : typeof v });
}

function leafIndex(v: unknown, name: string): void {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v >= 2 ** V1_HEIGHT) {
    throw new InputError(name, `expected an integer leaf index in [0, 2^${V1_HEIGHT})`, { got: v });
  }
}

function path(v: unknown, name: string): void {
  if (!Array.isArray(v) || v.length !== V1_HEIGHT) throw new InputError(name, `expected ${V1_HEIGHT} siblings, leaf level first`, { got: Array.isArray(v) ? v.length : typeof v });
  v.forEach((x, k) => field(x, `${name}[${k}]`));
}
