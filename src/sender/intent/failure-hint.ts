/**
 * A hint for the on-chain failures a user can fix without reading the runtime's source, appended to
 * the library's error message (the CLI prints its own, with the cluster's exact figures). The one
 * that trips every first script: a transfer to a new address below the rent-exempt minimum fails
 * with `InsufficientFundsForRent`, which names an account index, not an address or an amount.
 */
import { encodeBase58, parseTransaction } from '../../solana/index.js';

/**
 * The rent-exempt minimum of an account with no data under Solana's rent since genesis
 * ((128 bytes of account overhead) × 3,480 lamports per byte-year × 2 years). The cluster's own
 * figure is `getMinimumBalanceForRentExemption(0)`; the hint says so rather than ask the network.
 */
export const RENT_EXEMPT_MINIMUM_NO_DATA = 890_880n;

/** The account index a `{ InsufficientFundsForRent: { account_index } }` error names, if it is one. */
function rentAccountIndex(err: unknown): number | undefined {
  if (err === null || typeof err !== 'object') return undefined;
  const v = (err as Record<string, unknown>).InsufficientFundsForRent;
  if (v === null || typeof v !== 'object') return undefined;
  const i = (v as Record<string, unknown>).account_index;
  return typeof i === 'number' && Number.isInteger(i) && i >= 0 ? i : undefined;
}

/** The static account key at `index` of signed wire bytes, when the bytes parse and hold it. */
function accountAt(wire: Uint8Array | undefined, index: number): string | undefined {
  if (!wire) return undefined;
  try {
    const key = parseTransaction(wire).parts.staticKeys[index];
    return key ? encodeBase58(key) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `''`, or `'; hint: …'` to append to a failure's message for `err` (a TransactionError as the
 * JSON-RPC status gives it) of the transaction in `wire`.
 *
 * @example
 * failureHint({ InsufficientFundsForRent: { account_index: 1 } }, wire);
 * // '; hint: account 1 (7xK…) would be left with fewer lamports than rent-exemption needs: …'
 */
export function failureHint(err: unknown, wire?: Uint8Array): string {
  const i = rentAccountIndex(err);
  if (i === undefined) return '';
  const address = accountAt(wire, i);
  const who = address ? `account ${i} (${address})` : `account ${i}`;
  return (
    `; hint: ${who} would be left with fewer lamports than rent-exemption needs: a new account (a transfer's ` +
    `recipient that did not exist yet) must receive at least the rent-exempt minimum, ${RENT_EXEMPT_MINIMUM_NO_DATA.toLocaleString('en-US')} ` +
    'lamports for an account with no data (getMinimumBalanceForRentExemption(0) gives the cluster\'s figure)'
  );
}
