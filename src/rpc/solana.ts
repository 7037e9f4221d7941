/**
 * The standard Solana JSON-RPC methods a sender needs (on the JSON-RPC host), plus the /fast
 * submission and /ping warm-up on the sender host. Standard methods take array params and most
 * answer `{context, value}`: these helpers unwrap `value` (and keep `context.slot` where the sender
 * needs it). `sendTransaction` always asks for `skipPreflight: true, maxRetries: 0`: the caller
 * rebroadcasts the same bytes itself (see docs/sender.md).
 */
import { assertAddress, assertArray, assertBool, assertInt, assertObject, assertOneOf, assertSignature, optional } from '../assert.js';
import { BadResponseError, ErrorCodes, InputError } from '../errors.js';
import type { ClientContext } from './context.js';
import { chunk, mapLimit, wireToBase64 } from './input.js';
import type { CallOptions } from './jsonrpc.js';
import * as S from './shapes.js';
import type * as T from './types.js';
import { v, type Validator } from './validate.js';

const COMMITMENTS = ['processed', 'confirmed', 'finalized'] as const;
/** getSignatureStatuses accepts at most this many signatures per call. */
export const MAX_SIGNATURES_PER_STATUS_CALL = 256;

export interface CommitmentParams {
  commitment?: T.Commitment;
}

function commitmentConfig(p: CommitmentParams | undefined, field = 'params'): { commitment?: T.Commitment } | undefined {
  if (p === undefined) return undefined;
  assertObject(field, p);
  const c = p.commitment;
  optional(`${field}.commitment`, c, (f, x) => assertOneOf(f, x, COMMITMENTS));
  return c ? { commitment: c as T.Commitment } : undefined;
}

function toNumber(x: T.U64, what: string): number {
  if (typeof x === 'number') return x;
  throw new BadResponseError(ErrorCodes.RPC_SCHEMA, `${what}: expected a safe integer, got ${x}n`, { context: { path: what } });
}

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

/** Balance in lamports (a bigint only beyond 2^53). */
export async function getBalance(ctx: ClientContext, address: string, params?: CommitmentParams, opts?: CallOptions): Promise<T.U64> {
  assertAddress('address', address);
  const cfg = commitmentConfig(params);
  const r = await ctx.rpc.call({ method: 'getBalance', params: cfg ? [address, cfg] : [address], validate: S.balance }, opts);
  return r.value;
}

/** Account info (base64 data by default) or `null` when the account does not exist. */
export async function getAccountInfo(
  ctx: ClientContext,
  address: string,
  params?: CommitmentParams & { encoding?: 'base64' | 'base58' | 'jsonParsed' },
  opts?: CallOptions,
): Promise<T.AccountInfo | null> {
  assertAddress('address', address);
  const cfg: Record<string, unknown> = { encoding: 'base64', ...commitmentConfig(params) };
  if (params?.encoding !== undefined) {
    assertOneOf('params.encoding', params.encoding, ['base64', 'base58', 'jsonParsed'] as const);
    cfg.encoding = params.encoding;
  }
  const r = await ctx.rpc.call({ method: 'getAccountInfo', params: [address, cfg], validate: S.accountInfo }, opts);
  return r.value;
}

/** Ask a test cluster (or the devnet) for lamports; returns the airdrop transaction signature. */
export async function requestAirdrop(
  ctx: ClientContext,
  address: string,
  lamports: number | bigint,
  params?: CommitmentParams,
  opts?: CallOptions,
): Promise<string> {
  assertAddress('address', address);
  if (!((typeof lamports === 'number' && Number.isSafeInteger(lamports) && lamports > 0) || (typeof lamports === 'bigint' && lamports > 0n && lamports < 2n ** 64n))) {
    // a bigint is shown only when short: printing a huge one is quadratic
    const got = typeof lamports === 'bigint' && (lamports >= 10n ** 20n || lamports <= -(10n ** 20n)) ? 'a bigint of 21 or more digits' : String(lamports);
    throw new InputError('lamports', `expected a positive integer below 2^64, got ${got}`, { expected: 'positive integer below 2^64', got });
  }
  const cfg = commitmentConfig(params);
  return ctx.rpc.call({ method: 'requestAirdrop', params: cfg ? [address, lamports, cfg] : [address, lamports], validate: v.string }, opts);
}


// ------------------------------------------------ accounts, tokens, blocks and the cluster
//
// The standard methods a bot or mint script reads with: each checks its params (InputError naming
// the field) and validates the answer's shape (RPC_SCHEMA naming the path), like the ones above.

/** An SPL token amount as the RPC writes it (`amount` as exact digits). */
export interface TokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
}

export interface KeyedAccount {
  pubkey: string;
  account: T.AccountInfo;
}

export interface AccountParams extends CommitmentParams {
  /** Default base64; jsonParsed parses SPL Token accounts and mints (others stay base64). */
  encoding?: 'base64' | 'base58' | 'jsonParsed';
  dataSlice?: { offset: number; length: number };
}

export type AccountFilter = { dataSize: number } | { memcmp: { offset: number; bytes: string; encoding?: 'base58' | 'base64' } };

export interface BlockParams {
  commitment?: 'confirmed' | 'finalized';
  transactionDetails?: 'full' | 'signatures' | 'none';
  rewards?: boolean;
  encoding?: 'json' | 'base64' | 'base58';
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

/** getMultipleAccounts takes at most this many addresses per call. */
export const MAX_ACCOUNTS_PER_CALL = 100;
const MAX_SLOT = Number.MAX_SAFE_INTEGER;
const ENCODINGS = ['base64', 'base58', 'jsonParsed'] as const;
const BLOCK_COMMITMENTS = ['confirmed', 'finalized'] as const;

const accountV = v.object({ lamports: v.u64, owner: v.string, executable: v.bool }, { rentEpoch: v.u64, space: v.u64, data: v.unknown }) as unknown as Validator<T.AccountInfo>;
const keyedV = v.array(v.object({ pubkey: v.string, account: accountV })) as unknown as Validator<KeyedAccount[]>;
const tokenAmountV = v.object({ amount: v.string, decimals: v.int, uiAmountString: v.string }, { uiAmount: v.nullable(v.number) }) as unknown as Validator<TokenAmount>;
const slotV = v.u64 as Validator<T.U64>;
const intList = v.array(v.u64) as Validator<T.U64[]>;

function accountConfig(p: AccountParams | undefined, field = 'params'): Record<string, unknown> {
  const cfg: Record<string, unknown> = { encoding: 'base64', ...commitmentConfig(p, field) };
  if (p === undefined) return cfg;
  optional(`${field}.encoding`, p.encoding, (f, x) => assertOneOf(f, x, ENCODINGS));
  if (p.encoding) cfg.encoding = p.encoding;
  if (p.dataSlice !== undefined) {
    assertObject(`${field}.dataSlice`, p.dataSlice);
    assertInt(`${field}.dataSlice.offset`, p.dataSlice.offset, 0, MAX_SLOT);
    assertInt(`${field}.dataSlice.length`, p.dataSlice.length, 0, MAX_SLOT);
    if (p.encoding === 'jsonParsed') throw new InputError(`${field}.dataSlice`, 'cannot be combined with encoding jsonParsed');
    cfg.dataSlice = { offset: p.dataSlice.offset, length: p.dataSlice.length };
  }
  return cfg;
}

function checkFilters(field: string, filters: unknown): void {
  assertArray(field, filters, (f, x) => {
    assertObject(f, x);
    if ('dataSize' in x) return assertInt(`${f}.dataSize`, x.dataSize, 0, MAX_SLOT);
    if (!('memcmp' in x)) throw new InputError(f, 'expected { dataSize } or { memcmp }');
    const m = x.memcmp;
    assertObject(`${f}.memcmp`, m);
    assertInt(`${f}.memcmp.offset`, m.offset, 0, MAX_SLOT);
    if (typeof m.bytes !== 'string') throw new InputError(`${f}.memcmp.bytes`, 'expected a base58 or base64 string');
    optional(`${f}.memcmp.encoding`, m.encoding, (g, y) => assertOneOf(g, y, ['base58', 'base64'] as const));
  });
  if ((filters as unknown[]).length > 4) throw new InputError(field, `expected at most 4 filters, got ${(filters as unknown[]).length}`);
}

/** Many accounts in input order (`null` = absent); more than 100 are split into calls with bounded concurrency. */
export async function getMultipleAccounts(ctx: ClientContext, addresses: string[], params?: AccountParams, opts?: CallOptions): Promise<(T.AccountInfo | null)[]> {
  assertArray('addresses', addresses, assertAddress);
  const cfg = accountConfig(params);
  const parts = await mapLimit(chunk(addresses, MAX_ACCOUNTS_PER_CALL), ctx.batchConcurrency, opts?.signal, async (keys, _i, signal) => {
    const r = await ctx.rpc.call({ method: 'getMultipleAccounts', params: [keys, cfg], validate: S.withContext(v.array(v.nullable(accountV))) }, { ...opts, signal });
    if (r.value.length !== keys.length) {
      throw new BadResponseError(ErrorCodes.RPC_SCHEMA, `getMultipleAccounts: result.value has ${r.value.length} entries for ${keys.length} addresses`, {
        context: { method: 'getMultipleAccounts', path: 'result.value' },
      });
    }
    return r.value;
  });
  return parts.flat();
}

/**
 * The accounts a program owns that pass every filter (at most 4).
 *
 * @example
 * const holders = await client.getProgramAccounts(TOKEN_PROGRAM, { filters: [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: mint } }] });
 */
export async function getProgramAccounts(
  ctx: ClientContext,
  programId: string,
  params?: AccountParams & { filters?: AccountFilter[] },
  opts?: CallOptions,
): Promise<KeyedAccount[]> {
  assertAddress('programId', programId);
  const cfg = accountConfig(params);
  if (params?.filters !== undefined) {
    checkFilters('params.filters', params.filters);
    cfg.filters = params.filters;
  }
  return ctx.rpc.call({ method: 'getProgramAccounts', params: [programId, cfg], validate: keyedV }, opts);
}

/** A token account's balance. */
export async function getTokenAccountBalance(ctx: ClientContext, account: string, params?: CommitmentParams, opts?: CallOptions): Promise<TokenAmount> {
  assertAddress('account', account);
  const cfg = commitmentConfig(params);
  return (await ctx.rpc.call({ method: 'getTokenAccountBalance', params: cfg ? [account, cfg] : [account], validate: S.withContext(tokenAmountV) }, opts)).value;
}

/** A mint's supply. */
export async function getTokenSupply(ctx: ClientContext, mint: string, params?: CommitmentParams, opts?: CallOptions): Promise<TokenAmount> {
  assertAddress('mint', mint);
  const cfg = commitmentConfig(params);
  return (await ctx.rpc.call({ method: 'getTokenSupply', params: cfg ? [mint, cfg] : [mint], validate: S.withContext(tokenAmountV) }, opts)).value;
}

/** The (up to 20) largest holders of a mint, largest first. */
export async function getTokenLargestAccounts(ctx: ClientContext, mint: string, params?: CommitmentParams, opts?: CallOptions): Promise<(TokenAmount & { address: string })[]> {
  assertAddress('mint', mint);
  const cfg = commitmentConfig(params);
  const item = v.object({ address: v.string, amount: v.string, decimals: v.int, uiAmountString: v.string }) as unknown as Validator<TokenAmount & { address: string }>;
  return (await ctx.rpc.call({ method: 'getTokenLargestAccounts', params: cfg ? [mint, cfg] : [mint], validate: S.withContext(v.array(item)) }, opts)).value;
}

function tokenAccountsBy(method: 'getTokenAccountsByOwner' | 'getTokenAccountsByDelegate', who: 'owner' | 'delegate') {
  return async (ctx: ClientContext, address: string, filter: { mint: string } | { programId: string }, params?: AccountParams, opts?: CallOptions): Promise<KeyedAccount[]> => {
    assertAddress(who, address);
    assertObject('filter', filter);
    if ('mint' in filter === 'programId' in filter) throw new InputError('filter', 'expected { mint } or { programId }');
    const f = 'mint' in filter ? (assertAddress('filter.mint', filter.mint), { mint: filter.mint }) : (assertAddress('filter.programId', filter.programId), { programId: filter.programId });
    return (await ctx.rpc.call({ method, params: [address, f, accountConfig(params)], validate: S.withContext(keyedV) }, opts)).value;
  };
}

/** The token accounts of an owner, of one mint or of one token program. */
export const getTokenAccountsByOwner = tokenAccountsBy('getTokenAccountsByOwner', 'owner');
/** The token accounts a delegate may spend from, of one mint or of one token program. */
export const getTokenAccountsByDelegate = tokenAccountsBy('getTokenAccountsByDelegate', 'delegate');

/** Lamports an account of `dataLength` bytes needs to be rent-exempt. */
export async function getMinimumBalanceForRentExemption(ctx: ClientContext, dataLength: number, params?: CommitmentParams, opts?: CallOptions): Promise<number> {
  assertInt('dataLength', dataLength, 0, 10 * 1024 * 1024);
  const cfg = commitmentConfig(params);
  return toNumber(await ctx.rpc.call({ method: 'getMinimumBalanceForRentExemption', params: cfg ? [dataLength, cfg] : [dataLength], validate: slotV }, opts), 'result');
}

/** The fee of a compiled message (bytes or base64), or null when its blockhash is no longer valid. */
export async function getFeeForMessage(ctx: ClientContext, message: Uint8Array | string, params?: CommitmentParams, opts?: CallOptions): Promise<number | null> {
  const b64 = wireToBase64('message', message);
  const cfg = commitmentConfig(params);
  const r = await ctx.rpc.call({ method: 'getFeeForMessage', params: cfg ? [b64, cfg] : [b64], validate: S.withContext(v.nullable(slotV)) }, opts);
  return r.value === null ? null : toNumber(r.value, 'result.value');
}

/** A confirmed block (v0 transactions included). */
export async function getBlock(ctx: ClientContext, slot: number, params?: BlockParams, opts?: CallOptions): Promise<Record<string, unknown> & { blockhash: string; previousBlockhash: string; parentSlot: T.U64 }> {
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
  const node = v.object({ pubkey: v.string }, { gossip: v.nullable(v.string), tpu: v.nullable(v.string), rpc: v.nullable(v.string), version: v.nullable(v.string) });
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
export async function getInflationReward(ctx: ClientContext, addresses: string[], params?: CommitmentParams & { epoch?: number }, opts?: CallOptions): Promise<(InflationReward | null)[]> {
  assertArray('addresses', addresses, assertAddress);
  const cfg: Record<string, unknown> = { ...commitmentConfig(params) };
  optional('params.epoch', params?.epoch, (f, x) => assertInt(f, x, 0, MAX_SLOT));
  if (params?.epoch !== undefined) cfg.epoch = params.epoch;
  const item = v.nullable(v.object({ epoch: v.int, effectiveSlot: v.int, amount: v.int, postBalance: v.int }, { commission: v.nullable(v.int) })) as unknown as Validator<InflationReward | null>;
  return ctx.rpc.call({ method: 'getInflationReward', params: [addresses, cfg], validate: v.array(item) }, opts);
}
