/**
 * The soak's intents: each one is a System transfer from the payer with an amount no other intent
 * of the campaign uses, so the ledger alone tells which intent a transaction paid (and how often).
 */

/** One intent as the harness offers it (amounts as strings: the list travels to children as JSON). */
export interface Intent {
  id: string;
  to: string;
  lamports: string;
}

/** Amount bases per phase, 10,000,000 lamports apart: up to that many intents per phase stay unique. */
export const PHASE_BASE = {
  main: 10_000_000n,
  kills: 20_000_000n,
  fullDisk: 30_000_000n,
  doubleOpen: 40_000_000n,
  identical: 50_000_000n,
} as const;
export const MAX_INTENTS_PER_PHASE = 10_000_000;

/** The ledger key of a transfer: recipient and amount. */
export const intentKey = (to: string, lamports: string | bigint): string => `${to}/${lamports}`;

/**
 * `count` intents `${prefix}-${i}` paying `base + i` lamports, round-robin over the recipients.
 *
 * @example
 * makeIntents('main', 3, PHASE_BASE.main, [a, b]); // main-0 → a 10000000, main-1 → b 10000001, …
 */
export function makeIntents(prefix: string, count: number, base: bigint, recipients: readonly string[]): Intent[] {
  return Array.from({ length: count }, (_, i) => ({ id: `${prefix}-${i}`, to: recipients[i % recipients.length]!, lamports: String(base + BigInt(i)) }));
}
