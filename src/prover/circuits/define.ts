/**
 * Light's validity statements as one circuit definition per shape, run by both builders of r1cs.ts.
 *
 * v1 (height 26): the public inputs come first and in Light's order — inclusion roots, leaves, then
 * non-inclusion (address-tree) roots, addresses — the flat vector `validityPublicInputs` rebuilds
 * from a `getValidityProof` answer. v2 (state 32, address 40): one public input, Light's hash chain
 * of those values (`P(r₀, l₀)`, then `P(h, rᵢ, lᵢ)`; combined `P(inclusionChain, addressChain)`),
 * and the values themselves are private.
 *
 * Then, per account: its leaf index (decomposed into path bits) and siblings; the path from the
 * leaf must reach the root. Per address: the low element, its leaf index and siblings; lowValue <
 * address < nextValue on 248 bits (Light's `AssertIsLess`), and the low element's leaf — v1
 * Poseidon(lowValue, nextIndex, nextValue), v2 Poseidon(lowValue, nextValue), as
 * src/merkle/compressed/address.ts `indexedLeaf` hashes them — must reach the address root.
 */
import { poseidonBigInt } from '../../crypto/index.js';
import type { CircuitDefinition, Cs } from '../r1cs.js';
import { merkleRoot } from '../gadgets/merkle-path.js';
import { poseidon } from '../gadgets/poseidon.js';
import { assertLess } from '../gadgets/range.js';
import { treeHeights, versionOf, type CircuitShape } from './shapes.js';

/** One account: its leaf in a state tree, the tree's root, the leaf index and the siblings (26 v1, 32 v2; leaf level first). */
export interface InclusionInput {
  root: bigint;
  leaf: bigint;
  pathIndex: number;
  pathElements: bigint[];
}

/** One new address: absent from the address tree, bracketed by the low element at `lowIndex`. */
export interface NonInclusionInput {
  root: bigint;
  value: bigint;
  lowValue: bigint;
  nextValue: bigint;
  /** The low element's next index (hashed into the v1 leaf only; v2 ignores it). */
  nextIndex: bigint;
  lowIndex: number;
  /** The low element's siblings (26 v1, 40 v2), leaf level first. */
  pathElements: bigint[];
}

export interface CircuitInputs {
  inclusion: InclusionInput[];
  nonInclusion: NonInclusionInput[];
}

/** Light's `TwoInputsHashChain`: P(a₀, b₀), then P(h, aᵢ, bᵢ). */
function hashChain<S>(cs: Cs<S>, a: readonly S[], b: readonly S[]): S {
  let h = poseidon(cs, [a[0], b[0]]);
  for (let i = 1; i < a.length; i++) h = poseidon(cs, [h, a[i], b[i]]);
  return h;
}

function hashChainValue(a: readonly bigint[], b: readonly bigint[]): bigint {
  let h = poseidonBigInt([a[0], b[0]]);
  for (let i = 1; i < a.length; i++) h = poseidonBigInt([h, a[i], b[i]]);
  return h;
}

/**
 * The public inputs of `inputs` for `shape` (w[1..nPublic] of its witness, without computing it):
 * v1 the flat vector inclusion roots, leaves, address roots, addresses; v2 its one hash.
 *
 * @example
 * publicInputsFor(shape, inputs); // v1 inclusion-1: [root, leaf]
 */
export function publicInputsFor(shape: CircuitShape, inputs: CircuitInputs): bigint[] {
  const roots = inputs.inclusion.map((x) => x.root);
  const leaves = inputs.inclusion.map((x) => x.leaf);
  const aRoots = inputs.nonInclusion.map((x) => x.root);
  const values = inputs.nonInclusion.map((x) => x.value);
  if (versionOf(shape) === 1) return [...roots, ...leaves, ...aRoots, ...values];
  if (shape.addresses === 0) return [hashChainValue(roots, leaves)];
  if (shape.accounts === 0) return [hashChainValue(aRoots, values)];
  return [poseidonBigInt([hashChainValue(roots, leaves), hashChainValue(aRoots, values)])];
}

/**
 * The definition of `shape`. `inputs` is read only by the witness run (through the input thunks);
 * the constraint-system run passes none.
 */
export function defineCircuit(shape: CircuitShape, inputs?: CircuitInputs): CircuitDefinition {
  const n = shape.accounts;
  const m = shape.addresses;
  const v1 = versionOf(shape) === 1;
  const heights = treeHeights(shape);
  const inc = (i: number): InclusionInput => inputs!.inclusion[i];
  const non = (i: number): NonInclusionInput => inputs!.nonInclusion[i];
  return <S>(cs: Cs<S>): void => {
    // v1: the values are the public inputs, in the order the verifier folds them into vk_x.
    // v2: the one public input is their hash; the values are private and hashed in the circuit.
    const hash = v1 ? undefined : cs.publicInput(() => publicInputsFor(shape, inputs!)[0], 'publicInputHash');
    const value = (v: () => bigint, field: string): S => (v1 ? cs.publicInput(v, field) : cs.privateInput(v, field));
    const roots: S[] = [];
    const leaves: S[] = [];
    const aRoots: S[] = [];
    const values: S[] = [];
    for (let i = 0; i < n; i++) roots.push(value(() => inc(i).root, `inclusion[${i}].root`));
    for (let i = 0; i < n; i++) leaves.push(value(() => inc(i).leaf, `inclusion[${i}].leaf`));
    for (let i = 0; i < m; i++) aRoots.push(value(() => non(i).root, `nonInclusion[${i}].root`));
    for (let i = 0; i < m; i++) values.push(value(() => non(i).value, `nonInclusion[${i}].value`));
    if (hash !== undefined) {
      const inc2 = n > 0 ? hashChain(cs, roots, leaves) : undefined;
      const non2 = m > 0 ? hashChain(cs, aRoots, values) : undefined;
      const chain = inc2 !== undefined && non2 !== undefined ? poseidon(cs, [inc2, non2]) : (inc2 ?? non2)!;
      cs.assertEqual(chain, hash, 'publicInputHash', 'the hash of the roots, leaves and addresses differs');
    }

    for (let i = 0; i < n; i++) {
      const f = `inclusion[${i}]`;
      const index = cs.privateInput(() => BigInt(inc(i).pathIndex), `${f}.pathIndex`);
      const siblings = siblingInputs(cs, heights.state, (k) => inc(i).pathElements[k], `${f}.pathElements`);
      const root = merkleRoot(cs, leaves[i], index, siblings, f);
      cs.assertEqual(root, roots[i], `${f}.root`, 'the leaf and its path do not reach this root');
    }
    for (let i = 0; i < m; i++) {
      const f = `nonInclusion[${i}]`;
      const low = cs.privateInput(() => non(i).lowValue, `${f}.lowValue`);
      const nextIndex = v1 ? cs.privateInput(() => non(i).nextIndex, `${f}.nextIndex`) : undefined;
      const next = cs.privateInput(() => non(i).nextValue, `${f}.nextValue`);
      const index = cs.privateInput(() => BigInt(non(i).lowIndex), `${f}.lowIndex`);
      const siblings = siblingInputs(cs, heights.address, (k) => non(i).pathElements[k], `${f}.pathElements`);
      assertLess(cs, low, values[i], `${f}.value`, 'expected lowValue < value (248-bit comparison)');
      assertLess(cs, values[i], next, `${f}.value`, 'expected value < nextValue (248-bit comparison)');
      const leaf = poseidon(cs, nextIndex !== undefined ? [low, nextIndex, next] : [low, next]);
      const root = merkleRoot(cs, leaf, index, siblings, f);
      cs.assertEqual(root, aRoots[i], `${f}.root`, 'the low element and its path do not reach this root');
    }
  };
}

function siblingInputs<S>(cs: Cs<S>, height: number, at: (k: number) => bigint, field: string): S[] {
  const out: S[] = new Array<S>(height);
  for (let k = 0; k < height; k++) out[k] = cs.privateInput(() => at(k), `${field}[${k}]`);
  return out;
}
