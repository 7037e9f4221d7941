/**
 * Async iterators over the cursor-paged lists of compression-v2.ts and compression-signatures.ts,
 * with paginate.ts's rules: the next page is fetched only when the consumer asks, abort is checked
 * before every page and passed to every request, a `null` cursor (or an empty page) ends, and a
 * cursor handed back twice is reported as a bad response instead of looping.
 */
import { abortError } from '../abort.js';
import { BadResponseError, ErrorCodes } from '../errors.js';
import * as sg from './compression-signatures.js';
import * as z from './compression-v2.js';
import type * as C from './compression-types.js';
import type { ClientContext } from './context.js';
import { MAX_COMPRESSION_LIMIT, type CursorParams, type TokenAccountsByDelegateParams, type TokenAccountsByOwnerParams } from './compression.js';
import type { CallOptions } from './jsonrpc.js';
import type * as T from './types.js';

type Page<I> = { items: I[]; cursor?: string | null };

async function* byCursor<I, P extends { cursor?: string }>(
  method: string,
  fetch: (p: P, o?: CallOptions) => Promise<Page<I>>,
  params: P,
  opts?: CallOptions,
): AsyncGenerator<I, void, undefined> {
  let cursor = params?.cursor;
  const seen = new Set<string>();
  for (;;) {
    if (opts?.signal?.aborted) throw abortError(ErrorCodes.RPC_ABORTED, opts.signal, 'pagination');
    const r = await fetch({ ...params, cursor }, opts);
    yield* r.items;
    const next = r.cursor;
    if (next === null || next === undefined || next === '' || r.items.length === 0) return;
    if (seen.has(next)) {
      throw new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `${method}: the server returned cursor ${JSON.stringify(next)} twice; stopping instead of looping`, {
        context: { method, path: 'cursor' },
      });
    }
    seen.add(next);
    cursor = next;
  }
}

type Gen<I> = AsyncGenerator<I, void, undefined>;

type NonVotingSignature = T.CompressionSignature & { error: string | null };

/**
 * Every item of getLatestNonVotingSignatures, whose pages carry no cursor (as Photon answers): the
 * next cursor is built from the page's last item, and a page shorter than the limit asked is the last.
 */
async function* nonVoting(ctx: ClientContext, params: CursorParams = {}, opts?: CallOptions): Gen<NonVotingSignature> {
  const limit = params?.limit ?? MAX_COMPRESSION_LIMIT;
  let cursor = params?.cursor;
  const seen = new Set<string>();
  for (;;) {
    if (opts?.signal?.aborted) throw abortError(ErrorCodes.RPC_ABORTED, opts.signal, 'pagination');
    const { items } = (await sg.getLatestNonVotingSignatures(ctx, { ...params, cursor, limit }, opts)).value;
    yield* items;
    if (items.length < limit) return;
    const next = sg.signatureCursor(items[items.length - 1]!);
    if (seen.has(next)) {
      throw new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `getLatestNonVotingSignatures: the server answered a page ending at ${JSON.stringify(next)} twice; stopping instead of looping`, {
        context: { method: 'getLatestNonVotingSignatures', path: 'items' },
      });
    }
    seen.add(next);
    cursor = next;
  }
}

export interface CompressionPaginators {
  getCompressedAccountsByOwner(params: z.AccountsByOwnerParams, opts?: CallOptions): Gen<T.CompressedAccount>;
  getCompressedAccountsByOwnerV2(params: z.AccountsByOwnerParams, opts?: CallOptions): Gen<C.CompressedAccountV2>;
  getCompressedTokenAccountsByOwnerV2(params: TokenAccountsByOwnerParams, opts?: CallOptions): Gen<C.CompressedTokenAccountV2>;
  getCompressedTokenAccountsByDelegateV2(params: TokenAccountsByDelegateParams, opts?: CallOptions): Gen<C.CompressedTokenAccountV2>;
  getCompressedTokenBalancesByOwner(params: z.TokenBalancesByOwnerParams, opts?: CallOptions): Gen<C.TokenBalance>;
  getCompressedTokenBalancesByOwnerV2(params: z.TokenBalancesByOwnerParams, opts?: CallOptions): Gen<C.TokenBalance>;
  getCompressedMintTokenHolders(params: z.MintTokenHoldersParams, opts?: CallOptions): Gen<C.OwnerBalance>;
  getCompressionSignaturesForAddress(params: CursorParams & { address: string }, opts?: CallOptions): Gen<T.CompressionSignature>;
  getCompressionSignaturesForOwner(params: CursorParams & { owner: string }, opts?: CallOptions): Gen<T.CompressionSignature>;
  getLatestNonVotingSignatures(params?: CursorParams, opts?: CallOptions): Gen<T.CompressionSignature & { error: string | null }>;
}

/**
 * The iterators over a client context.
 *
 * @example
 * for await (const acc of client.paginate.getCompressedAccountsByOwnerV2({ owner })) console.log(acc.hash);
 */
export function createCompressionPaginators(ctx: ClientContext): CompressionPaginators {
  return {
    getCompressedAccountsByOwner: (p, o) => byCursor('getCompressedAccountsByOwner', async (q, oo) => (await z.getCompressedAccountsByOwner(ctx, q, oo)).value, p, o),
    getCompressedAccountsByOwnerV2: (p, o) => byCursor('getCompressedAccountsByOwnerV2', async (q, oo) => (await z.getCompressedAccountsByOwnerV2(ctx, q, oo)).value, p, o),
    getCompressedTokenAccountsByOwnerV2: (p, o) =>
      byCursor('getCompressedTokenAccountsByOwnerV2', async (q, oo) => (await z.getCompressedTokenAccountsByOwnerV2(ctx, q, oo)).value, p, o),
    getCompressedTokenAccountsByDelegateV2: (p, o) =>
      byCursor('getCompressedTokenAccountsByDelegateV2', async (q, oo) => (await z.getCompressedTokenAccountsByDelegateV2(ctx, q, oo)).value, p, o),
    getCompressedTokenBalancesByOwner: (p, o) =>
      byCursor(
        'getCompressedTokenBalancesByOwner',
        async (q, oo) => {
          const r = (await z.getCompressedTokenBalancesByOwner(ctx, q, oo)).value;
          return { items: r.tokenBalances, cursor: r.cursor };
        },
        p,
        o,
      ),
    getCompressedTokenBalancesByOwnerV2: (p, o) =>
      byCursor('getCompressedTokenBalancesByOwnerV2', async (q, oo) => (await z.getCompressedTokenBalancesByOwnerV2(ctx, q, oo)).value, p, o),
    getCompressedMintTokenHolders: (p, o) => byCursor('getCompressedMintTokenHolders', async (q, oo) => (await z.getCompressedMintTokenHolders(ctx, q, oo)).value, p, o),
    getCompressionSignaturesForAddress: (p, o) =>
      byCursor('getCompressionSignaturesForAddress', async (q, oo) => (await sg.getCompressionSignaturesForAddress(ctx, q, oo)).value, p, o),
    getCompressionSignaturesForOwner: (p, o) => byCursor('getCompressionSignaturesForOwner', async (q, oo) => (await sg.getCompressionSignaturesForOwner(ctx, q, oo)).value, p, o),
    getLatestNonVotingSignatures: (p, o) => nonVoting(ctx, p, o),
  };
}
