/**
 * cairn's errors: the codes, each code's context type, the `CairnError` base and its subclasses by
 * family, and `isCairnError`. The leak guard's hooks (`observeErrors`, `registeredSecrets`) are not
 * here: src/internal.ts, which no entry point re-exports, gathers them (`observeErrors` through
 * errors/internal.ts).
 */
export { ErrorCodes, type ErrorCode } from './codes.js';
export type * from './context.js';
export { CairnError, fromSerialized, type CairnErrorOptions } from './cairn-error.js';
export { isCairnError, type CairnErrorWithCode } from './is-cairn-error.js';
export { AbortError, isAbortError, type AbortCode } from './abort.js';
export { InputError, InputTooLargeError } from './input.js';
export {
  HttpError,
  UnauthorizedError,
  ForbiddenError,
  RateLimitedError,
  ServerError,
  NetworkError,
  TimeoutError,
  DeadlineError,
  InsecureKeyError,
  OutcomeUnknownError,
  BadResponseError,
  RpcError,
  type HttpErrorCode,
  type BadResponseCode,
} from './rpc.js';
export { TransactionFailedError, BlockhashExpiredError } from './sender.js';
export { WorkerCrashedError, PoolClosedError, FieldError, PackedFieldError, PointError, ValidityStructureError } from './merkle.js';
export { DevnetRpcError } from './devnet.js';
export { describeError } from './describe.js';
export { redact, registerSecret } from '../redact.js';
