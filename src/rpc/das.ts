/**
 * DAS asset queries (spec: "DAS asset queries" and "Token accounts"): one function per method,
 * params checked before sending, results validated. `getAssetBatch` and `getAssetProofBatch` split
 * inputs above the spec's 1,000 ids into several requests sent with bounded concurrency and
 * reassembled in input order. The provider's `searchAssets`, `getSignaturesForAsset` and
 * `getNftEditions` are here too.
 */
import { assertAddress, assertArray, assertBool, assertInt, assertObject, assertOneOf, assertString, optional } from '../assert.js';
import { BadResponseError, ErrorCodes, InputError } from '../errors/index.js';
import type { ClientContext } from './client/context.js';
import { chunk, mapLimit } from './input.js';
import type { CallOptions } from './jsonrpc.js';
import * as S from './shapes.js';
import type * as T from './types.js';
import { v, type Validator } from './validate.js';

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

/**
 * The proof of one compressed asset (an unknown id is an `RpcError` from the service). Many at once:
 * `getAssetProofBatch`.
 *
 * @example
 * const proof = await client.getAssetProof({ id: assetId });
 * verifyAssetProofJson(proof, { label: assetId }).valid;
 */
export async function getAssetProof(ctx: ClientContext, params: { id: string }, opts?: CallOptions): Promise<T.AssetProof> {
  assertObject('params', params);
  assertAddress('params.id', params.id);
  return ctx.rpc.call({ method: 'getAssetProof', params: { id: params.id }, validate: S.assetProof }, opts);
}

/** One page of assets owned by `ownerAddress`. See `client.paginate.getAssetsByOwner` for all. */
export async function getAssetsByOwner(ctx: ClientContext, params: GetAssetsByOwnerParams, opts?: CallOptions): Promise<T.AssetList> {
  return assetListCall(ctx, 'getAssetsByOwner', params, () => assertAddress('params.ownerAddress', params.ownerAddress), opts);
}

/**
 * One page of an asset list: `params` is an object, `checkKey` checks what selects the assets (in the
 * order the method's fields are checked), then the list options; the answer is checked as an AssetList.
 */
function assetListCall(ctx: ClientContext, method: string, params: object, checkKey: () => void, opts?: CallOptions): Promise<T.AssetList> {
  assertObject('params', params);
  checkKey();
  checkList(params as unknown as Record<string, unknown>);
  return ctx.rpc.call({ method, params: clean(params), validate: S.assetList }, opts);
}

/** One page of assets by creator. */
export async function getAssetsByCreator(ctx: ClientContext, params: GetAssetsByCreatorParams, opts?: CallOptions): Promise<T.AssetList> {
  return assetListCall(ctx, 'getAssetsByCreator', params, () => {
    assertAddress('params.creatorAddress', params.creatorAddress);
    optional('params.onlyVerified', params.onlyVerified, assertBool);
  }, opts);
}

/** One page of assets by update authority. */
export async function getAssetsByAuthority(ctx: ClientContext, params: GetAssetsByAuthorityParams, opts?: CallOptions): Promise<T.AssetList> {
  return assetListCall(ctx, 'getAssetsByAuthority', params, () => assertAddress('params.authorityAddress', params.authorityAddress), opts);
}

/** One page of assets in a group, e.g. `{ groupKey: 'collection', groupValue: <collection address> }`. */
export async function getAssetsByGroup(ctx: ClientContext, params: GetAssetsByGroupParams, opts?: CallOptions): Promise<T.AssetList> {
  return assetListCall(ctx, 'getAssetsByGroup', params, () => {
    assertString('params.groupKey', params.groupKey, { nonEmpty: true });
    assertString('params.groupValue', params.groupValue, { nonEmpty: true });
  }, opts);
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

/** The searchAssets filters the client sends (the provider's names; the devnet applies these). */
export interface SearchAssetsParams extends ListParams {
  ownerAddress?: string;
  ownerType?: 'single' | 'token';
  creatorAddress?: string;
  creatorVerified?: boolean;
  authorityAddress?: string;
  /** `[groupKey, groupValue]`, e.g. `['collection', <collection address>]`. */
  grouping?: [string, string];
  delegate?: string;
  /** A cNFT Merkle tree (the provider's extension). */
  tree?: string;
  jsonUri?: string;
  burnt?: boolean;
  compressed?: boolean;
  compressible?: boolean;
  frozen?: boolean;
  interface?: string;
  tokenType?: 'fungible' | 'nonFungible' | 'regularNft' | 'compressedNft' | 'all';
  royaltyTargetType?: 'creators' | 'fanout' | 'single';
  /** Keyset cursor (the id to continue after). */
  cursor?: string;
}

const SEARCH_ADDRESSES = ['ownerAddress', 'creatorAddress', 'authorityAddress', 'delegate', 'tree'] as const;
const SEARCH_FLAGS = ['creatorVerified', 'burnt', 'compressed', 'compressible', 'frozen'] as const;
const SEARCH_KEYS = new Set<string>([...SEARCH_ADDRESSES, ...SEARCH_FLAGS, 'ownerType', 'grouping', 'jsonUri', 'interface', 'tokenType', 'royaltyTargetType', 'cursor', 'page', 'limit', 'sortBy', 'before', 'after', 'options']);
const TOKEN_TYPES = ['fungible', 'nonFungible', 'regularNft', 'compressedNft', 'all'] as const;

/**
 * One page of assets matching every filter given.
 *
 * @example
 * const page = await client.searchAssets({ ownerAddress, grouping: ['collection', collection], compressed: true });
 */
export async function searchAssets(ctx: ClientContext, params: SearchAssetsParams, opts?: CallOptions): Promise<T.AssetList> {
  assertObject('params', params);
  for (const k of Object.keys(params)) if (!SEARCH_KEYS.has(k)) throw new InputError(`params.${k}`, 'not a searchAssets filter the client knows');
  for (const k of SEARCH_ADDRESSES) optional(`params.${k}`, params[k], assertAddress);
  for (const k of SEARCH_FLAGS) optional(`params.${k}`, params[k], assertBool);
  optional('params.ownerType', params.ownerType, (f, x) => assertOneOf(f, x, ['single', 'token'] as const));
  optional('params.tokenType', params.tokenType, (f, x) => assertOneOf(f, x, TOKEN_TYPES));
  optional('params.royaltyTargetType', params.royaltyTargetType, (f, x) => assertOneOf(f, x, ['creators', 'fanout', 'single'] as const));
  optional('params.interface', params.interface, (f, x) => assertString(f, x, { nonEmpty: true }));
  optional('params.jsonUri', params.jsonUri, (f, x) => assertString(f, x, { nonEmpty: true }));
  optional('params.cursor', params.cursor, (f, x) => assertString(f, x, { nonEmpty: true }));
  optional('params.grouping', params.grouping, (f, x) => {
    assertArray(f, x, (g, y) => assertString(g, y, { nonEmpty: true }));
    if ((x as unknown[]).length !== 2) throw new InputError(f, `expected [groupKey, groupValue], got ${(x as unknown[]).length} item(s)`);
  });
  checkList(params as unknown as Record<string, unknown>);
  if (params.page !== undefined && params.cursor !== undefined) throw new InputError('params.cursor', 'page-based and cursor-based pagination cannot be combined');
  return ctx.rpc.call({ method: 'searchAssets', params: clean(params), validate: S.assetList }, opts);
}

export interface GetSignaturesForAssetParams {
  id: string;
  page?: number;
  limit?: number;
  /** A signature of the asset's history: list what comes after it. */
  before?: string;
  /** A signature of the asset's history: list what comes before it. */
  after?: string;
}

/** One page of an asset's history: `[signature, type]` pairs, newest first. */
export interface AssetSignaturePage {
  last_indexed_slot?: number;
  total: number;
  limit: number;
  page?: number;
  before?: string;
  after?: string;
  items: [string, string][];
}

const assetSignaturePage = v.object(
  { total: v.int, limit: v.int, items: v.array(v.array(v.string)) },
  { last_indexed_slot: v.int, page: v.int, before: v.string, after: v.string },
) as unknown as Validator<AssetSignaturePage>;

/**
 * A compressed asset's transaction history, one page.
 *
 * @example
 * const { items } = await client.getSignaturesForAsset({ id, page: 1 }); // [[signature, 'MintToCollectionV1']]
 */
export async function getSignaturesForAsset(ctx: ClientContext, params: GetSignaturesForAssetParams, opts?: CallOptions): Promise<AssetSignaturePage> {
  assertObject('params', params);
  assertAddress('params.id', params.id);
  optional('params.page', params.page, (f, x) => assertInt(f, x, 1, Number.MAX_SAFE_INTEGER));
  optional('params.limit', params.limit, (f, x) => assertInt(f, x, 1, MAX_PAGE_LIMIT));
  optional('params.before', params.before, (f, x) => assertString(f, x, { nonEmpty: true }));
  optional('params.after', params.after, (f, x) => assertString(f, x, { nonEmpty: true }));
  if (params.page !== undefined && (params.before !== undefined || params.after !== undefined)) {
    throw new InputError('params.page', 'page-based and cursor-based (before/after) pagination cannot be combined');
  }
  const r = await ctx.rpc.call({ method: 'getSignaturesForAsset', params: clean(params), validate: assetSignaturePage }, opts);
  r.items.forEach((it, i) => {
    if (it.length !== 2) {
      throw new BadResponseError(ErrorCodes.RPC_SCHEMA, `getSignaturesForAsset: items[${i}] has ${it.length} entries, expected [signature, type]`, {
        context: { method: 'getSignaturesForAsset', path: `result.items[${i}]` },
      });
    }
  });
  return r;
}

export interface NftEdition {
  mint: string;
  edition_address?: string;
  edition?: number;
  burnt?: boolean;
}

export interface NftEditionsPage {
  last_indexed_slot?: number;
  total: number;
  limit: number;
  page?: number;
  master_edition_address?: string;
  supply?: number;
  max_supply?: number | null;
  editions: NftEdition[];
}

const nftEditionsPage = v.object(
  { total: v.int, limit: v.int, editions: v.array(v.object({ mint: v.string }, { edition_address: v.string, edition: v.int, burnt: v.bool })) },
  { last_indexed_slot: v.int, page: v.int, master_edition_address: v.string, supply: v.int, max_supply: v.nullable(v.int) },
) as unknown as Validator<NftEditionsPage>;

/** The print editions of a master-edition NFT, one page (an empty list for a mint with none). */
export async function getNftEditions(
  ctx: ClientContext,
  params: { mint: string; page?: number; limit?: number },
  opts?: CallOptions,
): Promise<NftEditionsPage> {
  assertObject('params', params);
  assertAddress('params.mint', params.mint);
  optional('params.page', params.page, (f, x) => assertInt(f, x, 1, Number.MAX_SAFE_INTEGER));
  optional('params.limit', params.limit, (f, x) => assertInt(f, x, 1, MAX_PAGE_LIMIT));
  return ctx.rpc.call({ method: 'getNftEditions', params: clean(params), validate: nftEditionsPage }, opts);
}
