/**
 * Retry policy as data, applied in exactly one place (`withRetry`). A policy says how many times to
 * retry, how long to wait before attempt N+1 and which errors deserve another try. The default
 * retries 429 (waiting `Retry-After` when the server sent one), 5xx, network errors and per-attempt
 * timeouts, with exponential backoff and jitter; it never retries an abort or another 4xx. A request
 * that changes state on the service is held to less (outcome.ts, applied by the transport over any
 * policy): only a 429 or a connection refused before it was written is retried; anything else after
 * it was written is `RPC_OUTCOME_UNKNOWN`.
 * A deadline bounds the whole: attempts, backoff and Retry-After waits together; a wait that would
 * end past it fails at once with `RPC_DEADLINE`. Waits use the global `setTimeout` and the clock the
 * global `performance.now()`, both looked up at call time, so fake timers drive them in tests.
 * The loop itself is p-retry's; the decisions stay here (see `withRetry`).
 */
import pRetry from 'p-retry';
import { abortError, sleep } from '../../abort.js';
import { CairnError, DeadlineError, ErrorCodes, InputError, isAbortError } from '../../errors/index.js';

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
const BACKOFF_BASE_MS = 250;
const BACKOFF_MAX_MS = 8_000;

/**
 * Exponential backoff with "equal jitter": half of the exponential step is fixed, half random,
 * so waits never collapse to zero and clients spread out.
 */
export function backoffDelay(attempt: number, baseMs = BACKOFF_BASE_MS, maxMs = BACKOFF_MAX_MS): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(step / 2 + Math.random() * (step / 2));
}

/** The server's `Retry-After` (already converted to ms by the transport), if the error carries one. */
function retryAfterOf(error: unknown): number | undefined {
  if (error instanceof CairnError) {
    const ms = (error.context as { retryAfterMs?: unknown }).retryAfterMs;
    if (typeof ms === 'number' && Number.isFinite(ms) && ms >= 0) return ms;
  }
  return undefined;
}

/**
 * The default policy: 3 retries; `Retry-After` honoured exactly when present, else backoff. How long
 * a `Retry-After` may be is the call's deadline's business: one that ends past it fails at once.
 *
 * @example
 * const client = createClient({ retry: { retries: 5 } }); // the rest stays default
 */
export const defaultRetryPolicy: RetryPolicy = {
  retries: 3,
  delay: ({ attempt, error }) => retryAfterOf(error) ?? backoffDelay(attempt),
  shouldRetry: ({ error }) => !isAbortError(error) && error instanceof CairnError && RETRYABLE.has(error.code),
};

/** Default overall deadline of one call: every attempt and wait together. */
export const DEFAULT_DEADLINE_MS = 60_000;
/** setTimeout's largest delay; a longer one would fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A duration option (timeout, deadline): `fallback` when absent, else a number in (0, 2^31 - 1] ms. */
export function checkDuration(v: number | undefined, field: string, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > MAX_TIMER_MS) {
    throw new InputError(field, `expected a number of milliseconds in (0, ${MAX_TIMER_MS}], got ${typeof v === 'number' ? String(v) : typeof v}`, {
      expected: 'positive number of milliseconds',
      got: v,
    });
  }
  return v;
}

/** One call's deadline, for `withRetry`. */
export interface Deadline {
  /** When the call must be over, on `performance.now()`'s clock. */
  at: number;
  /** The deadline as the caller gave it, for the error. */
  ms: number;
  /** Names the call in the error's message, e.g. `getSlot POST http://…/`. */
  what: string;
  /** Added to the RPC_DEADLINE error's context (url, method). */
  context?: { url?: string; method?: string };
}

/** The RPC_DEADLINE error: `cause` is the last failure (none when no attempt had time to start). */
export function deadlineError(d: Deadline, attempts: number, cause?: unknown): DeadlineError {
  const last = cause instanceof CairnError ? `; last failure: ${cause.code}: ${cause.message}` : cause instanceof Error ? `; last failure: ${cause.message}` : '';
  return new DeadlineError(ErrorCodes.RPC_DEADLINE, `${d.what} did not finish within its ${d.ms} ms deadline (${attempts} attempt(s))${last}`, {
    context: { deadlineMs: d.ms, attempts, ...d.context },
    cause,
  });
}

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

/** Called before each wait: lets the transport log "retrying in N ms". */
export type OnRetry = (info: { attempt: number; error: unknown; delayMs: number }) => void;

/**
 * Run `fn` until it succeeds, the policy gives up, `signal` aborts or `deadline` passes. When the
 * policy gives up, the last error is thrown as it is, with `context.attempts` set when it is a
 * `CairnError`. When the next wait would end past the deadline, or an attempt timed out with the
 * deadline gone, an RPC_DEADLINE error is thrown at once with the last error as its cause. `fn`
 * should bound each attempt by the time left (the transport does).
 *
 * @example
 * const v = await withRetry((attempt) => once(attempt), defaultRetryPolicy, signal);
 */
export async function withRetry<T>(
  fn: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
  onRetry?: OnRetry,
  deadline?: Deadline,
): Promise<T> {
  let last: unknown;
  // p-retry runs the loop; every decision (the policy, the deadline, the wait, the abort) is made in
  // onFailedAttempt, which throws to give up and sleeps to retry. p-retry's own backoff is off
  // (minTimeout 0: no timer) and it never sees the signal, so an abort is cairn's typed error
  // rather than the signal's reason.
  return pRetry<T>(
    async (attempt) => {
      if (signal?.aborted) throw carry(abortError(ErrorCodes.RPC_ABORTED, signal, 'request'), true);
      // a wait's timer that fired late leaves no time for another attempt
      if (deadline && attempt > 1 && deadline.at <= performance.now()) throw carry(deadlineError(deadline, attempt - 1, last), true);
      try {
        return await fn(attempt);
      } catch (error) {
        // p-retry takes a TypeError or a non-Error as fatal before asking us: carry every failure
        throw carry(error, false);
      }
    },
    {
      retries: policy.retries,
      minTimeout: 0,
      maxTimeout: 0,
      randomize: false,
      async onFailedAttempt({ error: carried, attemptNumber: attempt }) {
        const { error, final } = carried as Carried;
        if (final) throw error;
        if (signal?.aborted || isAbortError(error)) throw isAbortError(error) ? error : abortError(ErrorCodes.RPC_ABORTED, signal, 'request');
        last = error;
        const ctx = { attempt, error };
        const left = deadline ? deadline.at - performance.now() : Infinity;
        if (attempt > policy.retries || !policy.shouldRetry(ctx)) {
          // an attempt cut short by the deadline failed because of the deadline, whatever the policy says
          if (left <= 0 && error instanceof CairnError && error.code === ErrorCodes.RPC_TIMEOUT) throw deadlineError(deadline!, attempt, error);
          if (error instanceof CairnError) (error.context as { attempts?: number }).attempts = attempt;
          throw error;
        }
        // Retry-After (through the policy's delay) is honoured here, within the deadline
        const delayMs = Math.max(0, Number(policy.delay(ctx)) || 0);
        // no sleeping past the deadline only to fail there: fail now, saying why
        if (delayMs >= left) throw deadlineError(deadline!, attempt, error);
        onRetry?.({ attempt, error, delayMs });
        await sleep(delayMs, signal);
      },
    },
  ).catch((e: unknown) => {
    // every give-up above throws the failure itself; a carrier escaping p-retry is unwrapped anyway
    throw e instanceof Carried ? e.error : e;
  });
}

/** A failure on its way through p-retry: `final` when no policy may retry it (abort, deadline). */
class Carried extends Error {
  declare readonly error: unknown;
  declare readonly final: boolean;
}

/**
 * A `Carried` made without running Error's constructor: p-retry needs an `instanceof Error`, and the
 * stack trace the constructor captures was most of the p-retry path's extra CPU per retry.
 */
function carry(error: unknown, final: boolean): Carried {
  return Object.assign(Object.create(Carried.prototype) as Carried, { error, final });
}
