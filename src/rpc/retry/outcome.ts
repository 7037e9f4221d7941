/**
 * What a failure proves about a request that changes state. Retrying such a request is safe only
 * when the failure proves the service never acted on it: the connection was refused (or the host
 * not found) before a byte of the request went out, or the service answered 429 — an answer that
 * says it refused. Anything else after the request was written (a timeout, a cut connection, a 5xx,
 * an answer that cannot be read, the deadline passing mid-attempt) leaves the outcome unknown: such
 * a request is not sent again, and the caller gets `RPC_OUTCOME_UNKNOWN` saying what finds out.
 */
import { CairnError, ErrorCodes, OutcomeUnknownError } from '../../errors/index.js';
import type { RetryPolicy } from './policy.js';

/** Codes of connection failures that happen before any byte of the request is sent. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT']);

/** True when some error in `e`'s cause chain is a connect-phase failure (or says it was not sent). */
function notSent(e: unknown): boolean {
  const seen = new Set<unknown>();
  for (let x = e; x && typeof x === 'object' && !seen.has(x); x = (x as { cause?: unknown }).cause) {
    seen.add(x);
    if ((x as { context?: { notSent?: unknown } }).context?.notSent === true) return true;
    const code = (x as { code?: unknown }).code;
    if (typeof code === 'string' && NOT_SENT_CODES.has(code)) return true;
  }
  return false;
}

/**
 * True when `e` proves the request was not acted on: refused before it was written, or a 429.
 *
 * @example
 * provesNotActedOn(rateLimitedError); // true
 */
export function provesNotActedOn(e: unknown): boolean {
  if (!(e instanceof CairnError)) return false;
  if (e.code === ErrorCodes.RPC_RATE_LIMITED) return true;
  return e.code === ErrorCodes.RPC_NETWORK && notSent(e);
}

/** Failures after which the request may have been acted on (the rest are answers that refused it). */
const MAY_HAVE_ACTED = new Set<string>([
  ErrorCodes.RPC_NETWORK,
  ErrorCodes.RPC_TIMEOUT,
  ErrorCodes.RPC_SERVER,
  ErrorCodes.RPC_BAD_RESPONSE,
  ErrorCodes.RPC_RESPONSE_TOO_LARGE,
]);

/**
 * True when after `e` the request may have been acted on: the outcome is unknown.
 *
 * @example
 * mayHaveActed(timeoutError); // true: the service may have minted before the answer was late
 */
export function mayHaveActed(e: unknown): boolean {
  if (!(e instanceof CairnError)) return false;
  if (e.code === ErrorCodes.RPC_DEADLINE) return e.cause !== undefined && mayHaveActed(e.cause);
  return MAY_HAVE_ACTED.has(e.code) && !provesNotActedOn(e);
}

/**
 * `policy` for a request that changes state: it retries only what proves the request was not acted
 * on, whatever the base policy would retry.
 */
export function stateChangingPolicy(policy: RetryPolicy): RetryPolicy {
  return { ...policy, shouldRetry: (ctx) => provesNotActedOn(ctx.error) && policy.shouldRetry(ctx) };
}

/**
 * The `RPC_OUTCOME_UNKNOWN` error for a request given up after `cause`.
 *
 * @example
 * throw outcomeUnknown({ call: 'mintCompressedNft', findOut, url, method: 'POST', attempts: 1 }, cause);
 */
export function outcomeUnknown(
  what: { call: string; findOut: string; url: string; method: string; attempts: number },
  cause: unknown,
): OutcomeUnknownError {
  const why = cause instanceof CairnError ? `${cause.code}: ${cause.message}` : cause instanceof Error ? cause.message : String(cause);
  return new OutcomeUnknownError(
    ErrorCodes.RPC_OUTCOME_UNKNOWN,
    `${what.call} to ${what.url}: the outcome is unknown — the request was sent and then ${why}. It may have been acted on, so it was not sent again (it changes state). To find out: ${what.findOut}`,
    { context: { url: what.url, method: what.method, call: what.call, attempts: what.attempts, findOut: what.findOut }, cause },
  );
}
