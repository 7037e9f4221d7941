/**
 * The compression indexer's V2 methods (what @lightprotocol/stateless.js 0.23 calls by default) and
 * its other methods beyond the spec's nine: balances, by-owner lists with filters, several accounts
 * or proofs at once, token balances, mint holders, and the indexer's health and slot. Same habits as
 * methods.ts: params checked before sending (an `InputError` naming the field), every answer
 * checked against its shape (shapes.ts), `{context, value}` kept. Two methods take an
 * ARRAY as params: `getMultipleCompressedAccountProofs(V2)` and `getMultipleNewAddressProofsV2`.
 */
import { assertAddress, assertArray, assertInt, assertObject, assertSignature, assertString, optional } from '../../assert.js';
import { InputError } from '../../errors/index.js';
import type { TokenAccountsByDelegateParams, TokenAccountsByOwnerParams } from './methods.js';
import {
  assertHash,
  checkAccountKey,
  checkAddressesWithTrees,
  checkHashParams,
  checkPageParams,
  checkValidityProofParams,
  MAX_COMPRESSION_LIMIT,
  withSpecCompressionInfo,
  type CursorParams,
} from './params.js';
import type * as C from './types.js';
import * as CS from './shapes.js';
import type { ClientContext } from '../client/context.js';
import type { CallOptions } from '../jsonrpc.js';
import * as S from '../shapes.js';
import type * as T from '../types.js';
import { v } from '../validate.js';

/** The indexer's cap on memcmp filters per request. */
export const MAX_COMPRESSION_FILTERS = 5;

export interface AccountKey {
  address?: string | null;
  hash?: string | null;
}
export interface AccountKeys {
  hashes?: string[];
  addresses?: string[];
}
export interface MemcmpFilter {
  memcmp: { offset: number; bytes: string };
}
export interface AccountsByOwnerParams extends CursorParams {
  owner: string;
  /** Up to 5 memcmp filters on the account's data (`bytes` in base58). */
  filters?: MemcmpFilter[];
  dataSlice?: { offset: number; length: number };
}
export interface TokenBalancesByOwnerParams extends CursorParams {
  owner: string;
  mint?: string;
}
export interface MintTokenHoldersParams extends CursorParams {
  mint: string;
}
export interface ValidityProofParams {
  hashes?: string[];
  newAddressesWithTrees?: { address: string; tree: string }[];
}

function checkKeys(params: AccountKeys): AccountKeys {
  assertObject('params', params);
  if ((params.hashes === undefined) === (params.addresses === undefined)) throw new InputError('params', 'expected "hashes" or "addresses" (exactly one)');
  if (params.hashes !== undefined) {
    assertArray<string>('params.hashes', params.hashes, assertHash, 1);
    return { hashes: [...params.hashes] };
  }
  assertArray<string>('params.addresses', params.addresses, assertAddress, 1);
  return { addresses: [...params.addresses!] };
}

function checkHashList(hashes: string[]): void {
  assertArray('hashes', hashes, assertHash, 1);
  if (hashes.length > MAX_COMPRESSION_LIMIT) throw new InputError('hashes', `expected at most ${MAX_COMPRESSION_LIMIT} hashes, got ${hashes.length}`);
}

/** A V2 compressed account by `address` or `hash`; `value` is `null` if unknown. */
export async function getCompressedAccountV2(ctx: ClientContext, params: AccountKey, opts?: CallOptions): Promise<T.WithContext<C.CompressedAccountV2 | null>> {
  return ctx.rpc.call({ method: 'getCompressedAccountV2', params: checkAccountKey(params), validate: S.withContext(v.nullable(CS.compressedAccountV2)) }, opts);
}

/** The Merkle proof of one account, with its tree (`treeContext`) and `proveByIndex`. */
export async function getCompressedAccountProofV2(
  ctx: ClientContext,
  params: { hash: string },
  opts?: CallOptions,
): Promise<T.WithContext<C.CompressedAccountProofV2>> {
  return ctx.rpc.call({ method: 'getCompressedAccountProofV2', params: checkHashParams(params), validate: S.withContext(CS.compressedAccountProofV2) }, opts);
}

/** Several accounts by `hashes` or by `addresses`: an item per key, `null` where unknown. */
export async function getMultipleCompressedAccounts(
  ctx: ClientContext,
  params: AccountKeys,
  opts?: CallOptions,
): Promise<T.WithContext<C.AccountItems<T.CompressedAccount>>> {
  return ctx.rpc.call(
    { method: 'getMultipleCompressedAccounts', params: checkKeys(params), validate: S.withContext(CS.accountItems(S.compressedAccount)) },
    opts,
  );
}

export async function getMultipleCompressedAccountsV2(
  ctx: ClientContext,
  params: AccountKeys,
  opts?: CallOptions,
): Promise<T.WithContext<C.AccountItems<C.CompressedAccountV2>>> {
  return ctx.rpc.call(
    { method: 'getMultipleCompressedAccountsV2', params: checkKeys(params), validate: S.withContext(CS.accountItems(CS.compressedAccountV2)) },
    opts,
  );
}

/** Proofs of several accounts. params on the wire: an ARRAY of hashes. */
export async function getMultipleCompressedAccountProofs(
  ctx: ClientContext,
  hashes: string[],
  opts?: CallOptions,
): Promise<T.WithContext<T.CompressedAccountProof[]>> {
  checkHashList(hashes);
  return ctx.rpc.call({ method: 'getMultipleCompressedAccountProofs', params: [...hashes], validate: S.withContext(v.array(S.compressedAccountProof)) }, opts);
}

export async function getMultipleCompressedAccountProofsV2(
  ctx: ClientContext,
  hashes: string[],
  opts?: CallOptions,
): Promise<T.WithContext<C.CompressedAccountProofV2[]>> {
  checkHashList(hashes);
  return ctx.rpc.call(
    { method: 'getMultipleCompressedAccountProofsV2', params: [...hashes], validate: S.withContext(v.array(CS.compressedAccountProofV2)) },
    opts,
  );
}

/** `filters` (memcmp, at most 5) and `dataSlice`, the by-owner lists' own params. */
function checkAccountFilters(params: AccountsByOwnerParams): void {
  optional('params.filters', params.filters, (f, x) => {
    assertArray(f, x, (ff, item) => {
      assertObject(ff, item);
      assertObject(`${ff}.memcmp`, item.memcmp);
      assertInt(`${ff}.memcmp.offset`, item.memcmp.offset, 0, 2 ** 31);
      assertString(`${ff}.memcmp.bytes`, item.memcmp.bytes);
    });
    if ((x as unknown[]).length > MAX_COMPRESSION_FILTERS) throw new InputError(f, `expected at most ${MAX_COMPRESSION_FILTERS} filters, got ${(x as unknown[]).length}`);
  });
  optional('params.dataSlice', params.dataSlice, (f, x) => {
    assertObject(f, x);
    assertInt(`${f}.offset`, x.offset, 0, 2 ** 31);
    assertInt(`${f}.length`, x.length, 0, 2 ** 31);
  });
}

function checkByOwner(params: AccountsByOwnerParams): AccountsByOwnerParams {
  return checkPageParams(params, 'owner', false, checkAccountFilters);
}

/** One page of the live accounts of `owner` (ordered by hash), optionally filtered by memcmp. */
export async function getCompressedAccountsByOwner(
  ctx: ClientContext,
  params: AccountsByOwnerParams,
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<T.CompressedAccount>>> {
  return ctx.rpc.call(
    { method: 'getCompressedAccountsByOwner', params: checkByOwner(params), validate: S.withContext(S.cursorPage(S.compressedAccount)) },
    opts,
  );
}

export async function getCompressedAccountsByOwnerV2(
  ctx: ClientContext,
  params: AccountsByOwnerParams,
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<C.CompressedAccountV2>>> {
  return ctx.rpc.call(
    { method: 'getCompressedAccountsByOwnerV2', params: checkByOwner(params), validate: S.withContext(S.cursorPage(CS.compressedAccountV2)) },
    opts,
  );
}

/** One page of V2 token accounts owned by `owner`. */
export async function getCompressedTokenAccountsByOwnerV2(
  ctx: ClientContext,
  params: TokenAccountsByOwnerParams,
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<C.CompressedTokenAccountV2>>> {
  return ctx.rpc.call(
    {
      method: 'getCompressedTokenAccountsByOwnerV2',
      params: checkPageParams(params, 'owner', true),
      validate: S.withContext(S.cursorPage(CS.compressedTokenAccountV2)),
    },
    opts,
  );
}

/** One page of V2 token accounts delegated to `delegate`. */
export async function getCompressedTokenAccountsByDelegateV2(
  ctx: ClientContext,
  params: TokenAccountsByDelegateParams,
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<C.CompressedTokenAccountV2>>> {
  return ctx.rpc.call(
    {
      method: 'getCompressedTokenAccountsByDelegateV2',
      params: checkPageParams(params, 'delegate', true),
      validate: S.withContext(S.cursorPage(CS.compressedTokenAccountV2)),
    },
    opts,
  );
}

/** A transaction with the accounts it opened and closed, V2 shape (closed ones with nullifier and tx hash). */
export async function getTransactionWithCompressionInfoV2(
  ctx: ClientContext,
  params: { signature: string },
  opts?: CallOptions,
): Promise<C.TransactionWithCompressionInfoV2> {
  assertObject('params', params);
  assertSignature('params.signature', params.signature);
  const r = await ctx.rpc.call(
    { method: 'getTransactionWithCompressionInfoV2', params: { signature: params.signature }, validate: CS.transactionWithCompressionInfoV2 },
    opts,
  );
  return withSpecCompressionInfo(r);
}

/** One V2 validity proof: `accounts[]` and `addresses[]`, each with its tree. */
export async function getValidityProofV2(ctx: ClientContext, params: ValidityProofParams, opts?: CallOptions): Promise<T.WithContext<C.ValidityProofV2>> {
  return ctx.rpc.call({ method: 'getValidityProofV2', params: checkValidityProofParams(params), validate: S.withContext(CS.validityProofV2) }, opts);
}

/** Non-inclusion proofs, each address in the tree it names. params on the wire: an ARRAY of {address, tree}. */
export async function getMultipleNewAddressProofsV2(
  ctx: ClientContext,
  addresses: { address: string; tree: string }[],
  opts?: CallOptions,
): Promise<T.WithContext<T.NewAddressProof[]>> {
  return ctx.rpc.call(
    {
      method: 'getMultipleNewAddressProofsV2',
      params: checkAddressesWithTrees('addresses', addresses, 1),
      validate: S.withContext(v.array(S.newAddressProof)),
    },
    opts,
  );
}

/** Lamports of one account (by hash or address). */
export async function getCompressedBalance(ctx: ClientContext, params: AccountKey, opts?: CallOptions): Promise<T.WithContext<T.U64>> {
  return ctx.rpc.call({ method: 'getCompressedBalance', params: checkAccountKey(params), validate: CS.balance }, opts);
}

/** Lamports of every live account of `owner`, summed. */
export async function getCompressedBalanceByOwner(ctx: ClientContext, params: { owner: string }, opts?: CallOptions): Promise<T.WithContext<T.U64>> {
  assertObject('params', params);
  assertAddress('params.owner', params.owner);
  return ctx.rpc.call({ method: 'getCompressedBalanceByOwner', params: { owner: params.owner }, validate: CS.balance }, opts);
}

/** The token amount of one compressed token account. */
export async function getCompressedTokenAccountBalance(
  ctx: ClientContext,
  params: { hash: string },
  opts?: CallOptions,
): Promise<T.WithContext<{ amount: T.U64 }>> {
  return ctx.rpc.call({ method: 'getCompressedTokenAccountBalance', params: checkHashParams(params), validate: CS.tokenAccountBalance }, opts);
}

/** One page of `owner`'s token balances per mint (V1: the list is `tokenBalances`). */
export async function getCompressedTokenBalancesByOwner(
  ctx: ClientContext,
  params: TokenBalancesByOwnerParams,
  opts?: CallOptions,
): Promise<T.WithContext<C.TokenBalanceList>> {
  return ctx.rpc.call({ method: 'getCompressedTokenBalancesByOwner', params: checkPageParams(params, 'owner', true), validate: CS.tokenBalanceList }, opts);
}

/** One page of `owner`'s token balances per mint (V2: the list is `items`). */
export async function getCompressedTokenBalancesByOwnerV2(
  ctx: ClientContext,
  params: TokenBalancesByOwnerParams,
  opts?: CallOptions,
): Promise<T.WithContext<C.TokenBalancePage>> {
  return ctx.rpc.call({ method: 'getCompressedTokenBalancesByOwnerV2', params: checkPageParams(params, 'owner', true), validate: CS.tokenBalancePage }, opts);
}

/** One page of the holders of `mint`, largest balance first. */
export async function getCompressedMintTokenHolders(
  ctx: ClientContext,
  params: MintTokenHoldersParams,
  opts?: CallOptions,
): Promise<T.WithContext<T.CursorPage<C.OwnerBalance>>> {
  return ctx.rpc.call({ method: 'getCompressedMintTokenHolders', params: checkPageParams(params, 'mint'), validate: CS.ownerBalancePage }, opts);
}

/** The indexer's health: `"ok"` when it is caught up. */
export async function getIndexerHealth(ctx: ClientContext, opts?: CallOptions): Promise<string> {
  return ctx.rpc.call({ method: 'getIndexerHealth', params: undefined, validate: v.string }, opts);
}

/** The last slot the indexer has indexed. */
export async function getIndexerSlot(ctx: ClientContext, opts?: CallOptions): Promise<number> {
  return ctx.rpc.call({ method: 'getIndexerSlot', params: undefined, validate: v.int }, opts);
}
