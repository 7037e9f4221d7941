/**
 * The compression module's JSON-RPC methods, the nine of the spec: `getCompressedAccount`,
 * `getCompressedAccountProof`, `getMultipleNewAddressProofs` (params: an ARRAY of addresses),
 * `getValidityProof`, `getCompressedTokenAccountsByOwner` / `ByDelegate`,
 * `getLatestCompressionSignatures`, `getCompressionSignaturesForTokenOwner` and
 * `getTransactionWithCompressionInfo`, each answering `{context: {slot}, value}` (the last one
 * `{compression_info, transaction}`), with cursors that are `null` at the end.
 */
import bs58 from 'bs58';
import { checkAddressValue } from './compression-inputs.js';
import { accountJson, confirmedTransactionJson, openedClosedJson, tokenAccountJson } from './compression-json.js';
import { ADDRESS_TREE_V1, ROOT_HISTORY, STATE_TREE_V1, unspentTokenAccounts, type AccountRecord, type CompressionStore } from './compression-store.js';
import { arr, b58, describe, int, invalid, obj, paramsObject } from './das-params.js';
import { fakeCompressedProofJson } from './fake-proof.js';
import { fromBytes32, toBytes32 } from './merkle-tree.js';
import { DevnetRpcError, type Chain, type RpcHandler } from './types.js';

const NOT_FOUND = -32000;
const MAX_PAGE = 1000;
/** v1 circuits: inclusion of 1, 2, 3, 4 or 8 accounts; non-inclusion of 1 or 2 addresses; combined ≤ 4 + ≤ 2. */
const INCLUSION_SIZES = [1, 2, 3, 4, 8];
const MAX_NEW_ADDRESSES = 2;

function liveByHash(store: CompressionStore, h: string): AccountRecord | undefined {
  const a = store.byHash(h);
  return a && a.closedBy === null ? a : undefined;
}

function listParams(p: Record<string, unknown>) {
  const limit = int(p.limit, 'limit', 1, MAX_PAGE) ?? MAX_PAGE;
  const cursor = p.cursor === undefined || p.cursor === null ? undefined : p.cursor;
  if (cursor !== undefined && typeof cursor !== 'string') throw invalid('cursor', `expected a string, got ${describe(cursor)}`);
  return { limit, cursor: cursor as string | undefined };
}

function tokenPage(chain: Chain, store: CompressionStore, p: Record<string, unknown>, field: 'owner' | 'delegate') {
  const who = bs58.encode(b58(p[field], field));
  const mint = p.mint === undefined || p.mint === null ? undefined : bs58.encode(b58(p.mint, 'mint'));
  const { limit, cursor } = listParams(p);
  let list = unspentTokenAccounts(store, (t) => {
    const k = field === 'owner' ? bs58.encode(t.owner) : t.delegate ? bs58.encode(t.delegate) : '';
    return k === who && (!mint || bs58.encode(t.mint) === mint);
  });
  if (cursor !== undefined) {
    b58(cursor, 'cursor');
    const at = store.byHash(cursor);
    if (!at) throw invalid('cursor', 'unknown cursor (pass the cursor of the previous page)');
    list = list.filter((a) => a.leafIndex > at.leafIndex);
  }
  const items = list.slice(0, limit);
  const more = list.length > limit;
  return { context: { slot: chain.slot() }, value: { items: items.map(tokenAccountJson), cursor: more ? items[items.length - 1].hashText : null } };
}

function signaturePage(chain: Chain, store: CompressionStore, p: Record<string, unknown>, filter: (t: { tokenOwners: Set<string> }) => boolean) {
  const { limit, cursor } = listParams(p);
  let list = store.transactions().filter(filter);
  let end = list.length;
  if (cursor !== undefined) {
    const at = store.transaction(cursor);
    if (!at) throw invalid('cursor', 'unknown cursor (pass the cursor of the previous page)');
    end = list.findIndex((t) => t.order >= at.order);
    if (end < 0) end = list.length;
  }
  // Newest first.
  list = list.slice(0, end).reverse();
  const items = list.slice(0, limit);
  const more = list.length > limit;
  return {
    context: { slot: chain.slot() },
    value: { items: items.map((t) => ({ blockTime: t.blockTime, signature: t.signature, slot: t.slot })), cursor: more ? items[items.length - 1].signature : null },
  };
}

function addressProof(store: CompressionStore, a: Uint8Array): Record<string, unknown> {
  const np = store.addressTree.nonInclusionProof(fromBytes32(a));
  return {
    address: bs58.encode(a),
    higherRangeAddress: bs58.encode(toBytes32(np.lowElement.nextValue)),
    lowElementLeafIndex: np.lowElementIndex,
    lowerRangeAddress: bs58.encode(toBytes32(np.lowElement.value)),
    merkleTree: ADDRESS_TREE_V1,
    nextIndex: np.lowElement.nextIndex,
    proof: np.proof.map((n) => bs58.encode(n)),
    root: bs58.encode(np.root),
    rootSeq: np.rootSeq,
  };
}

function newAddressIn(store: CompressionStore, v: unknown, field: string): Uint8Array {
  const a = b58(v, field);
  checkAddressValue(a, field);
  if (store.addressTree.has(fromBytes32(a))) throw invalid(field, `address ${v as string} already exists`);
  return a;
}

/** `getValidityProof`: roots, indices and a well-formed (non-verifying) proof for accounts and new addresses. */
function validityProof(chain: Chain, store: CompressionStore, raw: unknown) {
  const p = paramsObject(raw, 'getValidityProof');
  const hashes = p.hashes === undefined || p.hashes === null ? [] : arr(p.hashes, 'hashes', { max: 8 });
  let news: unknown[] = [];
  let newField = 'newAddressesWithTrees';
  if (p.newAddressesWithTrees !== undefined && p.newAddressesWithTrees !== null) news = arr(p.newAddressesWithTrees, 'newAddressesWithTrees', { max: MAX_NEW_ADDRESSES });
  else if (p.newAddresses !== undefined && p.newAddresses !== null) {
    newField = 'newAddresses';
    news = arr(p.newAddresses, 'newAddresses', { max: MAX_NEW_ADDRESSES });
  }
  if (hashes.length === 0 && news.length === 0) throw invalid('hashes', 'give at least one account hash or one new address');
  if (hashes.length > 0 && !INCLUSION_SIZES.includes(hashes.length)) throw invalid('hashes', `the v1 circuits prove 1, 2, 3, 4 or 8 accounts, got ${hashes.length}`);
  if (hashes.length > 4 && news.length > 0) throw invalid('hashes', `a combined proof covers at most 4 accounts, got ${hashes.length}`);
  const seen = new Set<string>();
  const accounts = hashes.map((h, i) => {
    const t = bs58.encode(b58(h, `hashes[${i}]`));
    if (seen.has(t)) throw invalid(`hashes[${i}]`, `duplicate hash ${t}`);
    seen.add(t);
    const a = liveByHash(store, t);
    if (!a) throw new DevnetRpcError(NOT_FOUND, `Record Not Found: no unspent compressed account with hash ${t} (hashes[${i}])`);
    return a;
  });
  const seenAddr = new Set<string>();
  const addrs = news.map((n, i) => {
    const a = pickAddress(n, i);
    const t = bs58.encode(a);
    if (seenAddr.has(t)) throw invalid(`${newField}[${i}]`, `duplicate address ${t}`);
    seenAddr.add(t);
    return a;
  });
  function pickAddress(n: unknown, i: number): Uint8Array {
    if (newField === 'newAddresses') return newAddressIn(store, n, `newAddresses[${i}]`);
    const o = obj(n, `newAddressesWithTrees[${i}]`);
    if (!o) throw invalid(`newAddressesWithTrees[${i}]`, 'expected {address, tree}');
    const a = newAddressIn(store, o.address, `newAddressesWithTrees[${i}].address`);
    const tree = bs58.encode(b58(o.tree, `newAddressesWithTrees[${i}].tree`));
    if (tree !== ADDRESS_TREE_V1) throw invalid(`newAddressesWithTrees[${i}].tree`, `unknown address tree ${tree}; the devnet's is ${ADDRESS_TREE_V1}`);
    return a;
  }
  const st = store.stateTree;
  const stateRoot = st.root();
  const roots: string[] = [];
  const rootIndices: number[] = [];
  const leafIndices: number[] = [];
  const leaves: string[] = [];
  const merkleTrees: string[] = [];
  const publicInputs: Uint8Array[] = [];
  for (const a of accounts) {
    roots.push(bs58.encode(stateRoot));
    rootIndices.push(st.seq % ROOT_HISTORY);
    leafIndices.push(a.leafIndex);
    leaves.push(a.hashText);
    merkleTrees.push(STATE_TREE_V1);
  }
  publicInputs.push(...accounts.map(() => stateRoot), ...accounts.map((a) => a.hash));
  for (const a of addrs) {
    const np = store.addressTree.nonInclusionProof(fromBytes32(a));
    roots.push(bs58.encode(np.root));
    rootIndices.push(np.rootSeq % ROOT_HISTORY);
    leafIndices.push(np.lowElementIndex);
    leaves.push(bs58.encode(a));
    merkleTrees.push(ADDRESS_TREE_V1);
    publicInputs.push(np.root);
  }
  publicInputs.push(...addrs);
  // Seeded by the public inputs: the same request gets the same (well-formed, non-verifying) proof.
  const seed = new Uint8Array(publicInputs.length * 32);
  publicInputs.forEach((x, i) => seed.set(x, i * 32));
  return {
    context: { slot: chain.slot() },
    value: {
      compressedProof: fakeCompressedProofJson(seed),
      roots,
      rootIndices,
      leafIndices,
      leaves,
      merkleTrees,
    },
  };
}

/** The nine methods over `store`, answering at `chain`'s slot. */
export function compressionMethods(chain: Chain, store: CompressionStore): Record<string, RpcHandler> {
  const ctx = () => ({ slot: chain.slot() });
  return {
    getCompressedAccount(raw) {
      const p = paramsObject(raw, 'getCompressedAccount');
      const hasHash = p.hash !== undefined && p.hash !== null;
      const hasAddress = p.address !== undefined && p.address !== null;
      if (!hasHash && !hasAddress) throw invalid('hash', 'give hash or address');
      let acc: AccountRecord | undefined;
      if (hasHash) acc = liveByHash(store, bs58.encode(b58(p.hash, 'hash')));
      if (hasAddress) {
        const byAddr = store.byAddress(bs58.encode(b58(p.address, 'address')));
        const live = byAddr && byAddr.closedBy === null ? byAddr : undefined;
        acc = hasHash ? (acc === live ? acc : undefined) : live;
      }
      return { context: ctx(), value: acc ? accountJson(acc) : null };
    },
    getCompressedAccountProof(raw) {
      const p = paramsObject(raw, 'getCompressedAccountProof');
      const hash = bs58.encode(b58(p.hash, 'hash'));
      const acc = liveByHash(store, hash);
      if (!acc) throw new DevnetRpcError(NOT_FOUND, `Record Not Found: no unspent compressed account with hash ${hash}`);
      const t = store.stateTree;
      return {
        context: ctx(),
        value: {
          hash,
          leafIndex: acc.leafIndex,
          merkleTree: STATE_TREE_V1,
          proof: t.proof(acc.leafIndex).map((n) => bs58.encode(n)),
          root: bs58.encode(t.root()),
          rootSeq: t.seq,
        },
      };
    },
    getMultipleNewAddressProofs(raw) {
      if (!Array.isArray(raw)) throw invalid('params', `getMultipleNewAddressProofs takes an ARRAY of base58 addresses, got ${describe(raw)}`);
      const list = arr(raw, 'params', { max: MAX_PAGE, min: 1 });
      const addrs = list.map((v, i) => newAddressIn(store, v, `params[${i}]`));
      return { context: ctx(), value: addrs.map((a) => addressProof(store, a)) };
    },
    getValidityProof: (raw) => validityProof(chain, store, raw),
    getCompressedTokenAccountsByOwner: (raw) => tokenPage(chain, store, paramsObject(raw, 'getCompressedTokenAccountsByOwner'), 'owner'),
    getCompressedTokenAccountsByDelegate: (raw) => tokenPage(chain, store, paramsObject(raw, 'getCompressedTokenAccountsByDelegate'), 'delegate'),
    getLatestCompressionSignatures: (raw) => signaturePage(chain, store, paramsObject(raw, 'getLatestCompressionSignatures'), () => true),
    getCompressionSignaturesForTokenOwner(raw) {
      const p = paramsObject(raw, 'getCompressionSignaturesForTokenOwner');
      const owner = bs58.encode(b58(p.owner, 'owner'));
      return signaturePage(chain, store, p, (t) => t.tokenOwners.has(owner));
    },
    getTransactionWithCompressionInfo(raw) {
      const p = paramsObject(raw, 'getTransactionWithCompressionInfo');
      const sig = p.signature;
      b58(sig, 'signature', 64);
      const tx = chain.transaction(sig as string);
      if (!tx) throw new DevnetRpcError(NOT_FOUND, `Transaction not found: ${sig as string}`);
      const info = store.transaction(sig as string);
      return {
        compression_info: {
          closedAccounts: info ? info.closed.map(openedClosedJson) : [],
          openedAccounts: info ? info.opened.map(openedClosedJson) : [],
        },
        transaction: confirmedTransactionJson(tx),
      };
    },
  };
}
