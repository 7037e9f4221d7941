/**
 * Circuit inputs from what the devnet's trees hand out (src/devnet/trees/merkle.ts): a state tree's
 * root, leaf, leaf index and sibling path as 32-byte big-endian nodes, and an address tree's
 * `nonInclusionProof(value)`. Typed structurally, so the prover does not import the devnet.
 */
import type { InclusionInput, NonInclusionInput } from './define.js';

function big(b: Uint8Array): bigint {
  let v = 0n;
  for (let i = 0; i < b.length; i++) v = (v << 8n) | BigInt(b[i]);
  return v;
}

/**
 * An account's inclusion input from its tree: `proof` is the full sibling path, leaf level first.
 *
 * @example
 * inclusionInput(tree.root(), tree.leaf(i), i, tree.proof(i));
 */
export function inclusionInput(root: Uint8Array, leaf: Uint8Array, leafIndex: number, proof: readonly Uint8Array[]): InclusionInput {
  return { root: big(root), leaf: big(leaf), pathIndex: leafIndex, pathElements: proof.map(big) };
}

/** The fields of the devnet's `NonInclusionProof` the circuit reads. */
export interface TreeNonInclusionProof {
  value: bigint;
  lowElementIndex: number;
  lowElement: { value: bigint; nextIndex: number; nextValue: bigint };
  proof: readonly Uint8Array[];
  root: Uint8Array;
}

/**
 * A new address's non-inclusion input from its address tree's proof.
 *
 * @example
 * nonInclusionInput(addressTree.nonInclusionProof(address));
 */
export function nonInclusionInput(p: TreeNonInclusionProof): NonInclusionInput {
  return {
    root: big(p.root),
    value: p.value,
    lowValue: p.lowElement.value,
    nextValue: p.lowElement.nextValue,
    nextIndex: BigInt(p.lowElement.nextIndex),
    lowIndex: p.lowElementIndex,
    pathElements: p.proof.map(big),
  };
}
