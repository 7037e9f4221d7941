/**
 * The devnet's validity circuits: `circuitFor(shape)` builds (once per shape) the rank-1 constraint
 * system of Light's statement for that shape, `witnessFor(shape, inputs)` computes the full witness
 * for concrete trees — checking the statement as it goes, so inputs that do not satisfy it (a path
 * that misses the root, an address outside its low element's range) throw InputError naming the
 * input instead of yielding an unprovable witness.
 *
 * Sizes: a Poseidon(2) is 240 constraints, Poseidon(3) 261; a path of height h is h·241 + h + 1
 * (one select and one Poseidon per level, the index bits); an address adds its leaf hash and two
 * 248-bit comparisons (498); each root check is 1; a v2 circuit adds its public-input hash chain.
 *
 * | circuit | constraints | variables | public |
 * |---|---|---|---|
 * | v1_inclusion_26_1 / _2 / _3 / _4 / _8 | 6,294 / 12,588 / 18,882 / 25,176 / 50,352 | 6,322 … 50,569 | 2n |
 * | v1_non_inclusion_26_1 / _2 | 7,053 / 14,106 | 7,082 / 14,163 | 2m |
 * | v1_combined_26_26_1_1 … _4_2 | 13,347 … 39,282 | 13,403 … 39,447 | 2(n + m) |
 * | v2_inclusion_32_1 … _8 | 7,987 … 64,036 | 8,021 … 64,301 | 1 |
 * | v2_non_inclusion_40_1 / _2 | 10,661 / 21,342 | 10,703 / 21,425 | 1 |
 * | v2_combined_32_40_1_1 … _4_2 | 18,887 … 53,589 | 18,962 … 53,804 | 1 |
 *
 * Building one takes 10–60 ms here (inclusion-8: ~150 ms cold, ~40 MB retained; each Poseidon is
 * recorded once and renamed per use, see `Cs.call`); a witness for inclusion-8 ~0.1 s.
 * test/prover/circuits.test.ts pins these counts.
 */
import { InputError } from '../../errors/index.js';
import { BN254_R, buildR1cs, computeWitness, type R1cs } from '../r1cs.js';
import { defineCircuit, type CircuitInputs, type InclusionInput, type NonInclusionInput } from './define.js';
import { checkShape, circuitName, treeHeights, versionOf, type CircuitShape } from './shapes.js';

export { inclusionInput, nonInclusionInput } from './inputs.js';
export { publicInputsFor, type CircuitInputs } from './define.js';
export { circuitName, shapeFor, versionOf, treeHeights, V1_SHAPES, V2_SHAPES, type CircuitShape } from './shapes.js';

const cache = new Map<string, R1cs>();
/**
 * Systems kept, least recently used dropped first: a system is up to ~40 MB (inclusion-8), and a
 * devnet asked for every one of the 33 shapes must not keep them all. Rebuilding one costs
 * 10–150 ms, against the seconds a proof takes.
 */
const MAX_CACHED = 6;

/**
 * The constraint system of `shape`, built on first use and memoised (the six most recently used are
 * kept). Deterministic: the same shape
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
  if (r1cs) cache.delete(name); // re-inserted below: the map's order is least recently used first
  else r1cs = buildR1cs(name, defineCircuit(shape));
  cache.set(name, r1cs);
  while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value!);
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
  return computeWitness(defineCircuit(shape, inputs), opts);
}

function checkInputs(shape: CircuitShape, inputs: CircuitInputs): void {
  if (inputs === null || typeof inputs !== 'object') throw new InputError('inputs', 'expected { inclusion, nonInclusion }');
  const list = <T>(v: T[] | undefined, field: string, count: number): T[] => {
    if (!Array.isArray(v)) throw new InputError(field, 'expected an array', { got: typeof v });
    if (v.length !== count) throw new InputError(field, `expected ${count} entries for ${circuitName(shape)}, got ${v.length}`, { expected: String(count), got: v.length });
    return v;
  };
  const heights = treeHeights(shape);
  list(inputs.inclusion, 'inputs.inclusion', shape.accounts).forEach((x: InclusionInput, i) => {
    const f = `inputs.inclusion[${i}]`;
    field(x?.root, `${f}.root`);
    field(x?.leaf, `${f}.leaf`);
    leafIndex(x?.pathIndex, `${f}.pathIndex`, heights.state);
    path(x?.pathElements, `${f}.pathElements`, heights.state);
  });
  const keys = versionOf(shape) === 1 ? (['root', 'value', 'lowValue', 'nextValue', 'nextIndex'] as const) : (['root', 'value', 'lowValue', 'nextValue'] as const);
  list(inputs.nonInclusion, 'inputs.nonInclusion', shape.addresses).forEach((x: NonInclusionInput, i) => {
    const f = `inputs.nonInclusion[${i}]`;
    for (const k of keys) field(x?.[k], `${f}.${k}`);
    leafIndex(x?.lowIndex, `${f}.lowIndex`, heights.address);
    path(x?.pathElements, `${f}.pathElements`, heights.address);
  });
}

function field(v: unknown, name: string): void {
  if (typeof v !== 'bigint' || v < 0n || v >= BN254_R) throw new InputError(name, 'expected a bigint field element, 0 <= x < r', { got: typeof v === 'bigint' ? String(v) : typeof v });
}

function leafIndex(v: unknown, name: string, height: number): void {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v >= 2 ** height) {
    throw new InputError(name, `expected an integer leaf index in [0, 2^${height})`, { got: v });
  }
}

function path(v: unknown, name: string, height: number): void {
  if (!Array.isArray(v) || v.length !== height) throw new InputError(name, `expected ${height} siblings, leaf level first`, { got: Array.isArray(v) ? v.length : typeof v });
  v.forEach((x, k) => field(x, `${name}[${k}]`));
}
