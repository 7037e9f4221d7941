/**
 * Retry policy as data, applied in exactly one place (`withRetry`). A policy says how many times to
 * retry, how long to wait before attempt N+1 and which errors deserve another try. The default
 * retries 429 (waiting `Retry-After` when the server sent one), 5xx, network errors and per-attempt
 * timeouts, with exponential backoff and jitter; it never retries an abort or another 4xx.
 * Waits use the global `setTimeout` looked up at call time, so fake timers drive them in tests.
 */
import { AbortError, CairnError, ErrorCodes, isAbortError } from '../errors.js';

/** What the policy sees about a failed attempt. `attempt` counts from 1 (the first try). */
export interface RetryContext {
  attempt: number;
  error: unknown;
}

export interface RetryPolicy {
  /** Retries after the first attempt (0 = try once). */
  retries: number;
  /** Milliseconds to wait before the next attempt. */
  delay: (ctx: RetryContext) => number;
  /** Whether this error deserves another attempt (the budget is checked separately). */
  shouldRetry: (ctx: RetryContext) => boolean;
}

/** Codes the default policy retries: rate limits, server errors, network failures, timeouts. */
const RETRYABLE = new Set<string>([
  ErrorCodes.RPC_RATE_LIMITED,
  ErrorCodes.RPC_SERVER,
  ErrorCodes.RPC_NETWORK,
  ErrorCodes.RPC_TIMEOUT,
]);

/** Exponential backoff base and cap; the jitter keeps many clients from retrying in lock-step. */
export const BACKOFF_BASE_MS = 250;
export const BACKOFF_MAX_MS = 8_000;

/**
 * Exponential backoff with "equal jitter": half of the exponential step is fixed, half random,
 * so waits never collapse to zero and clients spread out.
 */
export function backoffDelay(attempt: number, baseMs = BACKOFF_BASE_MS, maxMs = BACKOFF_MAX_MS): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + Math.random() * (step / 2));
}

/** The server's `Retry-After` (already converted to ms by the transport), if the error carries one. */
export function retryAfterOf(error: unknown): number | undefined {
  if (error instanceof CairnError) {
    const ms = (error.context as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof ms === 'number' && Number.isFinite(ms) && ms >= 0) return ms;
  }
  return undefined;
}

/**
 * The longest `Retry-After` the default policy waits for. A server asking for more is answered with
 * an immediate `RateLimitedError` carrying `retryAfterMs`, so no call hangs for minutes or hours and
 * the caller decides what to do.
 */
export const MAX_HONOURED_RETRY_AFTER_MS = 60_000;

/**
 * The default policy: 3 retries; `Retry-After` honoured exactly when present (up to
 * `MAX_HONOURED_RETRY_AFTER_MS`; beyond it the error is returned at once), else backoff.
 *
 * @example
 * const client = createClient({ retry: { retries: 5 } }); // the rest stays default
 */
export const defaultRetryPolicy: RetryPolicy = {
  retries: 3,
  delay: ({ attempt, error }) => retryAfterOf(error) ?? backoffDelay(attempt),
  shouldRetry: ({ error }) =>
    !isAbortError(error) &&
    error instanceof CairnError &&
    RETRYABLE.has(error.code) &&
    (retryAfterOf(error) ?? 0) <= MAX_HONOURED_RETRY_AFTER_MS,
};

/** Merge a partial policy over a base; an explicit `undefined` keeps the base value. */
export function resolveRetryPolicy(...parts: (Partial<RetryPolicy> | undefined)[]): RetryPolicy {
  let out: RetryPolicy = defaultRetryPolicy;
  for (const p of parts) {
    if (!p) continue;
    out = {
      retries: p.retries ?? out.retries,
      delay: p.delay ?? out.delay,
      shouldRetry: p.shouldRetry ?? out.shouldRetry,
    };
  }
  if (!Number.isInteger(out.retries) || out.retries < 0) {
    throw new CairnError(ErrorCodes.INPUT_INVALID, `"retry.retries": expected an integer >= 0, got ${String(out.retries)}`, {
      context: { field: 'retry.retries' },
    });
  }
  return out;
}

/** An `AbortError` for `signal`, keeping its reason as the cause. */
export function abortErrorFor(signal: AbortSignal | undefined, what = 'request'): AbortError {
  const reason = signal?.reason;
  const text = reason instanceof Error ? reason.message : reason === undefined ? 'aborted' : String(reason);
  return new AbortError(ErrorCodes.RPC_ABORTED, `${what} aborted: ${text}`, {
    context: { reason: text },
    cause: reason instanceof Error ? reason : undefined,
  });
}

/**
 * Wait `ms`, or reject with an `AbortError` as soon as `signal` aborts. The timer and the listener
 * are always cleaned up, so nothing keeps the process alive.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortErrorFor(signal, 'wait'));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortErrorFor(signal, 'wait'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Called before each wait: lets the transport log "retrying in N ms". */
export type OnRetry = (info: { attempt: number; error: unknown; delayMs: number }) => void;

/**
 * Run `fn` until it succeeds, the policy gives up, or `signal` aborts. The last error is thrown as
 * it is, with `context.attempts` set when it is a `CairnError`.
 *
 * @example
 * const v = await withRetry((attempt) => once(attempt), defaultRetryPolicy, signal);
 */
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
  onRetry?: OnRetry,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortErrorFor(signal);
    try {
      return await fn(attempt);
    } catch (error) {
      if (signal?.aborted || isAbortError(error)) throw isAbortError(error) ? error : abortErrorFor(signal);
      const ctx = { attempt, error };
      if (attempt > policy.retries || !policy.shouldRetry(ctx)) {
        if (error instanceof CairnError) (error.context as { attempts?: number }).attempts = attempt;
        throw error;
      }
      const delayMs = Math.max(0, Number(policy.delay(ctx)) || 0);
      onRetry?.({ attempt, error, delayMs });
      await sleep(delayMs, signal);
    }
  }
}
