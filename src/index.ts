/**
 * cairn public API. Only re-exports live here: the errors and endpoint config, the typed client in
 * full, and the entry point of each other part. Each part is also its own subpath with its complete
 * surface: `cairn/merkle`, `cairn/sender`, `cairn/devnet`, `cairn/mint`.
 */
// errors.ts also holds the test suite's leak-guard hooks (registeredSecrets, observeErrors): they are
// internal and deliberately not re-exported, so no importer can read a registered key.
export {
  ErrorCodes,
  CairnError,
  InputError,
  HttpError,
  UnauthorizedError,
  ForbiddenError,
  RateLimitedError,
  ServerError,
  NetworkError,
  TimeoutError,
  AbortError,
  BadResponseError,
  RpcError,
  TransactionFailedError,
  BlockhashExpiredError,
  DeadlineError,
  InsecureKeyError,
  registerSecret,
  redact,
  isAbortError,
  type ErrorCode,
  type CairnErrorOptions,
  type HttpErrorContext,
} from './errors.js';
export * from './config.js';
export * from './rpc/index.js';
export { createVerifier, verifyAssetProofJson, verifyAssetLeaf, verifyAccountProof, verifyAccountHash, verifyNewAddressProof, verifyValidityProof, VerdictTable, type Verdict, type IndexedVerdict, type Verifier, type ValidityVerdict } from './merkle/index.js';
export { createSender, transferInstruction, computeUnitPriceInstruction, computeUnitLimitInstruction, generateSigner, signerFromSecretKey, type Sender, type SenderConfig, type SendOutcome, type SendInput } from './sender/index.js';
export { mintCompressedNft, type MintResult } from './mint/index.js';
export { startDevnet, type Devnet, type DevnetOptions } from './devnet/index.js';
