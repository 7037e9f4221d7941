/**
 * Wallet token-transfer history: `GET {walletUrl}/v1/wallet/{wallet}/transfers` with `limit` (1-100,
 * default 50 server-side) and `cursor` (from `pagination.nextCursor`). The wallet is checked against
 * the spec's pattern before anything is sent.
 */
import { assertAddress, assertInt, assertObject, assertString, optional } from '../../assert.js';
import type { ClientContext } from '../client/context.js';
import type { CallOptions } from '../jsonrpc.js';
import * as S from '../shapes.js';
import type * as T from '../types.js';
import { assertShape } from '../validate.js';

export const MAX_TRANSFERS_LIMIT = 100;

export interface GetWalletTransfersParams {
  wallet: string;
  /** 1..100 (the server's default is 50). */
  limit?: number;
  cursor?: string;
}

/**
 * One page of a wallet's token transfers.
 *
 * @example
 * const page = await client.getWalletTransfers({ wallet, limit: 100 });
 * if (page.pagination.hasMore) next = page.pagination.nextCursor;
 */
export async function getWalletTransfers(ctx: ClientContext, params: GetWalletTransfersParams, opts: CallOptions = {}): Promise<T.TransferPage> {
  assertObject('params', params);
  assertAddress('params.wallet', params.wallet);
  optional('params.limit', params.limit, (f, x) => assertInt(f, x, 1, MAX_TRANSFERS_LIMIT));
  optional('params.cursor', params.cursor, (f, x) => assertString(f, x, { nonEmpty: true }));
  const res = await ctx.transport.request({
    url: `${ctx.endpoints.walletUrl}/v1/wallet/${encodeURIComponent(params.wallet)}/transfers`,
    method: 'GET',
    query: { limit: params.limit, cursor: params.cursor },
    label: 'getWalletTransfers',
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    deadlineMs: opts.deadlineMs,
    deadlineAt: opts.deadlineAt,
    retry: opts.retry,
  });
  return assertShape(S.transferPage, res.body, 'body', 'getWalletTransfers');
}
