/**
 * The standard Solana JSON-RPC methods the devnet serves, enough for `@solana/web3.js`'s
 * `Connection` in everyday flows (blockhash, balances, accounts, airdrop, simulate, send, confirm,
 * fetch a transaction) plus the provider's `getPriorityFeeEstimate`, computed from the compute-unit
 * prices the chain actually executed. Answers follow the real RPC's shapes (`{ context, value }`
 * where the real one has them) and its error codes (-32602 bad params, -32002 preflight failure).
 * The cluster and account methods are here; transactions are transaction.ts, fees
 * priority-fee.ts.
 */
import type { DevnetChain } from '../chain/contract.js';
import { getPriorityFeeEstimate, getRecentPrioritizationFees } from './priority-fee.js';
import { addressParam, arr, cfg, checkMinContextSlot, commitmentOf } from '../params/solana.js';
import { bad } from '../params/invalid.js';
import {
  getFeeForMessage,
  getSignaturesForAddress,
  getSignatureStatuses,
  getTransaction,
  sendTransaction,
  simulateTransaction,
} from './transaction.js';
import type { DevnetModule, RpcHandler } from '../types.js';
import { asksZstd, ensureZstd, zstdReady } from '../encoding/zstd.js';
import { accountEncodingOf, accountJson, type AccountEncodingConfig } from '../encoding/account.js';
import { createBlockHistory, getBlock, getBlocks, getBlocksWithLimit, getBlockTime } from './block.js';
import { clusterMethods, SLOTS_PER_EPOCH } from './cluster.js';
import { getProgramAccounts } from './program-accounts.js';
import { oneNodeMethods, type OneNodeEndpoints } from './one-node.js';
import { heliusV2Methods } from './helius-v2.js';
import { getTokenAccountBalance, getTokenAccountsByDelegate, getTokenAccountsByOwner, getTokenLargestAccounts, getTokenSupply } from './token.js';

/**
 * The standard methods as a devnet module.
 *
 * @example
 * const { methods } = createSolanaMethods({ chain });
 * await methods.getSlot!([], ctx); // 42
 */
export function createSolanaMethods({ chain, endpoints }: { chain: DevnetChain; endpoints?: () => OneNodeEndpoints }): DevnetModule {
  const oneNode = oneNodeMethods(chain, endpoints ?? (() => ({ rpc: null, pubsub: null })));
  // Account state is LiteSVM's latest: the context reports the slot that state belongs to, whatever
  // commitment was asked for (the commitment is still validated).
  const context = (c: Record<string, unknown>) => (commitmentOf(c, 'finalized'), { slot: chain.slot(), apiVersion: '2.2.0' });
  const ctxProcessed = () => ({ slot: chain.slot(), apiVersion: '2.2.0' });

  const mintOf = (m: string) => chain.account(m);
  const accountOrNull = (address: string, enc: AccountEncodingConfig) => {
    const a = chain.account(address);
    return a ? accountJson(a, enc, mintOf, address) : null;
  };
  const history = createBlockHistory(chain);

  const methods: Record<string, RpcHandler> = {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 3294202862 }),
    getGenesisHash: () => chain.genesisHash,
    getSlot: (params) => chain.slotAt(commitmentOf(cfg(arr(params, 'getSlot', 0)[0], 'params[0]'), 'finalized')),
    getBlockHeight: (params) => chain.slotAt(commitmentOf(cfg(arr(params, 'getBlockHeight', 0)[0], 'params[0]'), 'finalized')),
    getEpochInfo: (params) => {
      const s = chain.slotAt(commitmentOf(cfg(arr(params, 'getEpochInfo', 0)[0], 'params[0]'), 'finalized'));
      return {
        absoluteSlot: s,
        blockHeight: s,
        epoch: Math.floor(s / SLOTS_PER_EPOCH),
        slotIndex: s % SLOTS_PER_EPOCH,
        slotsInEpoch: SLOTS_PER_EPOCH,
        transactionCount: chain.ledger().length,
      };
    },
    getLatestBlockhash: (params) => {
      // The blockhash of the block the commitment sees, valid for 150 blocks above that block's
      // height, as a real node answers from its bank at that commitment: so lastValidBlockHeight is
      // exactly 150 above getBlockHeight at the same commitment (helius-sdk checks it is not more).
      const s = chain.slotAt(commitmentOf(cfg(arr(params, 'getLatestBlockhash', 0)[0], 'params[0]'), 'finalized'));
      const blockhash = history.blockhash(s);
      const lastValidBlockHeight = blockhash === null ? null : chain.lastValidBlockHeight(blockhash);
      // A chain older than this module (its history starts when the module is made): the newest.
      if (blockhash === null || lastValidBlockHeight === null) return { context: ctxProcessed(), value: chain.latestBlockhash() };
      return { context: { slot: s, apiVersion: '2.2.0' }, value: { blockhash, lastValidBlockHeight } };
    },
    isBlockhashValid: (params) => {
      const p = arr(params, 'isBlockhashValid', 1);
      if (typeof p[0] !== 'string') throw bad('params[0] must be a blockhash string');
      return { context: ctxProcessed(), value: chain.isBlockhashValid(p[0]) };
    },
    getBalance: (params) => {
      const p = arr(params, 'getBalance', 1);
      const address = addressParam(p[0], 'params[0] (address)');
      const c = cfg(p[1], 'params[1]');
      return { context: context(c), value: Number(chain.balance(address)) };
    },
    getAccountInfo: (params) => {
      const p = arr(params, 'getAccountInfo', 1);
      const address = addressParam(p[0], 'params[0] (address)');
      const c = cfg(p[1], 'params[1]');
      return { context: context(c), value: accountOrNull(address, accountEncodingOf(c, 'params[1]')) };
    },
    getMultipleAccounts: (params) => {
      const p = arr(params, 'getMultipleAccounts', 1);
      if (!Array.isArray(p[0])) throw bad('params[0] must be an array of addresses');
      if (p[0].length > 100) throw bad(`params[0] may hold at most 100 addresses, got ${p[0].length}`);
      const c = cfg(p[1], 'params[1]');
      const enc = accountEncodingOf(c, 'params[1]');
      return { context: context(c), value: p[0].map((a, i) => accountOrNull(addressParam(a, `params[0][${i}]`), enc)) };
    },
    getMinimumBalanceForRentExemption: (params) => {
      const p = arr(params, 'getMinimumBalanceForRentExemption', 1);
      if (typeof p[0] !== 'number' || !Number.isInteger(p[0]) || p[0] < 0 || p[0] > 10 * 1024 * 1024) {
        throw bad('params[0] (data length) must be an integer in 0..10485760');
      }
      return Number(chain.minimumBalanceForRentExemption(p[0]));
    },
    getFeeForMessage: (params) => getFeeForMessage(chain, params),
    requestAirdrop: (params) => {
      const p = arr(params, 'requestAirdrop', 2);
      const address = addressParam(p[0], 'params[0] (address)');
      if (typeof p[1] !== 'number' || !Number.isSafeInteger(p[1]) || p[1] <= 0) throw bad('params[1] (lamports) must be a positive integer');
      if (p[1] > 1_000_000 * 1e9) throw bad('params[1] (lamports): at most 1,000,000 SOL per airdrop');
      return chain.airdrop(address, BigInt(p[1]));
    },
    sendTransaction: (params, ctx) => sendTransaction(chain, params, ctx.dropSend),
    simulateTransaction: (params) => simulateTransaction(chain, params),
    getSignatureStatuses: (params) => getSignatureStatuses(chain, params),
    getTransaction: (params) => getTransaction(chain, params),
    getSignaturesForAddress: (params) => getSignaturesForAddress(chain, params),
    getRecentPrioritizationFees: (params) => getRecentPrioritizationFees(chain, params),
    getPriorityFeeEstimate: (params) => getPriorityFeeEstimate(chain, params),
    getProgramAccounts: (params) => getProgramAccounts(chain, params),
    getTokenAccountBalance: (params) => getTokenAccountBalance(chain, params),
    getTokenAccountsByOwner: (params) => getTokenAccountsByOwner(chain, params),
    getTokenAccountsByDelegate: (params) => getTokenAccountsByDelegate(chain, params),
    getTokenSupply: (params) => getTokenSupply(chain, params),
    getTokenLargestAccounts: (params) => getTokenLargestAccounts(chain, params),
    getBlock: (params) => getBlock(chain, history, params),
    getBlockTime: (params) => getBlockTime(chain, params),
    getBlocks: (params) => getBlocks(chain, history, params),
    getBlocksWithLimit: (params) => getBlocksWithLimit(chain, history, params),
    getFirstAvailableBlock: () => history.first(),
    minimumLedgerSlot: () => history.first(),
    ...clusterMethods(chain),
    // leader schedule, block production, supply, inflation, vote accounts, samples, nodes: one-node.ts
    ...oneNode.methods,
    // the provider's paged and filtered extensions (getProgramAccountsV2, …): helius-v2.ts
    ...heliusV2Methods(chain),
  };
  // Every standard method takes minContextSlot in its config: a node behind it refuses (-32016)
  // rather than answer from an older slot; the devnet's slot only grows, so this waits for nothing.
  for (const [name, h] of Object.entries(methods)) {
    methods[name] = (params, rctx) => {
      if (Array.isArray(params)) for (const p of params) checkMinContextSlot(chain, p);
      // base64+zstd: the wasm loads on the first request that asks for it (~0.2 s), then serves sync
      if (asksZstd(params) && !zstdReady()) return ensureZstd().then(() => h(params, rctx));
      return h(params, rctx);
    };
  }
  return {
    methods,
    close: () => {
      history.close();
      oneNode.close();
    },
  };
}
