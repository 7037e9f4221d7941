/**
 * The provider's RPC extensions beyond the standard methods: `getProgramAccountsV2` and
 * `getTokenAccountsByOwnerV2` (paged by `limit` and `paginationKey`), `getTransactionsForAddress`
 * (an address's history, filtered, paged by `paginationToken`) and `sendBundle` on the sender host
 * (up to 5 signed transactions, Sender Max). Params are checked as InputError naming the field; the
 * account methods always ask for `withContext` so the answer has one shape whatever the server's
 * default. `createHeliusExtensionPaginators` gives each paged method, and the DAS `searchAssets` and
 * `getSignaturesForAsset`, an async iterator on `client.paginate`.
 */
import { abortError } from '../abort.js';
import { assertAddress, assertArray, assertInt, assertObject, assertOneOf, assertString, optional } from '../assert.js';
import { BadResponseError, ErrorCodes, InputError } from '../errors/index.js';
import type { ClientContext } from './client/context.js';
import * as das from './das.js';
import { wireToBase64 } from './input.js';
import type { CallOptions } from './jsonrpc.js';
import * as S from './shapes.js';
import type * as T from './types.js';
import { v, type Validator } from './validate.js';

/** The provider's page bounds for the V2 account methods. */
const MAX_V2_LIMIT = 10_000;
/** getTransactionsForAddress: 1,000 signatures or 100 full transactions per page. */
const MAX_TFA_SIGNATURES = 1_000;
const MAX_TFA_FULL = 100;
/** A Sender bundle holds 1..5 transactions. */
const MAX_BUNDLE = 5;

const COMMITMENTS = ['processed', 'confirmed', 'finalized'] as const;
const ENCODINGS = ['base64', 'base58', 'jsonParsed'] as const;
const MAX_INT = Number.MAX_SAFE_INTEGER;

export type V2AccountFilter = { dataSize: number } | { memcmp: { offset: number; bytes: string; encoding?: 'base58' | 'base64' } };

export interface V2AccountParams {
  commitment?: T.Commitment;
  minContextSlot?: number;
  /** Default base64. */
  encoding?: 'base64' | 'base58' | 'jsonParsed';
  dataSlice?: { offset: number; length: number };
  /** Accounts per page, 1..10,000 (the server's default is 1,000). */
  limit?: number;
  /** The `paginationKey` of the previous page. */
  paginationKey?: string;
  /** Only accounts changed since this slot (the devnet refuses it: it keeps no per-account write slot). */
  changedSinceSlot?: number;
}

export interface V2Account {
  pubkey: string;
  account: T.AccountInfo;
}

/** One page of accounts; `paginationKey` null once the server has no more. */
export interface V2AccountPage {
  accounts: V2Account[];
  paginationKey: string | null;
  totalResults?: number | null;
}

const accountV = v.object({ lamports: v.u64, owner: v.string, executable: v.bool }, { rentEpoch: v.u64, space: v.u64, data: v.unknown });
const accountPageV = S.withContext(
  v.object({ accounts: v.array(v.object({ pubkey: v.string, account: accountV })), paginationKey: v.nullable(v.string) }, { totalResults: v.nullable(v.int) }),
) as unknown as Validator<T.WithContext<V2AccountPage>>;

function accountConfig(p: V2AccountParams | undefined, field: string): Record<string, unknown> {
  const cfg: Record<string, unknown> = { encoding: 'base64', withContext: true };
  if (p === undefined) return cfg;
  assertObject(field, p);
  optional(`${field}.commitment`, p.commitment, (f, x) => assertOneOf(f, x, COMMITMENTS));
  optional(`${field}.minContextSlot`, p.minContextSlot, (f, x) => assertInt(f, x, 0, MAX_INT));
  optional(`${field}.encoding`, p.encoding, (f, x) => assertOneOf(f, x, ENCODINGS));
  optional(`${field}.limit`, p.limit, (f, x) => assertInt(f, x, 1, MAX_V2_LIMIT));
  optional(`${field}.paginationKey`, p.paginationKey, assertAddress);
  optional(`${field}.changedSinceSlot`, p.changedSinceSlot, (f, x) => assertInt(f, x, 0, MAX_INT));
  if (p.dataSlice !== undefined) {
    assertObject(`${field}.dataSlice`, p.dataSlice);
    assertInt(`${field}.dataSlice.offset`, p.dataSlice.offset, 0, MAX_INT);
    assertInt(`${field}.dataSlice.length`, p.dataSlice.length, 0, MAX_INT);
    if (p.encoding === 'jsonParsed') throw new InputError(`${field}.dataSlice`, 'cannot be combined with encoding jsonParsed');
  }
  for (const k of ['commitment', 'minContextSlot', 'encoding', 'dataSlice', 'limit', 'paginationKey', 'changedSinceSlot'] as const) {
    if (p[k] !== undefined) cfg[k] = p[k];
  }
  return cfg;
}

/**
 * One page of the accounts a program owns that pass every filter (at most 4).
 *
 * @example
 * const { value } = await client.getProgramAccountsV2(TOKEN_PROGRAM, { filters: [{ dataSize: 165 }], limit: 1000 });
 * // value.accounts, value.paginationKey (null on the last page)
 */
export async function getProgramAccountsV2(
  ctx: ClientContext,
  programId: string,
  params?: V2AccountParams & { filters?: V2AccountFilter[] },
  opts?: CallOptions,
): Promise<T.WithContext<V2AccountPage>> {
  assertAddress('programId', programId);
  const cfg = accountConfig(params, 'params');
  if (params?.filters !== undefined) {
    assertArray('params.filters', params.filters, (f, x) => {
      assertObject(f, x);
      if ('dataSize' in x) return assertInt(`${f}.dataSize`, x.dataSize, 0, MAX_INT);
      if (!('memcmp' in x)) throw new InputError(f, 'expected { dataSize } or { memcmp }');
      assertObject(`${f}.memcmp`, x.memcmp);
      assertInt(`${f}.memcmp.offset`, x.memcmp.offset, 0, MAX_INT);
      assertString(`${f}.memcmp.bytes`, x.memcmp.bytes);
      optional(`${f}.memcmp.encoding`, x.memcmp.encoding, (g, y) => assertOneOf(g, y, ['base58', 'base64'] as const));
    });
    if (params.filters.length > 4) throw new InputError('params.filters', `expected at most 4 filters, got ${params.filters.length}`);
    cfg.filters = params.filters;
  }
  return ctx.rpc.call({ method: 'getProgramAccountsV2', params: [programId, cfg], validate: accountPageV }, opts);
}

/**
 * One page of an owner's token accounts, of one mint or of one token program.
 *
 * @example
 * const { value } = await client.getTokenAccountsByOwnerV2(owner, { programId: TOKEN_PROGRAM }, { limit: 100 });
 */
export async function getTokenAccountsByOwnerV2(
  ctx: ClientContext,
  owner: string,
  filter: { mint: string } | { programId: string },
  params?: V2AccountParams,
  opts?: CallOptions,
): Promise<T.WithContext<V2AccountPage>> {
  assertAddress('owner', owner);
  assertObject('filter', filter);
  if ('mint' in filter === 'programId' in filter) throw new InputError('filter', 'expected { mint } or { programId }');
  const f = 'mint' in filter ? (assertAddress('filter.mint', filter.mint), { mint: filter.mint }) : (assertAddress('filter.programId', filter.programId), { programId: filter.programId });
  return ctx.rpc.call({ method: 'getTokenAccountsByOwnerV2', params: [owner, f, accountConfig(params, 'params')], validate: accountPageV }, opts);
}

export interface NumberRange {
  eq?: number;
  gt?: number;
  gte?: number;
  lt?: number;
  lte?: number;
}

export interface GetTransactionsForAddressParams {
  /** `signatures` (default) or `full` transactions. */
  transactionDetails?: 'signatures' | 'full';
  sortOrder?: 'asc' | 'desc';
  /** 1..1,000 signatures, 1..100 full transactions. */
  limit?: number;
  paginationToken?: string;
  commitment?: 'confirmed' | 'finalized';
  minContextSlot?: number;
  /** For full transactions. */
  encoding?: 'json' | 'jsonParsed' | 'base64' | 'base58';
  maxSupportedTransactionVersion?: number;
  filters?: {
    status?: 'succeeded' | 'failed' | 'any';
    tokenAccounts?: 'none' | 'balanceChanged' | 'all';
    slot?: NumberRange;
    blockTime?: NumberRange;
    signature?: { gt?: string; gte?: string; lt?: string; lte?: string };
  };
}

export interface AddressTransaction {
  signature?: string;
  slot: number;
  transactionIndex: number;
  err?: unknown;
  memo?: string | null;
  blockTime: number | null;
  confirmationStatus?: string;
  /** `full` only. */
  transaction?: unknown;
  meta?: Record<string, unknown> | null;
  version?: number | 'legacy';
}

export interface AddressTransactionPage {
  data: AddressTransaction[];
  paginationToken: string | null;
}

const addressTxPageV = v.object({
  data: v.array(
    v.object(
      { slot: v.u64, transactionIndex: v.int },
      {
        signature: v.string,
        err: v.unknown,
        memo: v.nullable(v.string),
        blockTime: v.nullable(v.int),
        confirmationStatus: v.string,
        transaction: v.unknown,
        meta: v.nullable(v.anyObject),
      },
    ),
  ),
  paginationToken: v.nullable(v.string),
}) as unknown as Validator<AddressTransactionPage>;

function checkRange(field: string, r: unknown, keys: readonly string[], item: (f: string, x: unknown) => void): void {
  assertObject(field, r);
  for (const [k, x] of Object.entries(r)) {
    if (!keys.includes(k)) throw new InputError(`${field}.${k}`, `not a comparison; expected one of ${keys.join(', ')}`);
    if (x !== undefined) item(`${field}.${k}`, x);
  }
}

/**
 * One page of the transactions that name `address` (newest first by default), with the provider's
 * filters; `paginationToken` continues where the page ended.
 *
 * @example
 * const page = await client.getTransactionsForAddress(wallet, { limit: 100, filters: { status: 'succeeded' } });
 */
export async function getTransactionsForAddress(
  ctx: ClientContext,
  address: string,
  params?: GetTransactionsForAddressParams,
  opts?: CallOptions,
): Promise<AddressTransactionPage> {
  assertAddress('address', address);
  const cfg: Record<string, unknown> = {};
  if (params !== undefined) {
    assertObject('params', params);
    optional('params.transactionDetails', params.transactionDetails, (f, x) => assertOneOf(f, x, ['signatures', 'full'] as const));
    optional('params.sortOrder', params.sortOrder, (f, x) => assertOneOf(f, x, ['asc', 'desc'] as const));
    const max = params.transactionDetails === 'full' ? MAX_TFA_FULL : MAX_TFA_SIGNATURES;
    optional('params.limit', params.limit, (f, x) => assertInt(f, x, 1, max));
    optional('params.paginationToken', params.paginationToken, (f, x) => assertString(f, x, { nonEmpty: true }));
    optional('params.commitment', params.commitment, (f, x) => assertOneOf(f, x, ['confirmed', 'finalized'] as const));
    optional('params.minContextSlot', params.minContextSlot, (f, x) => assertInt(f, x, 0, MAX_INT));
    optional('params.encoding', params.encoding, (f, x) => assertOneOf(f, x, ['json', 'jsonParsed', 'base64', 'base58'] as const));
    optional('params.maxSupportedTransactionVersion', params.maxSupportedTransactionVersion, (f, x) => assertInt(f, x, 0, 0));
    optional('params.filters', params.filters, (f, x) => {
      assertObject(f, x);
      for (const k of Object.keys(x)) if (!['status', 'tokenAccounts', 'slot', 'blockTime', 'signature'].includes(k)) throw new InputError(`${f}.${k}`, 'not a filter of getTransactionsForAddress');
      optional(`${f}.status`, x.status, (g, y) => assertOneOf(g, y, ['succeeded', 'failed', 'any'] as const));
      optional(`${f}.tokenAccounts`, x.tokenAccounts, (g, y) => assertOneOf(g, y, ['none', 'balanceChanged', 'all'] as const));
      const int = (g: string, y: unknown) => assertInt(g, y, 0, MAX_INT);
      optional(`${f}.slot`, x.slot, (g, y) => checkRange(g, y, ['eq', 'gt', 'gte', 'lt', 'lte'], int));
      optional(`${f}.blockTime`, x.blockTime, (g, y) => checkRange(g, y, ['eq', 'gt', 'gte', 'lt', 'lte'], int));
      optional(`${f}.signature`, x.signature, (g, y) => checkRange(g, y, ['gt', 'gte', 'lt', 'lte'], (h, z) => assertString(h, z, { nonEmpty: true })));
    });
    for (const [k, x] of Object.entries(params)) if (x !== undefined) cfg[k] = x;
  }
  return ctx.rpc.call({ method: 'getTransactionsForAddress', params: [address, cfg], validate: addressTxPageV }, opts);
}

/**
 * Send 1..5 signed transactions as one Sender Max bundle (`sendBundle` on `{senderUrl}/fast`): each
 * needs a priority fee, and one of them the Sender tip. Returns the bundle id the host answers; track
 * landing by each transaction's signature.
 *
 * @example
 * const bundleId = await client.sendBundle([tx1, tx2WithTip]);
 */
export async function sendBundle(ctx: ClientContext, wires: (Uint8Array | string)[], opts?: CallOptions): Promise<string> {
  assertArray('wires', wires, (f, x) => wireToBase64(f, x), 1);
  if (wires.length > MAX_BUNDLE) throw new InputError('wires', `a bundle holds at most ${MAX_BUNDLE} transactions, got ${wires.length}`);
  const encoded = wires.map((w, i) => wireToBase64(`wires[${i}]`, w));
  return ctx.rpc.call({ method: 'sendBundle', url: `${ctx.endpoints.senderUrl}/fast`, auth: ctx.senderApiKey, params: [encoded, { encoding: 'base64' }], validate: v.string }, opts);
}

// ---------------------------------------------------------------- iterators

function checkAbort(opts: CallOptions | undefined): void {
  if (opts?.signal?.aborted) throw abortError(ErrorCodes.RPC_ABORTED, opts.signal, 'pagination');
}

function repeated(method: string, path: string, what: string): BadResponseError {
  return new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `${method}: the server returned ${path} ${JSON.stringify(what)} twice; stopping instead of looping`, {
    context: { method, path },
  });
}

/** Follow a cursor until the server answers null; a cursor seen twice is a bad response, not a loop. */
async function* byKey<I>(
  method: string,
  path: string,
  fetch: (key: string | undefined) => Promise<{ items: I[]; next: string | null }>,
  first: string | undefined,
  opts?: CallOptions,
): AsyncGenerator<I, void, undefined> {
  let key = first;
  const seen = new Set<string>();
  for (;;) {
    checkAbort(opts);
    const r = await fetch(key);
    yield* r.items;
    // the provider: only a null key ends the walk (a short page may just be filtered)
    if (r.next === null || r.next === '') return;
    if (seen.has(r.next)) throw repeated(method, path, r.next);
    seen.add(r.next);
    key = r.next;
  }
}

/** Page numbers from `page` (default 1) until a short page; the same first item twice is a bad response. */
async function* byPage<I>(
  method: string,
  fetch: (page: number) => Promise<{ items: I[] }>,
  limit: number,
  first: number | undefined,
  opts?: CallOptions,
): AsyncGenerator<I, void, undefined> {
  let previous: string | undefined;
  for (let page = first ?? 1; ; page++) {
    checkAbort(opts);
    const r = await fetch(page);
    if (r.items.length >= limit) {
      const head = JSON.stringify(r.items[0]);
      if (head === previous) throw repeated(method, 'page', String(page));
      previous = head;
    }
    yield* r.items;
    if (r.items.length < limit) return;
  }
}

export interface HeliusExtensionPaginators {
  getProgramAccountsV2(
    programId: string,
    params?: V2AccountParams & { filters?: V2AccountFilter[] },
    opts?: CallOptions,
  ): AsyncGenerator<V2Account, void, undefined>;
  getTokenAccountsByOwnerV2(
    owner: string,
    filter: { mint: string } | { programId: string },
    params?: V2AccountParams,
    opts?: CallOptions,
  ): AsyncGenerator<V2Account, void, undefined>;
  getTransactionsForAddress(address: string, params?: GetTransactionsForAddressParams, opts?: CallOptions): AsyncGenerator<AddressTransaction, void, undefined>;
  searchAssets(params: das.SearchAssetsParams, opts?: CallOptions): AsyncGenerator<T.Asset, void, undefined>;
  getSignaturesForAsset(params: das.GetSignaturesForAssetParams, opts?: CallOptions): AsyncGenerator<[string, string], void, undefined>;
}

/** The iterators for `client.paginate`. */
export function createHeliusExtensionPaginators(ctx: ClientContext): HeliusExtensionPaginators {
  return {
    getProgramAccountsV2: (programId, params, opts) =>
      byKey('getProgramAccountsV2', 'paginationKey', async (paginationKey) => {
        const r = await getProgramAccountsV2(ctx, programId, { ...params, paginationKey }, opts);
        return { items: r.value.accounts, next: r.value.paginationKey };
      }, params?.paginationKey, opts),
    getTokenAccountsByOwnerV2: (owner, filter, params, opts) =>
      byKey('getTokenAccountsByOwnerV2', 'paginationKey', async (paginationKey) => {
        const r = await getTokenAccountsByOwnerV2(ctx, owner, filter, { ...params, paginationKey }, opts);
        return { items: r.value.accounts, next: r.value.paginationKey };
      }, params?.paginationKey, opts),
    getTransactionsForAddress: (address, params, opts) =>
      byKey('getTransactionsForAddress', 'paginationToken', async (paginationToken) => {
        const r = await getTransactionsForAddress(ctx, address, { ...params, paginationToken }, opts);
        return { items: r.data, next: r.paginationToken };
      }, params?.paginationToken, opts),
    // the checks run on the first next(), as every other iterator's do
    async *searchAssets(params, opts) {
      if (params?.before !== undefined || params?.after !== undefined || params?.cursor !== undefined) {
        throw new InputError('params.cursor', 'the searchAssets iterator pages by page number; drop before/after/cursor');
      }
      const limit = params?.limit ?? das.MAX_PAGE_LIMIT;
      yield* byPage('searchAssets', (page) => das.searchAssets(ctx, { ...params, page, limit }, opts), limit, params?.page, opts);
    },
    async *getSignaturesForAsset(params, opts) {
      if (params?.before !== undefined || params?.after !== undefined) throw new InputError('params.before', 'the getSignaturesForAsset iterator pages by page number; drop before/after');
      const limit = params?.limit ?? das.MAX_PAGE_LIMIT;
      yield* byPage('getSignaturesForAsset', (page) => das.getSignaturesForAsset(ctx, { ...params, page, limit }, opts), limit, params?.page, opts);
    },
  };
}
