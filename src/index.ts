/**
 * cairn public API. Re-exports, each by name: the errors, the endpoint config, the typed client in
 * full, and the entry point of each other part. Each part is also its own subpath with its complete
 * surface: `cairn-solana/merkle`, `cairn-solana/sender`, `cairn-solana/devnet`, `cairn-solana/mint`. The two heavy parts an
 * import need not pay for — the devnet, and the Groth16/BN254 validity-proof verifier — are async
 * functions here that load their module on first call (`import 'cairn-solana'` ~45 ms instead of ~80). The
 * test suite's hooks are in src/internal.ts, which no entry re-exports.
 */
import { createVerifier as createMerkleVerifier, type Verifier, type VerifierOptions, type ValidityOptions, type ValidityVerdict } from './merkle/index.js';
import type { Devnet, DevnetOptions } from './devnet/index.js';

export {
  ErrorCodes,
  CairnError,
  isCairnError,
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
  type CairnErrorContext,
  type CairnErrorWithCode,
  type CairnErrorOptions,
  type HttpErrorContext,
  type AbortCode,
  type HttpErrorCode,
  type BadResponseCode,
} from './errors/index.js';
export { DEFAULT_DEVNET_URL, resolveEndpoints, type Endpoints, type EndpointsInput } from './config.js';
export { CLUSTER_HOSTS, SENDER_REGIONS, type Cluster, type ClusterHosts } from './clusters.js';
export {
  createClient,
  createTransport,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_DEADLINE_MS,
  MAX_ASSET_BATCH,
  MAX_PAGE_LIMIT,
  MAX_SIGNATURES_PER_STATUS_CALL,
  MAX_SIGNATURES_PER_PAGE,
  MAX_MINT_ACCOUNTS,
  MAX_TRANSFERS_LIMIT,
  MAX_COMPRESSION_LIMIT,
  MAX_COMPRESSION_FILTERS,
  type CairnClient,
  type CairnClientAcceptingKeys,
  type AddressInput,
  type PublicKeyLike,
  type ClientOptions,
  type CallOptions,
  type RetryContext,
  type RetryPolicy,
  type Paginators,
  type CompressionPaginators,
  type HttpMethod,
  type Transport,
  type TransportOptions,
  type TransportRequest,
  type TransportResponse,
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
  type CommitmentParams,
  type GetTransactionConfig,
  type PriorityFeeParams,
  type SimulateConfig,
  type CursorParams,
  type SignaturesForTokenOwnerParams,
  type TokenAccountsByDelegateParams,
  type TokenAccountsByOwnerParams,
  type GetTokenMetadataParams,
  type GetWalletTransfersParams,
  type MintCompressedNftParams,
  type U64,
  type AssetInterface,
  type AssetContent,
  type Asset,
  type AssetList,
  type AssetProof,
  type TokenAccount,
  type TokenAccountList,
  type Context,
  type WithContext,
  type CursorPage,
  type CompressedAccount,
  type CompressedTokenData,
  type CompressedTokenAccount,
  type CompressedAccountProof,
  type NewAddressProof,
  type CompressedProof,
  type ValidityProof,
  type CompressionSignature,
  type CompressionAccountChange,
  type TransactionWithCompressionInfo,
  type TokenMetadataRecord,
  type WalletTransfer,
  type TransferPage,
  type WebhookType,
  type Webhook,
  type MintCompressedNftResult,
  type Commitment,
  type LatestBlockhash,
  type SignatureStatus,
  type SimulationResult,
  type PriorityLevel,
  type PriorityFeeEstimate,
  type AccountInfo,
  type AccountKey,
  type AccountKeys,
  type MemcmpFilter,
  type AccountsByOwnerParams,
  type TokenBalancesByOwnerParams,
  type MintTokenHoldersParams,
  type ValidityProofParams,
  type TreeTypeNumber,
  type TreeContext,
  type CompressedAccountV2,
  type CompressedTokenAccountV2,
  type CompressedAccountProofV2,
  type AccountProofInputs,
  type AddressProofInputs,
  type ValidityProofV2,
  type ClosedAccountV2,
  type OpenedAccountV2,
  type TransactionWithCompressionInfoV2,
  type AccountItems,
  type TokenBalance,
  type TokenBalanceList,
  type TokenBalancePage,
  type OwnerBalance,
  type GetSignaturesForAddressParams,
  type SignatureInfo,
  type SignaturePaginators,
  type Subscriber,
  type Subscription,
  type SubscribeOptions,
  type SubscriptionGap,
  type AccountNotification,
  type ProgramNotification,
  type LogsNotification,
  type LogsFilter,
  type SignatureNotification,
  type SlotNotification,
  type SocketStats,
} from './rpc/index.js';
// The offline verifiers of one proof, and the verdicts. The Groth16 verifier and its BN254 curve, which
// only verifyValidityProof (below, loaded on first call) needs, stay out of the bundle this entry loads:
// the build keeps only what an entry uses of merkle/index.ts (scripts/build.mjs).
export {
  verifyAssetProofJson,
  verifyAssetLeaf,
  verifyAccountProof,
  verifyAccountHash,
  verifyNewAddressProof,
  VerdictTable,
  type IndexedVerdict,
  type Verdict,
  type Verifier,
} from './merkle/index.js';
export type { ValidityVerdict };

/**
 * A verifier of Merkle/ZK proofs in bulk, over worker threads (the same function as
 * `cairn-solana/merkle`'s, under its public type).
 *
 * @example
 * const v = createVerifier({ threads: 2 });
 * const verdicts = await v.verify('asset-proof', proofs);
 * await v.close();
 */
export const createVerifier: (options?: VerifierOptions) => Verifier = createMerkleVerifier;
export {
  createSender,
  transferInstruction,
  computeUnitPriceInstruction,
  computeUnitLimitInstruction,
  generateSigner,
  signerFromSecretKey,
  asAddress,
  type Address,
  type Signature,
  type KeySigner,
  type Sender,
  type SenderConfig,
  type SendOutcome,
  type SendInput,
} from './sender/index.js';
export { mintCompressedNft, type MintResult } from './mint/index.js';
export type { Devnet, DevnetOptions };

/**
 * Verify a validity proof (the same function as `cairn-solana/merkle`'s), offline. Loaded on first call,
 * with the BN254 pairing code and the shipped Groth16 keys it needs, which `import 'cairn-solana'` would
 * otherwise parse for every user who never checks a validity proof. Always answers a promise here.
 *
 * @example
 * const verdict = await verifyValidityProof(await client.getValidityProof({ hashes }));
 */
export function verifyValidityProof(value: unknown, opts?: ValidityOptions): Promise<ValidityVerdict> {
  return import('./merkle/index.js').then((m) => m.verifyValidityProof(value, opts));
}

/**
 * Start the embedded devnet (the same function as `cairn-solana/devnet`'s). Loaded on first call: the
 * devnet (its server, LiteSVM glue, websocket server) is most of the package, and `import 'cairn-solana'`
 * should not pay for it when no devnet runs.
 *
 * @example
 * const devnet = await startDevnet({ port: 0 });
 * await devnet.stop();
 */
export async function startDevnet(options?: DevnetOptions): Promise<Devnet> {
  return (await import('./devnet/index.js')).startDevnet(options);
}
