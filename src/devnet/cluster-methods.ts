/**
 * The cluster methods of the real RPC as a one-node devnet answers them truthfully: the node's
 * identity (the devnet's authority key, which leads every slot), its epoch schedule (no warm-up,
 * mainnet's 432,000 slots), the transaction count, and the empty answers of a cluster with no
 * votes, no stake and no rewards (`getVoteAccounts`, `getInflationReward`).
 */
import type { DevnetChain } from './devnet-chain.js';
import { addressParam, arr, bad, cfg, commitmentOf } from './solana-params.js';
import { DevnetRpcError, type RpcHandler } from './types.js';

export const SLOTS_PER_EPOCH = 432_000;
export const DEVNET_VERSION = '2.2.0';
export const DEVNET_FEATURE_SET = 3294202862;
/** The real RPC answers at most this many slot leaders per call. */
export const MAX_SLOT_LEADERS = 5_000;

const commitmentSlot = (chain: DevnetChain, params: unknown, method: string) =>
  chain.slotAt(commitmentOf(cfg(arr(params, method, 0)[0], 'params[0]'), 'finalized'));

export function clusterMethods(chain: DevnetChain): Record<string, RpcHandler> {
  const identity = chain.authority.address;
  return {
    getEpochSchedule: () => ({
      slotsPerEpoch: SLOTS_PER_EPOCH,
      leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
      warmup: false,
      firstNormalEpoch: 0,
      firstNormalSlot: 0,
    }),
    getIdentity: () => ({ identity }),
    getSlotLeader: (params) => (commitmentSlot(chain, params, 'getSlotLeader'), identity),
    getSlotLeaders: (params) => {
      const p = arr(params, 'getSlotLeaders', 2);
      if (typeof p[0] !== 'number' || !Number.isSafeInteger(p[0]) || p[0] < 0) throw bad('params[0] (start slot) must be an integer ≥ 0');
      if (typeof p[1] !== 'number' || !Number.isSafeInteger(p[1]) || p[1] < 1 || p[1] > MAX_SLOT_LEADERS) {
        throw bad(`params[1] (limit) must be an integer in 1..${MAX_SLOT_LEADERS}`);
      }
      return new Array<string>(p[1]).fill(identity);
    },
    getClusterNodes: () => [
      {
        pubkey: identity,
        gossip: null,
        tpu: null,
        tpuQuic: null,
        rpc: null,
        pubsub: null,
        version: DEVNET_VERSION,
        featureSet: DEVNET_FEATURE_SET,
        shredVersion: 0,
      },
    ],
    getTransactionCount: (params) => (commitmentSlot(chain, params, 'getTransactionCount'), chain.ledger().length),
    getMaxRetransmitSlot: () => chain.slot(),
    getMaxShredInsertSlot: () => chain.slot(),
    getHighestSnapshotSlot: () => {
      throw new DevnetRpcError(-32008, 'No snapshot');
    },
    getVoteAccounts: (params) => {
      commitmentOf(cfg(arr(params, 'getVoteAccounts', 0)[0], 'params[0]'));
      return { current: [], delinquent: [] };
    },
    getInflationReward: (params) => {
      const p = arr(params, 'getInflationReward', 1);
      if (!Array.isArray(p[0])) throw bad('params[0] must be an array of addresses');
      p[0].forEach((a, i) => addressParam(a, `params[0][${i}]`));
      commitmentOf(cfg(p[1], 'params[1]'));
      // No stake and no votes: nothing is ever rewarded on the devnet.
      return p[0].map(() => null);
    },
  };
}
