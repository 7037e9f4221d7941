/**
 * The client's contract: the options `createClient` takes and the `CairnClient` it returns — every
 * method, typed — kept apart from the code that builds it (create-client.ts).
 */
import type { Endpoints, EndpointsInput } from '../../config.js';
import type { AddressInputs } from '../../solana/index.js';
import type * as compression from '../compression/methods.js';
import type { CompressionPaginators } from '../compression/paginate.js';
import type * as C from '../compression/types.js';
import type * as zk from '../compression/v2.js';
import type * as sfa from '../solana/signatures.js';
import type * as das from '../das.js';
import type * as ext from '../helius-extensions.js';
import type { CallOptions } from '../jsonrpc.js';
import type * as mint from '../mint.js';
import type { Paginators } from '../paginate.js';
import type { RetryPolicy } from '../retry/policy.js';
import type * as solana from '../solana/index.js';
import type * as tokenMetadata from '../rest/token-metadata.js';
import type { Transport } from '../transport/create-transport.js';
import type * as T from '../types.js';
import type { Subscriber } from '../subscribe/subscriber.js';
import type * as wallet from '../rest/wallet.js';
import type * as webhooks from '../rest/webhooks.js';

export interface ClientOptions extends EndpointsInput {
  retry?: Partial<RetryPolicy> | undefined;
  /** Per-attempt timeout in ms (default 30,000). */
  timeoutMs?: number | undefined;
  /**
   * Overall deadline of each call in ms: every attempt, backoff and Retry-After wait, and every
   * request of a call split into several, together (default 60,000; `CallOptions.deadlineMs` per call).
   */
  deadlineMs?: number | undefined;
  /**
   * Let the API key go over plain `http:` to a host that is not loopback (default false: createClient
   * refuses with `RPC_INSECURE_KEY`). Only for a network you trust end to end.
   */
  allowInsecureKey?: boolean | undefined;
  /** Largest response accepted, in bytes (default 64 MiB). */
  maxResponseBytes?: number | undefined;
  /** Requests in flight when a batch is split (default 4). */
  batchConcurrency?: number | undefined;
  /** One line per retry, failure and deprecation, already redacted. */
  logger?: ((line: string) => void) | undefined;
  /**
   * Say once per process that a deprecated method (mintCompressedNft, token-metadata) is deprecated
   * and what replaces it — one `cairn: …` line on stderr, or to `logger` (default true; false: never).
   */
  deprecationWarnings?: boolean | undefined;
  /** Bring your own transport (tests, the devnet). The client will not close it. */
  transport?: Transport | undefined;
  /** Send the API key to the /fast host too (only for custom-TPS plans; default false). */
  senderApiKey?: boolean | undefined;
  /** Reuse connections (default true). */
  keepAlive?: boolean | undefined;
  /**
   * The websocket `client.subscribe` uses (default: `baseUrl` with ws: for http: and wss: for
   * https:, as the provider and the devnet serve it); the key goes in its `api-key` parameter.
   */
  wsUrl?: string | undefined;
  /** The websocket's keep-alive: ping every `pingMs`, dead when no pong within `pongTimeoutMs` (defaults 10,000 / 5,000). */
  websocket?: { pingMs?: number; pongTimeoutMs?: number; reconnectMinMs?: number; reconnectMaxMs?: number; requestTimeoutMs?: number } | undefined;
}

type Fn<P, R> = (params: P, opts?: CallOptions) => Promise<R>;

export interface CairnClient {
  readonly endpoints: Readonly<Omit<Endpoints, 'apiKey'>>;
  // DAS
  getAsset: Fn<das.GetAssetParams, T.Asset>;
  getAssetBatch: Fn<{ ids: string[]; options?: das.GetAssetOptions }, (T.Asset | null)[]>;
  getAssetProof: Fn<{ id: string }, T.AssetProof>;
  getAssetProofBatch: Fn<{ ids: string[] }, Record<string, T.AssetProof | null>>;
  getAssetsByOwner: Fn<das.GetAssetsByOwnerParams, T.AssetList>;
  getAssetsByCreator: Fn<das.GetAssetsByCreatorParams, T.AssetList>;
  getAssetsByAuthority: Fn<das.GetAssetsByAuthorityParams, T.AssetList>;
  getAssetsByGroup: Fn<das.GetAssetsByGroupParams, T.AssetList>;
  getTokenAccounts: Fn<das.GetTokenAccountsParams, T.TokenAccountList>;
  // the provider's extensions helius-sdk users call (das.ts, helius-extensions.ts)
  searchAssets: Fn<das.SearchAssetsParams, T.AssetList>;
  getSignaturesForAsset: Fn<das.GetSignaturesForAssetParams, das.AssetSignaturePage>;
  getNftEditions: Fn<{ mint: string; page?: number; limit?: number }, das.NftEditionsPage>;
  getProgramAccountsV2(
    programId: string,
    params?: ext.V2AccountParams & { filters?: ext.V2AccountFilter[] },
    opts?: CallOptions,
  ): Promise<T.WithContext<ext.V2AccountPage>>;
  getTokenAccountsByOwnerV2(
    owner: string,
    filter: { mint: string } | { programId: string },
    params?: ext.V2AccountParams,
    opts?: CallOptions,
  ): Promise<T.WithContext<ext.V2AccountPage>>;
  getTransactionsForAddress(address: string, params?: ext.GetTransactionsForAddressParams, opts?: CallOptions): Promise<ext.AddressTransactionPage>;
  sendBundle(wires: (Uint8Array | string)[], opts?: CallOptions): Promise<string>;
  // compression
  getCompressedAccount: Fn<{ address?: string | null; hash?: string | null }, T.WithContext<T.CompressedAccount | null>>;
  getCompressedAccountProof: Fn<{ hash: string }, T.WithContext<T.CompressedAccountProof>>;
  getMultipleNewAddressProofs(addresses: string[], opts?: CallOptions): Promise<T.WithContext<T.NewAddressProof[]>>;
  getValidityProof: Fn<{ hashes?: string[]; newAddressesWithTrees?: { address: string; tree: string }[] }, T.WithContext<T.ValidityProof>>;
  getCompressedTokenAccountsByOwner: Fn<compression.TokenAccountsByOwnerParams, T.WithContext<T.CursorPage<T.CompressedTokenAccount>>>;
  getCompressedTokenAccountsByDelegate: Fn<compression.TokenAccountsByDelegateParams, T.WithContext<T.CursorPage<T.CompressedTokenAccount>>>;
  getLatestCompressionSignatures(params?: compression.CursorParams, opts?: CallOptions): Promise<T.WithContext<T.CursorPage<T.CompressionSignature>>>;
  getCompressionSignaturesForTokenOwner: Fn<compression.SignaturesForTokenOwnerParams, T.WithContext<T.CursorPage<T.CompressionSignature>>>;
  getTransactionWithCompressionInfo: Fn<{ signature: string }, T.TransactionWithCompressionInfo>;
  // the compression indexer's V2 methods and its others beyond the nine (compression/v2.ts)
  getCompressedAccountV2: Fn<zk.AccountKey, T.WithContext<C.CompressedAccountV2 | null>>;
  getCompressedAccountProofV2: Fn<{ hash: string }, T.WithContext<C.CompressedAccountProofV2>>;
  getMultipleCompressedAccounts: Fn<zk.AccountKeys, T.WithContext<C.AccountItems<T.CompressedAccount>>>;
  getMultipleCompressedAccountsV2: Fn<zk.AccountKeys, T.WithContext<C.AccountItems<C.CompressedAccountV2>>>;
  getMultipleCompressedAccountProofs(hashes: string[], opts?: CallOptions): Promise<T.WithContext<T.CompressedAccountProof[]>>;
  getMultipleCompressedAccountProofsV2(hashes: string[], opts?: CallOptions): Promise<T.WithContext<C.CompressedAccountProofV2[]>>;
  getCompressedAccountsByOwner: Fn<zk.AccountsByOwnerParams, T.WithContext<T.CursorPage<T.CompressedAccount>>>;
  getCompressedAccountsByOwnerV2: Fn<zk.AccountsByOwnerParams, T.WithContext<T.CursorPage<C.CompressedAccountV2>>>;
  getCompressedTokenAccountsByOwnerV2: Fn<compression.TokenAccountsByOwnerParams, T.WithContext<T.CursorPage<C.CompressedTokenAccountV2>>>;
  getCompressedTokenAccountsByDelegateV2: Fn<compression.TokenAccountsByDelegateParams, T.WithContext<T.CursorPage<C.CompressedTokenAccountV2>>>;
  getTransactionWithCompressionInfoV2: Fn<{ signature: string }, C.TransactionWithCompressionInfoV2>;
  getValidityProofV2: Fn<zk.ValidityProofParams, T.WithContext<C.ValidityProofV2>>;
  getMultipleNewAddressProofsV2(addresses: { address: string; tree: string }[], opts?: CallOptions): Promise<T.WithContext<T.NewAddressProof[]>>;
  getCompressedBalance: Fn<zk.AccountKey, T.WithContext<T.U64>>;
  getCompressedBalanceByOwner: Fn<{ owner: string }, T.WithContext<T.U64>>;
  getCompressedTokenAccountBalance: Fn<{ hash: string }, T.WithContext<{ amount: T.U64 }>>;
  getCompressedTokenBalancesByOwner: Fn<zk.TokenBalancesByOwnerParams, T.WithContext<C.TokenBalanceList>>;
  getCompressedTokenBalancesByOwnerV2: Fn<zk.TokenBalancesByOwnerParams, T.WithContext<C.TokenBalancePage>>;
  getCompressedMintTokenHolders: Fn<zk.MintTokenHoldersParams, T.WithContext<T.CursorPage<C.OwnerBalance>>>;
  getIndexerHealth(opts?: CallOptions): Promise<string>;
  getIndexerSlot(opts?: CallOptions): Promise<number>;
  // the indexer's signature lists beyond the spec's two (compression/signatures.ts)
  getCompressionSignaturesForAccount: Fn<{ hash: string }, T.WithContext<{ items: T.CompressionSignature[] }>>;
  getCompressionSignaturesForAddress: Fn<compression.CursorParams & { address: string }, T.WithContext<T.CursorPage<T.CompressionSignature>>>;
  getCompressionSignaturesForOwner: Fn<compression.CursorParams & { owner: string }, T.WithContext<T.CursorPage<T.CompressionSignature>>>;
  getLatestNonVotingSignatures(
    params?: compression.CursorParams,
    opts?: CallOptions,
  ): Promise<T.WithContext<{ items: (T.CompressionSignature & { error: string | null })[] }>>;
  // REST
  getWalletTransfers: Fn<wallet.GetWalletTransfersParams, T.TransferPage>;
  /** @deprecated the asset queries replace it */
  getTokenMetadata: Fn<tokenMetadata.GetTokenMetadataParams, T.TokenMetadataRecord[]>;
  setWebhookActive: Fn<{ webhookID: string; active: boolean }, T.Webhook>;
  /** Create a webhook; after an unknown outcome it finds the one made (same URL and addresses) before trying again. */
  createWebhook: Fn<webhooks.WebhookParams, T.Webhook>;
  getWebhook: Fn<{ webhookID: string }, T.Webhook>;
  listWebhooks(opts?: CallOptions): Promise<T.Webhook[]>;
  /** Change the fields given; the others are kept (the service's PUT takes the whole webhook). */
  updateWebhook: Fn<{ webhookID: string } & Partial<webhooks.WebhookParams>, T.Webhook>;
  deleteWebhook: Fn<{ webhookID: string }, void>;
  /** @deprecated the zero-knowledge compression methods replace it */
  mintCompressedNft: Fn<mint.MintCompressedNftParams, T.MintCompressedNftResult>;
  // standard Solana + sender host
  getLatestBlockhash(params?: solana.CommitmentParams, opts?: CallOptions): Promise<T.LatestBlockhash>;
  getBlockHeight(params?: solana.CommitmentParams, opts?: CallOptions): Promise<number>;
  getSlot(params?: solana.CommitmentParams, opts?: CallOptions): Promise<number>;
  getSignatureStatuses(
    signatures: string[],
    config?: { searchTransactionHistory?: boolean },
    opts?: CallOptions,
  ): Promise<(T.SignatureStatus | null)[]>;
  getTransaction(signature: string, config?: solana.GetTransactionConfig, opts?: CallOptions): Promise<Record<string, unknown> | null>;
  simulateTransaction(wire: Uint8Array | string, config?: solana.SimulateConfig, opts?: CallOptions): Promise<T.SimulationResult>;
  getPriorityFeeEstimate: Fn<solana.PriorityFeeParams, T.PriorityFeeEstimate>;
  sendTransaction(wire: Uint8Array | string, config?: { swqosOnly?: boolean }, opts?: CallOptions): Promise<string>;
  ping(opts?: CallOptions): Promise<number>;
  getBalance(address: string, params?: solana.CommitmentParams, opts?: CallOptions): Promise<T.U64>;
  getAccountInfo(
    address: string,
    params?: solana.CommitmentParams & { encoding?: 'base64' | 'base58' | 'jsonParsed' },
    opts?: CallOptions,
  ): Promise<T.AccountInfo | null>;
  requestAirdrop(address: string, lamports: number | bigint, params?: solana.CommitmentParams, opts?: CallOptions): Promise<string>;
  getMultipleAccounts(addresses: string[], params?: solana.AccountParams, opts?: CallOptions): Promise<(T.AccountInfo | null)[]>;
  getProgramAccounts(
    programId: string,
    params?: solana.AccountParams & { filters?: solana.AccountFilter[] },
    opts?: CallOptions,
  ): Promise<solana.KeyedAccount[]>;
  getTokenAccountBalance(account: string, params?: solana.CommitmentParams, opts?: CallOptions): Promise<solana.TokenAmount>;
  getTokenSupply(mint: string, params?: solana.CommitmentParams, opts?: CallOptions): Promise<solana.TokenAmount>;
  getTokenLargestAccounts(mint: string, params?: solana.CommitmentParams, opts?: CallOptions): Promise<(solana.TokenAmount & { address: string })[]>;
  getTokenAccountsByOwner(
    owner: string,
    filter: { mint: string } | { programId: string },
    params?: solana.AccountParams,
    opts?: CallOptions,
  ): Promise<solana.KeyedAccount[]>;
  getTokenAccountsByDelegate(
    delegate: string,
    filter: { mint: string } | { programId: string },
    params?: solana.AccountParams,
    opts?: CallOptions,
  ): Promise<solana.KeyedAccount[]>;
  getMinimumBalanceForRentExemption(dataLength: number, params?: solana.CommitmentParams, opts?: CallOptions): Promise<number>;
  getFeeForMessage(message: Uint8Array | string, params?: solana.CommitmentParams, opts?: CallOptions): Promise<number | null>;
  getBlock(slot: number, params?: solana.BlockParams, opts?: CallOptions): ReturnType<typeof solana.getBlock>;
  getBlockTime(slot: number, opts?: CallOptions): Promise<number | null>;
  getBlocks(startSlot: number, endSlot?: number, params?: { commitment?: 'confirmed' | 'finalized' }, opts?: CallOptions): Promise<number[]>;
  getBlocksWithLimit(startSlot: number, limit: number, params?: { commitment?: 'confirmed' | 'finalized' }, opts?: CallOptions): Promise<number[]>;
  getFirstAvailableBlock(opts?: CallOptions): Promise<number>;
  getEpochSchedule(opts?: CallOptions): Promise<solana.EpochSchedule>;
  getEpochInfo(params?: solana.CommitmentParams, opts?: CallOptions): Promise<solana.EpochInfo>;
  getIdentity(opts?: CallOptions): Promise<string>;
  getSlotLeader(params?: solana.CommitmentParams, opts?: CallOptions): Promise<string>;
  getClusterNodes(opts?: CallOptions): Promise<solana.ClusterNode[]>;
  getTransactionCount(params?: solana.CommitmentParams, opts?: CallOptions): Promise<number>;
  getVoteAccounts(params?: solana.CommitmentParams, opts?: CallOptions): Promise<solana.VoteAccounts>;
  getInflationReward(
    addresses: string[],
    params?: solana.CommitmentParams & { epoch?: number },
    opts?: CallOptions,
  ): Promise<(solana.InflationReward | null)[]>;
  /** One page of an address's signatures, newest first (`before`/`until` page; `paginate.getSignaturesForAddress` walks them all). */
  getSignaturesForAddress(address: string, params?: sfa.GetSignaturesForAddressParams, opts?: CallOptions): Promise<sfa.SignatureInfo[]>;
  /**
   * Any other JSON-RPC method, on the JSON-RPC host through the same transport: `params` an array
   * (positional) or an object (named), `[]` when omitted; the result parsed but not validated.
   *
   * @example
   * const { 'solana-core': version } = await client.call<{ 'solana-core': string }>('getVersion');
   */
  call<R = unknown>(method: string, params?: unknown, opts?: CallOptions): Promise<R>;
  /**
   * Any JSON-RPC method, answered with the response body's bytes as received: the envelope is
   * checked (JSON, the id, `error` raised as `RpcError`) but nothing is parsed on this thread. Hand
   * the bytes to `createVerifier().verify(kind, bytes)`: its workers parse the items.
   *
   * @example
   * const body = await client.callRaw('getAssetProofBatch', { ids });
   * const verdicts = await verifier.verify('asset-proof', body);
   */
  callRaw(method: string, params: unknown, opts?: CallOptions): Promise<Uint8Array>;
  /** Async iterators over every paged method. */
  readonly paginate: Paginators & CompressionPaginators & ext.HeliusExtensionPaginators & sfa.SignaturePaginators;
  /**
   * Websocket subscriptions (account, program, logs, signature, slot, root) on one shared socket,
   * opened on first use.
   *
   * @example
   * const slots = await client.subscribe.slot({ signal });
   * for await (const s of slots) console.log(s.slot);
   */
  readonly subscribe: Subscriber;
  /** Close the keep-alive connections (only of a transport the client created) and the websocket. */
  close(): Promise<void>;
}

/**
 * The client as `createClient` returns it: each method also takes a web3.js `PublicKey` wherever it
 * takes a string (kit's `Address` is a string); the client turns keys into base58 before its checks.
 * An intersection (overloads), so `CairnClient` itself, and fakes typed as it, stay as they were.
 */
export type CairnClientAcceptingKeys = CairnClient &
  AcceptingKeys<Omit<CairnClient, 'paginate'>> & { readonly paginate: CairnClient['paginate'] & AcceptingKeys<CairnClient['paginate']> };

/** Each method of `O` also taking `PublicKey`s where it takes strings. */
type AcceptingKeys<O> = { [K in keyof O]: O[K] extends (...a: infer A) => infer R ? (...a: AddressInputs<A>) => R : O[K] };
