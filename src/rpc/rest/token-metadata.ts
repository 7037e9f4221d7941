/**
 * The legacy token-metadata lookup (deprecated): `POST {restUrl}/v0/token-metadata` with at most 100
 * `mintAccounts` per request. Larger inputs are split, sent with bounded concurrency and the
 * records reassembled in input order. Warns once per process that `getAssetBatch` replaces it.
 */
import { assertAddress, assertArray, assertBool, assertObject, optional } from '../../assert.js';
import { BadResponseError, ErrorCodes } from '../../errors/index.js';
import { stringifyJson } from '../json.js';
import type { ClientContext } from '../client/context.js';
import { warnDeprecatedOnce } from '../deprecation.js';
import { chunk, mapLimit } from '../input.js';
import type { CallOptions } from '../jsonrpc.js';
import * as S from '../shapes.js';
import type * as T from '../types.js';
import { assertShape } from '../validate.js';

/** The spec's cap on `mintAccounts` per request. */
export const MAX_MINT_ACCOUNTS = 100;

export interface GetTokenMetadataParams {
  mintAccounts: string[];
  /** Include off-chain data referenced by the metadata uri (default false). */
  includeOffChain?: boolean;
  /** Bypass the cache to watch metadata changes (default false). */
  disableCache?: boolean;
}

/**
 * Legacy metadata of many mints, one record per mint in input order.
 *
 * @deprecated The asset queries (`getAsset`, `getAssetBatch`) replace it.
 * @example
 * const records = await client.getTokenMetadata({ mintAccounts: mints, includeOffChain: true });
 */
export async function getTokenMetadata(
  ctx: ClientContext,
  params: GetTokenMetadataParams,
  opts: CallOptions = {},
): Promise<T.TokenMetadataRecord[]> {
  assertObject('params', params);
  assertArray('params.mintAccounts', params.mintAccounts, assertAddress);
  optional('params.includeOffChain', params.includeOffChain, assertBool);
  optional('params.disableCache', params.disableCache, assertBool);
  warnDeprecatedOnce(
    'CAIRN_DEP_TOKEN_METADATA',
    'the token-metadata lookup (POST /v0/token-metadata) is deprecated; the asset queries (getAsset, getAssetBatch) replace it',
    ctx.logger,
    ctx.deprecationWarnings !== false,
  );
  if (params.mintAccounts.length === 0) return [];
  const parts = await mapLimit(chunk(params.mintAccounts, MAX_MINT_ACCOUNTS), ctx.batchConcurrency, opts.signal, async (mintAccounts, _i, signal) => {
    const body: Record<string, unknown> = { mintAccounts };
    if (params.includeOffChain !== undefined) body.includeOffChain = params.includeOffChain;
    if (params.disableCache !== undefined) body.disableCache = params.disableCache;
    const res = await ctx.transport.request({
      url: `${ctx.endpoints.restUrl}/v0/token-metadata`,
      method: 'POST',
      body: stringifyJson(body),
      label: 'getTokenMetadata',
      signal,
      timeoutMs: opts.timeoutMs,
      deadlineMs: opts.deadlineMs,
      deadlineAt: opts.deadlineAt,
      retry: opts.retry,
    });
    const records = assertShape(S.tokenMetadataList, res.body, 'body', 'getTokenMetadata');
    if (records.length !== mintAccounts.length) {
      throw new BadResponseError(ErrorCodes.RPC_SCHEMA, `getTokenMetadata: got ${records.length} records for ${mintAccounts.length} mints`, {
        context: { method: 'getTokenMetadata', path: 'body' },
      });
    }
    return records;
  });
  return parts.flat();
}
