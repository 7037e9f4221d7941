/**
 * The provider's RPC extensions over the standard account and history methods:
 * `getProgramAccountsV2` and `getTokenAccountsByOwnerV2` (the same matches as getProgramAccounts /
 * getTokenAccountsByOwner, paged by `limit` and a `paginationKey` cursor) and
 * `getTransactionsForAddress` (an address's ledger history with filters, either order, paged by a
 * `paginationToken`). Shapes follow the provider's documentation; what the devnet cannot answer
 * truthfully (`changedSinceSlot`, the token-account expansion) is refused with -32602 naming it.
 */
import type { DevnetChain } from '../chain/contract.js';
import type { KeyedAccount } from './program-accounts.js';
import { programAccountsQuery } from './program-accounts.js';
import { addressParam, arr, cfg, commitmentOf } from '../params/solana.js';
import { bad } from '../params/invalid.js';
import { tokenAccountsQuery } from './token.js';
import { memoOf } from './transaction.js';
import { transactionJson } from '../encoding/transaction.js';
import type { ExecutedTransaction, RpcHandler } from '../types.js';

/** The provider's page bounds for the V2 account methods. */
const V2_MAX_LIMIT = 10_000;
const V2_DEFAULT_LIMIT = 1_000;
/** getTransactionsForAddress: up to 1,000 signatures or 100 full transactions per page. */
const TFA_MAX_SIGNATURES = 1_000;
const TFA_MAX_FULL = 100;

const apiContext = (chain: DevnetChain) => ({ slot: chain.slot(), apiVersion: '2.2.0' });

function limitOf(c: Record<string, unknown>, field: string, max: number, def: number): number {
  const l = c.limit ?? def;
  if (typeof l !== 'number' || !Number.isInteger(l) || l < 1 || l > max) throw bad(`${field}.limit must be an integer in 1..${max}, got ${JSON.stringify(l)}`);
  return l;
}

/**
 * One page of `matches` in pubkey order after `paginationKey` (the last pubkey of the previous page);
 * the next key is null once this page reaches the end.
 */
function accountPage(c: Record<string, unknown>, field: string, matches: KeyedAccount[]) {
  if (c.changedSinceSlot !== undefined && c.changedSinceSlot !== null) {
    throw bad(`${field}.changedSinceSlot is not served by the devnet: LiteSVM keeps no per-account write slot; page without it`);
  }
  const limit = limitOf(c, field, V2_MAX_LIMIT, V2_DEFAULT_LIMIT);
  const key = c.paginationKey === undefined || c.paginationKey === null ? null : addressParam(c.paginationKey, `${field}.paginationKey`);
  const sorted = [...matches].sort((a, b) => (a.pubkey < b.pubkey ? -1 : a.pubkey > b.pubkey ? 1 : 0));
  const rest = key === null ? sorted : sorted.filter((k) => k.pubkey > key);
  const page = rest.slice(0, limit);
  const next = rest.length > limit ? page[page.length - 1]!.pubkey : null;
  return { page, paginationKey: next, totalResults: sorted.length };
}

function getProgramAccountsV2(chain: DevnetChain, params: unknown): unknown {
  const q = programAccountsQuery(chain, params, 'getProgramAccountsV2');
  const { page, paginationKey, totalResults } = accountPage(q.config, 'params[1]', q.matches);
  const value = { accounts: page.map(q.render), paginationKey, totalResults };
  return q.config.withContext === true ? { context: apiContext(chain), value } : value;
}

/**
 * Without `withContext` the provider answers the familiar shape (`value` the account array beside
 * `paginationKey`); with it, `context` and `value: { accounts, paginationKey, totalResults }`.
 */
function getTokenAccountsByOwnerV2(chain: DevnetChain, params: unknown): unknown {
  const q = tokenAccountsQuery(chain, params, 'getTokenAccountsByOwnerV2', 'owner');
  const { page, paginationKey, totalResults } = accountPage(q.config, 'params[2]', q.matches);
  const accounts = page.map(q.render);
  if (q.config.withContext === true) return { context: apiContext(chain), value: { accounts, paginationKey, totalResults } };
  return { value: accounts, paginationKey, totalResults };
}

type Range = { eq?: number; gt?: number; gte?: number; lt?: number; lte?: number };

function rangeOf(v: unknown, field: string, keys: readonly string[], kind: 'integer' | 'string'): Record<string, number | string> | null {
  if (v === undefined || v === null) return null;
  const o = cfg(v, field);
  for (const [k, x] of Object.entries(o)) {
    if (!keys.includes(k)) throw bad(`${field}.${k} is not a comparison; expected ${keys.join(', ')}`);
    const ok = kind === 'integer' ? typeof x === 'number' && Number.isSafeInteger(x) && x >= 0 : typeof x === 'string';
    if (!ok) throw bad(`${field}.${k} must be ${kind === 'integer' ? 'an integer ≥ 0' : 'a signature string'}`);
  }
  return o as Record<string, number | string>;
}

function inRange<V extends number | string>(x: V, r: Record<string, V> | null): boolean {
  if (!r) return true;
  return (
    (r.eq === undefined || x === r.eq) &&
    (r.gt === undefined || x > r.gt) &&
    (r.gte === undefined || x >= r.gte) &&
    (r.lt === undefined || x < r.lt) &&
    (r.lte === undefined || x <= r.lte)
  );
}

/** A position in the ledger as the token carries it: `slot:transactionIndex`. */
function tokenOf(v: unknown, field: string): { slot: number; index: number } | null {
  if (v === undefined || v === null) return null;
  const m = typeof v === 'string' ? /^(\d{1,15}):(\d{1,9})$/.exec(v) : null;
  if (!m) throw bad(`${field}.paginationToken must be the token a previous page returned ("slot:transactionIndex"), got ${JSON.stringify(v)}`);
  return { slot: Number(m[1]), index: Number(m[2]) };
}

/**
 * `getTransactionsForAddress`: the transactions that name `address`, in slot order (desc by default),
 * filtered by status, slot, blockTime and signature, as signatures or full transactions.
 */
function getTransactionsForAddress(chain: DevnetChain, params: unknown): unknown {
  const p = arr(params, 'getTransactionsForAddress', 1);
  const address = addressParam(p[0], 'params[0] (address)');
  const c = cfg(p[1], 'params[1]');
  const commitment = commitmentOf(c, 'finalized');
  if (commitment === 'processed') throw bad('params[1].commitment processed is not supported for getTransactionsForAddress');
  const details = c.transactionDetails ?? 'signatures';
  if (details !== 'signatures' && details !== 'full') throw bad(`params[1].transactionDetails must be "signatures" or "full", got ${JSON.stringify(details)}`);
  const full = details === 'full';
  const limit = limitOf(c, 'params[1]', full ? TFA_MAX_FULL : TFA_MAX_SIGNATURES, full ? TFA_MAX_FULL : TFA_MAX_SIGNATURES);
  const order = c.sortOrder ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw bad(`params[1].sortOrder must be "asc" or "desc", got ${JSON.stringify(order)}`);
  const encoding = String(c.encoding ?? 'json');
  if (full && !['json', 'base64', 'base58'].includes(encoding)) throw bad(`params[1].encoding ${JSON.stringify(encoding)} is not served for full transactions; ask for json, base64 or base58`);
  const after = tokenOf(c.paginationToken, 'params[1]');
  const f = cfg(c.filters, 'params[1].filters');
  for (const k of Object.keys(f)) {
    if (!['status', 'tokenAccounts', 'slot', 'blockTime', 'signature'].includes(k)) throw bad(`params[1].filters.${k} is not a filter of getTransactionsForAddress`);
  }
  const status = f.status ?? 'any';
  if (status !== 'any' && status !== 'succeeded' && status !== 'failed') throw bad(`params[1].filters.status must be succeeded, failed or any, got ${JSON.stringify(status)}`);
  const tokenAccounts = f.tokenAccounts ?? 'none';
  if (tokenAccounts !== 'none') {
    if (tokenAccounts !== 'balanceChanged' && tokenAccounts !== 'all') throw bad(`params[1].filters.tokenAccounts must be none, balanceChanged or all, got ${JSON.stringify(tokenAccounts)}`);
    throw bad(`params[1].filters.tokenAccounts ${tokenAccounts} is not served by the devnet: it keeps no history of which token accounts an address owned; use "none"`);
  }
  const NUM = ['eq', 'gt', 'gte', 'lt', 'lte'];
  const slotR = rangeOf(f.slot, 'params[1].filters.slot', NUM, 'integer') as Range | null;
  const timeR = rangeOf(f.blockTime, 'params[1].filters.blockTime', NUM, 'integer') as Range | null;
  const sigR = rangeOf(f.signature, 'params[1].filters.signature', ['gt', 'gte', 'lt', 'lte'], 'string') as Record<string, string> | null;

  // Each transaction's index inside its slot, in execution order (the ledger is slot-ordered).
  const ledger = chain.ledger();
  const rows: { tx: ExecutedTransaction; index: number }[] = [];
  let slot = -1;
  let index = 0;
  for (const tx of ledger) {
    index = tx.slot === slot ? index + 1 : 0;
    slot = tx.slot;
    if (!tx.accountKeys.includes(address)) continue;
    if (status === 'succeeded' && tx.err !== null) continue;
    if (status === 'failed' && tx.err === null) continue;
    if (
      !inRange(tx.slot, slotR as Record<string, number> | null) ||
      !inRange(tx.blockTime, timeR as Record<string, number> | null) ||
      !inRange(tx.signature, sigR)
    ) {
      continue;
    }
    const st = chain.status(tx.signature);
    if (commitment === 'finalized' && st?.confirmationStatus !== 'finalized') continue;
    rows.push({ tx, index });
  }
  if (order === 'desc') rows.reverse();
  const sign = order === 'desc' ? -1 : 1;
  const rest = after === null ? rows : rows.filter((r) => sign * (r.tx.slot - after.slot || r.index - after.index) > 0);
  const page = rest.slice(0, limit);
  const last = page[page.length - 1];
  const paginationToken = rest.length > limit && last ? `${last.tx.slot}:${last.index}` : null;
  const data = page.map(({ tx, index: transactionIndex }) => {
    if (!full) {
      const st = chain.status(tx.signature);
      return { signature: tx.signature, slot: tx.slot, transactionIndex, err: tx.err, memo: memoOf(tx), blockTime: tx.blockTime, confirmationStatus: st?.confirmationStatus ?? 'finalized' };
    }
    const out = transactionJson(chain, tx, encoding);
    // the getTransaction rule: a v0 transaction needs maxSupportedTransactionVersion
    if (out.version === 0 && (c.maxSupportedTransactionVersion === undefined || c.maxSupportedTransactionVersion === null)) {
      throw bad('a version 0 transaction is in range: set params[1].maxSupportedTransactionVersion to 0');
    }
    if (out.version === 'legacy' && c.maxSupportedTransactionVersion === undefined) delete out.version;
    return { ...out, transactionIndex };
  });
  return { data, paginationToken };
}

/** The three methods as handlers, for solana.ts. */
export function heliusV2Methods(chain: DevnetChain): Record<string, RpcHandler> {
  return {
    getProgramAccountsV2: (params) => getProgramAccountsV2(chain, params),
    getTokenAccountsByOwnerV2: (params) => getTokenAccountsByOwnerV2(chain, params),
    getTransactionsForAddress: (params) => getTransactionsForAddress(chain, params),
  };
}
