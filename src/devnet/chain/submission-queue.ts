/**
 * Transactions submitted and not executed yet: the queue the next slot executes, the duplicate
 * check against every signature the chain knows, and the signature-verifier thread that a burst
 * starts (it checks signatures while they wait, so execution can skip LiteSVM's own check).
 */
import type { ParsedTransaction } from '../../solana/index.js';
import { createSignatureVerifier, VERIFIER_START_QUEUE, type PendingSubmission, type SignatureVerifier } from './signature-verifier.js';
import type { StatusCache } from './status-cache.js';

export interface SubmissionQueue {
  /** Queue a transaction for the slot after `slot`, unless its signature is known already. */
  submit(wire: Uint8Array, parsed: ParsedTransaction, signature: string, slot: number): { signature: string; duplicate: boolean };
  /** Everything queued, for slot `slot` to execute; the queue starts empty again. */
  take(slot: number): PendingSubmission[];
  /** Transactions submitted but not executed yet. */
  readonly length: number;
  /** Start no verifier thread from now on, and end the one running. */
  close(): Promise<void>;
}

/**
 * A queue recording into `statuses`; `useVerifier: false` keeps the chain on one thread.
 *
 * @example
 * const queue = createSubmissionQueue(createStatusCache(3), true);
 * queue.submit(wire, parseSubmitted(wire), signature, chain.slot());
 */
export function createSubmissionQueue(statuses: StatusCache, useVerifier: boolean): SubmissionQueue {
  let queue: PendingSubmission[] = [];
  let verifier: SignatureVerifier | null = null;
  let closed = false;
  return {
    submit(wire, parsed, signature, slot) {
      if (statuses.has(signature)) return { signature, duplicate: true };
      const p: PendingSubmission = { signature, wire, parsed };
      statuses.pending(p);
      queue.push(p);
      // Low traffic (tests, bots) never starts the verifier thread; a burst does.
      if (!verifier && useVerifier && queue.length >= VERIFIER_START_QUEUE && !closed) verifier = createSignatureVerifier();
      verifier?.submit(p, slot + 1);
      return { signature, duplicate: false };
    },
    take(slot) {
      const batch = queue;
      queue = [];
      verifier?.executing(slot);
      return batch;
    },
    get length() {
      return queue.length;
    },
    async close() {
      closed = true;
      const v = verifier;
      verifier = null;
      await v?.close();
    },
  };
}
