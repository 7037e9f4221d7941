/**
 * The nine compressed-account methods of the spec ("Compressed-account queries"), each with its
 * exact params shape. Results keep the spec's `{ context, value }` envelope so callers see the slot
 * a proof was read at; `getTransactionWithCompressionInfo` answers at the top level and is
 * normalised to the spec's `compression_info` name (the indexer itself writes `compressionInfo`).
 * `getMultipleNewAddressProofs` is one of the two methods whose params are an array.
 */
import { assertAddress, assertArray, assertInt, assertObject, assertSignature, assertString, optional } from '../assert.js';
import { InputError } from '../errors.js';
import type { ClientContext } from './context.js';
import type { CallOptions } from './jsonrpc.js';
import * as S from './shapes.js';
import type * as T from './types.js';
import { v } from './validate.js';

/** Largest page the compression indexer serves. */
export const MAX_COMPRESSION_LIMIT = 1_000;

export interface CursorParams {
  cursor?: string;
  limit?: number;
}

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

function checkCursor(p: CursorParams): void {
  optional('params.cursor', p.cursor, (f, x) => assertString(f, x, { nonEmpty: true }));
  optional('params.limit', p.limit, (f, x) => assertInt(f, x, 1, MAX_COMPRESSION_LIMIT));
}

function clean<P extends object>(p: P): P {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(p)) if (x !== undefined) out[k] = x;
  return out as P;
}

/** A hash is 32 bytes in base58, so it has the shape of an address. */
const assertHash: (field: string, x: unknown) => asserts x is string = assertAddress;

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
  assertObject('params', params);
  if (params.address != null) assertAddress('params.address', params.address);
  if (params.hash != null) assertHash('params.hash', params.hash);
  if (params.address == null && params.hash == null) throw new InputError('params', 'expected "address" or "hash"');
  return ctx.rpc.call(
    {
      method: 'getCompressedAccount',
      params: { address: params.address ?? null, hash: params.hash ?? null },
      validate: S.withContext(v.nullable(S.compressedAccount)),
    },
    opts,
  );
}

/** The Merkle proof of one compressed account. */
export async function getCompressedAccountProof(
  ctx: ClientContext,
  params: { hash: string },
  opts?: CallOptions,
): Promise<T.WithContext<T.CompressedAccountProof>> {
  assertObject('params', params);
  assertHash('params.hash', params.hash);
  return ctx.rpc.call(
    { method: 'getCompressedAccountProof', params: { hash: params.hash }, validate: S.withContext(S.compressedAccountProof) },
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
  assertObject('params', params);
  const hashes = params.hashes ?? [];
  const na = params.newAddressesWithTrees ?? [];
  assertArray('params.hashes', hashes, assertHash);
  assertArray('params.newAddressesWithTrees', na, (f, x) => {
    assertObject(f, x);
    assertAddress(`${f}.address`, x.address);
    assertAddress(`${f}.tree`, x.tree);
  });
  if (hashes.length + na.length === 0) throw new InputError('params.hashes', 'expected at least one hash or new address');
  return ctx.rpc.call(
    {
      method: 'getValidityProof',
      params: { hashes, newAddressesWithTrees: na.map(({ address, tree }) => ({ address, tree })) },
      validate: S.withContext(S.validityProof),
    },
    opts,
  );
}

/** One page of compressed token accounts owned by `owner` (filter by `mint`). */
export async function getCompressedTokenAccountsByOwner(
  ctx: ClientContext,
  params: TokenAccountsByOwnerParams,
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<T.CompressedTokenAccount>>> {
  assertObject('params', params);
  assertAddress('params.owner', params.owner);
  optional('params.mint', params.mint, assertAddress);
  checkCursor(params);
  return ctx.rpc.call(
    { method: 'getCompressedTokenAccountsByOwner', params: clean(params), validate: S.withContext(S.cursorPage(S.compressedTokenAccount)) },
    opts,
  );
}

/** One page of compressed token accounts delegated (partly or fully) to `delegate`. */
export async function getCompressedTokenAccountsByDelegate(
  ctx: ClientContext,
  params: TokenAccountsByDelegateParams,
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<T.CompressedTokenAccount>>> {
  assertObject('params', params);
  assertAddress('params.delegate', params.delegate);
  optional('params.mint', params.mint, assertAddress);
  checkCursor(params);
  return ctx.rpc.call(
    {
      method: 'getCompressedTokenAccountsByDelegate',
      params: clean(params),
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
  assertObject('params', params);
  checkCursor(params);
  return ctx.rpc.call(
    { method: 'getLatestCompressionSignatures', params: clean(params), validate: S.withContext(S.cursorPage(S.compressionSignature)) },
    opts,
  );
}

/** One page of compression signatures that touched token accounts of `owner`. */
export async function getCompressionSignaturesForTokenOwner(
  ctx: ClientContext,
  params: SignaturesForTokenOwnerParams,
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<T.CompressionSignature>>> {
  assertObject('params', params);
  assertAddress('params.owner', params.owner);
  checkCursor(params);
  return ctx.rpc.call(
    {
      method: 'getCompressionSignaturesForTokenOwner',
      params: clean(params),
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
  const raw = r as unknown as Record<string, unknown>;
  if (!('compression_info' in raw) && 'compressionInfo' in raw) {
    const { compressionInfo, ...rest } = raw;
    return { ...rest, compression_info: compressionInfo } as unknown as T.TransactionWithCompressionInfo;
  }
  return r;
}
