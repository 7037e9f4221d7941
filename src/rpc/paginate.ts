/**
 * Pagination as async iterators: they yield items, fetch the next page only when the consumer asks,
 * stop at the end, and honour abort (checked before every page and passed to every request).
 * Page-based for the DAS lists (stop at a short or empty page), cursor-based for compression lists
 * (stop at a `null` cursor), either for getTokenAccounts (whichever the server answers with), and
 * `pagination.hasMore/nextCursor` for wallet transfers. A server that hands back the same cursor
 * twice would loop forever: that is reported as a bad response instead.
 */
import { abortError } from '../abort.js';
import { BadResponseError, ErrorCodes, InputError } from '../errors/index.js';
import type { ClientContext } from './client/context.js';
import * as compression from './compression/methods.js';
import * as das from './das.js';
import type { CallOptions } from './jsonrpc.js';
import type * as T from './types.js';
import * as wallet from './rest/wallet.js';

/** Before every page: an aborted signal ends the iteration with `RPC_ABORTED`. */
export function checkAbort(opts: CallOptions | undefined): void {
  if (opts?.signal?.aborted) throw abortError(ErrorCodes.RPC_ABORTED, opts.signal, 'pagination');
}

function repeatedCursor(method: string, cursor: string): BadResponseError {
  return new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `${method}: the server returned cursor ${JSON.stringify(cursor)} twice; stopping instead of looping`, {
    context: { method, path: 'cursor' },
  });
}

function repeatedPage(method: string, asked: number, got: unknown): BadResponseError {
  const what = typeof got === 'number' && got !== asked ? `answered page ${got} when asked for page ${asked}` : `answered page ${asked} with the items of the page before`;
  return new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `${method}: the server ${what}: the same page twice; stopping instead of looping`, {
    context: { method, path: 'page' },
  });
}

/**
 * A page the loop is about to go past must be the page asked for (when the server says which) and
 * must not start with the previous page's first item: a server that ignores `page` hands back the
 * same full page forever. Returns this page's first item, to compare with the next.
 */
function checkAdvanced(method: string, asked: number, answered: unknown, first: unknown, previous: string | undefined): string {
  const key = JSON.stringify(first, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
  if ((typeof answered === 'number' && answered !== asked) || key === previous) throw repeatedPage(method, asked, answered);
  return key;
}

/** Every item of a page-based DAS list, from `params.page` (default 1) to the last page. */
async function* byPage<P extends das.ListParams>(
  method: string,
  fetch: (p: P, o?: CallOptions) => Promise<T.AssetList>,
  params: P,
  opts?: CallOptions,
): AsyncGenerator<T.Asset, void, undefined> {
  if (params?.before !== undefined || params?.after !== undefined) {
    throw new InputError('params.before', `${method} iterator pages by page number; drop before/after`);
  }
  const limit = params?.limit ?? das.MAX_PAGE_LIMIT;
  let previous: string | undefined;
  for (let page = params?.page ?? 1; ; page++) {
    checkAbort(opts);
    const r = await fetch({ ...params, page, limit }, opts);
    if (r.items.length >= limit) previous = checkAdvanced(method, page, r.page, r.items[0], previous);
    yield* r.items;
    if (r.items.length < limit) return;
  }
}

/** One page of a cursor-based list: its items and the next page's cursor (`null` or absent at the end). */
export interface ItemsPage<I> {
  items: I[];
  cursor?: string | null;
}

/** Every item of a cursor-based compression list (compression/paginate.ts pages the indexer's others). */
export async function* byCursor<I, P extends { cursor?: string }>(
  method: string,
  fetch: (p: P, o?: CallOptions) => Promise<ItemsPage<I>>,
  params: P,
  opts?: CallOptions,
): AsyncGenerator<I, void, undefined> {
  let cursor = params?.cursor;
  const seen = new Set<string>();
  for (;;) {
    checkAbort(opts);
    const r = await fetch({ ...params, cursor }, opts);
    yield* r.items;
    const next = r.cursor;
    if (next === null || next === undefined || next === '' || r.items.length === 0) return;
    if (seen.has(next)) throw repeatedCursor(method, next);
    seen.add(next);
    cursor = next;
  }
}

async function* tokenAccounts(ctx: ClientContext, params: das.GetTokenAccountsParams, opts?: CallOptions): AsyncGenerator<T.TokenAccount, void, undefined> {
  let p: das.GetTokenAccountsParams = { ...params };
  const seen = new Set<string>();
  let previous: string | undefined;
  for (;;) {
    checkAbort(opts);
    const r = await das.getTokenAccounts(ctx, p, opts);
    yield* r.token_accounts;
    const limit = r.limit ?? p.limit;
    if (r.token_accounts.length === 0 || (limit !== undefined && r.token_accounts.length < limit)) return;
    if (typeof r.cursor === 'string' && r.cursor !== '') {
      if (seen.has(r.cursor)) throw repeatedCursor('getTokenAccounts', r.cursor);
      seen.add(r.cursor);
      p = { ...p, cursor: r.cursor, page: undefined };
    } else if (typeof r.page === 'number' || p.page !== undefined) {
      const asked = p.page ?? (r.page as number);
      previous = checkAdvanced('getTokenAccounts', asked, r.page, r.token_accounts[0], previous);
      p = { ...p, page: asked + 1 };
    } else {
      return; // neither a cursor nor a page to continue from
    }
  }
}

async function* walletTransfers(
  ctx: ClientContext,
  params: wallet.GetWalletTransfersParams,
  opts?: CallOptions,
): AsyncGenerator<T.WalletTransfer, void, undefined> {
  let cursor = params?.cursor;
  const seen = new Set<string>();
  for (;;) {
    checkAbort(opts);
    const r = await wallet.getWalletTransfers(ctx, { ...params, cursor }, opts);
    yield* r.data;
    const next = r.pagination.nextCursor;
    if (!r.pagination.hasMore || !next) return;
    if (seen.has(next)) throw repeatedCursor('getWalletTransfers', next);
    seen.add(next);
    cursor = next;
  }
}

/** `call`'s pages without their `{context, value}` envelope, for `byCursor`. */
export function pagesOf<P, I>(
  ctx: ClientContext,
  call: (ctx: ClientContext, p: P, o?: CallOptions) => Promise<T.WithContext<ItemsPage<I>>>,
): (p: P, o?: CallOptions) => Promise<ItemsPage<I>> {
  return async (p, o) => (await call(ctx, p, o)).value;
}

/** The iterators of a client: `for await (const a of client.paginate.getAssetsByOwner({ ownerAddress })) …` */
export interface Paginators {
  getAssetsByOwner(params: das.GetAssetsByOwnerParams, opts?: CallOptions): AsyncGenerator<T.Asset, void, undefined>;
  getAssetsByCreator(params: das.GetAssetsByCreatorParams, opts?: CallOptions): AsyncGenerator<T.Asset, void, undefined>;
  getAssetsByAuthority(params: das.GetAssetsByAuthorityParams, opts?: CallOptions): AsyncGenerator<T.Asset, void, undefined>;
  getAssetsByGroup(params: das.GetAssetsByGroupParams, opts?: CallOptions): AsyncGenerator<T.Asset, void, undefined>;
  getTokenAccounts(params: das.GetTokenAccountsParams, opts?: CallOptions): AsyncGenerator<T.TokenAccount, void, undefined>;
  getCompressedTokenAccountsByOwner(
    params: compression.TokenAccountsByOwnerParams,
    opts?: CallOptions,
  ): AsyncGenerator<T.CompressedTokenAccount, void, undefined>;
  getCompressedTokenAccountsByDelegate(
    params: compression.TokenAccountsByDelegateParams,
    opts?: CallOptions,
  ): AsyncGenerator<T.CompressedTokenAccount, void, undefined>;
  getLatestCompressionSignatures(params?: compression.CursorParams, opts?: CallOptions): AsyncGenerator<T.CompressionSignature, void, undefined>;
  getCompressionSignaturesForTokenOwner(
    params: compression.SignaturesForTokenOwnerParams,
    opts?: CallOptions,
  ): AsyncGenerator<T.CompressionSignature, void, undefined>;
  getWalletTransfers(params: wallet.GetWalletTransfersParams, opts?: CallOptions): AsyncGenerator<T.WalletTransfer, void, undefined>;
}

/**
 * Build the iterators over a client context.
 *
 * @example
 * for await (const asset of client.paginate.getAssetsByOwner({ ownerAddress }, { signal })) count++;
 */
export function createPaginators(ctx: ClientContext): Paginators {
  return {
    getAssetsByOwner: (p, o) => byPage('getAssetsByOwner', (q, oo) => das.getAssetsByOwner(ctx, q, oo), p, o),
    getAssetsByCreator: (p, o) => byPage('getAssetsByCreator', (q, oo) => das.getAssetsByCreator(ctx, q, oo), p, o),
    getAssetsByAuthority: (p, o) => byPage('getAssetsByAuthority', (q, oo) => das.getAssetsByAuthority(ctx, q, oo), p, o),
    getAssetsByGroup: (p, o) => byPage('getAssetsByGroup', (q, oo) => das.getAssetsByGroup(ctx, q, oo), p, o),
    getTokenAccounts: (p, o) => tokenAccounts(ctx, p, o),
    getCompressedTokenAccountsByOwner: (p, o) => byCursor('getCompressedTokenAccountsByOwner', pagesOf(ctx, compression.getCompressedTokenAccountsByOwner), p, o),
    getCompressedTokenAccountsByDelegate: (p, o) => byCursor('getCompressedTokenAccountsByDelegate', pagesOf(ctx, compression.getCompressedTokenAccountsByDelegate), p, o),
    getLatestCompressionSignatures: (p = {}, o) => byCursor('getLatestCompressionSignatures', pagesOf(ctx, compression.getLatestCompressionSignatures), p, o),
    getCompressionSignaturesForTokenOwner: (p, o) => byCursor('getCompressionSignaturesForTokenOwner', pagesOf(ctx, compression.getCompressionSignaturesForTokenOwner), p, o),
    getWalletTransfers: (p, o) => walletTransfers(ctx, p, o),
  };
}
