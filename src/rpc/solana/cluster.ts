/**
 * The standard cluster methods: slot and block height, the epoch schedule and info, the node's identity
 * and the slot leader, the cluster's nodes, the transaction count, vote accounts and inflation rewards.
 */
import { assertAddress, assertArray, assertInt, optional } from '../../assert.js';
import type { ClientContext } from '../client/context.js';
import type { CallOptions } from '../jsonrpc.js';
import { v, type Validator } from '../validate.js';
import { commitmentConfig, toNumber, MAX_SLOT, slotV, type CommitmentParams } from './params.js';

/** The current block height. */
export async function getBlockHeight(ctx: ClientContext, params?: CommitmentParams, opts?: CallOptions): Promise<number> {
  const cfg = commitmentConfig(params);
  const r = await ctx.rpc.call({ method: 'getBlockHeight', params: cfg ? [cfg] : [], validate: v.u64 }, opts);
  return toNumber(r, 'result');
}

/** The current slot. */
export async function getSlot(ctx: ClientContext, params?: CommitmentParams, opts?: CallOptions): Promise<number> {
  const cfg = commitmentConfig(params);
  const r = await ctx.rpc.call({ method: 'getSlot', params: cfg ? [cfg] : [], validate: v.u64 }, opts);
  return toNumber(r, 'result');
}

export interface EpochSchedule {
  slotsPerEpoch: number;
  leaderScheduleSlotOffset: number;
  warmup: boolean;
  firstNormalEpoch: number;
  firstNormalSlot: number;
}

export interface EpochInfo {
  absoluteSlot: number;
  blockHeight: number;
  epoch: number;
  slotIndex: number;
  slotsInEpoch: number;
  transactionCount?: number;
}

export interface ClusterNode {
  pubkey: string;
  gossip: string | null;
  tpu: string | null;
  rpc: string | null;
  version: string | null;
}

export interface VoteAccounts {
  current: Record<string, unknown>[];
  delinquent: Record<string, unknown>[];
}

export interface InflationReward {
  epoch: number;
  effectiveSlot: number;
  amount: number;
  postBalance: number;
  commission?: number | null;
}

/** The cluster's epoch schedule. */
export async function getEpochSchedule(ctx: ClientContext, opts?: CallOptions): Promise<EpochSchedule> {
  const validate = v.object({ slotsPerEpoch: v.int, leaderScheduleSlotOffset: v.int, warmup: v.bool, firstNormalEpoch: v.int, firstNormalSlot: v.int });
  return ctx.rpc.call({ method: 'getEpochSchedule', params: [], validate }, opts);
}

/** The current epoch, slot index and block height. */
export async function getEpochInfo(ctx: ClientContext, params?: CommitmentParams, opts?: CallOptions): Promise<EpochInfo> {
  const cfg = commitmentConfig(params);
  const validate = v.object({ absoluteSlot: v.int, blockHeight: v.int, epoch: v.int, slotIndex: v.int, slotsInEpoch: v.int }, { transactionCount: v.int });
  return ctx.rpc.call({ method: 'getEpochInfo', params: cfg ? [cfg] : [], validate }, opts);
}

/** The node's identity key. */
export async function getIdentity(ctx: ClientContext, opts?: CallOptions): Promise<string> {
  return (await ctx.rpc.call({ method: 'getIdentity', params: [], validate: v.object({ identity: v.string }) }, opts)).identity;
}

/** The current slot's leader. */
export async function getSlotLeader(ctx: ClientContext, params?: CommitmentParams, opts?: CallOptions): Promise<string> {
  const cfg = commitmentConfig(params);
  return ctx.rpc.call({ method: 'getSlotLeader', params: cfg ? [cfg] : [], validate: v.string }, opts);
}

/** The nodes of the cluster. */
export async function getClusterNodes(ctx: ClientContext, opts?: CallOptions): Promise<ClusterNode[]> {
  const node = v.object(
    { pubkey: v.string },
    { gossip: v.nullable(v.string), tpu: v.nullable(v.string), rpc: v.nullable(v.string), version: v.nullable(v.string) },
  );
  const r = await ctx.rpc.call({ method: 'getClusterNodes', params: [], validate: v.array(node) }, opts);
  return r.map((n) => ({ pubkey: n.pubkey, gossip: n.gossip ?? null, tpu: n.tpu ?? null, rpc: n.rpc ?? null, version: n.version ?? null }));
}

/** Transactions processed since genesis. */
export async function getTransactionCount(ctx: ClientContext, params?: CommitmentParams, opts?: CallOptions): Promise<number> {
  const cfg = commitmentConfig(params);
  return toNumber(await ctx.rpc.call({ method: 'getTransactionCount', params: cfg ? [cfg] : [], validate: slotV }, opts), 'result');
}

/** The current and delinquent vote accounts. */
export async function getVoteAccounts(ctx: ClientContext, params?: CommitmentParams, opts?: CallOptions): Promise<VoteAccounts> {
  const cfg = commitmentConfig(params);
  return ctx.rpc.call({ method: 'getVoteAccounts', params: cfg ? [cfg] : [], validate: v.object({ current: v.array(v.anyObject), delinquent: v.array(v.anyObject) }) }, opts);
}

/** The staking reward of each address in an epoch (the last one when absent), null where none. */
export async function getInflationReward(
  ctx: ClientContext,
  addresses: string[],
  params?: CommitmentParams & { epoch?: number },
  opts?: CallOptions,
): Promise<(InflationReward | null)[]> {
  assertArray('addresses', addresses, assertAddress);
  const cfg: Record<string, unknown> = { ...commitmentConfig(params) };
  optional('params.epoch', params?.epoch, (f, x) => assertInt(f, x, 0, MAX_SLOT));
  if (params?.epoch !== undefined) cfg.epoch = params.epoch;
  const item = v.nullable(
    v.object({ epoch: v.int, effectiveSlot: v.int, amount: v.int, postBalance: v.int }, { commission: v.nullable(v.int) }),
  ) as unknown as Validator<InflationReward | null>;
  return ctx.rpc.call({ method: 'getInflationReward', params: [addresses, cfg], validate: v.array(item) }, opts);
}
