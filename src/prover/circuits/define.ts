/**
 * Light's v1 validity statements as one circuit definition per shape, run by both builders of
 * r1cs.ts. Public inputs come first and in Light's order — inclusion roots, leaves, then
 * non-inclusion (address-tree) roots, addresses — which is the flat vector `validityPublicInputs`
 * rebuilds from a `getValidityProof` answer. Then, per account: its leaf index (decomposed into 26
 * path bits) and 26 siblings, the path from the leaf must reach the root. Per address: the low
 * element (value, nextIndex, nextValue), its leaf index and 26 siblings; lowValue < address <
 * nextValue on 248 bits (Light's `AssertIsLess`), and the leaf Poseidon(lowValue, nextIndex,
 * nextValue) — the v1 indexed leaf of src/devnet/merkle-tree.ts — must reach the address root.
 */
import type { CircuitDefinition, Cs } from '../r1cs.js';
import { merkleRoot } from '../gadgets/merkle-path.js';
import { poseidon } from '../gadgets/poseidon.js';
import { assertLess } from '../gadgets/range.js';
import type { CircuitShape } from './shapes.js';

/** One account: its leaf in a state tree, the tree's root, the leaf index and the 26 siblings (leaf level first). */
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
  nextIndex: bigint;
  lowIndex: number;
  /** The low element's 26 siblings, leaf level first. */
  pathElements: bigint[];
}

export interface CircuitInputs {
  inclusion: InclusionInput[];
  nonInclusion: NonInclusionInput[];
}

/**
 * The definition of `shape`. `inputs` is read only by the witness run (through the input thunks);
 * the constraint-system run passes none.
 */
export function defineCircuit(shape: CircuitShape, height: number, inputs?: CircuitInputs): CircuitDefinition {
  const n = shape.accounts;
  const m = shape.addresses;
  const inc = (i: number): InclusionInput => inputs!.inclusion[i];
  const non = (i: number): NonInclusionInput => inputs!.nonInclusion[i];
  return <S>(cs: Cs<S>): void => {
    // Public inputs, in the order the verifier folds them into vk_x.
    const roots: S[] = [];
    const leaves: S[] = [];
    const aRoots: S[] = [];
    const values: S[] = [];
    for (let i = 0; i < n; i++) roots.push(cs.publicInput(() => inc(i).root, `inclusion[${i}].root`));
    for (let i = 0; i < n; i++) leaves.push(cs.publicInput(() => inc(i).leaf, `inclusion[${i}].leaf`));
    for (let i = 0; i < m; i++) aRoots.push(cs.publicInput(() => non(i).root, `nonInclusion[${i}].root`));
    for (let i = 0; i < m; i++) values.push(cs.publicInput(() => non(i).value, `nonInclusion[${i}].value`));

    for (let i = 0; i < n; i++) {
      const f = `inclusion[${i}]`;
      const index = cs.privateInput(() => BigInt(inc(i).pathIndex), `${f}.pathIndex`);
      const siblings = siblingInputs(cs, height, (k) => inc(i).pathElements[k], `${f}.pathElements`);
      const root = merkleRoot(cs, leaves[i], index, siblings, f);
      cs.assertEqual(root, roots[i], `${f}.root`, 'the leaf and its path do not reach this root');
    }
    for (let i = 0; i < m; i++) {
      const f = `nonInclusion[${i}]`;
      const low = cs.privateInput(() => non(i).lowValue, `${f}.lowValue`);
      const nextIndex = cs.privateInput(() => non(i).nextIndex, `${f}.nextIndex`);
      const next = cs.privateInput(() => non(i).nextValue, `${f}.nextValue`);
      const index = cs.privateInput(() => BigInt(non(i).lowIndex), `${f}.lowIndex`);
      const siblings = siblingInputs(cs, height, (k) => non(i).pathElements[k], `${f}.pathElements`);
      assertLess(cs, low, values[i], `${f}.value`, 'expected lowValue < value (248-bit comparison)');
      assertLess(cs, values[i], next, `${f}.value`, 'expected value < nextValue (248-bit comparison)');
      const leaf = poseidon(cs, [low, nextIndex, next]);
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
