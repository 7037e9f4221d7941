/**
 * The compression module's JSON-RPC methods. The nine of the spec: `getCompressedAccount`,
 * `getCompressedAccountProof`, `getMultipleNewAddressProofs` (params: an ARRAY of addresses),
 * `getValidityProof`, `getCompressedTokenAccountsByOwner` / `ByDelegate`,
 * `getLatestCompressionSignatures`, `getCompressionSignaturesForTokenOwner` and
 * `getTransactionWithCompressionInfo`, each answering `{context: {slot}, value}` (the last one
 * `{compression_info, transaction}`), with cursors that are `null` at the end. Mounted beside them:
 * the indexer's other methods stateless.js calls (compression-queries.ts), its V2 methods
 * (compression-v2-methods.ts) and its signature lists, the spec's two among them
 * (compression-signatures.ts).
 */
import bs58 from 'bs58';
import { accountJson, confirmedTransactionJson, openedClosedJson, tokenAccountJson } from './compression-json.js';
import { accountByHashOrAddress, accountProofJson, listParams, MAX_PAGE, NOT_FOUND, proofAccount, required } from './compression-params.js';
import { addressProofJson, compressionQueries } from './compression-queries.js';
import { unspentTokenAccounts, type AccountRecord, type CompressionStore } from './compression-store.js';
import { compressionSignatureMethods } from './compression-signatures.js';
import { compressionV2Methods } from './compression-v2-methods.js';
import { newAddressIn, validityProofV1 } from './compression-validity.js';
import { arr, b58, describe, invalid, paramsObject } from './das-params.js';
import { DevnetRpcError, type Chain, type RpcHandler } from './types.js';

function tokenPage(
  chain: Chain,
  store: CompressionStore,
  p: Record<string, unknown>,
  field: 'owner' | 'delegate',
  render: (a: AccountRecord) => Record<string, unknown> = tokenAccountJson,
) {
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
    // Accounts of both trees, in the order they were opened (leaf indices alone repeat across trees).
    const all = store.accounts();
    const later = new Set(all.slice(all.indexOf(at) + 1));
    list = list.filter((a) => later.has(a));
  }
  const items = list.slice(0, limit);
  const more = list.length > limit;
  return { context: { slot: chain.slot() }, value: { items: items.map(render), cursor: more ? items[items.length - 1].hashText : null } };
}

/** The nine methods, the indexer's others and its V2 ones over `store`, answering at `chain`'s slot. */
export function compressionMethods(chain: Chain, store: CompressionStore): Record<string, RpcHandler> {
  const ctx = () => ({ slot: chain.slot() });
  const v2TokenPage = (raw: unknown, method: string, field: 'owner' | 'delegate', render: (a: AccountRecord) => Record<string, unknown>) =>
    tokenPage(chain, store, paramsObject(raw, method), field, render);
  return {
    ...compressionQueries(chain, store),
    ...compressionV2Methods(chain, store, v2TokenPage),
    ...compressionSignatureMethods(chain, store),
    getCompressedAccount(raw) {
      const acc = accountByHashOrAddress(store, paramsObject(raw, 'getCompressedAccount'));
      return { context: ctx(), value: acc ? accountJson(acc) : null };
    },
    getCompressedAccountProof(raw) {
      const p = paramsObject(raw, 'getCompressedAccountProof');
      return { context: ctx(), value: accountProofJson(store, proofAccount(store, required(p, 'hash'), 'hash')) };
    },
    getMultipleNewAddressProofs(raw) {
      if (!Array.isArray(raw)) throw invalid('params', `getMultipleNewAddressProofs takes an ARRAY of base58 addresses, got ${describe(raw)}`);
      const list = arr(raw, 'params', { max: MAX_PAGE, min: 1 });
      // The V1 method knows one address tree, the v1 one (the V2 method names a tree per address).
      const tree = store.addressTrees[1];
      const addrs = list.map((v, i) => newAddressIn(tree, v, `params[${i}]`));
      return { context: ctx(), value: addrs.map((a) => addressProofJson(tree, a)) };
    },
    getValidityProof: (raw) => validityProofV1(chain, store, raw),
    getCompressedTokenAccountsByOwner: (raw) => tokenPage(chain, store, paramsObject(raw, 'getCompressedTokenAccountsByOwner'), 'owner'),
    getCompressedTokenAccountsByDelegate: (raw) => tokenPage(chain, store, paramsObject(raw, 'getCompressedTokenAccountsByDelegate'), 'delegate'),
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
