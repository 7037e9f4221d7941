/**
 * One error base for the whole toolkit. Every error cairn throws is a `CairnError` with a stable
 * string `code` (grouped by domain: `RPC_*`, `SENDER_*`, `MERKLE_*`, `DEVNET_*`, `INPUT_*`), a typed
 * `context` object and an optional `cause`. Errors that cross a worker boundary travel as
 * `{ code, message, context }` (see `toJSON`/`fromSerialized`) and are rebuilt on the main thread.
 *
 * Secrets never ride along: message, context (names and values, any depth) and the whole cause
 * chain pass through the redaction of redact.ts when the error is built, so an API key that slipped
 * into a URL or a server's echo is replaced before the error exists; `toJSON` and `util.inspect`
 * redact again, for fields set or changed afterwards.
 */
import { newBudget, redact, redactText, redactValue, REDACTED } from './redact.js';

export { redact, registerSecret, registeredSecrets } from './redact.js';

/** Every stable error code, by domain. */
export const ErrorCodes = {
  // input: caller gave something unusable; always names the field
  INPUT_INVALID: 'INPUT_INVALID',
  // input larger than the configured cap (bytes, items, nesting); context names the limit
  INPUT_TOO_LARGE: 'INPUT_TOO_LARGE',
  // rpc / transport
  RPC_HTTP: 'RPC_HTTP',
  RPC_UNAUTHORIZED: 'RPC_UNAUTHORIZED',
  RPC_FORBIDDEN: 'RPC_FORBIDDEN',
  RPC_RATE_LIMITED: 'RPC_RATE_LIMITED',
  RPC_SERVER: 'RPC_SERVER',
  RPC_NETWORK: 'RPC_NETWORK',
  RPC_TIMEOUT: 'RPC_TIMEOUT',
  RPC_ABORTED: 'RPC_ABORTED',
  RPC_BAD_RESPONSE: 'RPC_BAD_RESPONSE',
  RPC_ID_MISMATCH: 'RPC_ID_MISMATCH',
  RPC_ERROR: 'RPC_ERROR',
  RPC_RESPONSE_TOO_LARGE: 'RPC_RESPONSE_TOO_LARGE',
  RPC_SCHEMA: 'RPC_SCHEMA',
  // the per-call deadline (all attempts and waits together) passed; the cause is the last failure
  RPC_DEADLINE: 'RPC_DEADLINE',
  // plain http with an API key to a non-loopback host, without allowInsecureKey
  RPC_INSECURE_KEY: 'RPC_INSECURE_KEY',
  // sender
  SENDER_INVALID_TRANSACTION: 'SENDER_INVALID_TRANSACTION',
  SENDER_MISSING_TIP: 'SENDER_MISSING_TIP',
  SENDER_MISSING_CU_PRICE: 'SENDER_MISSING_CU_PRICE',
  SENDER_REJECTED: 'SENDER_REJECTED',
  SENDER_TRANSACTION_FAILED: 'SENDER_TRANSACTION_FAILED',
  SENDER_BLOCKHASH_EXPIRED: 'SENDER_BLOCKHASH_EXPIRED',
  SENDER_JOURNAL: 'SENDER_JOURNAL',
  // another process (or sender) holds the journal's lock; context names the holder
  SENDER_JOURNAL_LOCKED: 'SENDER_JOURNAL_LOCKED',
  // the journal stopped accepting state changes after a write error (fail closed)
  SENDER_JOURNAL_FAILED: 'SENDER_JOURNAL_FAILED',
  // an intent whose outcome is not known yet: it stays in the journal and resume() finishes it
  SENDER_PENDING: 'SENDER_PENDING',
  SENDER_CLOSED: 'SENDER_CLOSED',
  SENDER_ABORTED: 'SENDER_ABORTED',
  // mint
  MINT_FAILED: 'MINT_FAILED',
  MINT_VERIFY_FAILED: 'MINT_VERIFY_FAILED',
  // merkle
  MERKLE_INVALID_INPUT: 'MERKLE_INVALID_INPUT',
  MERKLE_FIELD_OVERFLOW: 'MERKLE_FIELD_OVERFLOW',
  MERKLE_WORKER_CRASHED: 'MERKLE_WORKER_CRASHED',
  MERKLE_POOL_CLOSED: 'MERKLE_POOL_CLOSED',
  MERKLE_ABORTED: 'MERKLE_ABORTED',
  MERKLE_KERNEL_UNAVAILABLE: 'MERKLE_KERNEL_UNAVAILABLE',
  // devnet
  DEVNET_START_FAILED: 'DEVNET_START_FAILED',
  DEVNET_INVALID_CONFIG: 'DEVNET_INVALID_CONFIG',
  DEVNET_AIRDROP_FAILED: 'DEVNET_AIRDROP_FAILED',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

let errorObserver: ((e: CairnError) => void) | undefined;

/**
 * Watch every CairnError as it is built (one observer; `undefined` removes it). The test suite uses
 * this to prove that no error anywhere carries a registered secret. Internal: not re-exported.
 */
export function observeErrors(fn: ((e: CairnError) => void) | undefined): void {
  errorObserver = fn;
}

/** Messages longer than this are cut (saying how much was cut): a server's 60 MB error text stays out. */
export const MAX_MESSAGE_CHARS = 16_384;

export interface CairnErrorOptions<C> {
  context?: C;
  cause?: unknown;
}

/**
 * The base of every error cairn throws.
 *
 * @example
 * try { await client.getAsset({ id }) } catch (e) {
 *   if (e instanceof CairnError && e.code === 'RPC_RATE_LIMITED') backOff();
 * }
 */
export class CairnError<C extends object = Record<string, unknown>> extends Error {
  readonly code: ErrorCode;
  readonly context: C;

  constructor(code: ErrorCode, message: string, options: CairnErrorOptions<C> = {}) {
    // one budget for context and cause together: a hostile body cannot make building an error slow
    const budget = newBudget();
    const cause = options.cause === undefined ? undefined : redactValue(options.cause, budget);
    super(redactText(String(message), MAX_MESSAGE_CHARS), cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.context = redactValue(options.context ?? {}, budget) as C;
    if (this.stack) this.stack = redact(this.stack);
    errorObserver?.(this as unknown as CairnError);
  }

  /** Walk the cause chain; returns the first error for which `fn` is true (or the last one). A chain that loops ends. */
  walk(fn?: (e: unknown) => boolean): unknown {
    const seen = new Set<unknown>();
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
  toJSON(): { name: string; code: ErrorCode; message: string; context: C } {
    return { name: this.name, code: this.code, message: redact(this.message), context: redactValue(this.context) as C };
  }

  /** What console.log and util.inspect print, redacted as a whole (fields a subclass sets after construction included). */
  [Symbol.for('nodejs.util.inspect.custom')](depth: number, options: object, inspect: (v: unknown, o: object) => string): string {
    return redact(inspect(this, { ...options, depth, customInspect: false }));
  }
}

// errors built as CairnError are clean from the start: a redaction walk keeps them as they are
Object.defineProperty(CairnError.prototype, REDACTED, { value: true });

/** Bad caller input. `context.field` names the offending field. */
export class InputError extends CairnError<{ field: string; expected?: string; got?: unknown }> {
  constructor(field: string, message: string, extra: { expected?: string; got?: unknown; cause?: unknown } = {}) {
    super(ErrorCodes.INPUT_INVALID, `"${field}": ${message}`, {
      context: { field, expected: extra.expected, got: extra.got },
      cause: extra.cause,
    });
  }
}

export interface HttpErrorContext {
  status?: number;
  url?: string;
  method?: string;
  retryAfterMs?: number;
  attempts?: number;
  body?: string;
}

export class HttpError extends CairnError<HttpErrorContext> {}
export class UnauthorizedError extends HttpError {}
export class ForbiddenError extends HttpError {}
export class RateLimitedError extends HttpError {}
export class ServerError extends HttpError {}
export class NetworkError extends HttpError {}
export class TimeoutError extends HttpError {}
export class AbortError extends CairnError<{ reason?: string }> {}
/** The call's overall deadline passed (attempts and waits together); `cause` is the last failure. */
export class DeadlineError extends CairnError<{ deadlineMs: number; attempts: number; url?: string; method?: string }> {}
/** An API key would have gone over plain http to a host that is not loopback; `context.field` names the URL. */
export class InsecureKeyError extends CairnError<{ field: string; url: string; host: string }> {}
export class BadResponseError extends CairnError<{ url?: string; method?: string; path?: string; detail?: string }> {}

/** A JSON-RPC `error` object returned by the server. */
export class RpcError extends CairnError<{ rpcCode: number; data?: unknown; method?: string }> {
  get rpcCode(): number {
    return this.context.rpcCode;
  }
  get data(): unknown {
    return this.context.data;
  }
}

/** Landed on chain with an error. Carries the status `err` and, when fetched, the logs. */
export class TransactionFailedError extends CairnError<{ signature: string; err: unknown; logs?: string[]; slot?: number }> {}

/** The blockhash of the transaction expired without it landing (checked once more after expiry). */
export class BlockhashExpiredError extends CairnError<{
  signature: string;
  lastValidBlockHeight: number;
  blockHeight: number;
}> {}

/** Rebuild an error that crossed a worker boundary as `{ code, message, context }`. */
export function fromSerialized(e: { code?: string; message?: string; context?: object; name?: string }): CairnError {
  const code = (e.code && e.code in ErrorCodes ? e.code : ErrorCodes.MERKLE_WORKER_CRASHED) as ErrorCode;
  return new CairnError(code, e.message ?? 'unknown error', { context: (e.context ?? {}) as Record<string, unknown> });
}

/** True for an abort from an AbortSignal, whatever its shape (DOMException, AbortError, ours). */
export function isAbortError(e: unknown): boolean {
  if (e instanceof AbortError) return true;
  const name = (e as { name?: string } | null)?.name;
  return name === 'AbortError' || (e as { code?: string } | null)?.code === 'ABORT_ERR';
}
