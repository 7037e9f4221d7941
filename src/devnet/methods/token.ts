/**
 * The SPL token methods of the real RPC, read from the accounts LiteSVM holds for SPL Token and
 * Token-2022: `getTokenAccountBalance`, `getTokenAccountsByOwner`, `getTokenAccountsByDelegate`,
 * `getTokenSupply`, `getTokenLargestAccounts`. Their refusals carry the real RPC's -32602 messages
 * ("could not find account", "not a Token account", "unrecognized Token program id").
 */
import type { AccountView, DevnetChain } from '../chain/contract.js';
import { accountEncodingOf, accountJson } from '../encoding/account.js';
import { programAccounts, type KeyedAccount } from './program-accounts.js';
import { addressParam, arr, cfg, commitmentOf } from '../params/solana.js';
import { bad, badAgave } from '../params/invalid.js';
import { isTokenProgram, readMint, readTokenAccount, tokenAmountJson } from '../encoding/token-layout.js';

/** The real RPC answers at most 20 accounts from getTokenLargestAccounts. */
const LARGEST_ACCOUNTS = 20;

const ctx = (chain: DevnetChain) => ({ slot: chain.slot(), apiVersion: '2.2.0' });

function mintAt(chain: DevnetChain, address: string) {
  const a = chain.account(address);
  if (!a) throw badAgave('Invalid param: could not find mint');
  const m = readMint(a.owner, a.data);
  if (!m || !m.isInitialized) throw badAgave('Invalid param: not a Token mint');
  return { account: a, mint: m };
}

export function getTokenAccountBalance(chain: DevnetChain, params: unknown) {
  const p = arr(params, 'getTokenAccountBalance', 1);
  const address = addressParam(p[0], 'params[0] (token account)');
  commitmentOf(cfg(p[1], 'params[1]'));
  const a = chain.account(address);
  if (!a) throw badAgave('Invalid param: could not find account');
  const t = readTokenAccount(a.owner, a.data);
  if (!t || t.state === 'uninitialized') throw badAgave('Invalid param: not a Token account');
  const { mint } = mintAt(chain, t.mint);
  return { context: ctx(chain), value: tokenAmountJson(t.amount, mint.decimals) };
}

export function getTokenSupply(chain: DevnetChain, params: unknown) {
  const p = arr(params, 'getTokenSupply', 1);
  const address = addressParam(p[0], 'params[0] (mint)');
  commitmentOf(cfg(p[1], 'params[1]'));
  const { mint } = mintAt(chain, address);
  return { context: ctx(chain), value: tokenAmountJson(mint.supply, mint.decimals) };
}

export function getTokenLargestAccounts(chain: DevnetChain, params: unknown) {
  const p = arr(params, 'getTokenLargestAccounts', 1);
  const address = addressParam(p[0], 'params[0] (mint)');
  commitmentOf(cfg(p[1], 'params[1]'));
  const { account, mint } = mintAt(chain, address);
  const holders: { address: string; amount: bigint }[] = [];
  for (const k of programAccounts(chain, account.owner)) {
    const t = readTokenAccount(k.account.owner, k.account.data);
    if (t && t.state !== 'uninitialized' && t.mint === address) holders.push({ address: k.pubkey, amount: t.amount });
  }
  holders.sort((x, y) => (x.amount === y.amount ? 0 : x.amount > y.amount ? -1 : 1));
  return {
    context: ctx(chain),
    value: holders.slice(0, LARGEST_ACCOUNTS).map((h) => ({ address: h.address, ...tokenAmountJson(h.amount, mint.decimals) })),
  };
}

/** `{ mint }` or `{ programId }`: which token program to scan, and which mint to keep (if any). */
function tokenFilter(chain: DevnetChain, v: unknown): { programs: string[]; mint: string | null } {
  const f = cfg(v, 'params[1]');
  if (f.mint !== undefined && f.programId !== undefined) throw bad('params[1] takes either mint or programId, not both');
  if (f.mint !== undefined) {
    const mint = addressParam(f.mint, 'params[1].mint');
    const a = chain.account(mint);
    if (!a) throw badAgave('Invalid param: could not find mint');
    if (!readMint(a.owner, a.data)) throw badAgave('Invalid param: Token mint could not be unpacked');
    return { programs: [a.owner], mint };
  }
  if (f.programId !== undefined) {
    const program = addressParam(f.programId, 'params[1].programId');
    if (!isTokenProgram(program)) throw badAgave('Invalid param: unrecognized Token program id');
    return { programs: [program], mint: null };
  }
  throw bad('params[1] must be { mint } or { programId }');
}

/** A token-accounts-by query read from its params: the config, the matching accounts, and how to show one. */
export interface TokenAccountsQuery {
  config: Record<string, unknown>;
  matches: KeyedAccount[];
  render(k: KeyedAccount): { pubkey: string; account: unknown };
}

/**
 * Read `[who, { mint } | { programId }, config]` as getTokenAccountsByOwner/ByDelegate do and find the
 * matches; getTokenAccountsByOwnerV2 (helius-v2.ts) pages the same matches.
 */
export function tokenAccountsQuery(chain: DevnetChain, params: unknown, method: string, role: 'owner' | 'delegate'): TokenAccountsQuery {
  const p = arr(params, method, 2);
  const who = addressParam(p[0], `params[0] (${role})`);
  const { programs, mint } = tokenFilter(chain, p[1]);
  const c = cfg(p[2], 'params[2]');
  commitmentOf(c);
  // Agave's default is its legacy bare base58; the provider's V2 methods keep base64
  const enc = accountEncodingOf(c, 'params[2]', method.endsWith('V2') ? 'base64' : 'binary');
  const mintOf = (m: string): AccountView | null => chain.account(m);
  const matches: KeyedAccount[] = [];
  for (const program of programs) {
    for (const k of programAccounts(chain, program)) {
      const t = readTokenAccount(k.account.owner, k.account.data);
      if (!t || t.state === 'uninitialized' || t[role] !== who || (mint !== null && t.mint !== mint)) continue;
      matches.push(k);
    }
  }
  return { config: c, matches, render: (k) => ({ pubkey: k.pubkey, account: accountJson(k.account, enc, mintOf, k.pubkey) }) };
}

function tokenAccountsBy(chain: DevnetChain, params: unknown, method: string, role: 'owner' | 'delegate') {
  const q = tokenAccountsQuery(chain, params, method, role);
  return { context: ctx(chain), value: q.matches.map(q.render) };
}

export const getTokenAccountsByOwner = (chain: DevnetChain, params: unknown) => tokenAccountsBy(chain, params, 'getTokenAccountsByOwner', 'owner');
export const getTokenAccountsByDelegate = (chain: DevnetChain, params: unknown) => tokenAccountsBy(chain, params, 'getTokenAccountsByDelegate', 'delegate');
