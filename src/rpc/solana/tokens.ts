/**
 * The standard SPL token methods: a token account's balance, a mint's supply and largest holders, the
 * token accounts of an owner or a delegate. Params checked as InputError, answers as RPC_SCHEMA.
 */
import { assertAddress, assertObject } from '../../assert.js';
import { InputError } from '../../errors/index.js';
import type { ClientContext } from '../client/context.js';
import type { CallOptions } from '../jsonrpc.js';
import * as S from '../shapes.js';
import { v, type Validator } from '../validate.js';
import { keyedV, accountConfig, type KeyedAccount, type AccountParams } from './accounts.js';
import { commitmentConfig, type CommitmentParams } from './params.js';

/** An SPL token amount as the RPC writes it (`amount` as exact digits). */
export interface TokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
}

const tokenAmountV = v.object(
  { amount: v.string, decimals: v.int, uiAmountString: v.string },
  { uiAmount: v.nullable(v.number) },
) as unknown as Validator<TokenAmount>;

/** A token account's balance. */
export async function getTokenAccountBalance(ctx: ClientContext, account: string, params?: CommitmentParams, opts?: CallOptions): Promise<TokenAmount> {
  assertAddress('account', account);
  const cfg = commitmentConfig(params);
  return (await ctx.rpc.call({ method: 'getTokenAccountBalance', params: cfg ? [account, cfg] : [account], validate: S.withContext(tokenAmountV) }, opts)).value;
}

/** A mint's supply. */
export async function getTokenSupply(ctx: ClientContext, mint: string, params?: CommitmentParams, opts?: CallOptions): Promise<TokenAmount> {
  assertAddress('mint', mint);
  const cfg = commitmentConfig(params);
  return (await ctx.rpc.call({ method: 'getTokenSupply', params: cfg ? [mint, cfg] : [mint], validate: S.withContext(tokenAmountV) }, opts)).value;
}

/** The (up to 20) largest holders of a mint, largest first. */
export async function getTokenLargestAccounts(
  ctx: ClientContext,
  mint: string,
  params?: CommitmentParams,
  opts?: CallOptions,
): Promise<(TokenAmount & { address: string })[]> {
  assertAddress('mint', mint);
  const cfg = commitmentConfig(params);
  const item = v.object({ address: v.string, amount: v.string, decimals: v.int, uiAmountString: v.string }) as unknown as Validator<
    TokenAmount & { address: string }
  >;
  return (await ctx.rpc.call({ method: 'getTokenLargestAccounts', params: cfg ? [mint, cfg] : [mint], validate: S.withContext(v.array(item)) }, opts)).value;
}

function tokenAccountsBy(method: 'getTokenAccountsByOwner' | 'getTokenAccountsByDelegate', who: 'owner' | 'delegate') {
  return async (
    ctx: ClientContext,
    address: string,
    filter: { mint: string } | { programId: string },
    params?: AccountParams,
    opts?: CallOptions,
  ): Promise<KeyedAccount[]> => {
    assertAddress(who, address);
    assertObject('filter', filter);
    if ('mint' in filter === 'programId' in filter) throw new InputError('filter', 'expected { mint } or { programId }');
    const f =
      'mint' in filter
        ? (assertAddress('filter.mint', filter.mint), { mint: filter.mint })
        : (assertAddress('filter.programId', filter.programId), { programId: filter.programId });
    return (await ctx.rpc.call({ method, params: [address, f, accountConfig(params)], validate: S.withContext(keyedV) }, opts)).value;
  };
}

/** The token accounts of an owner, of one mint or of one token program. */
export const getTokenAccountsByOwner = tokenAccountsBy('getTokenAccountsByOwner', 'owner');

/** The token accounts a delegate may spend from, of one mint or of one token program. */
export const getTokenAccountsByDelegate = tokenAccountsBy('getTokenAccountsByDelegate', 'delegate');
