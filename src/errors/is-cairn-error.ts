/**
 * `isCairnError(e, code?)`: the one check a caller needs. With a code it narrows `e.code` to that
 * code and `e.context` to the code's entry of `CairnErrorContext`.
 */
import { CairnError } from './cairn-error.js';
import type { ErrorCode } from './codes.js';

/** A `CairnError` carrying `code`, its context typed for that code (the same as `CairnError<K>`). */
export type CairnErrorWithCode<K extends ErrorCode> = CairnError<K>;

/**
 * True when `e` is a `CairnError` (and, given `code`, one with that code).
 *
 * @example
 * try { await sender.send(input) } catch (e) {
 *   if (isCairnError(e, 'SENDER_BLOCKHASH_EXPIRED')) console.log(e.context.blockHeight, e.context.lastValidBlockHeight);
 * }
 */
export function isCairnError<K extends ErrorCode>(e: unknown, code: K): e is CairnErrorWithCode<K>;
export function isCairnError(e: unknown): e is CairnError;
export function isCairnError(e: unknown, code?: ErrorCode): boolean {
  return e instanceof CairnError && (code === undefined || e.code === code);
}
