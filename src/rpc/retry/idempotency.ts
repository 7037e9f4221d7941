/**
 * Which calls may be sent again after a failure that leaves their outcome unknown: the per-method
 * table. A read is idempotent: asking twice changes nothing. A call that changes state on the service
 * (a mint, an airdrop, a transaction, a webhook's creation, edit or deletion) is not sent again in
 * the dark; each one says what learns its outcome (`findOut`), which the `RPC_OUTCOME_UNKNOWN` error
 * carries. Even the calls HTTP calls idempotent (PUT, PATCH, DELETE) are held here: a second PUT
 * sent after the first was applied undoes whatever another writer changed in between.
 *
 * The transport asks the table through `TransportRequest.idempotent`; the JSON-RPC layer fills that
 * in from the wire method's name (`rpcMethodSafety`), so `callRaw` of any method is covered too.
 */

/** What the table says of one method. */
export interface MethodSafety {
  /** It changes state on the service: never sent again once its request may have been acted on. */
  changesState: boolean;
  /** For a state-changing method: what learns whether an attempt was acted on. */
  findOut?: string;
  /**
   * A state-changing method whose second delivery cannot act twice (signed transactions: a
   * signature executes once). It is still never sent again in the dark, but it may ride a warm
   * keep-alive connection: if that connection dies under it, its outcome is unknown as after any
   * failure past the write, and a fresh connection per call would cost every send a handshake.
   */
  signedBytes?: true;
  /** `callRaw` and `call`: the safety is the wire method's, looked up per call. */
  byMethod?: true;
}

const READ: MethodSafety = { changesState: false };
const BY_METHOD: MethodSafety = { changesState: false, byMethod: true };

const FIND_MINT =
  'list the owner\'s assets (getAssetsByOwner) and look for one with this name, symbol, uri, creators and collection once the indexer has passed the slot the mint could land in; mintCompressedNft(client, params, { id, journal }) from cairn\'s mint module does exactly this before minting again';
const FIND_SEND =
  'ask getSignatureStatuses for the transaction\'s signature (its first signature, known before sending) until its blockhash expires; sending the same signed bytes again cannot execute it twice';
const FIND_BUNDLE = 'ask getSignatureStatuses for the signatures of the bundle\'s transactions until their blockhash expires';
const FIND_AIRDROP = 'read the address\'s balance (getBalance) before asking for another airdrop';
const FIND_CREATE_HOOK = 'list the webhooks (listWebhooks) and look for one with this URL and these addresses that was not there before; createWebhook does this itself before a second attempt';
const FIND_HOOK = 'read the webhook (getWebhook): it shows the webhook as it is now (a 404 once it is deleted)';

/**
 * Every client method, read or state-changing. A method added to the client without an entry here
 * fails the test that walks the client (test/rpc/idempotency.test.ts), so nothing new is retried
 * by default without a decision.
 */
export const CLIENT_METHODS: Readonly<Record<string, MethodSafety>> = {
  // DAS and the provider's extensions
  getAsset: READ,
  getAssetBatch: READ,
  getAssetProof: READ,
  getAssetProofBatch: READ,
  getAssetsByOwner: READ,
  getAssetsByCreator: READ,
  getAssetsByAuthority: READ,
  getAssetsByGroup: READ,
  getTokenAccounts: READ,
  searchAssets: READ,
  getSignaturesForAsset: READ,
  getNftEditions: READ,
  getProgramAccountsV2: READ,
  getTokenAccountsByOwnerV2: READ,
  getTransactionsForAddress: READ,
  sendBundle: { changesState: true, findOut: FIND_BUNDLE, signedBytes: true },
  // compression
  getCompressedAccount: READ,
  getCompressedAccountProof: READ,
  getMultipleNewAddressProofs: READ,
  getValidityProof: READ,
  getCompressedTokenAccountsByOwner: READ,
  getCompressedTokenAccountsByDelegate: READ,
  getLatestCompressionSignatures: READ,
  getCompressionSignaturesForTokenOwner: READ,
  getTransactionWithCompressionInfo: READ,
  getCompressedAccountV2: READ,
  getCompressedAccountProofV2: READ,
  getMultipleCompressedAccounts: READ,
  getMultipleCompressedAccountsV2: READ,
  getMultipleCompressedAccountProofs: READ,
  getMultipleCompressedAccountProofsV2: READ,
  getCompressedAccountsByOwner: READ,
  getCompressedAccountsByOwnerV2: READ,
  getCompressedTokenAccountsByOwnerV2: READ,
  getCompressedTokenAccountsByDelegateV2: READ,
  getTransactionWithCompressionInfoV2: READ,
  getValidityProofV2: READ,
  getMultipleNewAddressProofsV2: READ,
  getCompressedBalance: READ,
  getCompressedBalanceByOwner: READ,
  getCompressedTokenAccountBalance: READ,
  getCompressedTokenBalancesByOwner: READ,
  getCompressedTokenBalancesByOwnerV2: READ,
  getCompressedMintTokenHolders: READ,
  getIndexerHealth: READ,
  getIndexerSlot: READ,
  getCompressionSignaturesForAccount: READ,
  getCompressionSignaturesForAddress: READ,
  getCompressionSignaturesForOwner: READ,
  getLatestNonVotingSignatures: READ,
  // REST
  getWalletTransfers: READ,
  getTokenMetadata: READ,
  createWebhook: { changesState: true, findOut: FIND_CREATE_HOOK },
  getWebhook: READ,
  listWebhooks: READ,
  updateWebhook: { changesState: true, findOut: FIND_HOOK },
  setWebhookActive: { changesState: true, findOut: FIND_HOOK },
  deleteWebhook: { changesState: true, findOut: FIND_HOOK },
  mintCompressedNft: { changesState: true, findOut: FIND_MINT },
  // standard Solana and the sender host
  getLatestBlockhash: READ,
  getBlockHeight: READ,
  getSlot: READ,
  getSignatureStatuses: READ,
  getSignaturesForAddress: READ,
  getTransaction: READ,
  simulateTransaction: READ,
  getPriorityFeeEstimate: READ,
  sendTransaction: { changesState: true, findOut: FIND_SEND, signedBytes: true },
  ping: READ,
  getBalance: READ,
  getAccountInfo: READ,
  requestAirdrop: { changesState: true, findOut: FIND_AIRDROP },
  getMultipleAccounts: READ,
  getProgramAccounts: READ,
  getTokenAccountBalance: READ,
  getTokenSupply: READ,
  getTokenLargestAccounts: READ,
  getTokenAccountsByOwner: READ,
  getTokenAccountsByDelegate: READ,
  getMinimumBalanceForRentExemption: READ,
  getFeeForMessage: READ,
  getBlock: READ,
  getBlockTime: READ,
  getBlocks: READ,
  getBlocksWithLimit: READ,
  getFirstAvailableBlock: READ,
  getEpochSchedule: READ,
  getEpochInfo: READ,
  getIdentity: READ,
  getSlotLeader: READ,
  getClusterNodes: READ,
  getTransactionCount: READ,
  getVoteAccounts: READ,
  getInflationReward: READ,
  // websocket subscriptions: they watch, they change nothing on the service
  subscribe: READ,
  callRaw: BY_METHOD,
  call: BY_METHOD,
};

/** JSON-RPC methods that change state, by their wire name, with what learns their outcome. */
const STATE_CHANGING_RPC: Readonly<Record<string, string>> = {
  mintCompressedNft: FIND_MINT,
  sendTransaction: FIND_SEND,
  sendBundle: FIND_BUNDLE,
  requestAirdrop: FIND_AIRDROP,
};

/** The state-changing JSON-RPC methods that carry signed transactions (MethodSafety.signedBytes). */
const SIGNED_BYTES_RPC: ReadonlySet<string> = new Set(['sendTransaction', 'sendBundle']);

/** Read methods by the names Solana's and the provider's APIs give them (`getX`, `searchX`, `isBlockhashValid`, …). */
const READ_NAME = /^(get|search|simulate|is|minimum)[A-Z]/;

/**
 * The safety of a JSON-RPC method by its wire name: a known state-changing method with its
 * `findOut`, a read by its name, and anything else (a method cairn does not know) treated as
 * state-changing — a second attempt in the dark is the one mistake that cannot be undone.
 *
 * @example
 * rpcMethodSafety('getSlot'); // { changesState: false }
 * rpcMethodSafety('mintCompressedNft').findOut; // 'list the owner's assets …'
 */
export function rpcMethodSafety(method: string): MethodSafety {
  const findOut = STATE_CHANGING_RPC[method];
  if (findOut !== undefined) return { changesState: true, findOut, ...(SIGNED_BYTES_RPC.has(method) ? { signedBytes: true as const } : {}) };
  if (READ_NAME.test(method) || method === 'ping') return READ;
  return { changesState: true, findOut: `cairn does not know whether ${method} changes state: check its effect before calling it again` };
}
