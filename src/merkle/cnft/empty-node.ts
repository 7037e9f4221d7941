/**
 * `emptyNode`: the root of an empty subtree of a keccak256 concurrent Merkle tree. Asset proofs
 * (asset-proof.ts) complete zeroed proof nodes with it and tree accounts (tree-account.ts) start from it;
 * it lives apart so neither of those two imports the other for it.
 */
import { InputError } from '../../errors/index.js';
import { keccak256 } from '../../crypto/index.js';

// Level 0 is an empty leaf (32 zero bytes); callers get copies, never these.
const emptyNodes: Uint8Array[] = [new Uint8Array(32)];

/**
 * Root of an empty subtree of height `level` (0 = an empty leaf, 32 zero bytes):
 * `empty(i) = keccak256(empty(i−1) ‖ empty(i−1))`.
 *
 * @example
 * bs58.encode(emptyNode(10)); // 'HpMJWAzQ…' — the root of an empty depth-10 tree
 */
export function emptyNode(level: number): Uint8Array {
  if (!Number.isInteger(level) || level < 0 || level > 64) throw new InputError('level', `expected an integer 0..64, got ${String(level)}`);
  while (emptyNodes.length <= level) {
    const prev = emptyNodes[emptyNodes.length - 1]!;
    const pair = new Uint8Array(64);
    pair.set(prev, 0);
    pair.set(prev, 32);
    emptyNodes.push(keccak256(pair));
  }
  return emptyNodes[level]!.slice();
}
