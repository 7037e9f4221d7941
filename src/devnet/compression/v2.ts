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
import { accountV2Json, closedV2Json, openedV2Json, tokenAccountV2Json } from './json.js';
import { accountProofV2Json } from './params.js';
import { accountByKey, accountProof, accountsByOwner, multipleAccounts, multipleProofs, tokenAccountsPage, transactionWithCompressionInfo } from './queries.js';
import type { CompressionStore } from './store.js';
import { validityProofV2 } from './validity.js';
import type { Chain, RpcHandler } from '../types.js';
import type { ProverWorker } from '../../prover/index.js';

/** The V2 methods over `store`, answering at `chain`'s slot; `getValidityProofV2` proves on `prover` when given. */
export function compressionV2Methods(chain: Chain, store: CompressionStore, prover?: ProverWorker): Record<string, RpcHandler> {
  return {
    getCompressedAccountV2: (raw) => accountByKey(chain, store, raw, 'getCompressedAccountV2', accountV2Json),
    getCompressedAccountProofV2: (raw) => accountProof(chain, store, raw, 'getCompressedAccountProofV2', accountProofV2Json),
    getMultipleCompressedAccountsV2: (raw) => multipleAccounts(chain, store, raw, 'getMultipleCompressedAccountsV2', accountV2Json),
    getMultipleCompressedAccountProofsV2: (raw) => multipleProofs(chain, store, raw, 'getMultipleCompressedAccountProofsV2', accountProofV2Json),
    getCompressedAccountsByOwnerV2: (raw) => accountsByOwner(chain, store, raw, 'getCompressedAccountsByOwnerV2', accountV2Json),
    getCompressedTokenAccountsByOwnerV2: (raw) => tokenAccountsPage(chain, store, raw, 'getCompressedTokenAccountsByOwnerV2', 'owner', tokenAccountV2Json),
    getCompressedTokenAccountsByDelegateV2: (raw) => tokenAccountsPage(chain, store, raw, 'getCompressedTokenAccountsByDelegateV2', 'delegate', tokenAccountV2Json),
    getValidityProofV2: (raw, rc) => validityProofV2(chain, store, raw, prover, rc?.signal),
    getTransactionWithCompressionInfoV2: (raw) => transactionWithCompressionInfo(chain, store, raw, 'getTransactionWithCompressionInfoV2', openedV2Json, closedV2Json),
  };
}
