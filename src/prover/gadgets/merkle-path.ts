/**
 * A Merkle path as a circuit: from a leaf up `siblings.length` levels to the root, with the path
 * index decomposed into bits (bit i = 1: the node is the right child at level i, so the parent is
 * P(sibling, node); else P(node, sibling)) — the convention of `poseidonPathRoot` in
 * src/crypto/poseidon.ts and of Light's `MerkleRootGadget` (`api.ToBinary(pathIndex, height)`).
 * Per level: one constraint picks the left child (`left = node + bit·(sibling − node)`), the right
 * child is `node + sibling − left` for free, then one Poseidon(2); plus height + 1 constraints for the
 * bits, which also bound the index below 2^height.
 */
import type { Cs } from '../r1cs.js';
import { poseidon } from './poseidon.js';

/**
 * The root the path reaches (a signal); the caller asserts it equals the public root.
 *
 * @example
 * cs.assertEqual(merkleRoot(cs, leaf, index, siblings, 'inclusion[0]'), root, 'inclusion[0].root');
 */
export function merkleRoot<S>(cs: Cs<S>, leaf: S, pathIndex: S, siblings: readonly S[], field: string): S {
  const height = siblings.length;
  const bits = cs.toBits(pathIndex, height, `${field}.pathIndex`, `expected a leaf index below 2^${height}`);
  let node = leaf;
  for (let i = 0; i < height; i++) {
    const sib = siblings[i];
    const left = cs.select(bits[i], sib, node);
    const right = cs.linear([
      [node, 1n],
      [sib, 1n],
      [left, -1n],
    ]);
    node = poseidon(cs, [left, right]);
  }
  return node;
}
