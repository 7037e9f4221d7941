/**
 * The cluster methods of the real RPC as a one-node devnet answers them truthfully: the node's
 * identity (the devnet's authority key, which leads every slot), its epoch schedule (no warm-up,
 * mainnet's 432,000 slots), the transaction count, and the empty answers of a cluster with no
 * stake and no rewards (`getInflationReward`); the node's contact info and vote account are
 * one-node.ts.
 */
import type { DevnetChain } from '../chain/contract.js';
import { addressParam, arr, cfg, commitmentOf } from '../params/solana.js';
import { bad, badAgave } from '../params/invalid.js';
import { optionalU64, u64Param } from '../params/u64.js';
import { DevnetRpcError, type RpcHandler } from '../types.js';

export const SLOTS_PER_EPOCH = 432_000;
export const DEVNET_VERSION = '2.2.0';
export const DEVNET_FEATURE_SET = 3294202862;
/** The real RPC answers at most this many slot leaders per call. */
const MAX_SLOT_LEADERS = 5_000;

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
      const start = u64Param(p[0], 'params[0] (start slot)');
      const limit = u64Param(p[1], 'params[1] (limit)');
      if (limit > BigInt(MAX_SLOT_LEADERS)) throw badAgave(`Invalid limit; max ${MAX_SLOT_LEADERS}`);
      // Agave reads the leader schedule of each epoch the range touches and refuses one it has not
      // computed: a node knows its schedule up to the epoch after the current one
      // (leaderScheduleSlotOffset is one epoch).
      const n = Number(limit);
      const last = n === 0 ? start : start + limit - 1n;
      const known = BigInt(Math.floor(chain.slot() / SLOTS_PER_EPOCH) + 1);
      for (let epoch = start / BigInt(SLOTS_PER_EPOCH); epoch <= last / BigInt(SLOTS_PER_EPOCH); epoch++) {
        if (epoch > known) throw badAgave(`Invalid slot range: leader schedule for epoch ${epoch} is unavailable`);
      }
      return new Array<string>(n).fill(identity);
    },
    getTransactionCount: (params) => (commitmentSlot(chain, params, 'getTransactionCount'), chain.ledger().length),
    getMaxRetransmitSlot: () => chain.slot(),
    getMaxShredInsertSlot: () => chain.slot(),
    getHighestSnapshotSlot: () => {
      throw new DevnetRpcError(-32008, 'No snapshot');
    },
    getInflationReward: (params) => {
      const p = arr(params, 'getInflationReward', 1);
      if (!Array.isArray(p[0])) throw bad('params[0] must be an array of addresses');
      p[0].forEach((a, i) => addressParam(a, `params[0][${i}]`));
      const c = cfg(p[1], 'params[1]');
      const slot = BigInt(chain.slotAt(commitmentOf(c)));
      const perEpoch = BigInt(SLOTS_PER_EPOCH);
      // Agave's default is the epoch before the current one (0 in epoch 0), and it reads an epoch's
      // rewards from the first block of the next: until that block exists it answers -32004 for it.
      const epoch = optionalU64(c.epoch, 'params[1].epoch') ?? (slot / perEpoch > 0n ? slot / perEpoch - 1n : 0n);
      const boundary = (epoch + 1n) * perEpoch;
      if (boundary > slot) throw new DevnetRpcError(-32004, `Block not available for slot ${boundary}`);
      // No stake and no votes earn anything on a one-node devnet: every address has no reward.
      return p[0].map(() => null);
    },
  };
}
