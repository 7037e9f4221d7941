/**
 * The chain's memory of signatures: each submitted one, pending until its slot and then executed
 * (the ledger, in execution order), so that a signature never executes twice; a dropped one is
 * forgotten, so rebroadcasting the same bytes later may still land. Statuses age into
 * `confirmed` after one slot and `finalized` after `finalizeSlots`.
 */
import type { PendingSubmission } from './signature-verifier.js';
import type { Commitment, ExecutedTransaction, SignatureStatus } from '../types.js';

export interface StatusCache {
  /** Whether the signature is pending or executed. */
  has(signature: string): boolean;
  pending(p: PendingSubmission): void;
  executed(tx: ExecutedTransaction): void;
  /** Dropped (did not land): forgotten. */
  forget(signature: string): void;
  status(signature: string, slot: number): SignatureStatus | null;
  transaction(signature: string): ExecutedTransaction | null;
  ledger(): readonly ExecutedTransaction[];
  /** Compute-unit prices of the transactions executed after `slot - lookbackSlots`, newest first,
   * restricted to those touching one of `accounts` when given. */
  recentComputeUnitPrices(slot: number, lookbackSlots: number, accounts?: string[]): number[];
}

export function createStatusCache(finalizeSlots: number): StatusCache {
  const seen = new Map<string, ExecutedTransaction | PendingSubmission>();
  const ledger: ExecutedTransaction[] = [];
  return {
    has: (signature) => seen.has(signature),
    pending(p) {
      seen.set(p.signature, p);
    },
    executed(tx) {
      seen.set(tx.signature, tx);
      ledger.push(tx);
    },
    forget(signature) {
      seen.delete(signature);
    },
    status(signature, slot) {
      const e = seen.get(signature);
      if (!e || !('slot' in e)) return null;
      const age = slot - e.slot;
      const confirmationStatus: Commitment = age >= finalizeSlots ? 'finalized' : age >= 1 ? 'confirmed' : 'processed';
      return { slot: e.slot, confirmations: confirmationStatus === 'finalized' ? null : age, err: e.err, confirmationStatus };
    },
    transaction(signature) {
      const e = seen.get(signature);
      return e && 'slot' in e ? e : null;
    },
    ledger: () => ledger,
    recentComputeUnitPrices(slot, lookbackSlots, accounts) {
      const from = slot - lookbackSlots;
      const want = accounts && accounts.length ? new Set(accounts) : null;
      const out: number[] = [];
      for (let i = ledger.length - 1; i >= 0; i--) {
        const tx = ledger[i]!;
        if (tx.slot <= from) break;
        if (want && !tx.accountKeys.some((k) => want.has(k))) continue;
        out.push(tx.computeUnitPrice);
      }
      return out;
    },
  };
}
