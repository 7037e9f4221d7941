/**
 * Errors that end an intent are journaled as data (`code`, `message`, `context`) and rebuilt as the
 * same class when the intent is read back, so a caller asking again for an id that failed in an
 * earlier process gets the `TransactionFailedError` (with its `err` and logs) or the
 * `BlockhashExpiredError` (with both heights) it would have got the first time — not a guess made
 * from the message. Records written before `code` existed are still read, as a plain `CairnError`.
 */
import { BlockhashExpiredError, CairnError, ErrorCodes, InputError, TransactionFailedError, type CairnErrorContext, type ErrorCode } from '../../errors/index.js';
import type { JournalRecord } from './file/journal.js';

type Ended = Extract<JournalRecord, { op: 'failed' } | { op: 'abandoned' }>;

/** What a `failed` / `abandoned` record stores about the error that ended the intent. */
export function journalFailure(e: CairnError): { code: ErrorCode; context: Record<string, unknown> } {
  return { code: e.code, context: jsonSafe(e.context) };
}

/**
 * Rebuild the error that ended an intent from its journal record.
 *
 * @example
 * const err = errorFromJournal(view.end, view.id); // TransactionFailedError, BlockhashExpiredError, …
 */
export function errorFromJournal(end: Ended, id: string): CairnError {
  const message = end.op === 'failed' ? end.error : end.reason;
  const signature = 'signature' in end && end.signature ? { signature: end.signature } : {};
  const code = end.code !== undefined && Object.hasOwn(ErrorCodes, end.code) ? (end.code as ErrorCode) : undefined;
  if (code === undefined) {
    // An old record (no code): the best available reading, as before codes were journaled. It holds
    // no context but the id and the signature, whatever the guessed code's entry says.
    const guessed =
      end.op === 'abandoned' ? ErrorCodes.SENDER_JOURNAL : /expired/.test(message) ? ErrorCodes.SENDER_BLOCKHASH_EXPIRED : ErrorCodes.SENDER_TRANSACTION_FAILED;
    return new CairnError(guessed, message, { context: { id, fromJournal: true, ...signature } });
  }
  const context: Record<string, unknown> = { ...(end.context ?? {}), ...signature, id, fromJournal: true };
  switch (code) {
    case ErrorCodes.SENDER_TRANSACTION_FAILED:
      return new TransactionFailedError(code, message, { context: journaled(code, context) });
    case ErrorCodes.SENDER_BLOCKHASH_EXPIRED:
      return new BlockhashExpiredError(code, message, { context: journaled(code, context) });
    case ErrorCodes.INPUT_INVALID: {
      const field = typeof context.field === 'string' ? context.field : 'input';
      const prefix = `"${field}": `;
      const e = new InputError(field, message.startsWith(prefix) ? message.slice(prefix.length) : message, {
        ...(typeof context.expected === 'string' ? { expected: context.expected } : {}),
        ...('got' in context ? { got: context.got } : {}),
      });
      Object.assign(e.context, { id, fromJournal: true });
      return e;
    }
    default:
      return new CairnError(code, message, { context: journaled(code, context) });
  }
}

/**
 * A context read back from the journal, as the context of the code it was journaled under. It was
 * written from an error built against that code (`journalFailure`), and JSON keeps no types: with
 * `fromSerialized`, the one place a context is taken on trust rather than checked where it is made.
 */
function journaled<C extends ErrorCode>(_code: C, context: Record<string, unknown>): CairnErrorContext[C] {
  return context as CairnErrorContext[C];
}

function jsonSafe(v: object): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x))) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** What the sender knows of an intent when a state change of it could not be journaled. */
export interface KnownState {
  /** What the sender knows: `confirmed`, `failed`, `expired`, `created`, `none`, … */
  state: string;
  signature?: string;
  slot?: number;
  /** A phrase for the message: what happened that the journal could not record. */
  what: string;
}

/**
 * The error a caller gets when the journal failed to store a state change of intent `id`: what is
 * true of the intent, `state` (what the sender knows) and `journalState` (what the journal durably
 * holds).
 * - `SENDER_PENDING` when the journal holds the intent unfinished and its end is not settled:
 *   resume() (once the journal can be written) may still land it, so it is not a failure.
 * - `SENDER_JOURNAL_FAILED` when the outcome is settled whatever resume() does: it landed
 *   (`state: 'confirmed'`, with its signature and slot), it failed on chain, or nothing of it was
 *   journaled or sent (`journalState: 'none'`).
 *
 * @example
 * try { await journal.append(rec); } catch (e) { throw journalWriteError(e, rec.id, { state: 'confirmed', signature, slot, what: 'landed' }); }
 */
export function journalWriteError(e: CairnError, id: string, known: KnownState): CairnError {
  const c = e.context as { state?: string; path?: string; errno?: string };
  const journalState = c.state ?? 'none';
  const settled = journalState === 'none' || known.state === 'confirmed' || known.state === 'failed';
  const next = settled ? '' : '; resume() finishes it once the journal can be written';
  return new CairnError(
    settled ? ErrorCodes.SENDER_JOURNAL_FAILED : ErrorCodes.SENDER_PENDING,
    `intent ${id}: ${known.what}, but the journal could not record it (${c.errno ?? 'write failed'}); the journal holds it as ${journalState}${next}`,
    {
      context: {
        id,
        state: known.state,
        journalState,
        ...(known.signature ? { signature: known.signature } : {}),
        ...(known.slot !== undefined ? { slot: known.slot } : {}),
        ...(c.path ? { path: c.path } : {}),
        ...(c.errno ? { errno: c.errno } : {}),
      },
      cause: e,
    },
  );
}
