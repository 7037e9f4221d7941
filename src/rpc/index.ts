/** The rpc part's public surface: client, transport, JSON-RPC, retry policy, validators and types. */
export { createClient, type CairnClient, type ClientOptions } from './client.js';
export {
  createTransport,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type HttpMethod,
  type Transport,
  type TransportOptions,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';
export { parseRetryAfter } from './http-response.js';
export { createJsonRpc, isRpcError, unwrap as unwrapJsonRpc, type CallOptions, type JsonRpc, type JsonRpcCall } from './jsonrpc.js';
export {
  backoffDelay,
  DEFAULT_DEADLINE_MS,
  defaultRetryPolicy,
  resolveRetryPolicy,
  retryAfterOf,
  withRetry,
  type Deadline,
  type RetryContext,
  type RetryPolicy,
} from './retry.js';
export { sleep as abortableSleep } from '../abort.js';
export { isLoopbackHost } from './insecure-key.js';
export { parseJson, stringifyJson } from './json.js';
export { assertShape, formatPath, v as validators, type Failure, type Validator } from './validate.js';
export * as shapes from './shapes.js';
export { warnDeprecatedOnce } from './deprecation.js';
export { BASE58_ADDRESS, BASE58_SIGNATURE } from '../assert.js';
export { UUID_V4 } from './input.js';
export { MAX_ASSET_BATCH, MAX_PAGE_LIMIT } from './das.js';
export type * from './das.js';
export { MAX_SIGNATURES_PER_STATUS_CALL } from './solana.js';
export type { CommitmentParams, GetTransactionConfig, PriorityFeeParams, SimulateConfig } from './solana.js';
export type { CursorParams, SignaturesForTokenOwnerParams, TokenAccountsByDelegateParams, TokenAccountsByOwnerParams } from './compression.js';
export { MAX_MINT_ACCOUNTS, type GetTokenMetadataParams } from './token-metadata.js';
export { MAX_TRANSFERS_LIMIT, type GetWalletTransfersParams } from './wallet.js';
export { validateMintParams, type MintCompressedNftParams } from './mint.js';
export type { Paginators } from './paginate.js';
export type * from './types.js';
