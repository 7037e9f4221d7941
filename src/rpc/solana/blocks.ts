/**
 * The standard block methods: a block, its time, the slots that have one (a range or a count) and the
 * oldest one the node holds. Blocks exist from `confirmed` on.
 */
import { assertBool, assertInt, assertObject, assertOneOf, optional } from '../../assert.js';
import type { ClientContext } from '../client/context.js';
import type { CallOptions } from '../jsonrpc.js';
import type * as T from '../types.js';
import { v, type Validator } from '../validate.js';
import { toNumber, MAX_SLOT, slotV, intList } from './params.js';

export interface BlockParams {
  commitment?: 'confirmed' | 'finalized';
  transactionDetails?: 'full' | 'signatures' | 'none';
  rewards?: boolean;
  encoding?: 'json' | 'base64' | 'base58';
}

const BLOCK_COMMITMENTS = ['confirmed', 'finalized'] as const;

/** A confirmed block (v0 transactions included). */
export async function getBlock(
  ctx: ClientContext,
  slot: number,
  params?: BlockParams,
  opts?: CallOptions,
): Promise<Record<string, unknown> & { blockhash: string; previousBlockhash: string; parentSlot: T.U64 }> {
  assertInt('slot', slot, 0, MAX_SLOT);
  const cfg: Record<string, unknown> = { maxSupportedTransactionVersion: 0 };
  if (params !== undefined) {
    assertObject('params', params);
    optional('params.commitment', params.commitment, (f, x) => assertOneOf(f, x, BLOCK_COMMITMENTS));
    optional('params.transactionDetails', params.transactionDetails, (f, x) => assertOneOf(f, x, ['full', 'signatures', 'none'] as const));
    optional('params.rewards', params.rewards, assertBool);
    optional('params.encoding', params.encoding, (f, x) => assertOneOf(f, x, ['json', 'base64', 'base58'] as const));
    for (const k of ['commitment', 'transactionDetails', 'rewards', 'encoding'] as const) if (params[k] !== undefined) cfg[k] = params[k];
  }
  const validate = v.object(
    { blockhash: v.string, previousBlockhash: v.string, parentSlot: v.u64 },
    { blockHeight: v.nullable(v.u64), blockTime: v.nullable(v.int), transactions: v.array(v.anyObject), signatures: v.array(v.string) },
  ) as unknown as Validator<Record<string, unknown> & { blockhash: string; previousBlockhash: string; parentSlot: T.U64 }>;
  return ctx.rpc.call({ method: 'getBlock', params: [slot, cfg], validate }, opts);
}

/** The Unix time a block was produced, or null when the node does not know it. */
export async function getBlockTime(ctx: ClientContext, slot: number, opts?: CallOptions): Promise<number | null> {
  assertInt('slot', slot, 0, MAX_SLOT);
  return ctx.rpc.call({ method: 'getBlockTime', params: [slot], validate: v.nullable(v.int) }, opts);
}

function blockCommitment(params: { commitment?: 'confirmed' | 'finalized' } | undefined): { commitment?: string } | undefined {
  if (params === undefined) return undefined;
  assertObject('params', params);
  optional('params.commitment', params.commitment, (f, x) => assertOneOf(f, x, BLOCK_COMMITMENTS));
  return params.commitment ? { commitment: params.commitment } : undefined;
}

/** The slots with a block between `startSlot` and `endSlot` (inclusive; the newest when absent). */
export async function getBlocks(ctx: ClientContext, startSlot: number, endSlot?: number, params?: { commitment?: 'confirmed' | 'finalized' }, opts?: CallOptions): Promise<number[]> {
  assertInt('startSlot', startSlot, 0, MAX_SLOT);
  optional('endSlot', endSlot, (f, x) => assertInt(f, x, startSlot, MAX_SLOT));
  const cfg = blockCommitment(params);
  const p: unknown[] = [startSlot];
  if (endSlot !== undefined) p.push(endSlot);
  if (cfg) p.push(cfg);
  return (await ctx.rpc.call({ method: 'getBlocks', params: p, validate: intList }, opts)).map((s, i) => toNumber(s, `result[${i}]`));
}

/** Up to `limit` slots with a block from `startSlot` on. */
export async function getBlocksWithLimit(ctx: ClientContext, startSlot: number, limit: number, params?: { commitment?: 'confirmed' | 'finalized' }, opts?: CallOptions): Promise<number[]> {
  assertInt('startSlot', startSlot, 0, MAX_SLOT);
  assertInt('limit', limit, 0, 500_000);
  const cfg = blockCommitment(params);
  const r = await ctx.rpc.call({ method: 'getBlocksWithLimit', params: cfg ? [startSlot, limit, cfg] : [startSlot, limit], validate: intList }, opts);
  return r.map((s, i) => toNumber(s, `result[${i}]`));
}

/** The oldest block the node still holds. */
export async function getFirstAvailableBlock(ctx: ClientContext, opts?: CallOptions): Promise<number> {
  return toNumber(await ctx.rpc.call({ method: 'getFirstAvailableBlock', params: [], validate: slotV }, opts), 'result');
}
