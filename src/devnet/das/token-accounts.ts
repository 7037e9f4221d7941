/**
 * `getTokenAccounts` for the devnet: SPL Token and Token-2022 accounts that executed transactions
 * touched. After every successful transaction that invokes a token program the accounts it lists are
 * re-read from the chain; those
 * owned by a token program with an Account layout (165 bytes, or longer with account type 2 for
 * Token-2022) are indexed by address, and closed ones are dropped. Pagination follows the DAS indexer:
 * `page`/`limit` or a `cursor` (the last address of the previous page), `options.showZeroBalance`.
 */
import { encodeBase58 } from '../../solana/index.js';
import type { Chain, ExecutedTransaction } from '../types.js';
import { b58, bool, int, invalid, obj, optB58 } from '../params/indexer.js';

const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP5VEhdkAS6EPFLC8PQHKLhPtrZCNrVPu';

/** What the index needs from the chain: raw account reads (owner program, data). */
export interface AccountReader {
  account(address: string): { owner: string; data: Uint8Array } | null;
}

export interface TokenAccountRow {
  address: string;
  mint: string;
  owner: string;
  amount: bigint;
  delegate: string | null;
  delegatedAmount: bigint;
  frozen: boolean;
}

export interface TokenAccountIndex {
  query(p: Record<string, unknown>): Record<string, unknown>;
  rows(): TokenAccountRow[];
  close(): void;
}

/** Decode the 165-byte SPL token Account layout; null when `data` is not an initialised token account. */
function decodeTokenAccount(address: string, programOwner: string, data: Uint8Array): TokenAccountRow | null {
  if (programOwner !== TOKEN_PROGRAM_ID && programOwner !== TOKEN_2022_PROGRAM_ID) return null;
  if (data.length < 165) return null;
  if (data.length > 165 && !(programOwner === TOKEN_2022_PROGRAM_ID && data[165] === 2)) return null;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const state = data[108];
  if (state === 0) return null; // uninitialised
  const hasDelegate = dv.getUint32(72, true) === 1;
  return {
    address,
    mint: encodeBase58(data.subarray(0, 32)),
    owner: encodeBase58(data.subarray(32, 64)),
    amount: dv.getBigUint64(64, true),
    delegate: hasDelegate ? encodeBase58(data.subarray(76, 108)) : null,
    delegatedAmount: dv.getBigUint64(121, true),
    frozen: state === 2,
  };
}

/** JSON number when exact, else the decimal string (u64 amounts can exceed 2^53). */
const num = (v: bigint): number | string => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString());

/**
 * Index the token accounts of `chain`. Without account reads (a chain that does not expose them) the
 * index stays empty and says so in the result's `errors`.
 *
 * @example
 * const idx = createTokenAccountIndex(chain);
 * idx.query({ owner }) // { total, limit, page, token_accounts: [...] }
 */
export function createTokenAccountIndex(chain: Chain): TokenAccountIndex {
  const reader = (chain as Chain & Partial<AccountReader>).account ? (chain as Chain & AccountReader) : null;
  const rows = new Map<string, TokenAccountRow>();
  const refresh = (tx: ExecutedTransaction) => {
    if (!reader || tx.err !== null) return;
    // Only a token program changes a token account's fields: skip every other transaction, so that
    // plain transfers (the /fast hot path) cost one scan of their keys and nothing more.
    if (!tx.accountKeys.some((k) => k === TOKEN_PROGRAM_ID || k === TOKEN_2022_PROGRAM_ID)) return;
    for (const key of tx.accountKeys) {
      const acc = reader.account(key);
      const row = acc ? decodeTokenAccount(key, acc.owner, acc.data) : null;
      if (row) rows.set(key, row);
      else rows.delete(key);
    }
  };
  for (const tx of chain.ledger()) refresh(tx);
  const unsubscribe = chain.onTransaction(refresh);

  return {
    rows: () => [...rows.values()],
    close: unsubscribe,
    query(p) {
      const owner = optB58(p.owner, 'owner');
      const mint = optB58(p.mint, 'mint');
      if (!owner && !mint) throw invalid('owner', 'owner or mint is required');
      const limit = int(p.limit, 'limit', 1, 1000) ?? 1000;
      const page = int(p.page, 'page', 1, 1_000_000_000);
      const cursor = p.cursor === undefined || p.cursor === null ? undefined : (b58(p.cursor, 'cursor'), p.cursor as string);
      if (page !== undefined && cursor !== undefined) throw invalid('page', 'page-based and cursor-based pagination cannot be mixed');
      const options = obj(p.options ?? p.displayOptions, 'options') ?? {};
      const showZeroBalance = bool(options.showZeroBalance, 'options.showZeroBalance') ?? false;
      const ownerText = owner ? encodeBase58(owner) : undefined;
      const mintText = mint ? encodeBase58(mint) : undefined;
      let list = [...rows.values()]
        .filter((r) => (!ownerText || r.owner === ownerText) && (!mintText || r.mint === mintText) && (showZeroBalance || r.amount > 0n))
        .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
      let items: TokenAccountRow[];
      let more: boolean;
      const out: Record<string, unknown> = { last_indexed_slot: chain.slot() };
      if (cursor !== undefined) {
        list = list.filter((r) => r.address > cursor);
        items = list.slice(0, limit);
        more = list.length > limit;
      } else {
        const pg = page ?? 1;
        items = list.slice((pg - 1) * limit, pg * limit);
        more = list.length > pg * limit;
        out.page = pg;
      }
      out.total = items.length;
      out.limit = limit;
      out.cursor = more && items.length ? items[items.length - 1].address : null;
      out.token_accounts = items.map((r) => ({
        address: r.address,
        mint: r.mint,
        owner: r.owner,
        amount: num(r.amount),
        delegated_amount: num(r.delegatedAmount),
        frozen: r.frozen,
        burnt: false,
      }));
      if (!reader) out.errors = ['this devnet chain does not expose account reads: token accounts are not indexed'];
      return out;
    },
  };
}
