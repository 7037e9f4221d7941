/**
 * The rpc part's public surface, what `cairn` re-exports (by name) and what the sender, mint, the CLI
 * and bench import from the client: the client, its options and the transport it can be given, the
 * retry policy it takes, the limits callers run into, and the types of every method's params and
 * results. The machinery under them (JSON-RPC framing, the retry loop, the response validators, the
 * JSON reader) stays private; the little mint and the test hooks need beyond this is in internal.ts.
 */
export { createClient, type CairnClient, type CairnClientAcceptingKeys, type ClientOptions } from './client/create-client.js';
// What an address parameter takes: base58, a web3.js PublicKey or a kit Address (kit's is a string).
export type { AddressInput, PublicKeyLike } from '../solana/index.js';
export {
  createTransport,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type HttpMethod,
  type Transport,
  type TransportOptions,
  type TransportRequest,
  type TransportResponse,
} from './transport/create-transport.js';
export type { CallOptions } from './jsonrpc.js';
export { DEFAULT_DEADLINE_MS, type RetryContext, type RetryPolicy } from './retry/policy.js';
export type { Paginators } from './paginate.js';
// Websocket subscriptions (client.subscribe) and the shared socket's counters.
export type {
  Subscriber,
  Subscription,
  SubscribeOptions,
  SubscriptionGap,
  AccountNotification,
  ProgramNotification,
  LogsNotification,
  LogsFilter,
  SignatureNotification,
  SlotNotification,
} from './subscribe/subscriber.js';
export type { SocketStats } from './subscribe/websocket.js';
export type { CompressionPaginators } from './compression/paginate.js';

// Each method's params, and the limits a call is split or refused at.
export {
  MAX_ASSET_BATCH,
  MAX_PAGE_LIMIT,
  type GetAssetOptions,
  type GetAssetParams,
  type ListOptions,
  type SortBy,
  type SortDirection,
  type ListParams,
  type GetAssetsByOwnerParams,
  type GetAssetsByCreatorParams,
  type GetAssetsByAuthorityParams,
  type GetAssetsByGroupParams,
  type GetTokenAccountsParams,
} from './das.js';
export { MAX_SIGNATURES_PER_STATUS_CALL, type CommitmentParams, type GetTransactionConfig, type PriorityFeeParams, type SimulateConfig } from './solana/index.js';
export { MAX_COMPRESSION_LIMIT, type CursorParams, type SignaturesForTokenOwnerParams, type TokenAccountsByDelegateParams, type TokenAccountsByOwnerParams } from './compression/methods.js';
export {
  MAX_COMPRESSION_FILTERS,
  type AccountKey,
  type AccountKeys,
  type MemcmpFilter,
  type AccountsByOwnerParams,
  type TokenBalancesByOwnerParams,
  type MintTokenHoldersParams,
  type ValidityProofParams,
} from './compression/v2.js';
export { MAX_MINT_ACCOUNTS, type GetTokenMetadataParams } from './rest/token-metadata.js';
export { MAX_TRANSFERS_LIMIT, type GetWalletTransfersParams } from './rest/wallet.js';
export { MINT_DEPRECATION_CODE, MINT_DEPRECATION_MESSAGE, type MintCompressedNftParams } from './mint.js';
export { MAX_SIGNATURES_PER_PAGE, type GetSignaturesForAddressParams, type SignatureInfo, type SignaturePaginators } from './solana/signatures.js';

// The resources the methods answer with.
export type {
  U64,
  AssetInterface,
  AssetContent,
  Asset,
  AssetList,
  AssetProof,
  TokenAccount,
  TokenAccountList,
  Context,
  WithContext,
  CursorPage,
  CompressedAccount,
  CompressedTokenData,
  CompressedTokenAccount,
  CompressedAccountProof,
  NewAddressProof,
  CompressedProof,
  ValidityProof,
  CompressionSignature,
  CompressionAccountChange,
  TransactionWithCompressionInfo,
  TokenMetadataRecord,
  WalletTransfer,
  TransferPage,
  WebhookType,
  Webhook,
  MintCompressedNftResult,
  Commitment,
  LatestBlockhash,
  SignatureStatus,
  SimulationResult,
  PriorityLevel,
  PriorityFeeEstimate,
  AccountInfo,
} from './types.js';
export type {
  TreeTypeNumber,
  TreeContext,
  CompressedAccountV2,
  CompressedTokenAccountV2,
  CompressedAccountProofV2,
  AccountProofInputs,
  AddressProofInputs,
  ValidityProofV2,
  ClosedAccountV2,
  OpenedAccountV2,
  TransactionWithCompressionInfoV2,
  AccountItems,
  TokenBalance,
  TokenBalanceList,
  TokenBalancePage,
  OwnerBalance,
} from './compression/types.js';
