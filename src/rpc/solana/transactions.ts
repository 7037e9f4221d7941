/**
 * The standard methods a sender needs around a transaction — the latest blockhash, signature statuses,
 * getTransaction, simulation, the fee of a message, the priority-fee estimate — plus the /fast submission
 * (`sendTransaction` always asks for `skipPreflight: true, maxRetries: 0`: the caller rebroadcasts the same
 * bytes itself, see docs/sender.md) and the /ping warm-up on the sender host.
 */
import { assertAddress, assertArray, assertBool, assertInt, assertObject, assertOneOf, assertSignature, optional } from '../../assert.js';
import { BadResponseError, ErrorCodes, InputError } from '../../errors/index.js';
import type { ClientContext } from '../client/context.js';
import { chunk, mapLimit, wireToBase64 } from '../input.js';
import type { CallOptions } from '../jsonrpc.js';
import * as S from '../shapes.js';
import type * as T from '../types.js';
import { v } from '../validate.js';
import { COMMITMENTS, commitmentConfig, toNumber, slotV, type CommitmentParams } from './params.js';

/** getSignatureStatuses accepts at most this many signatures per call. */
export const MAX_SIGNATURES_PER_STATUS_CALL = 256;

/**
 * The latest blockhash, its last valid block height and the slot of the answer.
 *
 * @example
 * const { blockhash, lastValidBlockHeight } = await client.getLatestBlockhash({ commitment: 'confirmed' });
 */
export async function getLatestBlockhash(
  ctx: ClientContext,
  params?: CommitmentParams,
  opts?: CallOptions,
): Promise<T.LatestBlockhash> {
  const cfg = commitmentConfig(params);
  const r = await ctx.rpc.call({ method: 'getLatestBlockhash', params: cfg ? [cfg] : [], validate: S.latestBlockhash }, opts);
  return {
    blockhash: r.value.blockhash,
    lastValidBlockHeight: toNumber(r.value.lastValidBlockHeight, 'result.value.lastValidBlockHeight'),
    slot: r.context ? toNumber(r.context.slot, 'result.context.slot') : 0,
  };
}

/**
 * Statuses of many signatures, in input order (`null` = not seen). More than 256 are split into
 * several calls, sent with bounded concurrency.
 *
 * @example
 * const [st] = await client.getSignatureStatuses([sig]);
 * if (st?.err) console.log('landed and failed', st.err);
 */
export async function getSignatureStatuses(
  ctx: ClientContext,
  signatures: string[],
  config?: { searchTransactionHistory?: boolean },
  opts?: CallOptions,
): Promise<(T.SignatureStatus | null)[]> {
  assertArray('signatures', signatures, assertSignature);
  if (config !== undefined) {
    assertObject('config', config);
    optional('config.searchTransactionHistory', config.searchTransactionHistory, assertBool);
  }
  if (signatures.length === 0) return [];
  const cfg = config?.searchTransactionHistory ? { searchTransactionHistory: true } : undefined;
  const parts = await mapLimit(chunk(signatures, MAX_SIGNATURES_PER_STATUS_CALL), ctx.batchConcurrency, opts?.signal, async (sigs, _i, signal) => {
    const r = await ctx.rpc.call(
      { method: 'getSignatureStatuses', params: cfg ? [sigs, cfg] : [sigs], validate: S.signatureStatuses },
      { ...opts, signal },
    );
    if (r.value.length !== sigs.length) {
      throw new BadResponseError(
        ErrorCodes.RPC_SCHEMA,
        `getSignatureStatuses: result.value has ${r.value.length} entries for ${sigs.length} signatures`,
        { context: { method: 'getSignatureStatuses', path: 'result.value' } },
      );
    }
    return r.value;
  });
  return parts.flat();
}

export interface GetTransactionConfig {
  commitment?: T.Commitment;
  maxSupportedTransactionVersion?: number;
}

/**
 * A confirmed transaction (JSON encoding) with `meta.err` and `meta.logMessages`, or `null`.
 */
export async function getTransaction(
  ctx: ClientContext,
  signature: string,
  config?: GetTransactionConfig,
  opts?: CallOptions,
): Promise<Record<string, unknown> | null> {
  assertSignature('signature', signature);
  const cfg: Record<string, unknown> = { encoding: 'json', maxSupportedTransactionVersion: 0 };
  if (config !== undefined) {
    assertObject('config', config);
    optional('config.commitment', config.commitment, (f, x) => assertOneOf(f, x, COMMITMENTS));
    optional('config.maxSupportedTransactionVersion', config.maxSupportedTransactionVersion, (f, x) => assertInt(f, x, 0, 255));
    if (config.commitment) cfg.commitment = config.commitment;
    if (config.maxSupportedTransactionVersion !== undefined) cfg.maxSupportedTransactionVersion = config.maxSupportedTransactionVersion;
  }
  return (await ctx.rpc.call({ method: 'getTransaction', params: [signature, cfg], validate: S.transaction }, opts)) as Record<
    string,
    unknown
  > | null;
}

export interface SimulateConfig {
  sigVerify?: boolean;
  replaceRecentBlockhash?: boolean;
  commitment?: T.Commitment;
}

/**
 * Simulate a signed (or unsigned, with `sigVerify: false`) transaction: `{ err, logs, unitsConsumed }`.
 */
export async function simulateTransaction(
  ctx: ClientContext,
  wire: Uint8Array | string,
  config?: SimulateConfig,
  opts?: CallOptions,
): Promise<T.SimulationResult> {
  const b64 = wireToBase64('wire', wire);
  const cfg: Record<string, unknown> = { encoding: 'base64' };
  if (config !== undefined) {
    assertObject('config', config);
    optional('config.sigVerify', config.sigVerify, assertBool);
    optional('config.replaceRecentBlockhash', config.replaceRecentBlockhash, assertBool);
    optional('config.commitment', config.commitment, (f, x) => assertOneOf(f, x, COMMITMENTS));
    if (config.sigVerify && config.replaceRecentBlockhash) {
      throw new InputError('config.replaceRecentBlockhash', 'cannot be combined with sigVerify: true (the signatures would not match)');
    }
    for (const k of ['sigVerify', 'replaceRecentBlockhash', 'commitment'] as const) if (config[k] !== undefined) cfg[k] = config[k];
  }
  const r = await ctx.rpc.call({ method: 'simulateTransaction', params: [b64, cfg], validate: S.simulation }, opts);
  const value = r.value;
  return { ...value, err: value.err ?? null, logs: value.logs ?? null };
}

export interface PriorityFeeParams {
  transaction?: string;
  accountKeys?: string[];
  options?: {
    transactionEncoding?: 'base58' | 'base64';
    priorityLevel?: T.PriorityLevel;
    includeAllPriorityFeeLevels?: boolean;
    lookbackSlots?: number;
    recommended?: boolean;
  };
}

const PRIORITY_LEVELS = ['Min', 'Low', 'Medium', 'High', 'VeryHigh', 'UnsafeMax'] as const;

/**
 * The provider's fee estimate in µlamports per CU. Not every cluster has it: callers fall back
 * (an `RpcError` with -32601 means "method not found").
 */
export async function getPriorityFeeEstimate(
  ctx: ClientContext,
  params: PriorityFeeParams,
  opts?: CallOptions,
): Promise<T.PriorityFeeEstimate> {
  assertObject('params', params);
  optional('params.transaction', params.transaction, (f, x) => {
    if (typeof x !== 'string' || x.length === 0) throw new InputError(f, 'expected a non-empty encoded transaction');
  });
  optional('params.accountKeys', params.accountKeys, (f, x) => assertArray(f, x, assertAddress));
  if (params.transaction === undefined && params.accountKeys === undefined) {
    throw new InputError('params', 'expected "transaction" or "accountKeys"');
  }
  const o = params.options;
  if (o !== undefined) {
    assertObject('params.options', o);
    optional('params.options.transactionEncoding', o.transactionEncoding, (f, x) => assertOneOf(f, x, ['base58', 'base64'] as const));
    optional('params.options.priorityLevel', o.priorityLevel, (f, x) => assertOneOf(f, x, PRIORITY_LEVELS));
    optional('params.options.includeAllPriorityFeeLevels', o.includeAllPriorityFeeLevels, assertBool);
    optional('params.options.lookbackSlots', o.lookbackSlots, (f, x) => assertInt(f, x, 1, 150));
    optional('params.options.recommended', o.recommended, assertBool);
  }
  return ctx.rpc.call({ method: 'getPriorityFeeEstimate', params: [params], validate: S.priorityFee }, opts);
}

/**
 * Submit signed bytes through `POST {senderUrl}/fast` (add `?swqos_only=true` with `swqosOnly`).
 * Returns the signature the host echoes; that does not mean the transaction will land.
 *
 * @example
 * const sig = await client.sendTransaction(signedBytes, { swqosOnly: true }, { signal });
 */
export async function sendTransaction(
  ctx: ClientContext,
  wire: Uint8Array | string,
  config?: { swqosOnly?: boolean },
  opts?: CallOptions,
): Promise<string> {
  const b64 = wireToBase64('wire', wire);
  if (config !== undefined) {
    assertObject('config', config);
    optional('config.swqosOnly', config.swqosOnly, assertBool);
  }
  return ctx.rpc.call(
    {
      method: 'sendTransaction',
      url: `${ctx.endpoints.senderUrl}/fast`,
      query: config?.swqosOnly ? { swqos_only: 'true' } : undefined,
      auth: ctx.senderApiKey,
      params: [b64, { encoding: 'base64', skipPreflight: true, maxRetries: 0 }],
      validate: v.string,
    },
    opts,
  );
}

/**
 * Warm the sender connection: `GET {senderUrl}/ping` must answer 200 "ok". Returns the round trip
 * in ms. Not retried unless `opts.retry` says so (a ping measures, it does not insist).
 */
export async function ping(ctx: ClientContext, opts: CallOptions = {}): Promise<number> {
  const t0 = performance.now();
  const res = await ctx.transport.request({
    url: `${ctx.endpoints.senderUrl}/ping`,
    method: 'GET',
    auth: false,
    responseType: 'text',
    label: 'ping',
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    deadlineMs: opts.deadlineMs,
    deadlineAt: opts.deadlineAt,
    retry: { retries: 0, ...opts.retry },
  });
  const ms = performance.now() - t0;
  if (typeof res.body !== 'string' || res.body.trim().toLowerCase() !== 'ok') {
    throw new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `ping: expected "ok", got ${JSON.stringify(String(res.body).slice(0, 40))}`, {
      context: { method: 'ping', path: 'body' },
    });
  }
  return ms;
}

/** The fee of a compiled message (bytes or base64), or null when its blockhash is no longer valid. */
export async function getFeeForMessage(
  ctx: ClientContext,
  message: Uint8Array | string,
  params?: CommitmentParams,
  opts?: CallOptions,
): Promise<number | null> {
  const b64 = wireToBase64('message', message);
  const cfg = commitmentConfig(params);
  const r = await ctx.rpc.call({ method: 'getFeeForMessage', params: cfg ? [b64, cfg] : [b64], validate: S.withContext(v.nullable(slotV)) }, opts);
  return r.value === null ? null : toNumber(r.value, 'result.value');
}
