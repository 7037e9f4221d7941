/**
 * What an executed transaction's `meta` holds beyond balances and logs, collected as the real RPC
 * collects it: the addresses its v0 lookups loaded, the token balances of the SPL Token and
 * Token-2022 accounts it touched (read before and after execution, by Agave's rules in
 * ledger/src/token_balances.rs) and its inner instructions (from LiteSVM's metadata). Kept beside
 * the ledger entry, keyed by it, so a transaction without any of them costs nothing. (The entry's
 * type, ExecutedTransaction in types.ts, is another part's; these fields belong on it in time.)
 *
 * Known limit: `uiAmount`/`uiAmountString` are the raw amount over the mint's decimals. A Token-2022
 * mint with an interest-bearing or scaled-UI-amount extension has the real RPC scale them; the
 * devnet does not (as its getTokenAccountBalance does not).
 */
import { address58, encodeBase58, COMPUTE_BUDGET_PROGRAM, SYSTEM_PROGRAM, type AddressTableLookup, type CompiledInstruction } from '../../solana/index.js';
import { isTokenProgram, readMint, readTokenAccount, tokenAmountJson } from '../encoding/token-layout.js';
import type { ExecutedTransaction } from '../types.js';

/** One `preTokenBalances` / `postTokenBalances` entry, as the real RPC writes it. */
export interface TokenBalanceJson {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: Record<string, unknown>;
}

/** One instruction a top-level instruction invoked (json encoding: data in base58). */
export interface InnerInstructionJson {
  programIdIndex: number;
  accounts: number[];
  data: string;
  stackHeight: number;
}

export interface TransactionDetail {
  preTokenBalances: TokenBalanceJson[];
  postTokenBalances: TokenBalanceJson[];
  /** Only top-level instructions that invoked something, as the real RPC lists them. */
  innerInstructions: { index: number; instructions: InnerInstructionJson[] }[];
  loadedAddresses: { writable: string[]; readonly: string[] };
}

/** An account as the collectors read it. */
export interface AccountRead {
  owner: string;
  data: Uint8Array;
}
export type ReadAccount = (address: string) => AccountRead | null;

const details = new WeakMap<ExecutedTransaction, TransactionDetail>();

/** The detail of `tx`: empty lists for a transaction that had none to record. */
export function transactionDetail(tx: ExecutedTransaction): TransactionDetail {
  return (
    details.get(tx) ?? { preTokenBalances: [], postTokenBalances: [], innerInstructions: [], loadedAddresses: { writable: [], readonly: [] } }
  );
}

/** Record `detail` for `tx` unless it holds nothing. */
export function recordTransactionDetail(tx: ExecutedTransaction, detail: TransactionDetail): void {
  const empty =
    detail.preTokenBalances.length === 0 &&
    detail.postTokenBalances.length === 0 &&
    detail.innerInstructions.length === 0 &&
    detail.loadedAddresses.writable.length === 0 &&
    detail.loadedAddresses.readonly.length === 0;
  if (!empty) details.set(tx, detail);
}

/** The header of an address lookup table account (solana-program's LOOKUP_TABLE_META_SIZE); addresses follow. */
const LOOKUP_TABLE_META_SIZE = 56;

/**
 * The addresses a v0 message's lookups load, writable ones first, then read-only, each in lookup
 * order (the order the runtime appends them to the account keys). Null when a table is missing or
 * an index is past its end: the runtime then refuses to load the transaction, which never lands.
 */
export function resolveLookups(lookups: readonly AddressTableLookup[], readAccount: ReadAccount): { writable: Uint8Array[]; readonly: Uint8Array[] } | null {
  const writable: Uint8Array[] = [];
  const readonly: Uint8Array[] = [];
  for (const l of lookups) {
    const table = readAccount(address58(l.key));
    if (!table) return null;
    const at = (i: number): Uint8Array | null => {
      const from = LOOKUP_TABLE_META_SIZE + 32 * i;
      return from + 32 <= table.data.length ? table.data.subarray(from, from + 32) : null;
    };
    for (const pass of [[l.writableIndexes, writable], [l.readonlyIndexes, readonly]] as const) {
      for (let k = 0; k < pass[0].length; k++) {
        const a = at(pass[0][k]!);
        if (!a) return null;
        pass[1].push(Uint8Array.from(a));
      }
    }
  }
  return { writable, readonly };
}

/** Whether any account of the transaction is a token program: Agave collects token balances only then. */
export const touchesTokenProgram = (keys: readonly string[]): boolean => keys.some(isTokenProgram);

/**
 * Token balances of the accounts in `keys` as they stand now: every account owned by a token
 * program that parses as a token account of a readable mint, skipping the programs the transaction
 * invokes and the token programs themselves (Agave's collect_token_balances).
 */
export function tokenBalances(keys: readonly string[], invoked: ReadonlySet<number>, readAccount: ReadAccount): TokenBalanceJson[] {
  const out: TokenBalanceJson[] = [];
  const decimals = new Map<string, number | null>();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (invoked.has(i) || isTokenProgram(key)) continue;
    const a = readAccount(key);
    if (!a || !isTokenProgram(a.owner)) continue;
    const t = readTokenAccount(a.owner, a.data);
    if (!t) continue;
    let d = decimals.get(t.mint);
    if (d === undefined) {
      const m = readAccount(t.mint);
      d = m && m.owner === a.owner ? (readMint(m.owner, m.data)?.decimals ?? null) : null;
      decimals.set(t.mint, d);
    }
    // Without its mint an account's amount cannot be written in whole tokens: Agave leaves it out too.
    if (d === null) continue;
    out.push({ accountIndex: i, mint: t.mint, owner: t.owner, programId: a.owner, uiTokenAmount: tokenAmountJson(t.amount, d) });
  }
  return out;
}

/** Programs that never invoke another: a transaction calling only these has no inner instructions. */
const NO_CPI = new Set([SYSTEM_PROGRAM, COMPUTE_BUDGET_PROGRAM]);

/** Whether the transaction may have inner instructions (any top-level program that can invoke). */
export function mayInvoke(instructions: readonly CompiledInstruction[], keys: readonly string[]): boolean {
  return instructions.some((ix) => !NO_CPI.has(keys[ix.programIdIndex] ?? ''));
}

/** LiteSVM's inner instructions (one list per top-level instruction) as the real RPC lists them. */
export function innerInstructionsJson(
  perInstruction: readonly (readonly { instruction(): { programIdIndex(): number; accounts(): Uint8Array; data(): Uint8Array }; stackHeight(): number }[])[],
): TransactionDetail['innerInstructions'] {
  const out: TransactionDetail['innerInstructions'] = [];
  perInstruction.forEach((list, index) => {
    if (list.length === 0) return;
    out.push({
      index,
      instructions: list.map((inner) => {
        const ix = inner.instruction();
        return { programIdIndex: ix.programIdIndex(), accounts: Array.from(ix.accounts()), data: encodeBase58(ix.data()), stackHeight: inner.stackHeight() };
      }),
    });
  });
  return out;
}
