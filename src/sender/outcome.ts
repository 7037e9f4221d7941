/**
 * What the caller is told about an intent: its outcome (signature, slot, commitment, attempts,
 * timings; every signature and slot of a bundle), one item of a batch, and an outcome read back from the journal for an intent an
 * earlier process (or call) already ended.
 */
import { CairnError, ErrorCodes } from '../errors/index.js';
import { errorFromJournal } from './journal/error.js';
import type { IntentView } from './journal/file/journal.js';
import type { Signature } from '../solana/index.js';
import type { Commitment } from './client/rpc.js';

export interface SendTimings {
  /** Build + sign duration, ms (last attempt). */
  buildMs: number;
  /** From the call to the first `/fast` answer, ms. */
  firstSubmitMs?: number;
  /** From the call to the first status seen, ms. */
  landedMs?: number;
  /** From the call to the requested commitment, ms. */
  confirmedMs?: number;
}

export interface SendOutcome {
  id: string;
  /** Base58; typed as kit's `Signature` too, so it goes into a kit call as it is. */
  signature: Signature;
  slot: number;
  commitment: Commitment;
  /** Signed versions of the intent (1, or more after re-signing expired ones). */
  attempts: number;
  /** Submits of the final signature (first send + rebroadcasts). */
  sends: number;
  timings: SendTimings;
  /** True when the outcome was read back from the journal (sent by an earlier process). */
  fromJournal?: boolean;
  /**
   * Present when the intent is a bundle (`sendBundle`): every transaction's signature and slot, in
   * order, and the id `/fast` answered ('' when no answer came, e.g. an outcome found after a crash).
   * `signature` and `slot` are then its first transaction's.
   */
  bundle?: { bundleId: string; signatures: Signature[]; slots: number[] };
}

export type SendManyItem =
  | { index: number; id: string; ok: true; outcome: SendOutcome }
  | { index: number; id: string; ok: false; error: CairnError };

/** The outcome of an intent the journal holds as ended: its confirmation, or the error it ended with. */
export function outcomeFromJournal(v: IntentView): SendOutcome | CairnError {
  const end = v.end;
  if (end?.op === 'confirmed') {
    return {
      id: v.id,
      signature: end.signature as Signature,
      slot: end.slot,
      commitment: end.commitment as Commitment,
      attempts: v.attempts,
      sends: 0,
      timings: { buildMs: 0 },
      fromJournal: true,
      ...(end.bundle ? { bundle: { bundleId: end.bundle.bundleId, signatures: end.bundle.signatures as Signature[], slots: [...end.bundle.slots] } } : {}),
    };
  }
  if (end?.op === 'failed' || end?.op === 'abandoned') return errorFromJournal(end, v.id);
  return new CairnError(ErrorCodes.SENDER_JOURNAL, `intent ${v.id} ended in state ${v.state}`, { context: { id: v.id, fromJournal: true } });
}
