/**
 * The compression indexer's methods beyond the spec's nine that stateless.js calls from its
 * helpers: balances (`getCompressedBalance`, `getCompressedBalanceByOwner`,
 * `getCompressedTokenAccountBalance`, `getCompressedTokenBalancesByOwner` and its V2,
 * `getCompressedMintTokenHolders`), lists (`getMultipleCompressedAccounts`,
 * `getCompressedAccountsByOwner`, `getMultipleCompressedAccountProofs` — params an ARRAY of hashes,
 * `getMultipleNewAddressProofsV2` — an ARRAY of {address, tree}), and the indexer's own state
 * (`getIndexerHealth`, `getIndexerSlot`, answered at the top level without a context).
 *
 * Each account lookup and list takes a `render` so that the spec's methods (methods.ts)
 * and their V2 forms (v2.ts) answer the same selection, each in its own shape.
 * Pages end with a `null` cursor.
 */
import { encodeBase58, base58Bytes } from '../../solana/index.js';
import { accountJson, confirmedTransactionJson, tokenAccountJson, u64Json } from './json.js';
import { accountByHashOrAddress, accountProofJson, listParams, liveByAddress, liveByHash, MAX_PAGE, NOT_FOUND, notFound, proofAccount, required } from './params.js';
import { unspentTokenAccounts, type AccountRecord, type CompressionStore } from './store.js';
import { addressTreeIn, newAddressIn } from './validity.js';
import { arr, b58, compareBytes, describe, int, invalid, obj, paramsObject } from '../params/indexer.js';
import { fromBytes32, toBytes32 } from '../trees/merkle.js';
import { DevnetRpcError, type Chain, type RpcHandler } from '../types.js';

type Render = (a: AccountRecord) => Record<string, unknown>;

/** Photon's cap on memcmp filters per request. */
const MAX_FILTERS = 5;

interface Memcmp {
  offset: number;
  bytes: Uint8Array;
}

/** `filters: [{memcmp: {offset, bytes (base58)}}]` (at most 5) and `dataSlice: {offset, length}`, as the indexer takes them. */
function filtersIn(p: Record<string, unknown>): { memcmps: Memcmp[]; slice: { offset: number; length: number } | undefined } {
  const list = p.filters === undefined || p.filters === null ? [] : arr(p.filters, 'filters', { max: MAX_FILTERS });
  const memcmps = list.map((f, i) => {
    const o = obj(f, `filters[${i}]`);
    const m = o ? obj(o.memcmp, `filters[${i}].memcmp`) : undefined;
    if (!m) throw invalid(`filters[${i}].memcmp`, 'expected {memcmp: {offset, bytes}}: memcmp is the one filter the indexer supports');
    const offset = int(m.offset, `filters[${i}].memcmp.offset`, 0, 2 ** 31) ?? -1;
    if (offset < 0) throw invalid(`filters[${i}].memcmp.offset`, 'is required');
    if (typeof m.bytes !== 'string') throw invalid(`filters[${i}].memcmp.bytes`, `expected base58 text, got ${describe(m.bytes)}`);
    let bytes: Uint8Array;
    try {
      bytes = base58Bytes(m.bytes);
    } catch {
      throw invalid(`filters[${i}].memcmp.bytes`, `not valid base58: ${describe(m.bytes)}`);
    }
    if (bytes.length > 1024) throw invalid(`filters[${i}].memcmp.bytes`, `at most 1024 bytes, got ${bytes.length}`);
    return { offset, bytes };
  });
  const s = obj(p.dataSlice, 'dataSlice');
  let slice: { offset: number; length: number } | undefined;
  if (s) {
    const offset = int(s.offset, 'dataSlice.offset', 0, 2 ** 31);
    const length = int(s.length, 'dataSlice.length', 0, 2 ** 31);
    if (offset === undefined) throw invalid('dataSlice.offset', 'is required');
    if (length === undefined) throw invalid('dataSlice.length', 'is required');
    slice = { offset, length };
  }
  return { memcmps, slice };
}

function matches(a: AccountRecord, memcmps: Memcmp[]): boolean {
  if (memcmps.length === 0) return true;
  const d = a.data?.data;
  if (!d) return false;
  return memcmps.every(({ offset, bytes }) => offset + bytes.length <= d.length && compareBytes(d.subarray(offset, offset + bytes.length), bytes) === 0);
}

/** An account's JSON with its data cut to `slice` (the data hash still commits to all of it). */
function sliced(render: Render, a: AccountRecord, slice: { offset: number; length: number } | undefined): Record<string, unknown> {
  const j = render(a);
  if (!slice || !a.data || !j.data) return j;
  const part = a.data.data.subarray(slice.offset, slice.offset + slice.length);
  return { ...j, data: { ...(j.data as Record<string, unknown>), data: Buffer.from(part).toString('base64') } };
}

/** `getCompressedAccount`: the live account by `hash` or `address`, `null` when there is none. */
export function accountByKey(chain: Chain, store: CompressionStore, raw: unknown, method: string, render: Render) {
  const acc = accountByHashOrAddress(store, paramsObject(raw, method));
  return { context: { slot: chain.slot() }, value: acc ? render(acc) : null };
}

/** `getCompressedAccountProof`: the proof of the live account with `hash`; not found otherwise. */
export function accountProof(
  chain: Chain,
  store: CompressionStore,
  raw: unknown,
  method: string,
  render: (s: CompressionStore, a: AccountRecord) => Record<string, unknown>,
) {
  const p = paramsObject(raw, method);
  return { context: { slot: chain.slot() }, value: render(store, proofAccount(store, required(p, 'hash'), 'hash')) };
}

/**
 * `getCompressedTokenAccountsByOwner` / `ByDelegate`: live token accounts whose `field` is the given
 * address (filter by `mint`), in the order they were opened; cursor = the last account's hash.
 */
export function tokenAccountsPage(chain: Chain, store: CompressionStore, raw: unknown, method: string, field: 'owner' | 'delegate', render: Render = tokenAccountJson) {
  const p = paramsObject(raw, method);
  const who = encodeBase58(b58(p[field], field));
  const mint = p.mint === undefined || p.mint === null ? undefined : encodeBase58(b58(p.mint, 'mint'));
  const { limit, cursor } = listParams(p);
  let list = unspentTokenAccounts(store, (t) => {
    const k = field === 'owner' ? encodeBase58(t.owner) : t.delegate ? encodeBase58(t.delegate) : '';
    return k === who && (!mint || encodeBase58(t.mint) === mint);
  });
  if (cursor !== undefined) {
    b58(cursor, 'cursor');
    const at = store.byHash(cursor);
    if (!at) throw invalid('cursor', 'unknown cursor (pass the cursor of the previous page)');
    // Accounts of both trees, in the order they were opened (leaf indices alone repeat across trees).
    const all = store.accounts();
    const later = new Set(all.slice(all.indexOf(at) + 1));
    list = list.filter((a) => later.has(a));
  }
  const items = list.slice(0, limit);
  const more = list.length > limit;
  return { context: { slot: chain.slot() }, value: { items: items.map(render), cursor: more ? items[items.length - 1].hashText : null } };
}

/**
 * `getTransactionWithCompressionInfo`: the executed transaction and the accounts it opened and
 * closed, at the top level (no context), each list rendered in the method's shape.
 */
export function transactionWithCompressionInfo(chain: Chain, store: CompressionStore, raw: unknown, method: string, opened: Render, closed: Render) {
  const p = paramsObject(raw, method);
  const sig = p.signature;
  b58(sig, 'signature', 64);
  const tx = chain.transaction(sig as string);
  if (!tx) throw new DevnetRpcError(NOT_FOUND, `Transaction not found: ${sig as string}`);
  const info = store.transaction(sig as string);
  return {
    compression_info: {
      closedAccounts: info ? info.closed.map(closed) : [],
      openedAccounts: info ? info.opened.map(opened) : [],
    },
    transaction: confirmedTransactionJson(tx),
  };
}

/** `getCompressedAccountsByOwner`: live accounts of `owner`, ordered by hash (bytes), cursor = last hash. */
export function accountsByOwner(chain: Chain, store: CompressionStore, raw: unknown, method: string, render: Render) {
  const p = paramsObject(raw, method);
  const owner = encodeBase58(b58(required(p, 'owner'), 'owner'));
  const { memcmps, slice } = filtersIn(p);
  const { limit, cursor } = listParams(p);
  const after = cursor === undefined ? undefined : b58(cursor, 'cursor');
  const list = store
    .accounts()
    .filter((a) => a.closedBy === null && encodeBase58(a.owner) === owner && matches(a, memcmps))
    .filter((a) => after === undefined || compareBytes(a.hash, after) > 0)
    .sort((x, y) => compareBytes(x.hash, y.hash));
  const items = list.slice(0, limit);
  const more = list.length > limit;
  return {
    context: { slot: chain.slot() },
    value: { items: items.map((a) => sliced(render, a, slice)), cursor: more ? items[items.length - 1].hashText : null },
  };
}

/** `getMultipleCompressedAccounts`: `{hashes}` or `{addresses}` (one of them), an item per key, `null` where unknown. */
export function multipleAccounts(chain: Chain, store: CompressionStore, raw: unknown, method: string, render: Render) {
  const p = paramsObject(raw, method);
  const hasHashes = p.hashes !== undefined && p.hashes !== null;
  const hasAddresses = p.addresses !== undefined && p.addresses !== null;
  if (hasHashes === hasAddresses) throw invalid('hashes', 'give hashes or addresses (exactly one of them)');
  const field = hasHashes ? 'hashes' : 'addresses';
  const keys = arr(p[field], field, { max: MAX_PAGE });
  const items = keys.map((k, i) => {
    const t = encodeBase58(b58(k, `${field}[${i}]`));
    const a = hasHashes ? liveByHash(store, t) : liveByAddress(store, t);
    return a ? render(a) : null;
  });
  return { context: { slot: chain.slot() }, value: { items } };
}

/** `getMultipleCompressedAccountProofs`: params an ARRAY of hashes; every one must be a live account. */
export function multipleProofs(
  chain: Chain,
  store: CompressionStore,
  raw: unknown,
  method: string,
  render: (s: CompressionStore, a: AccountRecord) => Record<string, unknown>,
) {
  if (!Array.isArray(raw)) throw invalid('params', `${method} takes an ARRAY of base58 hashes, got ${describe(raw)}`);
  const list = arr(raw, 'params', { min: 1, max: MAX_PAGE });
  return { context: { slot: chain.slot() }, value: list.map((h, i) => render(store, proofAccount(store, h, `params[${i}]`))) };
}

/** Live token accounts of `owner`, summed per mint, in mint byte order. */
function balancesByMint(store: CompressionStore, owner: string, mint: string | undefined): { mint: Uint8Array; balance: bigint }[] {
  const sums = new Map<string, { mint: Uint8Array; balance: bigint }>();
  for (const a of store.accounts()) {
    if (a.closedBy !== null || !a.token || encodeBase58(a.token.owner) !== owner) continue;
    const m = encodeBase58(a.token.mint);
    if (mint !== undefined && m !== mint) continue;
    const s = sums.get(m) ?? { mint: a.token.mint, balance: 0n };
    s.balance += a.token.amount;
    sums.set(m, s);
  }
  return [...sums.values()].sort((x, y) => compareBytes(x.mint, y.mint));
}

/** `getCompressedTokenBalancesByOwner` (items under `tokenBalances`) and its V2 (under `items`); cursor = last mint. */
function tokenBalancesByOwner(chain: Chain, store: CompressionStore, raw: unknown, method: string, key: 'tokenBalances' | 'items') {
  const p = paramsObject(raw, method);
  const owner = encodeBase58(b58(required(p, 'owner'), 'owner'));
  const mint = p.mint === undefined || p.mint === null ? undefined : encodeBase58(b58(p.mint, 'mint'));
  const { limit, cursor } = listParams(p);
  const after = cursor === undefined ? undefined : b58(cursor, 'cursor');
  const list = balancesByMint(store, owner, mint).filter((b) => after === undefined || compareBytes(b.mint, after) > 0);
  const items = list.slice(0, limit);
  const more = list.length > limit;
  return {
    context: { slot: chain.slot() },
    value: {
      [key]: items.map((b) => ({ mint: encodeBase58(b.mint), balance: u64Json(b.balance) })),
      cursor: more ? encodeBase58(items[items.length - 1].mint) : null,
    },
  };
}

/** The holders' page cursor, as the indexer makes it: base58 of balance (u64 LE) ‖ owner. */
function holderCursor(balance: bigint, owner: Uint8Array): string {
  const b = new Uint8Array(40);
  new DataView(b.buffer).setBigUint64(0, balance, true);
  b.set(owner, 8);
  return encodeBase58(b);
}

/** `getCompressedMintTokenHolders`: owners of `mint` by balance, largest first (ties by owner bytes). */
function mintTokenHolders(chain: Chain, store: CompressionStore, raw: unknown) {
  const p = paramsObject(raw, 'getCompressedMintTokenHolders');
  const mint = encodeBase58(b58(required(p, 'mint'), 'mint'));
  const { limit, cursor } = listParams(p);
  const sums = new Map<string, { owner: Uint8Array; balance: bigint }>();
  for (const a of store.accounts()) {
    if (a.closedBy !== null || !a.token || encodeBase58(a.token.mint) !== mint) continue;
    const o = encodeBase58(a.token.owner);
    const s = sums.get(o) ?? { owner: a.token.owner, balance: 0n };
    s.balance += a.token.amount;
    sums.set(o, s);
  }
  const order = (x: { owner: Uint8Array; balance: bigint }, y: { owner: Uint8Array; balance: bigint }) =>
    (x.balance !== y.balance ? (x.balance > y.balance ? -1 : 1) : compareBytes(x.owner, y.owner));
  let list = [...sums.values()].sort(order);
  if (cursor !== undefined) {
    const c = b58(cursor, 'cursor', 40);
    const at = { balance: new DataView(c.buffer, c.byteOffset, 8).getBigUint64(0, true), owner: c.subarray(8) };
    list = list.filter((h) => order(h, at) > 0);
  }
  const items = list.slice(0, limit);
  const more = list.length > limit;
  const last = items[items.length - 1];
  return {
    context: { slot: chain.slot() },
    value: {
      items: items.map((h) => ({ owner: encodeBase58(h.owner), balance: u64Json(h.balance) })),
      cursor: more ? holderCursor(last.balance, last.owner) : null,
    },
  };
}

/** `getMultipleNewAddressProofsV2`: params an ARRAY of {address, tree}, each tree one of the devnet's address trees. */
function newAddressProofsV2(chain: Chain, store: CompressionStore, raw: unknown) {
  if (!Array.isArray(raw)) throw invalid('params', `getMultipleNewAddressProofsV2 takes an ARRAY of {address, tree}, got ${describe(raw)}`);
  const list = arr(raw, 'params', { min: 1, max: MAX_PAGE });
  const value = list.map((x, i) => {
    const o = obj(x, `params[${i}]`);
    if (!o) throw invalid(`params[${i}]`, 'expected {address, tree}');
    const tree = addressTreeIn(store, o.tree, `params[${i}].tree`);
    return addressProofJson(tree, newAddressIn(tree, o.address, `params[${i}].address`));
  });
  return { context: { slot: chain.slot() }, value };
}

/** A new-address (non-inclusion) proof in the indexer's shape, from `tree`. */
export function addressProofJson(tree: CompressionStore['addressTrees'][1], a: Uint8Array): Record<string, unknown> {
  const np = tree.merkle.nonInclusionProof(fromBytes32(a));
  return {
    address: encodeBase58(a),
    higherRangeAddress: encodeBase58(toBytes32(np.lowElement.nextValue)),
    lowElementLeafIndex: np.lowElementIndex,
    lowerRangeAddress: encodeBase58(toBytes32(np.lowElement.value)),
    merkleTree: tree.info.tree,
    nextIndex: np.lowElement.nextIndex,
    proof: np.proof.map((n) => encodeBase58(n)),
    root: encodeBase58(np.root),
    rootSeq: np.rootSeq,
  };
}

/** The methods above, by name. */
export function compressionQueries(chain: Chain, store: CompressionStore): Record<string, RpcHandler> {
  const ctx = () => ({ slot: chain.slot() });
  return {
    getCompressedBalance(raw) {
      const acc = accountByHashOrAddress(store, paramsObject(raw, 'getCompressedBalance'));
      if (!acc) throw notFound('no unspent compressed account with that hash or address');
      return { context: ctx(), value: u64Json(acc.lamports) };
    },
    getCompressedTokenAccountBalance(raw) {
      const p = paramsObject(raw, 'getCompressedTokenAccountBalance');
      const acc = proofAccount(store, required(p, 'hash'), 'hash');
      if (!acc.token) throw notFound(`account ${acc.hashText} is not a compressed token account`);
      return { context: ctx(), value: { amount: u64Json(acc.token.amount) } };
    },
    getCompressedBalanceByOwner(raw) {
      const p = paramsObject(raw, 'getCompressedBalanceByOwner');
      const owner = encodeBase58(b58(required(p, 'owner'), 'owner'));
      let sum = 0n;
      for (const a of store.accounts()) if (a.closedBy === null && encodeBase58(a.owner) === owner) sum += a.lamports;
      return { context: ctx(), value: u64Json(sum) };
    },
    getCompressedTokenBalancesByOwner: (raw) => tokenBalancesByOwner(chain, store, raw, 'getCompressedTokenBalancesByOwner', 'tokenBalances'),
    getCompressedTokenBalancesByOwnerV2: (raw) => tokenBalancesByOwner(chain, store, raw, 'getCompressedTokenBalancesByOwnerV2', 'items'),
    getCompressedMintTokenHolders: (raw) => mintTokenHolders(chain, store, raw),
    getMultipleCompressedAccounts: (raw) => multipleAccounts(chain, store, raw, 'getMultipleCompressedAccounts', accountJson),
    getCompressedAccountsByOwner: (raw) => accountsByOwner(chain, store, raw, 'getCompressedAccountsByOwner', accountJson),
    getMultipleCompressedAccountProofs: (raw) => multipleProofs(chain, store, raw, 'getMultipleCompressedAccountProofs', accountProofJson),
    getMultipleNewAddressProofsV2: (raw) => newAddressProofsV2(chain, store, raw),
    // The devnet indexes as it executes: it is always healthy and at the chain's slot.
    getIndexerHealth: () => 'ok',
    getIndexerSlot: () => chain.slot(),
  };
}
