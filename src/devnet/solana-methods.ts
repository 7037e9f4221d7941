/**
 * The standard Solana JSON-RPC methods the devnet serves, enough for `@solana/web3.js`'s
 * `Connection` in everyday flows (blockhash, balances, accounts, airdrop, simulate, send, confirm,
 * fetch a transaction) plus the provider's `getPriorityFeeEstimate`, computed from the compute-unit
 * prices the chain actually executed. Answers follow the real RPC's shapes (`{ context, value }`
 * where the real one has them) and its error codes (-32602 bad params, -32002 preflight failure).
 * The cluster and account methods are here; transactions are transaction-methods.ts, fees
 * priority-fee-methods.ts.
 */
import bs58 from 'bs58';
import type { DevnetChain } from './devnet-chain.js';
import { getPriorityFeeEstimate, getRecentPrioritizationFees } from './priority-fee-methods.js';
import { addressParam, arr, bad, cfg, commitmentOf, RENT_EXEMPT_EPOCH } from './solana-params.js';
import {
  getFeeForMessage,
  getSignaturesForAddress,
  getSignatureStatuses,
  getTransaction,
  sendTransaction,
  simulateTransaction,
} from './transaction-methods.js';
import type { DevnetModule, RpcHandler } from './types.js';

const SLOTS_PER_EPOCH = 432_000;

/**
 * The standard methods as a devnet module.
 *
 * @example
 * const { methods } = createSolanaMethods({ chain });
 * await methods.getSlot!([], ctx); // 42
 */
export function createSolanaMethods({ chain }: { chain: DevnetChain }): DevnetModule {
  // Account state is LiteSVM's latest: the context reports the slot that state belongs to, whatever
  // commitment was asked for (the commitment is still validated).
  const context = (c: Record<string, unknown>) => (commitmentOf(c, 'finalized'), { slot: chain.slot(), apiVersion: '2.2.0' });
  const ctxProcessed = () => ({ slot: chain.slot(), apiVersion: '2.2.0' });

  const accountJson = (address: string, c: Record<string, unknown>) => {
    const a = chain.account(address);
    if (!a) return null;
    const encoding = c.encoding ?? 'base64';
    let data: unknown;
    if (encoding === 'base64' || encoding === 'jsonParsed' || encoding === 'base64+zstd') data = [Buffer.from(a.data).toString('base64'), 'base64'];
    else if (encoding === 'base58') data = [bs58.encode(a.data), 'base58'];
    else throw bad(`encoding must be base58, base64 or jsonParsed, got ${JSON.stringify(encoding)}`);
    return { data, executable: a.executable, lamports: Number(a.lamports), owner: a.owner, rentEpoch: RENT_EXEMPT_EPOCH, space: a.space };
  };

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
      commitmentOf(cfg(arr(params, 'getLatestBlockhash', 0)[0], 'params[0]'));
      return { context: ctxProcessed(), value: chain.latestBlockhash() };
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
      return { context: context(c), value: accountJson(address, c) };
    },
    getMultipleAccounts: (params) => {
      const p = arr(params, 'getMultipleAccounts', 1);
      if (!Array.isArray(p[0])) throw bad('params[0] must be an array of addresses');
      if (p[0].length > 100) throw bad(`params[0] may hold at most 100 addresses, got ${p[0].length}`);
      const c = cfg(p[1], 'params[1]');
      return { context: context(c), value: p[0].map((a, i) => accountJson(addressParam(a, `params[0][${i}]`), c)) };
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
    sendTransaction: (params) => sendTransaction(chain, params),
    simulateTransaction: (params) => simulateTransaction(chain, params),
    getSignatureStatuses: (params) => getSignatureStatuses(chain, params),
    getTransaction: (params) => getTransaction(chain, params),
    getSignaturesForAddress: (params) => getSignaturesForAddress(chain, params),
    getRecentPrioritizationFees: (params) => getRecentPrioritizationFees(chain, params),
    getPriorityFeeEstimate: (params) => getPriorityFeeEstimate(chain, params),
  };
  return { methods };
}
