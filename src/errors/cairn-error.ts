/**
 * The base of every error cairn throws: a stable string `code`, a typed `context` and an optional
 * `cause`. Errors that cross a worker boundary travel as `{ code, message, context }` (see
 * `toJSON`/`fromSerialized`) and are rebuilt on the main thread.
 *
 * Secrets never ride along: message, context (names and values, any depth) and the whole cause
 * chain pass through the redaction of redact.ts when the error is built, so an API key that slipped
 * into a URL or a server's echo is replaced before the error exists; `toJSON` and `util.inspect`
 * redact again, for fields set or changed afterwards.
 */
import { newBudget, redact, redactText, redactValue, REDACTED } from '../redact.js';
import { ErrorCodes, type ErrorCode } from './codes.js';
import type { CairnErrorContext } from './context.js';

let errorObserver: ((e: CairnError) => void) | undefined;

/**
 * Watch every CairnError as it is built (one observer; `undefined` removes it). The test suite uses
 * this to prove that no error anywhere carries a registered secret. Internal: reached through
 * src/internal.ts only, never from an entry point.
 */
export function observeErrors(fn: ((e: CairnError) => void) | undefined): void {
  errorObserver = fn;
}

/** Messages longer than this are cut (saying how much was cut): a server's 60 MB error text stays out. */
const MAX_MESSAGE_CHARS = 16_384;

/**
 * The third argument for code `C`: its `context` is that code's entry of `CairnErrorContext`, checked
 * by the compiler where the error is made. `context` (and the whole argument) may be left out only
 * when the entry has no required field.
 */
export type CairnErrorOptions<C extends ErrorCode = ErrorCode> = ({} extends CairnErrorContext[C]
  ? { context?: CairnErrorContext[C] }
  : { context: CairnErrorContext[C] }) & {
  cause?: unknown;
};

/**
 * The base of every error cairn throws. `C` is its code (or a family's union of codes); `context` is
 * typed by it, so `new CairnError('RPC_ERROR', msg, { context: { rpcCode } })` is checked against
 * `CairnErrorContext['RPC_ERROR']` where it is written, not only where it is read. An error whose code
 * is not known (`CairnError`, the default) has any code's context: `isCairnError(e, code)` narrows it.
 *
 * @example
 * try { await client.getAsset({ id }) } catch (e) {
 *   if (isCairnError(e, 'RPC_RATE_LIMITED')) backOff(e.context.retryAfterMs);
 * }
 */
export class CairnError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly context: CairnErrorContext[C];

  // The options after `message` are optional only when the code's context has no required field
  // (a rest tuple, as @solana/kit's SolanaError takes its context).
  constructor(code: C, message: string, ...[options]: {} extends CairnErrorContext[C] ? [options?: CairnErrorOptions<C>] : [options: CairnErrorOptions<C>]) {
    // one budget for context and cause together: a hostile body cannot make building an error slow
    const budget = newBudget();
    const cause = options?.cause === undefined ? undefined : redactValue(options.cause, budget);
    super(redactText(String(message), MAX_MESSAGE_CHARS), cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.context = redactValue(options?.context ?? {}, budget) as CairnErrorContext[C];
    if (this.stack) this.stack = redact(this.stack);
    errorObserver?.(this as unknown as CairnError);
  }

  /** Walk the cause chain; returns the first error for which `fn` is true (or the last one). A chain that loops ends. */
  walk(fn?: (e: unknown) => boolean): unknown {
    const seen = new Set<unknown>();
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the walk's first step is this error
    let e: unknown = this;
    while (e && !seen.has(e)) {
      seen.add(e);
      if (fn?.(e)) return e;
      const next = (e as { cause?: unknown }).cause;
      if (!next || seen.has(next)) return fn ? undefined : e;
      e = next;
    }
    return undefined;
  }

  /** Redacted again here: a context entry added after construction is covered too. */
  toJSON(): { name: string; code: C; message: string; context: CairnErrorContext[C] } {
    return { name: this.name, code: this.code, message: redact(this.message), context: redactValue(this.context) as CairnErrorContext[C] };
  }

  /** What console.log and util.inspect print, redacted as a whole (fields a subclass sets after construction included). */
  [Symbol.for('nodejs.util.inspect.custom')](depth: number, options: object, inspect: (v: unknown, o: object) => string): string {
    return redact(inspect(this, { ...options, depth, customInspect: false }));
  }
}

// errors built as CairnError are clean from the start: a redaction walk keeps them as they are
Object.defineProperty(CairnError.prototype, REDACTED, { value: true });

/**
 * Rebuild an error that crossed a worker boundary as `{ code, message, context }`. The one place a
 * context is taken on trust: the worker built it against its code, and the wire keeps no types.
 */
export function fromSerialized(e: { code?: string; message?: string; context?: object; name?: string }): CairnError {
  const code = (e.code && e.code in ErrorCodes ? e.code : ErrorCodes.MERKLE_WORKER_CRASHED) as ErrorCode;
  return new CairnError(code, e.message ?? 'unknown error', { context: (e.context ?? {}) as CairnErrorContext[ErrorCode] });
}
