/**
 * What the compression methods share: the not-found code, page limits, the cursor/limit params, the
 * live-account lookups, and an account's Merkle proof in the indexer's v1 and v2 shapes. Every bad
 * param is a −32602 naming the field (params/indexer.ts).
 */
import { encodeBase58 } from '../../solana/index.js';
import { treeContextJson } from './json.js';
import type { AccountRecord, CompressionStore } from './store.js';
import { b58, describe, int, invalid } from '../params/indexer.js';
import { DevnetRpcError } from '../types.js';

/** The indexer's "Record Not Found". */
export const NOT_FOUND = -32000;
/** Largest page (and largest list of hashes) the indexer serves. */
export const MAX_PAGE = 1000;

export function notFound(what: string): DevnetRpcError {
  return new DevnetRpcError(NOT_FOUND, `Record Not Found: ${what}`);
}

/** An unspent account by hash text. */
export function liveByHash(store: CompressionStore, h: string): AccountRecord | undefined {
  const a = store.byHash(h);
  return a && a.closedBy === null ? a : undefined;
}

/** An unspent account by address text. */
export function liveByAddress(store: CompressionStore, a: string): AccountRecord | undefined {
  const r = store.byAddress(a);
  return r && r.closedBy === null ? r : undefined;
}

export function listParams(p: Record<string, unknown>): { limit: number; cursor: string | undefined } {
  const limit = int(p.limit, 'limit', 1, MAX_PAGE) ?? MAX_PAGE;
  const cursor = p.cursor === undefined || p.cursor === null ? undefined : p.cursor;
  if (cursor !== undefined && typeof cursor !== 'string') throw invalid('cursor', `expected a string, got ${describe(cursor)}`);
  return { limit, cursor: cursor as string | undefined };
}

/** A present, non-null param (`field` named in the −32602 otherwise). */
export function required(p: Record<string, unknown>, field: string): unknown {
  const x = p[field];
  if (x === undefined || x === null) throw invalid(field, 'is required');
  return x;
}

/** `{hash}` or `{address}` (exactly what getCompressedAccount takes): the live account, or undefined. */
export function accountByHashOrAddress(store: CompressionStore, p: Record<string, unknown>): AccountRecord | undefined {
  const hasHash = p.hash !== undefined && p.hash !== null;
  const hasAddress = p.address !== undefined && p.address !== null;
  if (!hasHash && !hasAddress) throw invalid('hash', 'give hash or address');
  let acc: AccountRecord | undefined;
  if (hasHash) acc = liveByHash(store, encodeBase58(b58(p.hash, 'hash')));
  if (hasAddress) {
    const live = liveByAddress(store, encodeBase58(b58(p.address, 'address')));
    acc = hasHash ? (acc === live ? acc : undefined) : live;
  }
  return acc;
}

/** The live account with hash `v` (field `field`), or the indexer's not-found error. */
export function proofAccount(store: CompressionStore, v: unknown, field: string): AccountRecord {
  const hash = encodeBase58(b58(v, field));
  const acc = liveByHash(store, hash);
  if (!acc) throw notFound(`no unspent compressed account with hash ${hash} (${field})`);
  return acc;
}

/** v1 proof: `{hash, leafIndex, merkleTree, proof, root, rootSeq}`, from the account's own tree. */
export function accountProofJson(store: CompressionStore, acc: AccountRecord): Record<string, unknown> {
  const t = store.stateTrees[acc.version].merkle;
  return {
    hash: acc.hashText,
    leafIndex: acc.leafIndex,
    merkleTree: acc.tree,
    proof: t.proof(acc.leafIndex).map((n) => encodeBase58(n)),
    root: encodeBase58(t.root()),
    rootSeq: t.seq,
  };
}

/**
 * v2 proof: `{hash, leafIndex, proof, root, rootSeq, proveByIndex, treeContext}`. The devnet models
 * no output queue, so `proveByIndex` is always false and the path proves the account.
 */
export function accountProofV2Json(store: CompressionStore, acc: AccountRecord): Record<string, unknown> {
  const st = store.stateTrees[acc.version];
  const t = st.merkle;
  return {
    hash: acc.hashText,
    leafIndex: acc.leafIndex,
    proof: t.proof(acc.leafIndex).map((n) => encodeBase58(n)),
    root: encodeBase58(t.root()),
    rootSeq: t.seq,
    proveByIndex: false,
    treeContext: treeContextJson(st.info),
  };
}
