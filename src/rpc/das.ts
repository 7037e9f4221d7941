/**
 * DAS asset queries (spec: "DAS asset queries" and "Token accounts"): one function per method,
 * params checked before sending, results validated. `getAssetBatch` and `getAssetProofBatch` split
 * inputs above the spec's 1,000 ids into several requests sent with bounded concurrency and
 * reassembled in input order.
 */
import { assertAddress, assertArray, assertBool, assertInt, assertObject, assertOneOf, assertString, optional } from '../assert.js';
import { BadResponseError, ErrorCodes, InputError } from '../errors.js';
import type { ClientContext } from './context.js';
import { chunk, mapLimit } from './input.js';
import type { CallOptions } from './jsonrpc.js';
import * as S from './shapes.js';
import type * as T from './types.js';

/** The spec's batch limit for getAssetBatch `ids`. */
export const MAX_ASSET_BATCH = 1_000;
/** DAS page sizes go up to 1,000. */
export const MAX_PAGE_LIMIT = 1_000;

export interface GetAssetOptions {
  showUnverifiedCollections?: boolean;
  showCollectionMetadata?: boolean;
  showFungible?: boolean;
  showInscription?: boolean;
}

export interface GetAssetParams {
  id: string;
  options?: GetAssetOptions;
}

export interface ListOptions {
  showUnverifiedCollections?: boolean;
  showCollectionMetadata?: boolean;
  /** Ask for the grand total instead of the page's count (slower). */
  showGrandTotal?: boolean;
  showInscription?: boolean;
  showFungible?: boolean;
  showZeroBalance?: boolean;
}

export type SortBy = 'created' | 'recent_action' | 'updated' | 'none';
export type SortDirection = 'asc' | 'desc';

/** Pagination and sorting shared by the list methods. */
export interface ListParams {
  /** Page number from 1 (page-based pagination). */
  page?: number;
  /** Items per page, 1..1,000. */
  limit?: number;
  sortBy?: { sortBy: SortBy; sortDirection?: SortDirection };
  /** Cursor backwards. */
  before?: string;
  /** Cursor forwards. */
  after?: string;
  options?: ListOptions;
}

export interface GetAssetsByOwnerParams extends ListParams {
  ownerAddress: string;
}
export interface GetAssetsByCreatorParams extends ListParams {
  creatorAddress: string;
  onlyVerified?: boolean;
}
export interface GetAssetsByAuthorityParams extends ListParams {
  authorityAddress: string;
}
export interface GetAssetsByGroupParams extends ListParams {
  groupKey: string;
  groupValue: string;
}

export interface GetTokenAccountsParams {
  owner?: string;
  mint?: string;
  page?: number;
  limit?: number;
  cursor?: string;
  before?: string;
  after?: string;
  options?: { showZeroBalance?: boolean };
}

const SORT_BY = ['created', 'recent_action', 'updated', 'none'] as const;
const SORT_DIR = ['asc', 'desc'] as const;
const GET_ASSET_OPTIONS = ['showUnverifiedCollections', 'showCollectionMetadata', 'showFungible', 'showInscription'] as const;
const LIST_OPTIONS = ['showUnverifiedCollections', 'showCollectionMetadata', 'showGrandTotal', 'showInscription', 'showFungible', 'showZeroBalance'] as const;

function checkFlags(field: string, o: unknown, allowed: readonly string[]): void {
  if (o === undefined) return;
  assertObject(field, o);
  for (const [k, x] of Object.entries(o)) {
    if (!allowed.includes(k)) throw new InputError(`${field}.${k}`, `unknown option; expected one of ${allowed.join(', ')}`);
    if (x !== undefined) assertBool(`${field}.${k}`, x);
  }
}

function checkList(p: Record<string, unknown>): void {
  optional('params.page', p.page, (f, x) => assertInt(f, x, 1, Number.MAX_SAFE_INTEGER));
  optional('params.limit', p.limit, (f, x) => assertInt(f, x, 1, MAX_PAGE_LIMIT));
  optional('params.before', p.before, (f, x) => assertString(f, x, { nonEmpty: true }));
  optional('params.after', p.after, (f, x) => assertString(f, x, { nonEmpty: true }));
  optional('params.sortBy', p.sortBy, (f, x) => {
    assertObject(f, x);
    assertOneOf(`${f}.sortBy`, x.sortBy, SORT_BY);
    optional(`${f}.sortDirection`, x.sortDirection, (g, y) => assertOneOf(g, y, SORT_DIR));
  });
  if (p.page !== undefined && (p.before !== undefined || p.after !== undefined)) {
    throw new InputError('params.page', 'page-based and cursor-based (before/after) pagination cannot be combined');
  }
  checkFlags('params.options', p.options, LIST_OPTIONS);
}

/** Drop `undefined` members so the JSON sent is exactly what the caller set. */
function clean<P extends object>(p: P): P {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(p)) if (x !== undefined) out[k] = x;
  return out as P;
}

/**
 * One asset by id.
 *
 * @example
 * const asset = await client.getAsset({ id, options: { showCollectionMetadata: true } });
 */
export async function getAsset(ctx: ClientContext, params: GetAssetParams, opts?: CallOptions): Promise<T.Asset> {
  assertObject('params', params);
  assertAddress('params.id', params.id);
  checkFlags('params.options', params.options, GET_ASSET_OPTIONS);
  return ctx.rpc.call({ method: 'getAsset', params: clean(params), validate: S.asset }, opts);
}

/**
 * Many assets by id, in input order (`null` where the indexer has none). More than 1,000 ids are
 * split into several requests (at most `batchConcurrency` in flight) and reassembled.
 *
 * @example
 * const assets = await client.getAssetBatch({ ids }); // ids.length may be 2,500: 3 requests
 */
export async function getAssetBatch(
  ctx: ClientContext,
  params: { ids: string[]; options?: GetAssetOptions },
  opts?: CallOptions,
): Promise<(T.Asset | null)[]> {
  assertObject('params', params);
  assertArray('params.ids', params.ids, assertAddress);
  checkFlags('params.options', params.options, GET_ASSET_OPTIONS);
  if (params.ids.length === 0) return [];
  const parts = await mapLimit(chunk(params.ids, MAX_ASSET_BATCH), ctx.batchConcurrency, opts?.signal, async (ids, _i, signal) => {
    const r = await ctx.rpc.call({ method: 'getAssetBatch', params: clean({ ids, options: params.options }), validate: S.assetBatch }, { ...opts, signal });
    if (r.length !== ids.length) {
      throw new BadResponseError(ErrorCodes.RPC_SCHEMA, `getAssetBatch: result has ${r.length} entries for ${ids.length} ids`, {
        context: { method: 'getAssetBatch', path: 'result' },
      });
    }
    return r;
  });
  return parts.length === 1 ? parts[0] : parts.flat();
}

/**
 * Proofs of compressed assets, keyed by asset id (`null` for unknown ids). Inputs above 1,000 ids
 * are split and merged.
 */
export async function getAssetProofBatch(
  ctx: ClientContext,
  params: { ids: string[] },
  opts?: CallOptions,
): Promise<Record<string, T.AssetProof | null>> {
  assertObject('params', params);
  assertArray('params.ids', params.ids, assertAddress);
  if (params.ids.length === 0) return {};
  const parts = await mapLimit(chunk(params.ids, MAX_ASSET_BATCH), ctx.batchConcurrency, opts?.signal, (ids, _i, signal) =>
    ctx.rpc.call({ method: 'getAssetProofBatch', params: { ids }, validate: S.assetProofBatch }, { ...opts, signal }),
  );
  return parts.length === 1 ? parts[0] : Object.assign({}, ...parts);
}

/** One page of assets owned by `ownerAddress`. See `client.paginate.getAssetsByOwner` for all. */
export async function getAssetsByOwner(ctx: ClientContext, params: GetAssetsByOwnerParams, opts?: CallOptions): Promise<T.AssetList> {
  assertObject('params', params);
  assertAddress('params.ownerAddress', params.ownerAddress);
  checkList(params as unknown as Record<string, unknown>);
  return ctx.rpc.call({ method: 'getAssetsByOwner', params: clean(params), validate: S.assetList }, opts);
}

/** One page of assets by creator. */
export async function getAssetsByCreator(ctx: ClientContext, params: GetAssetsByCreatorParams, opts?: CallOptions): Promise<T.AssetList> {
  assertObject('params', params);
  assertAddress('params.creatorAddress', params.creatorAddress);
  optional('params.onlyVerified', params.onlyVerified, assertBool);
  checkList(params as unknown as Record<string, unknown>);
  return ctx.rpc.call({ method: 'getAssetsByCreator', params: clean(params), validate: S.assetList }, opts);
}

/** One page of assets by update authority. */
export async function getAssetsByAuthority(ctx: ClientContext, params: GetAssetsByAuthorityParams, opts?: CallOptions): Promise<T.AssetList> {
  assertObject('params', params);
  assertAddress('params.authorityAddress', params.authorityAddress);
  checkList(params as unknown as Record<string, unknown>);
  return ctx.rpc.call({ method: 'getAssetsByAuthority', params: clean(params), validate: S.assetList }, opts);
}

/** One page of assets in a group, e.g. `{ groupKey: 'collection', groupValue: <collection address> }`. */
export async function getAssetsByGroup(ctx: ClientContext, params: GetAssetsByGroupParams, opts?: CallOptions): Promise<T.AssetList> {
  assertObject('params', params);
  assertString('params.groupKey', params.groupKey, { nonEmpty: true });
  assertString('params.groupValue', params.groupValue, { nonEmpty: true });
  checkList(params as unknown as Record<string, unknown>);
  return ctx.rpc.call({ method: 'getAssetsByGroup', params: clean(params), validate: S.assetList }, opts);
}

/** One page of token accounts by owner and/or mint (cursor- or page-based). */
export async function getTokenAccounts(ctx: ClientContext, params: GetTokenAccountsParams, opts?: CallOptions): Promise<T.TokenAccountList> {
  assertObject('params', params);
  optional('params.owner', params.owner, assertAddress);
  optional('params.mint', params.mint, assertAddress);
  if (params.owner === undefined && params.mint === undefined) throw new InputError('params.owner', 'expected "owner" or "mint"');
  optional('params.page', params.page, (f, x) => assertInt(f, x, 1, Number.MAX_SAFE_INTEGER));
  optional('params.limit', params.limit, (f, x) => assertInt(f, x, 1, MAX_PAGE_LIMIT));
  optional('params.cursor', params.cursor, (f, x) => assertString(f, x, { nonEmpty: true }));
  optional('params.before', params.before, (f, x) => assertString(f, x, { nonEmpty: true }));
  optional('params.after', params.after, (f, x) => assertString(f, x, { nonEmpty: true }));
  checkFlags('params.options', params.options, ['showZeroBalance']);
  return ctx.rpc.call({ method: 'getTokenAccounts', params: clean(params), validate: S.tokenAccountList }, opts);
}
