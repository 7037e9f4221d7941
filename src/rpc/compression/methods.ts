/**
 * The nine compressed-account methods of the spec ("Compressed-account queries"), each with its
 * exact params shape. Results keep the spec's `{ context, value }` envelope so callers see the slot
 * a proof was read at; `getTransactionWithCompressionInfo` answers at the top level and is
 * normalised to the spec's `compression_info` name (the indexer itself writes `compressionInfo`).
 * `getMultipleNewAddressProofs` is one of the two methods whose params are an array.
 */
import { assertAddress, assertArray, assertObject, assertSignature } from '../../assert.js';
import { checkAccountKey, checkHashParams, checkPageParams, checkValidityProofParams, withSpecCompressionInfo, type CursorParams } from './params.js';
import type { ClientContext } from '../client/context.js';
import type { CallOptions } from '../jsonrpc.js';
import * as S from '../shapes.js';
import type * as T from '../types.js';
import { v } from '../validate.js';

export { MAX_COMPRESSION_LIMIT, type CursorParams } from './params.js';

export interface TokenAccountsByOwnerParams extends CursorParams {
  owner: string;
  mint?: string;
}
export interface TokenAccountsByDelegateParams extends CursorParams {
  delegate: string;
  mint?: string;
}
export interface SignaturesForTokenOwnerParams extends CursorParams {
  owner: string;
}

/**
 * A compressed account by `address` or by `hash` (give at least one); `value` is `null` if unknown.
 *
 * @example
 * const { value } = await client.getCompressedAccount({ hash });
 */
export async function getCompressedAccount(
  ctx: ClientContext,
  params: { address?: string | null; hash?: string | null },
  opts?: CallOptions,
): Promise<T.WithContext<T.CompressedAccount | null>> {
  return ctx.rpc.call(
    { method: 'getCompressedAccount', params: checkAccountKey(params), validate: S.withContext(v.nullable(S.compressedAccount)) },
    opts,
  );
}

/** The Merkle proof of one compressed account. */
export async function getCompressedAccountProof(
  ctx: ClientContext,
  params: { hash: string },
  opts?: CallOptions,
): Promise<T.WithContext<T.CompressedAccountProof>> {
  return ctx.rpc.call(
    { method: 'getCompressedAccountProof', params: checkHashParams(params), validate: S.withContext(S.compressedAccountProof) },
    opts,
  );
}

/** Non-inclusion proofs for new addresses. params on the wire: an ARRAY of base58 addresses. */
export async function getMultipleNewAddressProofs(
  ctx: ClientContext,
  addresses: string[],
  opts?: CallOptions,
): Promise<T.WithContext<T.NewAddressProof[]>> {
  assertArray('addresses', addresses, assertAddress, 1);
  return ctx.rpc.call(
    { method: 'getMultipleNewAddressProofs', params: [...addresses], validate: S.withContext(v.array(S.newAddressProof)) },
    opts,
  );
}

/** One validity proof covering existing account `hashes` and `newAddressesWithTrees`. */
export async function getValidityProof(
  ctx: ClientContext,
  params: { hashes?: string[]; newAddressesWithTrees?: { address: string; tree: string }[] },
  opts?: CallOptions,
): Promise<T.WithContext<T.ValidityProof>> {
  return ctx.rpc.call({ method: 'getValidityProof', params: checkValidityProofParams(params), validate: S.withContext(S.validityProof) }, opts);
}

/** One page of compressed token accounts owned by `owner` (filter by `mint`). */
export async function getCompressedTokenAccountsByOwner(
  ctx: ClientContext,
  params: TokenAccountsByOwnerParams,
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<T.CompressedTokenAccount>>> {
  return ctx.rpc.call(
    {
      method: 'getCompressedTokenAccountsByOwner',
      params: checkPageParams(params, 'owner', true),
      validate: S.withContext(S.cursorPage(S.compressedTokenAccount)),
    },
    opts,
  );
}

/** One page of compressed token accounts delegated (partly or fully) to `delegate`. */
export async function getCompressedTokenAccountsByDelegate(
  ctx: ClientContext,
  params: TokenAccountsByDelegateParams,
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<T.CompressedTokenAccount>>> {
  return ctx.rpc.call(
    {
      method: 'getCompressedTokenAccountsByDelegate',
      params: checkPageParams(params, 'delegate', true),
      validate: S.withContext(S.cursorPage(S.compressedTokenAccount)),
    },
    opts,
  );
}

/** One page of the latest compression transaction signatures. */
export async function getLatestCompressionSignatures(
  ctx: ClientContext,
  params: CursorParams = {},
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<T.CompressionSignature>>> {
  return ctx.rpc.call(
    { method: 'getLatestCompressionSignatures', params: checkPageParams(params), validate: S.withContext(S.cursorPage(S.compressionSignature)) },
    opts,
  );
}

/** One page of compression signatures that touched token accounts of `owner`. */
export async function getCompressionSignaturesForTokenOwner(
  ctx: ClientContext,
  params: SignaturesForTokenOwnerParams,
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<T.CompressionSignature>>> {
  return ctx.rpc.call(
    {
      method: 'getCompressionSignaturesForTokenOwner',
      params: checkPageParams(params, 'owner'),
      validate: S.withContext(S.cursorPage(S.compressionSignature)),
    },
    opts,
  );
}

/** A transaction with the compressed accounts it opened and closed. */
export async function getTransactionWithCompressionInfo(
  ctx: ClientContext,
  params: { signature: string },
  opts?: CallOptions,
): Promise<T.TransactionWithCompressionInfo> {
  assertObject('params', params);
  assertSignature('params.signature', params.signature);
  const r = await ctx.rpc.call(
    { method: 'getTransactionWithCompressionInfo', params: { signature: params.signature }, validate: S.transactionWithCompressionInfo },
    opts,
  );
  return withSpecCompressionInfo(r);
}
