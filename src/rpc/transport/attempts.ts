/**
 * A request's attempts within its deadline: each attempt bounded by its timeout or the time left,
 * the first one outside the retry loop (the success path costs no extra closures), a failure handed
 * to `withRetry` as its first attempt so the policy, the deadline, the logging and the abort
 * handling are exactly retry/policy.ts's. Only a failed call enters p-retry (retry/policy.ts): a call answered
 * at once pays nothing for the retry machinery.
 */
import { abortError } from '../../abort.js';
import { ErrorCodes, InputError } from '../../errors/index.js';
import { describe, type ReadResponse, type RequestLike } from './response.js';
import { mayHaveActed, outcomeUnknown, stateChangingPolicy } from '../retry/outcome.js';
import { checkDuration, deadlineError, resolveRetryPolicy, withRetry, type Deadline, type RetryPolicy } from '../retry/policy.js';

/** One call's time limits and retry policy, resolved against the transport's defaults. */
export interface CallLimits {
  /** Per-attempt timeout in ms. */
  timeoutMs: number;
  /** The deadline as given in ms, for its error. */
  deadlineMs: number;
  /** The deadline on `performance.now()`'s clock. */
  deadlineAt: number;
  policy: RetryPolicy;
}

/** What of a request its limits come from (a `TransportRequest` is one). */
export interface LimitsRequest {
  timeoutMs?: number;
  deadlineMs?: number;
  deadlineAt?: number;
  retry?: Partial<RetryPolicy>;
  /** False for a request that changes state: retried only after a failure proving it was not acted on. */
  idempotent?: boolean;
  findOut?: string;
}

/**
 * The limits of `req`: its own values where given (checked), else the transport's.
 *
 * @example
 * const limits = callLimits({ timeoutMs: 5_000 }, { timeoutMs: 30_000, deadlineMs: 60_000, policy: defaultRetryPolicy });
 */
export function callLimits(req: LimitsRequest, defaults: { timeoutMs: number; deadlineMs: number; policy: RetryPolicy }): CallLimits {
  const timeoutMs = req.timeoutMs === undefined ? defaults.timeoutMs : checkDuration(req.timeoutMs, 'timeoutMs', defaults.timeoutMs);
  const deadlineMs = req.deadlineMs === undefined ? defaults.deadlineMs : checkDuration(req.deadlineMs, 'deadlineMs', defaults.deadlineMs);
  const deadlineAt = req.deadlineAt ?? performance.now() + deadlineMs;
  if (typeof deadlineAt !== 'number' || Number.isNaN(deadlineAt)) throw new InputError('deadlineAt', 'expected a point on performance.now()\'s clock');
  const base = req.retry ? resolveRetryPolicy(defaults.policy, req.retry) : defaults.policy;
  // one place decides what a state-changing request may be retried after (retry/outcome.ts)
  const policy = req.idempotent === false ? stateChangingPolicy(base) : base;
  return { timeoutMs, deadlineMs, deadlineAt, policy };
}

/** One attempt of `req` to `target`, failing after `timeoutMs`. */
export type SendAttempt<R, T> = (target: T, req: R, timeoutMs: number) => Promise<ReadResponse>;

/**
 * Send `req` until it succeeds, the policy gives up, the caller aborts or the deadline passes.
 * `log` (already redacting) gets a line per retry and one when it gives up.
 *
 * @example
 * const res = await runAttempts(req, target, callLimits(req, defaults), send, console.error);
 */
export async function runAttempts<R extends RequestLike & { idempotent?: boolean; findOut?: string }, T extends { display: string }>(
  req: R,
  target: T,
  limits: CallLimits,
  send: SendAttempt<R, T>,
  log: ((line: string) => void) | undefined,
): Promise<ReadResponse & { attempts: number }> {
  if (req.signal?.aborted) throw abortError(ErrorCodes.RPC_ABORTED, req.signal, 'request');
  if (limits.deadlineAt <= performance.now()) throw deadlineError(deadlineOf(req, target.display, limits), 0);
  let first: unknown;
  try {
    const res = (await send(target, req, attemptTimeout(limits))) as ReadResponse & { attempts: number };
    res.attempts = 1;
    return res;
  } catch (error) {
    first = error;
  }
  const label = req.label ? `${req.label} ` : '';
  let attempts = 1;
  try {
    const res = await withRetry(
      (attempt) => {
        attempts = attempt;
        return attempt === 1 ? Promise.reject(first) : send(target, req, attemptTimeout(limits));
      },
      limits.policy,
      req.signal,
      log
        ? ({ attempt, error, delayMs }) =>
            log(`cairn rpc: ${label}${req.method} ${target.display} failed (attempt ${attempt}): ${describe(error)}; retrying in ${delayMs} ms`)
        : undefined,
      deadlineOf(req, target.display, limits),
    );
    return { ...res, attempts };
  } catch (error) {
    log?.(`cairn rpc: ${label}${req.method} ${target.display} gave up after ${attempts} attempt(s): ${describe(error)}`);
    if (req.idempotent === false && mayHaveActed(error)) {
      const call = req.label ?? req.method;
      throw outcomeUnknown({ call, findOut: req.findOut ?? `check whether ${call} took effect before sending it again`, url: target.display, method: req.method, attempts }, error);
    }
    throw error;
  }
}

/** Each attempt gets its timeout or the time left, whichever ends first. */
function attemptTimeout(limits: CallLimits): number {
  return Math.min(limits.timeoutMs, Math.max(1, Math.ceil(limits.deadlineAt - performance.now())));
}

function deadlineOf(req: RequestLike, display: string, limits: CallLimits): Deadline {
  const label = req.label ? `${req.label} ` : '';
  return { at: limits.deadlineAt, ms: limits.deadlineMs, what: `${label}${req.method} ${display}`, context: { url: display, method: req.method } };
}
