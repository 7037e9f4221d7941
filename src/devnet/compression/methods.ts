/**
 * The compression module's JSON-RPC methods. The nine of the spec: `getCompressedAccount`,
 * `getCompressedAccountProof`, `getMultipleNewAddressProofs` (params: an ARRAY of addresses),
 * `getValidityProof`, `getCompressedTokenAccountsByOwner` / `ByDelegate`,
 * `getLatestCompressionSignatures`, `getCompressionSignaturesForTokenOwner` and
 * `getTransactionWithCompressionInfo`, each answering `{context: {slot}, value}` (the last one
 * `{compression_info, transaction}`), with cursors that are `null` at the end. Mounted beside them:
 * the indexer's other methods stateless.js calls (queries.ts), its V2 methods
 * (v2.ts) and its signature lists, the spec's two among them
 * (signatures.ts).
 */
import { accountJson, openedClosedJson } from './json.js';
import { accountProofJson, MAX_PAGE } from './params.js';
import { accountByKey, accountProof, addressProofJson, compressionQueries, tokenAccountsPage, transactionWithCompressionInfo } from './queries.js';
import type { CompressionStore } from './store.js';
import { compressionSignatureMethods } from './signatures.js';
import { compressionV2Methods } from './v2.js';
import { newAddressIn, validityProofV1 } from './validity.js';
import { arr, describe, invalid } from '../params/indexer.js';
import type { Chain, RpcHandler } from '../types.js';
import type { ProverWorker } from '../../prover/index.js';

/**
 * The nine methods, the indexer's others and its V2 ones over `store`, answering at `chain`'s slot;
 * `getValidityProof` and `getValidityProofV2` prove on `prover` when given (else answer with
 * stand-in proof bytes).
 */
export function compressionMethods(chain: Chain, store: CompressionStore, prover?: ProverWorker): Record<string, RpcHandler> {
  const ctx = () => ({ slot: chain.slot() });
  return {
    ...compressionQueries(chain, store),
    ...compressionV2Methods(chain, store, prover),
    ...compressionSignatureMethods(chain, store),
    getCompressedAccount: (raw) => accountByKey(chain, store, raw, 'getCompressedAccount', accountJson),
    getCompressedAccountProof: (raw) => accountProof(chain, store, raw, 'getCompressedAccountProof', accountProofJson),
    getMultipleNewAddressProofs(raw) {
      if (!Array.isArray(raw)) throw invalid('params', `getMultipleNewAddressProofs takes an ARRAY of base58 addresses, got ${describe(raw)}`);
      const list = arr(raw, 'params', { max: MAX_PAGE, min: 1 });
      // The V1 method knows one address tree, the v1 one (the V2 method names a tree per address).
      const tree = store.addressTrees[1];
      const addrs = list.map((v, i) => newAddressIn(tree, v, `params[${i}]`));
      return { context: ctx(), value: addrs.map((a) => addressProofJson(tree, a)) };
    },
    getValidityProof: (raw, rc) => validityProofV1(chain, store, raw, prover, rc?.signal),
    getCompressedTokenAccountsByOwner: (raw) => tokenAccountsPage(chain, store, raw, 'getCompressedTokenAccountsByOwner', 'owner'),
    getCompressedTokenAccountsByDelegate: (raw) => tokenAccountsPage(chain, store, raw, 'getCompressedTokenAccountsByDelegate', 'delegate'),
    getTransactionWithCompressionInfo: (raw) => transactionWithCompressionInfo(chain, store, raw, 'getTransactionWithCompressionInfo', openedClosedJson, openedClosedJson),
  };
}
