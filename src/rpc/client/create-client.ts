/**
 * The typed client: every method of the service interface under its spec name, params object
 * first and `CallOptions` last, plus the standard Solana methods a sender needs, iterators for
 * every paged method, and `close()`. All of it goes through one transport (`createTransport`).
 */
import { resolveEndpoints } from '../../config.js';
import { InputError } from '../../errors/index.js';
import { addressInputs } from '../../solana/index.js';
import { refuseInsecureKey } from '../transport/insecure-key.js';
import * as compression from '../compression/methods.js';
import { createCompressionPaginators } from '../compression/paginate.js';
import * as zk from '../compression/v2.js';
import * as sigs from '../compression/signatures.js';
import { callMethod } from './call.js';
import * as sfa from '../solana/signatures.js';
import type { ClientContext } from './context.js';
import * as das from '../das.js';
import * as ext from '../helius-extensions.js';
import { createJsonRpc, type CallOptions } from '../jsonrpc.js';
import * as mint from '../mint.js';
import { createPaginators } from '../paginate.js';
import { checkDuration, DEFAULT_DEADLINE_MS } from '../retry/policy.js';
import * as solana from '../solana/index.js';
import * as tokenMetadata from '../rest/token-metadata.js';
import { createTransport } from '../transport/create-transport.js';
import { createSubscriber } from '../subscribe/subscriber.js';
import { createMuxSocket } from '../subscribe/websocket.js';
import * as wallet from '../rest/wallet.js';
import { createWebhook } from '../rest/webhook-create.js';
import * as webhooks from '../rest/webhooks.js';
import type { CairnClient, CairnClientAcceptingKeys, ClientOptions } from './types.js';

export type { CairnClient, CairnClientAcceptingKeys, ClientOptions } from './types.js';

/**
 * Create a client. With no options every host points at the local devnet (see config.ts).
 *
 * @example
 * const client = createClient({ url: 'http://127.0.0.1:8899', apiKey: process.env.CAIRN_API_KEY });
 * const asset = await client.getAsset({ id: 'F9Lw3ki3hJ7PF9HQXsBzoY8GyE6sPoEZZdXJBsTTD2rk' });
 * for await (const a of client.paginate.getAssetsByOwner({ ownerAddress })) console.log(a.id);
 * await client.close();
 */
export function createClient(options: ClientOptions = {}): CairnClientAcceptingKeys {
  const endpoints = resolveEndpoints(options);
  const batchConcurrency = options.batchConcurrency ?? 4;
  if (!Number.isInteger(batchConcurrency) || batchConcurrency < 1 || batchConcurrency > 64) {
    throw new InputError('batchConcurrency', `expected an integer in 1..64, got ${String(batchConcurrency)}`);
  }
  const deadlineMs = checkDuration(options.deadlineMs, 'deadlineMs', DEFAULT_DEADLINE_MS);
  const senderApiKey = options.senderApiKey ?? false;
  if (endpoints.apiKey && options.allowInsecureKey !== true) {
    // every host the key would go to; the /fast host gets it only with senderApiKey
    for (const field of ['baseUrl', 'restUrl', 'walletUrl', ...(senderApiKey ? ['senderUrl' as const] : [])] as const) {
      refuseInsecureKey(new URL(endpoints[field]), field);
    }
  }
  const ownTransport = options.transport === undefined;
  const transport =
    options.transport ??
    createTransport({
      apiKey: endpoints.apiKey,
      timeoutMs: options.timeoutMs,
      deadlineMs,
      allowInsecureKey: options.allowInsecureKey,
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
    senderApiKey,
    logger: options.logger,
    deprecationWarnings: options.deprecationWarnings !== false,
  };
  /**
   * The call's options with its deadline fixed as a point in time, so every request of a call split
   * into several (batches, chunks) shares it rather than each starting its own.
   */
  const at = (o: CallOptions | undefined): CallOptions => {
    if (o?.deadlineAt !== undefined) return o;
    const ms = checkDuration(o?.deadlineMs, 'deadlineMs', deadlineMs);
    return { ...o, deadlineMs: ms, deadlineAt: performance.now() + ms };
  };
  const { apiKey: _key, ...shown } = endpoints;
  const wsUrl = websocketUrl(options.wsUrl, endpoints.baseUrl);
  if (endpoints.apiKey && options.allowInsecureKey !== true) refuseInsecureKey(new URL(wsUrl.replace(/^ws/, 'http')), 'wsUrl');
  const ws = options.websocket ?? {};
  for (const k of ['pingMs', 'pongTimeoutMs', 'reconnectMinMs', 'reconnectMaxMs', 'requestTimeoutMs'] as const) {
    const x = ws[k];
    if (x !== undefined && (!Number.isInteger(x) || x < 1 || x > 3_600_000)) throw new InputError(`websocket.${k}`, `expected an integer number of ms in 1..3600000, got ${String(x)}`);
  }
  // lazy: nothing connects until the first subscription
  const socket = createMuxSocket({ url: wsUrl, apiKey: endpoints.apiKey, logger: options.logger, ...ws });
  // the methods are async so that a bad deadlineMs (thrown by `at`) rejects the call instead of throwing
  const methods: CairnClient = {
    endpoints: Object.freeze(shown),
    getAsset: async (p, o) => das.getAsset(ctx, p, at(o)),
    getAssetBatch: async (p, o) => das.getAssetBatch(ctx, p, at(o)),
    getAssetProof: async (p, o) => das.getAssetProof(ctx, p, at(o)),
    getAssetProofBatch: async (p, o) => das.getAssetProofBatch(ctx, p, at(o)),
    getAssetsByOwner: async (p, o) => das.getAssetsByOwner(ctx, p, at(o)),
    getAssetsByCreator: async (p, o) => das.getAssetsByCreator(ctx, p, at(o)),
    getAssetsByAuthority: async (p, o) => das.getAssetsByAuthority(ctx, p, at(o)),
    getAssetsByGroup: async (p, o) => das.getAssetsByGroup(ctx, p, at(o)),
    getTokenAccounts: async (p, o) => das.getTokenAccounts(ctx, p, at(o)),
    searchAssets: async (p, o) => das.searchAssets(ctx, p, at(o)),
    getSignaturesForAsset: async (p, o) => das.getSignaturesForAsset(ctx, p, at(o)),
    getNftEditions: async (p, o) => das.getNftEditions(ctx, p, at(o)),
    getProgramAccountsV2: async (a, p, o) => ext.getProgramAccountsV2(ctx, a, p, at(o)),
    getTokenAccountsByOwnerV2: async (a, f, p, o) => ext.getTokenAccountsByOwnerV2(ctx, a, f, p, at(o)),
    getTransactionsForAddress: async (a, p, o) => ext.getTransactionsForAddress(ctx, a, p, at(o)),
    sendBundle: async (w, o) => ext.sendBundle(ctx, w, at(o)),
    getCompressedAccount: async (p, o) => compression.getCompressedAccount(ctx, p, at(o)),
    getCompressedAccountProof: async (p, o) => compression.getCompressedAccountProof(ctx, p, at(o)),
    getMultipleNewAddressProofs: async (a, o) => compression.getMultipleNewAddressProofs(ctx, a, at(o)),
    getValidityProof: async (p, o) => compression.getValidityProof(ctx, p, at(o)),
    getCompressedTokenAccountsByOwner: async (p, o) => compression.getCompressedTokenAccountsByOwner(ctx, p, at(o)),
    getCompressedTokenAccountsByDelegate: async (p, o) => compression.getCompressedTokenAccountsByDelegate(ctx, p, at(o)),
    getLatestCompressionSignatures: async (p, o) => compression.getLatestCompressionSignatures(ctx, p, at(o)),
    getCompressionSignaturesForTokenOwner: async (p, o) => compression.getCompressionSignaturesForTokenOwner(ctx, p, at(o)),
    getTransactionWithCompressionInfo: async (p, o) => compression.getTransactionWithCompressionInfo(ctx, p, at(o)),
    getCompressedAccountV2: async (p, o) => zk.getCompressedAccountV2(ctx, p, at(o)),
    getCompressedAccountProofV2: async (p, o) => zk.getCompressedAccountProofV2(ctx, p, at(o)),
    getMultipleCompressedAccounts: async (p, o) => zk.getMultipleCompressedAccounts(ctx, p, at(o)),
    getMultipleCompressedAccountsV2: async (p, o) => zk.getMultipleCompressedAccountsV2(ctx, p, at(o)),
    getMultipleCompressedAccountProofs: async (h, o) => zk.getMultipleCompressedAccountProofs(ctx, h, at(o)),
    getMultipleCompressedAccountProofsV2: async (h, o) => zk.getMultipleCompressedAccountProofsV2(ctx, h, at(o)),
    getCompressedAccountsByOwner: async (p, o) => zk.getCompressedAccountsByOwner(ctx, p, at(o)),
    getCompressedAccountsByOwnerV2: async (p, o) => zk.getCompressedAccountsByOwnerV2(ctx, p, at(o)),
    getCompressedTokenAccountsByOwnerV2: async (p, o) => zk.getCompressedTokenAccountsByOwnerV2(ctx, p, at(o)),
    getCompressedTokenAccountsByDelegateV2: async (p, o) => zk.getCompressedTokenAccountsByDelegateV2(ctx, p, at(o)),
    getTransactionWithCompressionInfoV2: async (p, o) => zk.getTransactionWithCompressionInfoV2(ctx, p, at(o)),
    getValidityProofV2: async (p, o) => zk.getValidityProofV2(ctx, p, at(o)),
    getMultipleNewAddressProofsV2: async (a, o) => zk.getMultipleNewAddressProofsV2(ctx, a, at(o)),
    getCompressedBalance: async (p, o) => zk.getCompressedBalance(ctx, p, at(o)),
    getCompressedBalanceByOwner: async (p, o) => zk.getCompressedBalanceByOwner(ctx, p, at(o)),
    getCompressedTokenAccountBalance: async (p, o) => zk.getCompressedTokenAccountBalance(ctx, p, at(o)),
    getCompressedTokenBalancesByOwner: async (p, o) => zk.getCompressedTokenBalancesByOwner(ctx, p, at(o)),
    getCompressedTokenBalancesByOwnerV2: async (p, o) => zk.getCompressedTokenBalancesByOwnerV2(ctx, p, at(o)),
    getCompressedMintTokenHolders: async (p, o) => zk.getCompressedMintTokenHolders(ctx, p, at(o)),
    getIndexerHealth: async (o) => zk.getIndexerHealth(ctx, at(o)),
    getIndexerSlot: async (o) => zk.getIndexerSlot(ctx, at(o)),
    getCompressionSignaturesForAccount: async (p, o) => sigs.getCompressionSignaturesForAccount(ctx, p, at(o)),
    getCompressionSignaturesForAddress: async (p, o) => sigs.getCompressionSignaturesForAddress(ctx, p, at(o)),
    getCompressionSignaturesForOwner: async (p, o) => sigs.getCompressionSignaturesForOwner(ctx, p, at(o)),
    getLatestNonVotingSignatures: async (p, o) => sigs.getLatestNonVotingSignatures(ctx, p, at(o)),
    getWalletTransfers: async (p, o) => wallet.getWalletTransfers(ctx, p, at(o)),
    getTokenMetadata: async (p, o) => tokenMetadata.getTokenMetadata(ctx, p, at(o)),
    setWebhookActive: async (p, o) => webhooks.setWebhookActive(ctx, p, at(o)),
    createWebhook: async (p, o) => createWebhook(ctx, p, at(o)),
    getWebhook: async (p, o) => webhooks.getWebhook(ctx, p, at(o)),
    listWebhooks: async (o) => webhooks.listWebhooks(ctx, at(o)),
    updateWebhook: async (p, o) => webhooks.updateWebhook(ctx, p, at(o)),
    deleteWebhook: async (p, o) => webhooks.deleteWebhook(ctx, p, at(o)),
    mintCompressedNft: async (p, o) => mint.mintCompressedNft(ctx, p, at(o)),
    getLatestBlockhash: async (p, o) => solana.getLatestBlockhash(ctx, p, at(o)),
    getBlockHeight: async (p, o) => solana.getBlockHeight(ctx, p, at(o)),
    getSlot: async (p, o) => solana.getSlot(ctx, p, at(o)),
    getSignatureStatuses: async (s, c, o) => solana.getSignatureStatuses(ctx, s, c, at(o)),
    getTransaction: async (s, c, o) => solana.getTransaction(ctx, s, c, at(o)),
    simulateTransaction: async (w, c, o) => solana.simulateTransaction(ctx, w, c, at(o)),
    getPriorityFeeEstimate: async (p, o) => solana.getPriorityFeeEstimate(ctx, p, at(o)),
    sendTransaction: async (w, c, o) => solana.sendTransaction(ctx, w, c, at(o)),
    ping: async (o) => solana.ping(ctx, at(o)),
    getBalance: async (a, p, o) => solana.getBalance(ctx, a, p, at(o)),
    getAccountInfo: async (a, p, o) => solana.getAccountInfo(ctx, a, p, at(o)),
    requestAirdrop: async (a, l, p, o) => solana.requestAirdrop(ctx, a, l, p, at(o)),
    getMultipleAccounts: async (a, p, o) => solana.getMultipleAccounts(ctx, a, p, at(o)),
    getProgramAccounts: async (a, p, o) => solana.getProgramAccounts(ctx, a, p, at(o)),
    getTokenAccountBalance: async (a, p, o) => solana.getTokenAccountBalance(ctx, a, p, at(o)),
    getTokenSupply: async (a, p, o) => solana.getTokenSupply(ctx, a, p, at(o)),
    getTokenLargestAccounts: async (a, p, o) => solana.getTokenLargestAccounts(ctx, a, p, at(o)),
    getTokenAccountsByOwner: async (a, f, p, o) => solana.getTokenAccountsByOwner(ctx, a, f, p, at(o)),
    getTokenAccountsByDelegate: async (a, f, p, o) => solana.getTokenAccountsByDelegate(ctx, a, f, p, at(o)),
    getMinimumBalanceForRentExemption: async (n, p, o) => solana.getMinimumBalanceForRentExemption(ctx, n, p, at(o)),
    getFeeForMessage: async (m, p, o) => solana.getFeeForMessage(ctx, m, p, at(o)),
    getBlock: async (s, p, o) => solana.getBlock(ctx, s, p, at(o)),
    getBlockTime: async (s, o) => solana.getBlockTime(ctx, s, at(o)),
    getBlocks: async (s, e, p, o) => solana.getBlocks(ctx, s, e, p, at(o)),
    getBlocksWithLimit: async (s, l, p, o) => solana.getBlocksWithLimit(ctx, s, l, p, at(o)),
    getFirstAvailableBlock: async (o) => solana.getFirstAvailableBlock(ctx, at(o)),
    getEpochSchedule: async (o) => solana.getEpochSchedule(ctx, at(o)),
    getEpochInfo: async (p, o) => solana.getEpochInfo(ctx, p, at(o)),
    getIdentity: async (o) => solana.getIdentity(ctx, at(o)),
    getSlotLeader: async (p, o) => solana.getSlotLeader(ctx, p, at(o)),
    getClusterNodes: async (o) => solana.getClusterNodes(ctx, at(o)),
    getTransactionCount: async (p, o) => solana.getTransactionCount(ctx, p, at(o)),
    getVoteAccounts: async (p, o) => solana.getVoteAccounts(ctx, p, at(o)),
    getInflationReward: async (a, p, o) => solana.getInflationReward(ctx, a, p, at(o)),
    getSignaturesForAddress: async (a, p, o) => sfa.getSignaturesForAddress(ctx, a, p, at(o)),
    call: async <R = unknown>(method: string, params?: unknown, o?: CallOptions) => callMethod<R>(ctx, method, params, at(o)),
    callRaw: async (method, params, o) => ctx.rpc.callRaw({ method, params }, at(o)),
    paginate: {
      ...createPaginators(ctx),
      ...createCompressionPaginators(ctx),
      ...ext.createHeliusExtensionPaginators(ctx),
      ...sfa.createSignaturePaginators(ctx),
    },
    subscribe: createSubscriber(ctx, socket),
    async close() {
      await socket.close();
      if (ownTransport) await transport.close();
    },
  };
  return acceptingKeys(methods);
}

/** The websocket URL: as given (ws/wss), or the JSON-RPC host's with its scheme swapped. */
function websocketUrl(given: string | undefined, baseUrl: string): string {
  if (given === undefined) return baseUrl.replace(/^http/, 'ws');
  let u: URL;
  try {
    u = new URL(given);
  } catch (cause) {
    throw new InputError('wsUrl', `expected an absolute ws(s) URL, got ${JSON.stringify(given)}`, { cause });
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new InputError('wsUrl', `expected a ws: or wss: URL, got protocol ${u.protocol}`);
  if (u.searchParams.has('api-key')) throw new InputError('wsUrl', 'put the API key in the apiKey option, not in the URL');
  return given.replace(/\/+$/, '');
}

/**
 * The methods (and the paginators') with their arguments' `PublicKey`s turned into base58 first, so
 * every module's checks and the JSON body see text (solana/inputs.ts, the one normaliser).
 */
function acceptingKeys(m: CairnClient): CairnClientAcceptingKeys {
  const wrap = <O extends object>(o: O): O => {
    const out: Record<string, unknown> = {};
    for (const [k, f] of Object.entries(o)) {
      out[k] = typeof f === 'function' && k !== 'close' ? (...args: unknown[]) => (f as (...a: unknown[]) => unknown)(...args.map((a) => addressInputs(a))) : f;
    }
    return out as O;
  };
  return { ...wrap(m), paginate: wrap(m.paginate), subscribe: wrap(m.subscribe) } as unknown as CairnClientAcceptingKeys;
}
