/**
 * Async iterators over the cursor-paged lists of v2.ts and signatures.ts, with
 * rpc/paginate.ts's rules: the next page is fetched only when the consumer asks, abort is checked
 * before every page and passed to every request, a `null` cursor (or an empty page) ends, and a
 * cursor handed back twice is reported as a bad response instead of looping.
 */
import { BadResponseError, ErrorCodes } from '../../errors/index.js';
import * as sg from './signatures.js';
import * as z from './v2.js';
import type * as C from './types.js';
import type { ClientContext } from '../client/context.js';
import { MAX_COMPRESSION_LIMIT, type CursorParams, type TokenAccountsByDelegateParams, type TokenAccountsByOwnerParams } from './methods.js';
import type { CallOptions } from '../jsonrpc.js';
import { byCursor, checkAbort, pagesOf } from '../paginate.js';
import type * as T from '../types.js';

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
    checkAbort(opts);
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
    getCompressedAccountsByOwner: (p, o) => byCursor('getCompressedAccountsByOwner', pagesOf(ctx, z.getCompressedAccountsByOwner), p, o),
    getCompressedAccountsByOwnerV2: (p, o) => byCursor('getCompressedAccountsByOwnerV2', pagesOf(ctx, z.getCompressedAccountsByOwnerV2), p, o),
    getCompressedTokenAccountsByOwnerV2: (p, o) => byCursor('getCompressedTokenAccountsByOwnerV2', pagesOf(ctx, z.getCompressedTokenAccountsByOwnerV2), p, o),
    getCompressedTokenAccountsByDelegateV2: (p, o) => byCursor('getCompressedTokenAccountsByDelegateV2', pagesOf(ctx, z.getCompressedTokenAccountsByDelegateV2), p, o),
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
    getCompressedTokenBalancesByOwnerV2: (p, o) => byCursor('getCompressedTokenBalancesByOwnerV2', pagesOf(ctx, z.getCompressedTokenBalancesByOwnerV2), p, o),
    getCompressedMintTokenHolders: (p, o) => byCursor('getCompressedMintTokenHolders', pagesOf(ctx, z.getCompressedMintTokenHolders), p, o),
    getCompressionSignaturesForAddress: (p, o) => byCursor('getCompressionSignaturesForAddress', pagesOf(ctx, sg.getCompressionSignaturesForAddress), p, o),
    getCompressionSignaturesForOwner: (p, o) => byCursor('getCompressionSignaturesForOwner', pagesOf(ctx, sg.getCompressionSignaturesForOwner), p, o),
    getLatestNonVotingSignatures: (p, o) => nonVoting(ctx, p, o),
  };
}
