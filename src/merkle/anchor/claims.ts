/**
 * What an item claims about the chain: for each root it rests on, the tree account that must hold it
 * and the family of program that owns such trees. An asset proof claims its `root` in `tree_id`
 * (spl-account-compression); an account or new-address proof its `root` in its tree (Light); a
 * validity proof every root its public inputs use, each in its own tree. Kinds with no root
 * (asset-leaf, account-hash) claim nothing: their verdicts cannot be anchored.
 */
import { encodeBase58, base58Bytes } from '../../solana/index.js';
import { isPlainObject } from '../../assert.js';
import type { KindName } from '../kinds/index.js';
import { parseEntries, unwrap } from '../groth16/validity-response.js';
import type { ValidityOptions } from '../groth16/validity-types.js';
import type { TreeFamily } from './tree-state.js';

export interface RootClaim {
  tree: string;
  /** hex of the 32-byte root */
  root: string;
  /** the root as the item spelled it (for messages) */
  rootText: string;
  family: TreeFamily;
  /** where in the item the root is (for messages): "root", "roots[1]", … */
  field: string;
}

const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** Roots decoded lately: a batch's proofs mostly share their tree's root, decoded once. */
const decoded = new Map<string, string | null>();

/** The hex of a base58 root of 32 bytes, or null when `v` is not one. */
export function b58Hex(v: unknown): string | null {
  if (typeof v !== 'string' || v.length > 50) return null;
  const known = decoded.get(v);
  if (known !== undefined) return known;
  let hex: string | null;
  try {
    const b = base58Bytes(v);
    hex = b.length === 32 ? hexOf(b) : null;
  } catch {
    hex = null;
  }
  if (decoded.size >= 4096) decoded.clear();
  decoded.set(v, hex);
  return hex;
}

function treeOf(item: Record<string, unknown>): string | null {
  if (typeof item.merkleTree === 'string') return item.merkleTree;
  if (typeof item.tree === 'string') return item.tree;
  for (const k of ['treeContext', 'merkleContext'] as const) {
    const c = item[k];
    if (isPlainObject(c) && typeof c.tree === 'string') return c.tree;
  }
  return null;
}

/** True for kinds whose verdicts can be anchored (they rest on a root). */
export const anchorable = (kind: KindName): boolean => kind === 'asset-proof' || kind === 'account-proof' || kind === 'address-proof' || kind === 'validity-proof';

/**
 * The claims of one item, or null when it makes none that can be checked (a kind without roots, an
 * item too malformed to name its tree — its verdict is invalid already — or a v2 account proven by
 * index, whose leaf is still in the output queue rather than under a root).
 *
 * @example
 * claimsOf('asset-proof', { root, tree_id, … }); // [{ tree: tree_id, root: '…hex', family: 'spl', field: 'root' }]
 */
export function claimsOf(kind: KindName, item: unknown): RootClaim[] | null {
  if (!isPlainObject(item)) return null;
  if (kind === 'asset-proof') {
    const root = b58Hex(item.root);
    if (root === null || typeof item.tree_id !== 'string') return null;
    return [{ tree: item.tree_id, root, rootText: item.root as string, family: 'spl', field: 'root' }];
  }
  if (kind === 'account-proof' || kind === 'address-proof') {
    if (item.proveByIndex === true) return null;
    const root = b58Hex(item.root);
    const tree = treeOf(item);
    if (root === null || tree === null) return null;
    return [{ tree, root, rootText: item.root as string, family: 'light', field: 'root' }];
  }
  if (kind === 'validity-proof') {
    let entries;
    try {
      // A fixtures bundle carries the request beside the response: it tells accounts from addresses.
      const inner = isPlainObject(item.getValidityProof) ? item.getValidityProof : item;
      const opts = isPlainObject(item.request) ? { request: item.request as ValidityOptions['request'] } : {};
      entries = parseEntries(unwrap(inner), opts);
    } catch {
      return null;
    }
    const out: RootClaim[] = [];
    for (const e of [...entries.state, ...entries.addrs]) {
      if ('proveByIndex' in e && e.proveByIndex) continue;
      out.push({ tree: e.tree, root: hexOf(e.root), rootText: encodeBase58(e.root), family: 'light', field: e.field });
    }
    return out;
  }
  return null;
}
