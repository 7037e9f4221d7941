/**
 * The compression indexer's V2 methods, which @lightprotocol/stateless.js 0.23 calls by default:
 * `getCompressedAccountV2`, `getCompressedAccountProofV2`, `getMultipleCompressedAccountsV2`,
 * `getMultipleCompressedAccountProofsV2`, `getCompressedAccountsByOwnerV2`,
 * `getCompressedTokenAccountsByOwnerV2` / `ByDelegateV2`, `getTransactionWithCompressionInfoV2` and
 * `getValidityProofV2`. Same params as their V1 forms; the answers carry each account's tree
 * (`merkleContext` / `treeContext`: treeType, tree, queue, cpiContext, nextTreeContext) and
 * `proveByIndex`, false throughout since the devnet models no output queue. They serve accounts of
 * both the v1 and the v2 trees, as the indexer does.
 */
import { accountV2Json, closedV2Json, confirmedTransactionJson, openedV2Json, tokenAccountV2Json } from './compression-json.js';
import { accountByHashOrAddress, accountProofV2Json, proofAccount, required } from './compression-params.js';
import { accountsByOwner, multipleAccounts, multipleProofs } from './compression-queries.js';
import type { CompressionStore } from './compression-store.js';
import { validityProofV2 } from './compression-validity.js';
import { b58, paramsObject } from './das-params.js';
import { DevnetRpcError, type Chain, type RpcHandler } from './types.js';
import { NOT_FOUND } from './compression-params.js';

/** The V2 methods over `store`, answering at `chain`'s slot; `tokenPage` is the V1 token-account page with a renderer. */
export function compressionV2Methods(
  chain: Chain,
  store: CompressionStore,
  tokenPage: (raw: unknown, method: string, field: 'owner' | 'delegate', render: typeof tokenAccountV2Json) => unknown,
): Record<string, RpcHandler> {
  const ctx = () => ({ slot: chain.slot() });
  return {
    getCompressedAccountV2(raw) {
      const acc = accountByHashOrAddress(store, paramsObject(raw, 'getCompressedAccountV2'));
      return { context: ctx(), value: acc ? accountV2Json(acc) : null };
    },
    getCompressedAccountProofV2(raw) {
      const p = paramsObject(raw, 'getCompressedAccountProofV2');
      return { context: ctx(), value: accountProofV2Json(store, proofAccount(store, required(p, 'hash'), 'hash')) };
    },
    getMultipleCompressedAccountsV2: (raw) => multipleAccounts(chain, store, raw, 'getMultipleCompressedAccountsV2', accountV2Json),
    getMultipleCompressedAccountProofsV2: (raw) => multipleProofs(chain, store, raw, 'getMultipleCompressedAccountProofsV2', accountProofV2Json),
    getCompressedAccountsByOwnerV2: (raw) => accountsByOwner(chain, store, raw, 'getCompressedAccountsByOwnerV2', accountV2Json),
    getCompressedTokenAccountsByOwnerV2: (raw) => tokenPage(raw, 'getCompressedTokenAccountsByOwnerV2', 'owner', tokenAccountV2Json),
    getCompressedTokenAccountsByDelegateV2: (raw) => tokenPage(raw, 'getCompressedTokenAccountsByDelegateV2', 'delegate', tokenAccountV2Json),
    getValidityProofV2: (raw) => validityProofV2(chain, store, raw),
    getTransactionWithCompressionInfoV2(raw) {
      const p = paramsObject(raw, 'getTransactionWithCompressionInfoV2');
      const sig = p.signature;
      b58(sig, 'signature', 64);
      const tx = chain.transaction(sig as string);
      if (!tx) throw new DevnetRpcError(NOT_FOUND, `Transaction not found: ${sig as string}`);
      const info = store.transaction(sig as string);
      return {
        compression_info: {
          closedAccounts: info ? info.closed.map(closedV2Json) : [],
          openedAccounts: info ? info.opened.map(openedV2Json) : [],
        },
        transaction: confirmedTransactionJson(tx),
      };
    },
  };
}

