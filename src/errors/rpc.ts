/** The client's errors: HTTP failures by kind, bad responses, JSON-RPC errors, the deadline and the insecure key. */
import { CairnError } from './cairn-error.js';
import type { BadResponseContext, DeadlineContext, HttpErrorContext, InsecureKeyContext, OutcomeUnknownContext } from './context.js';

export class HttpError extends CairnError<HttpErrorContext> {}
export class UnauthorizedError extends HttpError {}
export class ForbiddenError extends HttpError {}
export class RateLimitedError extends HttpError {}
export class ServerError extends HttpError {}
export class NetworkError extends HttpError {}
export class TimeoutError extends HttpError {}
/** The call's overall deadline passed (attempts and waits together); `cause` is the last failure. */
export class DeadlineError extends CairnError<DeadlineContext> {}
/** An API key would have gone over plain http to a host that is not loopback; `context.field` names the URL. */
export class InsecureKeyError extends CairnError<InsecureKeyContext> {}
/**
 * A call that changes state on the service (a mint, a webhook's creation, a transaction) failed after
 * its request was written: it may have been acted on, so it was not sent again. `context.findOut`
 * says what learns the outcome; `cause` is the failure itself (a timeout, a cut connection, a 5xx).
 */
export class OutcomeUnknownError extends CairnError<OutcomeUnknownContext> {}
export class BadResponseError extends CairnError<BadResponseContext> {}

/** A JSON-RPC `error` object returned by the server. */
export class RpcError extends CairnError<{ rpcCode: number; data?: unknown; method?: string }> {
  get rpcCode(): number {
    return this.context.rpcCode;
  }
  get data(): unknown {
    return this.context.data;
  }
}
