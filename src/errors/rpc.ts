/** The client's errors: HTTP failures by kind, bad responses, JSON-RPC errors, the deadline and the insecure key. */
import { CairnError } from './cairn-error.js';

/** The codes of an HTTP failure (or a request that never got an answer): `HttpError` and its subclasses. */
export type HttpErrorCode = 'RPC_HTTP' | 'RPC_UNAUTHORIZED' | 'RPC_FORBIDDEN' | 'RPC_RATE_LIMITED' | 'RPC_SERVER' | 'RPC_NETWORK' | 'RPC_TIMEOUT';

/** The codes of an answer that does not match the interface: `BadResponseError`. */
export type BadResponseCode = 'RPC_BAD_RESPONSE' | 'RPC_ID_MISMATCH' | 'RPC_RESPONSE_TOO_LARGE' | 'RPC_SCHEMA';

export class HttpError<C extends HttpErrorCode = HttpErrorCode> extends CairnError<C> {}
export class UnauthorizedError extends HttpError<'RPC_UNAUTHORIZED'> {}
export class ForbiddenError extends HttpError<'RPC_FORBIDDEN'> {}
export class RateLimitedError extends HttpError<'RPC_RATE_LIMITED'> {}
export class ServerError extends HttpError<'RPC_SERVER'> {}
export class NetworkError extends HttpError<'RPC_NETWORK'> {}
export class TimeoutError extends HttpError<'RPC_TIMEOUT'> {}
/** The call's overall deadline passed (attempts and waits together); `cause` is the last failure. */
export class DeadlineError extends CairnError<'RPC_DEADLINE'> {}
/** An API key would have gone over plain http to a host that is not loopback; `context.field` names the URL. */
export class InsecureKeyError extends CairnError<'RPC_INSECURE_KEY'> {}
/**
 * A call that changes state on the service (a mint, a webhook's creation, a transaction) failed after
 * its request was written: it may have been acted on, so it was not sent again. `context.findOut`
 * says what learns the outcome; `cause` is the failure itself (a timeout, a cut connection, a 5xx).
 */
export class OutcomeUnknownError extends CairnError<'RPC_OUTCOME_UNKNOWN'> {}
export class BadResponseError<C extends BadResponseCode = BadResponseCode> extends CairnError<C> {}

/** A JSON-RPC `error` object returned by the server. */
export class RpcError extends CairnError<'RPC_ERROR'> {
  get rpcCode(): number {
    return this.context.rpcCode;
  }
  get data(): unknown {
    return this.context.data;
  }
}
