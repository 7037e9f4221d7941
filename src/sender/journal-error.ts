/**
 * Errors that end an intent are journaled as data (`code`, `message`, `context`) and rebuilt as the
 * same class when the intent is read back, so a caller asking again for an id that failed in an
 * earlier process gets the `TransactionFailedError` (with its `err` and logs) or the
 * `BlockhashExpiredError` (with both heights) it would have got the first time — not a guess made
 * from the message. Records written before `code` existed are still read, as a plain `CairnError`.
 */
import { BlockhashExpiredError, CairnError, ErrorCodes, InputError, TransactionFailedError, type ErrorCode } from '../errors.js';
import type { JournalRecord } from './journal.js';

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
    // An old record (no code): the best available reading, as before codes were journaled.
    const guessed =
      end.op === 'abandoned' ? ErrorCodes.SENDER_JOURNAL : /expired/.test(message) ? ErrorCodes.SENDER_BLOCKHASH_EXPIRED : ErrorCodes.SENDER_TRANSACTION_FAILED;
    return new CairnError(guessed, message, { context: { id, fromJournal: true, ...signature } });
  }
  const context: Record<string, unknown> = { ...(end.context ?? {}), ...signature, id, fromJournal: true };
  switch (code) {
    case ErrorCodes.SENDER_TRANSACTION_FAILED:
      return new TransactionFailedError(code, message, { context: context as unknown as TransactionFailedError['context'] });
    case ErrorCodes.SENDER_BLOCKHASH_EXPIRED:
      return new BlockhashExpiredError(code, message, { context: context as unknown as BlockhashExpiredError['context'] });
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
      return new CairnError(code, message, { context });
  }
}

function jsonSafe(v: object): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x))) as Record<string, unknown>;
  } catch {
    return {};
  }
}
