/**
 * The typed client: every method of the service interface under its spec name, params object
 * first and `CallOptions` last, plus the standard Solana methods a sender needs, iterators for
 * every paged method, and `close()`. All of it goes through one transport (`createTransport`).
 */
import { resolveEndpoints, type Endpoints, type EndpointsInput } from '../config.js';
import { InputError } from '../errors.js';
import * as compression from './compression.js';
import type { ClientContext } from './context.js';
import * as das from './das.js';
import { createJsonRpc, type CallOptions } from './jsonrpc.js';
import * as mint from './mint.js';
import { createPaginators, type Paginators } from './paginate.js';
import type { RetryPolicy } from './retry.js';
import * as solana from './solana.js';
import * as tokenMetadata from './token-metadata.js';
import { createTransport, type Transport } from './transport.js';
import type * as T from './types.js';
import * as wallet from './wallet.js';
import * as webhooks from './webhooks.js';

export interface ClientOptions extends EndpointsInput {
  retry?: Partial<RetryPolicy>;
  /** Per-attempt timeout in ms (default 30,000). */
  timeoutMs?: number;
  /** Largest response accepted, in bytes (default 64 MiB). */
  maxResponseBytes?: number;
  /** Requests in flight when a batch is split (default 4). */
  batchConcurrency?: number;
  /** One line per retry, failure and deprecation, already redacted. */
  logger?: (line: string) => void;
  /** Bring your own transport (tests, the devnet). The client will not close it. */
  transport?: Transport;
  /** Send the API key to the /fast host too (only for custom-TPS plans; default false). */
  senderApiKey?: boolean;
  /** Reuse connections (default true). */
  keepAlive?: boolean;
}

type Fn<P, R> = (params: P, opts?: CallOptions) => Promise<R>;

export interface CairnClient {
  readonly endpoints: Readonly<Omit<Endpoints, 'apiKey'>>;
  // DAS
  getAsset: Fn<das.GetAssetParams, T.Asset>;
  getAssetBatch: Fn<{ ids: string[]; options?: das.GetAssetOptions }, (T.Asset | null)[]>;
  getAssetProofBatch: Fn<{ ids: string[] }, Record<string, T.AssetProof | null>>;
  getAssetsByOwner: Fn<das.GetAssetsByOwnerParams, T.AssetList>;
  getAssetsByCreator: Fn<das.GetAssetsByCreatorParams, T.AssetList>;
  getAssetsByAuthority: Fn<das.GetAssetsByAuthorityParams, T.AssetList>;
  getAssetsByGroup: Fn<das.GetAssetsByGroupParams, T.AssetList>;
  getTokenAccounts: Fn<das.GetTokenAccountsParams, T.TokenAccountList>;
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
  // REST
  getWalletTransfers: Fn<wallet.GetWalletTransfersParams, T.TransferPage>;
  /** @deprecated the asset queries replace it */
  getTokenMetadata: Fn<tokenMetadata.GetTokenMetadataParams, T.TokenMetadataRecord[]>;
  setWebhookActive: Fn<{ webhookID: string; active: boolean }, T.Webhook>;
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
  readonly paginate: Paginators;
  /** Close the keep-alive connections (only of a transport the client created). */
  close(): Promise<void>;
}

/**
 * Create a client. With no options every host points at the local devnet (see config.ts).
 *
 * @example
 * const client = createClient({ url: 'http://127.0.0.1:8899', apiKey: process.env.CAIRN_API_KEY });
 * const asset = await client.getAsset({ id: 'F9Lw3ki3hJ7PF9HQXsBzoY8GyE6sPoEZZdXJBsTTD2rk' });
 * for await (const a of client.paginate.getAssetsByOwner({ ownerAddress })) console.log(a.id);
 * await client.close();
 */
export function createClient(options: ClientOptions = {}): CairnClient {
  const endpoints = resolveEndpoints(options);
  const batchConcurrency = options.batchConcurrency ?? 4;
  if (!Number.isInteger(batchConcurrency) || batchConcurrency < 1 || batchConcurrency > 64) {
    throw new InputError('batchConcurrency', `expected an integer in 1..64, got ${String(batchConcurrency)}`);
  }
  const ownTransport = options.transport === undefined;
  const transport =
    options.transport ??
    createTransport({
      apiKey: endpoints.apiKey,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      retry: options.retry,
      logger: options.logger,
      keepAlive: options.keepAlive,
    });
  const ctx: ClientContext = {
    rpc: createJsonRpc(transport, endpoints.baseUrl),
    transport,
    endpoints,
    batchConcurrency,
    senderApiKey: options.senderApiKey ?? false,
    logger: options.logger,
  };
  const { apiKey: _key, ...shown } = endpoints;
  return {
    endpoints: Object.freeze(shown),
    getAsset: (p, o) => das.getAsset(ctx, p, o),
    getAssetBatch: (p, o) => das.getAssetBatch(ctx, p, o),
    getAssetProofBatch: (p, o) => das.getAssetProofBatch(ctx, p, o),
    getAssetsByOwner: (p, o) => das.getAssetsByOwner(ctx, p, o),
    getAssetsByCreator: (p, o) => das.getAssetsByCreator(ctx, p, o),
    getAssetsByAuthority: (p, o) => das.getAssetsByAuthority(ctx, p, o),
    getAssetsByGroup: (p, o) => das.getAssetsByGroup(ctx, p, o),
    getTokenAccounts: (p, o) => das.getTokenAccounts(ctx, p, o),
    getCompressedAccount: (p, o) => compression.getCompressedAccount(ctx, p, o),
    getCompressedAccountProof: (p, o) => compression.getCompressedAccountProof(ctx, p, o),
    getMultipleNewAddressProofs: (a, o) => compression.getMultipleNewAddressProofs(ctx, a, o),
    getValidityProof: (p, o) => compression.getValidityProof(ctx, p, o),
    getCompressedTokenAccountsByOwner: (p, o) => compression.getCompressedTokenAccountsByOwner(ctx, p, o),
    getCompressedTokenAccountsByDelegate: (p, o) => compression.getCompressedTokenAccountsByDelegate(ctx, p, o),
    getLatestCompressionSignatures: (p, o) => compression.getLatestCompressionSignatures(ctx, p, o),
    getCompressionSignaturesForTokenOwner: (p, o) => compression.getCompressionSignaturesForTokenOwner(ctx, p, o),
    getTransactionWithCompressionInfo: (p, o) => compression.getTransactionWithCompressionInfo(ctx, p, o),
    getWalletTransfers: (p, o) => wallet.getWalletTransfers(ctx, p, o),
    getTokenMetadata: (p, o) => tokenMetadata.getTokenMetadata(ctx, p, o),
    setWebhookActive: (p, o) => webhooks.setWebhookActive(ctx, p, o),
    mintCompressedNft: (p, o) => mint.mintCompressedNft(ctx, p, o),
    getLatestBlockhash: (p, o) => solana.getLatestBlockhash(ctx, p, o),
    getBlockHeight: (p, o) => solana.getBlockHeight(ctx, p, o),
    getSlot: (p, o) => solana.getSlot(ctx, p, o),
    getSignatureStatuses: (s, c, o) => solana.getSignatureStatuses(ctx, s, c, o),
    getTransaction: (s, c, o) => solana.getTransaction(ctx, s, c, o),
    simulateTransaction: (w, c, o) => solana.simulateTransaction(ctx, w, c, o),
    getPriorityFeeEstimate: (p, o) => solana.getPriorityFeeEstimate(ctx, p, o),
    sendTransaction: (w, c, o) => solana.sendTransaction(ctx, w, c, o),
    ping: (o) => solana.ping(ctx, o),
    getBalance: (a, p, o) => solana.getBalance(ctx, a, p, o),
    getAccountInfo: (a, p, o) => solana.getAccountInfo(ctx, a, p, o),
    requestAirdrop: (a, l, p, o) => solana.requestAirdrop(ctx, a, l, p, o),
    callRaw: (method, params, o) => ctx.rpc.callRaw({ method, params }, o),
    paginate: createPaginators(ctx),
    async close() {
      if (ownTransport) await transport.close();
    },
  };
}
