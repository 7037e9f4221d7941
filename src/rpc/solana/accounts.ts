/**
 * The standard account methods: balance, account info (one, many, by program), the rent-exempt minimum
 * and test-cluster airdrops. Each checks its params (InputError naming the field) and validates the
 * answer's shape (RPC_SCHEMA naming the path).
 */
import { assertAddress, assertArray, assertInt, assertObject, assertOneOf, optional } from '../../assert.js';
import { BadResponseError, ErrorCodes, InputError } from '../../errors/index.js';
import type { ClientContext } from '../client/context.js';
import { chunk, mapLimit } from '../input.js';
import type { CallOptions } from '../jsonrpc.js';
import * as S from '../shapes.js';
import type * as T from '../types.js';
import { v, type Validator } from '../validate.js';
import { commitmentConfig, toNumber, MAX_SLOT, slotV, type CommitmentParams } from './params.js';

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

/** getMultipleAccounts takes at most this many addresses per call. */
const MAX_ACCOUNTS_PER_CALL = 100;

const ENCODINGS = ['base64', 'base58', 'jsonParsed'] as const;

const accountV = v.object(
  { lamports: v.u64, owner: v.string, executable: v.bool },
  { rentEpoch: v.u64, space: v.u64, data: v.unknown },
) as unknown as Validator<T.AccountInfo>;

export const keyedV = v.array(v.object({ pubkey: v.string, account: accountV })) as unknown as Validator<KeyedAccount[]>;

export function accountConfig(p: AccountParams | undefined, field = 'params'): Record<string, unknown> {
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
export async function getMultipleAccounts(
  ctx: ClientContext,
  addresses: string[],
  params?: AccountParams,
  opts?: CallOptions,
): Promise<(T.AccountInfo | null)[]> {
  assertArray('addresses', addresses, assertAddress);
  const cfg = accountConfig(params);
  const parts = await mapLimit(chunk(addresses, MAX_ACCOUNTS_PER_CALL), ctx.batchConcurrency, opts?.signal, async (keys, _i, signal) => {
    const r = await ctx.rpc.call(
      { method: 'getMultipleAccounts', params: [keys, cfg], validate: S.withContext(v.array(v.nullable(accountV))) },
      { ...opts, signal },
    );
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

/** Lamports an account of `dataLength` bytes needs to be rent-exempt. */
export async function getMinimumBalanceForRentExemption(
  ctx: ClientContext,
  dataLength: number,
  params?: CommitmentParams,
  opts?: CallOptions,
): Promise<number> {
  assertInt('dataLength', dataLength, 0, 10 * 1024 * 1024);
  const cfg = commitmentConfig(params);
  return toNumber(
    await ctx.rpc.call({ method: 'getMinimumBalanceForRentExemption', params: cfg ? [dataLength, cfg] : [dataLength], validate: slotV }, opts),
    'result',
  );
}
