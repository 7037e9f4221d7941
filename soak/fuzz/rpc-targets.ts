/**
 * Fuzz targets of the typed client's response checking: every validator `shapes.ts` exports, and
 * every client method end to end through a transport that answers what the case says (so the
 * `validate:` each method passes, and what it does with the result after, are what runs). Inputs are
 * arbitrary values, arbitrary envelopes, and near-miss mutations of a valid result per method.
 *
 * Properties: a validator never throws and, when it fails, names a path that holds the value it
 * reports; a method answers a value or a typed error; a mutation that puts a value of another JSON
 * type where the validator checks the field is rejected; a u64 field rejects what is not a u64.
 */
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import * as S from '../../src/rpc/shapes.js';
import { assertShape, formatPath, v, type Failure, type Validator } from '../../src/rpc/validate.js';
import type { Transport, TransportRequest } from '../../src/rpc/transport/create-transport.js';
import { applyEdits, editsArb, getAt, pathsOf, setAt, toJsonText, type Edit, type Path } from './mutate.js';
import type { CheckName } from './protocol.js';
import { Broken, typedCode, type GroupOptions, type Outcome, type Target, type TargetGroup } from './target.js';

const VECTORS = new URL('../../test/vectors/', import.meta.url);
const vector = (f: string): any => JSON.parse(readFileSync(new URL(f, VECTORS), 'utf8'));
const photon = (suffix: string): any => vector(`photon/${readdirSync(new URL('photon/', VECTORS)).filter((f) => f.endsWith(suffix)).sort()[0]}`);

const ADDR = 'F9Lw3ki3hJ7PF9HQXsBzoY8GyE6sPoEZZdXJBsTTD2rk';
const SIG = '5Ea6iQQZ1JYfiDq8H6qMKYdFcut1cUfd9pstCGc3BsQztTbgKA4LhsEx6XKQ1bMhKp5KMyyw5BuuooxEcpGLyHFB';
const UUID = '0b9c6f2e-3f1a-4c2b-9d7e-1a2b3c4d5e6f';

// ------------------------------------------------------------------ valid results, per method

const bubblegum = vector('bubblegum/mpl_bubblegum_dasApi_3UowCweY_depth14_canopy9.json');
const asset = bubblegum.getAsset;
const proof = bubblegum.getAssetProof;
const ctx = (value: unknown) => ({ context: { slot: 7 }, value });
const tokenAccounts = photon('-bob-accounts.json');
const signatures = photon('-bob-token-signatures.json');
// V2 shapes (rpc/compression/shapes.ts): a tree, an account, its proof and token account as the indexer writes them.
const tree = { treeType: 3, tree: ADDR, queue: ADDR, cpiContext: null, nextTreeContext: null };
const accountV2 = { hash: ADDR, address: null, data: { discriminator: 2, data: 'AQ==', dataHash: ADDR }, owner: ADDR, lamports: 5, leafIndex: 1, seq: null, slotCreated: 3, merkleContext: tree, proveByIndex: false };
const tokenAccountV2 = { account: accountV2, tokenData: tokenAccounts.value.items[0].tokenData };
const proofV2 = { hash: ADDR, leafIndex: 1, proof: [ADDR, ADDR], root: ADDR, rootSeq: 3, proveByIndex: false, treeContext: tree };
const point = (n: number) => Array.from({ length: n }, (_, i) => i);
const validityV2 = {
  compressedProof: { a: point(32), b: point(64), c: point(32) },
  accounts: [{ hash: ADDR, root: ADDR, rootIndex: { rootIndex: 1, proveByIndex: false }, leafIndex: 1, merkleContext: tree }],
  addresses: [{ address: ADDR, root: ADDR, rootIndex: 2, merkleContext: { ...tree, treeType: 4 } }],
};
const txInfoV2 = {
  compressionInfo: {
    closedAccounts: [{ account: { account: accountV2, nullifier: ADDR, txHash: ADDR }, optionalTokenData: null }],
    openedAccounts: [{ account: accountV2, optionalTokenData: tokenAccounts.value.items[0].tokenData }],
  },
  transaction: { slot: 5 },
};
const withError = signatures.map((x: object, i: number) => ({ ...x, error: i % 2 ? 'Error processing Instruction 0: custom program error: 0x1' : null }));
// Standard methods (solana.ts): an account, a keyed account, a token amount.
const account = { lamports: 5, owner: ADDR, executable: false, rentEpoch: 0, space: 0, data: ['', 'base64'] };
const tokenAmount = { amount: '1500', decimals: 3, uiAmount: 1.5, uiAmountString: '1.5' };
const fee = { priorityFeeEstimate: 1000, priorityFeeLevels: { min: 0, low: 10, medium: 100, high: 1000, veryHigh: 10_000, unsafeMax: 100_000 } };

/** How to call each client method (valid params) and a valid result for it. */
// `list`: what a REST GET of a list answers within the same call (createWebhook reads the list before its POST)
const WEBHOOK = { webhookID: UUID, webhookURL: 'http://127.0.0.1:9/h', wallet: ADDR, transactionTypes: ['ANY'], accountAddresses: [ADDR], webhookType: 'enhanced', active: true };

const METHODS: Record<string, { call: (c: CairnClient) => Promise<unknown>; result: unknown; list?: unknown }> = {
  getAsset: { call: (c) => c.getAsset({ id: ADDR }), result: asset },
  getAssetBatch: { call: (c) => c.getAssetBatch({ ids: [ADDR, ADDR] }), result: [asset, null] },
  getAssetProofBatch: { call: (c) => c.getAssetProofBatch({ ids: [ADDR] }), result: { [ADDR]: proof, other: null } },
  getAssetsByOwner: { call: (c) => c.getAssetsByOwner({ ownerAddress: ADDR }), result: vector('das/cnft_tests__cnft_owners_table-with_different_owner.json') },
  getAssetsByCreator: { call: (c) => c.getAssetsByCreator({ creatorAddress: ADDR }), result: { total: 1, limit: 1, page: 1, items: [asset] } },
  getAssetsByAuthority: { call: (c) => c.getAssetsByAuthority({ authorityAddress: ADDR }), result: { total: 1, limit: 1, page: 1, items: [asset] } },
  getAssetsByGroup: { call: (c) => c.getAssetsByGroup({ groupKey: 'collection', groupValue: ADDR }), result: { total: 1, limit: 1, page: 1, items: [asset] } },
  getTokenAccounts: {
    call: (c) => c.getTokenAccounts({ owner: ADDR }),
    result: { total: 1, limit: 1, page: 1, token_accounts: [{ address: ADDR, mint: ADDR, owner: ADDR, amount: 5, delegated_amount: 0, frozen: false }] },
  },
  getCompressedAccount: { call: (c) => c.getCompressedAccount({ hash: ADDR }), result: ctx(tokenAccounts.value.items[0].account) },
  getCompressedAccountProof: { call: (c) => c.getCompressedAccountProof({ hash: ADDR }), result: ctx(photon('-bob-proofs.json').value[0]) },
  getMultipleNewAddressProofs: { call: (c) => c.getMultipleNewAddressProofs([ADDR]), result: vector('photon/mock_tests__get_multiple_new_address_proofs_interop.json') },
  getValidityProof: { call: (c) => c.getValidityProof({ hashes: [ADDR] }), result: ctx(photon('-bob-validity-proof.json')) },
  getCompressedTokenAccountsByOwner: { call: (c) => c.getCompressedTokenAccountsByOwner({ owner: ADDR }), result: tokenAccounts },
  getCompressedTokenAccountsByDelegate: { call: (c) => c.getCompressedTokenAccountsByDelegate({ delegate: ADDR }), result: tokenAccounts },
  getLatestCompressionSignatures: { call: (c) => c.getLatestCompressionSignatures({}), result: ctx({ items: signatures, cursor: null }) },
  getCompressionSignaturesForTokenOwner: { call: (c) => c.getCompressionSignaturesForTokenOwner({ owner: ADDR }), result: ctx({ items: signatures, cursor: 'x' }) },
  getTransactionWithCompressionInfo: { call: (c) => c.getTransactionWithCompressionInfo({ signature: SIG }), result: photon('_transactions-transfer-transaction.json') },
  getWalletTransfers: {
    call: (c) => c.getWalletTransfers({ wallet: ADDR }),
    result: {
      data: [{ signature: SIG, timestamp: 1_700_000_000, direction: 'in', counterparty: ADDR, mint: ADDR, amount: 1.5, amountRaw: '1500', decimals: 3, symbol: 'X' }],
      pagination: { hasMore: false, nextCursor: null },
    },
  },
  getTokenMetadata: {
    call: (c) => c.getTokenMetadata({ mintAccounts: [ADDR] }),
    result: [{ account: ADDR, onChainAccountInfo: { error: '' }, onChainMetadata: null, offChainMetadata: null, legacyMetadata: null }],
  },
  setWebhookActive: { call: (c) => c.setWebhookActive({ webhookID: UUID, active: true }), result: WEBHOOK },
  getAssetProof: { call: (c) => c.getAssetProof({ id: ADDR }), result: proof },
  createWebhook: {
    call: (c) => c.createWebhook({ webhookURL: 'http://127.0.0.1:9/h', transactionTypes: ['ANY'], accountAddresses: [ADDR], webhookType: 'enhanced' }),
    result: WEBHOOK,
    list: [],
  },
  getWebhook: { call: (c) => c.getWebhook({ webhookID: UUID }), result: WEBHOOK },
  listWebhooks: { call: (c) => c.listWebhooks(), result: [WEBHOOK] },
  updateWebhook: { call: (c) => c.updateWebhook({ webhookID: UUID, accountAddresses: [ADDR] }), result: WEBHOOK },
  deleteWebhook: { call: (c) => c.deleteWebhook({ webhookID: UUID }), result: {} },
  getSignaturesForAddress: { call: (c) => c.getSignaturesForAddress(ADDR, { limit: 2 }), result: [{ signature: SIG, slot: 1, err: null, memo: null, blockTime: null, confirmationStatus: 'finalized' }] },
  call: { call: (c) => c.call('getSlot', []), result: 456 },
  mintCompressedNft: { call: (c) => c.mintCompressedNft({ name: 'n', symbol: 's', description: 'd', owner: ADDR }), result: { signature: SIG, minted: true, assetId: ADDR } },
  getLatestBlockhash: { call: (c) => c.getLatestBlockhash(), result: ctx({ blockhash: ADDR, lastValidBlockHeight: 100 }) },
  getBlockHeight: { call: (c) => c.getBlockHeight(), result: 123 },
  getSlot: { call: (c) => c.getSlot(), result: 456 },
  getSignatureStatuses: { call: (c) => c.getSignatureStatuses([SIG, SIG]), result: ctx([{ slot: 1, confirmations: null, confirmationStatus: 'finalized', err: null }, null]) },
  getTransaction: { call: (c) => c.getTransaction(SIG), result: { slot: 5, meta: { err: null }, blockTime: 7 } },
  simulateTransaction: { call: (c) => c.simulateTransaction(Buffer.from('AQ==', 'base64').toString('base64')), result: ctx({ err: null, logs: ['x'], unitsConsumed: 150 }) },
  getPriorityFeeEstimate: { call: (c) => c.getPriorityFeeEstimate({ accountKeys: [ADDR] }), result: fee },
  sendTransaction: { call: (c) => c.sendTransaction(Buffer.from('AQ==', 'base64').toString('base64')), result: SIG },
  ping: { call: (c) => c.ping(), result: 'ok' },
  getBalance: { call: (c) => c.getBalance(ADDR), result: ctx(5) },
  getAccountInfo: { call: (c) => c.getAccountInfo(ADDR), result: ctx({ lamports: 5, owner: ADDR, executable: false, rentEpoch: 0, space: 0, data: ['', 'base64'] }) },
  requestAirdrop: { call: (c) => c.requestAirdrop(ADDR, 5), result: SIG },
  callRaw: { call: (c) => c.callRaw('getSlot', []), result: 1 },
  // the compression indexer's V2 methods and its others (rpc/compression/v2.ts)
  getCompressedAccountV2: { call: (c) => c.getCompressedAccountV2({ hash: ADDR }), result: ctx(accountV2) },
  getCompressedAccountProofV2: { call: (c) => c.getCompressedAccountProofV2({ hash: ADDR }), result: ctx(proofV2) },
  getMultipleCompressedAccounts: {
    call: (c) => c.getMultipleCompressedAccounts({ hashes: [ADDR, ADDR] }),
    result: ctx({ items: [tokenAccounts.value.items[0].account, null] }),
  },
  getMultipleCompressedAccountsV2: { call: (c) => c.getMultipleCompressedAccountsV2({ addresses: [ADDR, ADDR] }), result: ctx({ items: [accountV2, null] }) },
  getMultipleCompressedAccountProofs: { call: (c) => c.getMultipleCompressedAccountProofs([ADDR]), result: ctx([photon('-bob-proofs.json').value[0]]) },
  getMultipleCompressedAccountProofsV2: { call: (c) => c.getMultipleCompressedAccountProofsV2([ADDR]), result: ctx([proofV2]) },
  getCompressedAccountsByOwner: {
    call: (c) => c.getCompressedAccountsByOwner({ owner: ADDR, filters: [{ memcmp: { offset: 0, bytes: ADDR } }], dataSlice: { offset: 0, length: 4 } }),
    result: ctx({ items: [tokenAccounts.value.items[0].account], cursor: null }),
  },
  getCompressedAccountsByOwnerV2: {
    call: (c) => c.getCompressedAccountsByOwnerV2({ owner: ADDR, limit: 5 }),
    result: ctx({ items: [accountV2], cursor: ADDR }),
  },
  getCompressedTokenAccountsByOwnerV2: {
    call: (c) => c.getCompressedTokenAccountsByOwnerV2({ owner: ADDR, mint: ADDR }),
    result: ctx({ items: [tokenAccountV2], cursor: null }),
  },
  getCompressedTokenAccountsByDelegateV2: {
    call: (c) => c.getCompressedTokenAccountsByDelegateV2({ delegate: ADDR }),
    result: ctx({ items: [tokenAccountV2], cursor: null }),
  },
  getTransactionWithCompressionInfoV2: { call: (c) => c.getTransactionWithCompressionInfoV2({ signature: SIG }), result: txInfoV2 },
  getValidityProofV2: {
    call: (c) => c.getValidityProofV2({ hashes: [ADDR], newAddressesWithTrees: [{ address: ADDR, tree: ADDR }] }),
    result: ctx(validityV2),
  },
  getMultipleNewAddressProofsV2: { call: (c) => c.getMultipleNewAddressProofsV2([{ address: ADDR, tree: ADDR }]), result: vector('photon/mock_tests__get_multiple_new_address_proofs_interop.json') },
  getCompressedBalance: { call: (c) => c.getCompressedBalance({ address: ADDR }), result: ctx(5) },
  getCompressedBalanceByOwner: { call: (c) => c.getCompressedBalanceByOwner({ owner: ADDR }), result: ctx(2n ** 63n) },
  getCompressedTokenAccountBalance: { call: (c) => c.getCompressedTokenAccountBalance({ hash: ADDR }), result: ctx({ amount: 5 }) },
  getCompressedTokenBalancesByOwner: {
    call: (c) => c.getCompressedTokenBalancesByOwner({ owner: ADDR }),
    result: ctx({ tokenBalances: [{ mint: ADDR, balance: 5 }], cursor: null }),
  },
  getCompressedTokenBalancesByOwnerV2: {
    call: (c) => c.getCompressedTokenBalancesByOwnerV2({ owner: ADDR, mint: ADDR }),
    result: ctx({ items: [{ mint: ADDR, balance: 5 }], cursor: null }),
  },
  getCompressedMintTokenHolders: {
    call: (c) => c.getCompressedMintTokenHolders({ mint: ADDR }),
    result: ctx({ items: [{ owner: ADDR, balance: 5 }], cursor: null }),
  },
  getIndexerHealth: { call: (c) => c.getIndexerHealth(), result: 'ok' },
  getIndexerSlot: { call: (c) => c.getIndexerSlot(), result: 42 },
  // the indexer's signature lists (rpc/compression/signatures.ts)
  getCompressionSignaturesForAccount: { call: (c) => c.getCompressionSignaturesForAccount({ hash: ADDR }), result: ctx({ items: signatures.slice(0, 2) }) },
  getCompressionSignaturesForAddress: { call: (c) => c.getCompressionSignaturesForAddress({ address: ADDR, limit: 3 }), result: ctx({ items: signatures, cursor: 'x' }) },
  getCompressionSignaturesForOwner: { call: (c) => c.getCompressionSignaturesForOwner({ owner: ADDR }), result: ctx({ items: signatures, cursor: null }) },
  getLatestNonVotingSignatures: { call: (c) => c.getLatestNonVotingSignatures({ limit: 2 }), result: ctx({ items: withError }) },
  // the standard account, token, block and cluster methods (solana.ts)
  getMultipleAccounts: { call: (c) => c.getMultipleAccounts([ADDR, ADDR]), result: ctx([account, null]) },
  getProgramAccounts: {
    call: (c) => c.getProgramAccounts(ADDR, { filters: [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: ADDR } }] }),
    result: [{ pubkey: ADDR, account }],
  },
  getTokenAccountBalance: { call: (c) => c.getTokenAccountBalance(ADDR), result: ctx(tokenAmount) },
  getTokenSupply: { call: (c) => c.getTokenSupply(ADDR, { commitment: 'confirmed' }), result: ctx(tokenAmount) },
  getTokenLargestAccounts: { call: (c) => c.getTokenLargestAccounts(ADDR), result: ctx([{ address: ADDR, ...tokenAmount }]) },
  getTokenAccountsByOwner: { call: (c) => c.getTokenAccountsByOwner(ADDR, { mint: ADDR }), result: ctx([{ pubkey: ADDR, account }]) },
  getTokenAccountsByDelegate: { call: (c) => c.getTokenAccountsByDelegate(ADDR, { programId: ADDR }, { encoding: 'base58' }), result: ctx([{ pubkey: ADDR, account }]) },
  getMinimumBalanceForRentExemption: { call: (c) => c.getMinimumBalanceForRentExemption(165), result: 2_039_280 },
  getFeeForMessage: { call: (c) => c.getFeeForMessage(Buffer.from('AQ==', 'base64').toString('base64')), result: ctx(5000) },
  getBlock: { call: (c) => c.getBlock(5, { transactionDetails: 'signatures' }), result: { blockhash: ADDR, previousBlockhash: ADDR, parentSlot: 4, blockHeight: 5, blockTime: 7, signatures: [SIG] } },
  getBlockTime: { call: (c) => c.getBlockTime(5), result: 1_700_000_000 },
  getBlocks: { call: (c) => c.getBlocks(1, 5), result: [1, 2, 5] },
  getBlocksWithLimit: { call: (c) => c.getBlocksWithLimit(1, 3), result: [1, 2, 5] },
  getFirstAvailableBlock: { call: (c) => c.getFirstAvailableBlock(), result: 0 },
  getEpochSchedule: {
    call: (c) => c.getEpochSchedule(),
    result: { slotsPerEpoch: 432_000, leaderScheduleSlotOffset: 432_000, warmup: false, firstNormalEpoch: 0, firstNormalSlot: 0 },
  },
  getEpochInfo: {
    call: (c) => c.getEpochInfo(),
    result: { absoluteSlot: 9, blockHeight: 8, epoch: 0, slotIndex: 9, slotsInEpoch: 432_000, transactionCount: 3 },
  },
  getIdentity: { call: (c) => c.getIdentity(), result: { identity: ADDR } },
  getSlotLeader: { call: (c) => c.getSlotLeader(), result: ADDR },
  getClusterNodes: { call: (c) => c.getClusterNodes(), result: [{ pubkey: ADDR, gossip: '127.0.0.1:8001', tpu: null, rpc: '127.0.0.1:8899', version: '2.2.0' }] },
  getTransactionCount: { call: (c) => c.getTransactionCount(), result: 12 },
  getVoteAccounts: { call: (c) => c.getVoteAccounts(), result: { current: [{ votePubkey: ADDR }], delinquent: [] } },
  getInflationReward: {
    call: (c) => c.getInflationReward([ADDR, ADDR], { epoch: 1 }),
    result: [{ epoch: 1, effectiveSlot: 5, amount: 10, postBalance: 20, commission: null }, null],
  },
  // the provider's extensions (das.ts, helius-extensions.ts)
  searchAssets: { call: (c) => c.searchAssets({ ownerAddress: ADDR, grouping: ['collection', ADDR], tokenType: 'compressedNft' }), result: { total: 1, limit: 1000, page: 1, items: [asset] } },
  getSignaturesForAsset: { call: (c) => c.getSignaturesForAsset({ id: ADDR, page: 1 }), result: { total: 1, limit: 1000, page: 1, items: [[SIG, 'MintToCollectionV1']] } },
  getNftEditions: {
    call: (c) => c.getNftEditions({ mint: ADDR }),
    result: {
      total: 1,
      limit: 10,
      page: 1,
      master_edition_address: ADDR,
      supply: 1,
      max_supply: 5,
      editions: [{ mint: ADDR, edition_address: ADDR, edition: 1 }],
    },
  },
  getProgramAccountsV2: {
    call: (c) => c.getProgramAccountsV2(ADDR, { limit: 10, filters: [{ dataSize: 165 }] }),
    result: ctx({ accounts: [{ pubkey: ADDR, account }], paginationKey: ADDR, totalResults: 3 }),
  },
  getTokenAccountsByOwnerV2: {
    call: (c) => c.getTokenAccountsByOwnerV2(ADDR, { programId: ADDR }, { limit: 10 }),
    result: ctx({ accounts: [{ pubkey: ADDR, account }], paginationKey: null }),
  },
  getTransactionsForAddress: {
    call: (c) => c.getTransactionsForAddress(ADDR, { limit: 10, filters: { status: 'succeeded', slot: { gte: 1 } } }),
    result: { data: [{ signature: SIG, slot: 5, transactionIndex: 0, err: null, memo: null, blockTime: 7, confirmationStatus: 'finalized' }], paginationToken: '5:0' },
  },
  sendBundle: { call: (c) => c.sendBundle(['AQ==']), result: 'a3f1c0de' },
};

/** Every paged method's iterator, read to the end (or to `MAX_ITEMS`), with a valid page for it. */
const MAX_ITEMS = 5_000;
const PAGERS: Record<string, { call: (c: CairnClient) => AsyncIterable<unknown>; result: unknown }> = {
  getAssetsByOwner: { call: (c) => c.paginate.getAssetsByOwner({ ownerAddress: ADDR, limit: 2 }), result: { total: 1, limit: 2, page: 1, items: [asset] } },
  getAssetsByCreator: {
    call: (c) => c.paginate.getAssetsByCreator({ creatorAddress: ADDR, limit: 2 }),
    result: { total: 1, limit: 2, page: 1, items: [asset] },
  },
  getAssetsByAuthority: {
    call: (c) => c.paginate.getAssetsByAuthority({ authorityAddress: ADDR, limit: 2 }),
    result: { total: 1, limit: 2, page: 1, items: [asset] },
  },
  getAssetsByGroup: { call: (c) => c.paginate.getAssetsByGroup({ groupKey: 'collection', groupValue: ADDR, limit: 2 }), result: { total: 1, limit: 2, page: 1, items: [asset] } },
  getTokenAccounts: { call: (c) => c.paginate.getTokenAccounts({ owner: ADDR }), result: METHODS.getTokenAccounts!.result },
  getCompressedTokenAccountsByOwner: { call: (c) => c.paginate.getCompressedTokenAccountsByOwner({ owner: ADDR }), result: tokenAccounts },
  getCompressedTokenAccountsByDelegate: { call: (c) => c.paginate.getCompressedTokenAccountsByDelegate({ delegate: ADDR }), result: tokenAccounts },
  getLatestCompressionSignatures: { call: (c) => c.paginate.getLatestCompressionSignatures({}), result: ctx({ items: signatures, cursor: 'next' }) },
  getCompressionSignaturesForTokenOwner: {
    call: (c) => c.paginate.getCompressionSignaturesForTokenOwner({ owner: ADDR }),
    result: ctx({ items: signatures, cursor: null }),
  },
  getWalletTransfers: { call: (c) => c.paginate.getWalletTransfers({ wallet: ADDR }), result: METHODS.getWalletTransfers!.result },
  getCompressedAccountsByOwner: { call: (c) => c.paginate.getCompressedAccountsByOwner({ owner: ADDR }), result: ctx({ items: [tokenAccounts.value.items[0].account], cursor: 'next' }) },
  getCompressedAccountsByOwnerV2: {
    call: (c) => c.paginate.getCompressedAccountsByOwnerV2({ owner: ADDR }),
    result: ctx({ items: [accountV2], cursor: null }),
  },
  getCompressedTokenAccountsByOwnerV2: { call: (c) => c.paginate.getCompressedTokenAccountsByOwnerV2({ owner: ADDR }), result: ctx({ items: [tokenAccountV2], cursor: 'next' }) },
  getCompressedTokenAccountsByDelegateV2: {
    call: (c) => c.paginate.getCompressedTokenAccountsByDelegateV2({ delegate: ADDR }),
    result: ctx({ items: [tokenAccountV2], cursor: null }),
  },
  getCompressedTokenBalancesByOwner: {
    call: (c) => c.paginate.getCompressedTokenBalancesByOwner({ owner: ADDR }),
    result: METHODS.getCompressedTokenBalancesByOwner!.result,
  },
  getCompressedTokenBalancesByOwnerV2: { call: (c) => c.paginate.getCompressedTokenBalancesByOwnerV2({ owner: ADDR }), result: ctx({ items: [{ mint: ADDR, balance: 5 }], cursor: 'next' }) },
  getCompressedMintTokenHolders: {
    call: (c) => c.paginate.getCompressedMintTokenHolders({ mint: ADDR }),
    result: METHODS.getCompressedMintTokenHolders!.result,
  },
  getCompressionSignaturesForAddress: { call: (c) => c.paginate.getCompressionSignaturesForAddress({ address: ADDR }), result: ctx({ items: signatures, cursor: 'next' }) },
  getCompressionSignaturesForOwner: {
    call: (c) => c.paginate.getCompressionSignaturesForOwner({ owner: ADDR, limit: 2 }),
    result: ctx({ items: signatures, cursor: null }),
  },
  // its pages carry no cursor: the iterator builds one from the last item, so a full page repeated must end it
  getLatestNonVotingSignatures: { call: (c) => c.paginate.getLatestNonVotingSignatures({ limit: withError.length }), result: ctx({ items: withError }) },
  searchAssets: { call: (c) => c.paginate.searchAssets({ ownerAddress: ADDR, limit: 1 }), result: { total: 1, limit: 1, page: 1, items: [asset] } },
  getSignaturesForAddress: { call: (c) => c.paginate.getSignaturesForAddress(ADDR, { limit: 2 }), result: METHODS.getSignaturesForAddress!.result },
  getSignaturesForAsset: { call: (c) => c.paginate.getSignaturesForAsset({ id: ADDR, limit: 1 }), result: { total: 1, limit: 1, page: 1, items: [[SIG, 'MintV1']] } },
  getProgramAccountsV2: { call: (c) => c.paginate.getProgramAccountsV2(ADDR, { limit: 1 }), result: METHODS.getProgramAccountsV2!.result },
  getTokenAccountsByOwnerV2: {
    call: (c) => c.paginate.getTokenAccountsByOwnerV2(ADDR, { mint: ADDR }),
    result: ctx({ accounts: [{ pubkey: ADDR, account }], paginationKey: ADDR }),
  },
  getTransactionsForAddress: { call: (c) => c.paginate.getTransactionsForAddress(ADDR, { limit: 1 }), result: METHODS.getTransactionsForAddress!.result },
};

// ------------------------------------------------------------------ properties of a validator

/** A value no validator accepts but `v.unknown`: where a fixture's field is checked at all. */
const PROBE = Symbol('probe');

const kindOf = (x: unknown): string => (Array.isArray(x) ? 'array' : x === null ? 'null' : typeof x === 'bigint' ? 'number' : typeof x);

/**
 * A validator's answer must be nothing or a failure whose path leads, in `input`, to the value it
 * reports (or to nothing, for a missing required field); `assertShape` then throws the typed error.
 */
function checkFailure(validator: Validator, input: unknown, f: Failure | undefined, name: string): Outcome {
  if (f === undefined) return 'ok';
  if (!f || !Array.isArray(f.path) || typeof f.expected !== 'string') throw new Broken(`${name}: not a Failure: ${String(f)}`);
  const path = [...f.path].reverse();
  if (!path.every((s) => typeof s === 'string' || (typeof s === 'number' && Number.isInteger(s)))) throw new Broken(`${name}: bad path segment in ${String(f.path)}`);
  const at = getAt(input, path);
  if (!Object.is(at, f.got)) throw new Broken(`${name}: reports ${formatPath('result', f.path)} = ${String(f.got)} but the input holds ${String(at)} there`);
  try {
    assertShape(validator, input, 'result', name);
  } catch (e) {
    if (typedCode(e) !== 'RPC_SCHEMA') throw e;
    if (!String((e as Error).message).includes(formatPath('result', f.path))) throw new Broken(`${name}: the error does not name the path: ${(e as Error).message}`);
    return 'invalid';
  }
  throw new Broken(`${name}: validator failed but assertShape passed`);
}

/** What a base value's paths are to a validator: checked at all, and which hold a u64. */
export interface PathFacts {
  checked: Set<string>;
  u64: Set<string>;
}
const key = (p: Path): string => JSON.stringify(p);

export function factsOf(accepts: (x: unknown) => boolean, base: unknown): PathFacts {
  const checked = new Set<string>();
  const u64 = new Set<string>();
  for (const p of pathsOf(base)) {
    if (p.length === 0) continue;
    if (!accepts(setAt(base, p, PROBE))) checked.add(key(p));
    const x = getAt(base, p);
    // a u64 field: a non-negative integer where -1 and 0.5 are refused but 0 is taken
    if ((typeof x === 'number' || typeof x === 'bigint') && !accepts(setAt(base, p, -1)) && !accepts(setAt(base, p, 0.5)) && accepts(setAt(base, p, 0))) u64.add(key(p));
  }
  return { checked, u64 };
}

/**
 * The mutation oracle, for one edit: a checked field given a value of another JSON type (null in or
 * out aside: many fields are nullable; string ↔ array aside: a proof point is either) must be refused, and a u64
 * field must refuse what is not an integer in 0..2^64-1.
 */
export function mustRefuse(facts: PathFacts, base: unknown, mutated: unknown, path: Path, checks: Set<string>): string | null {
  const before = getAt(base, path);
  const after = getAt(mutated, path);
  const k = key(path);
  if (facts.checked.has(k) && after !== undefined && after !== null && before !== null) {
    const pair = [kindOf(before), kindOf(after)].sort().join('/');
    if (kindOf(before) !== kindOf(after) && pair !== 'array/string') return `${formatPath('result', [...path].reverse())}: ${kindOf(before)} → ${kindOf(after)}`;
  }
  if (checks.has('u64-range') && facts.u64.has(k) && (typeof after === 'number' || typeof after === 'bigint')) {
    const n = typeof after === 'bigint' ? after : Number.isInteger(after) ? BigInt(after) : null;
    if (n === null || n < 0n || n >= 2n ** 64n) return `${formatPath('result', [...path].reverse())}: u64 ← ${String(after)}`;
  }
  return null;
}

// ------------------------------------------------------------------ the targets

/** A transport answers text as text: a string stays, anything else arrives as its JSON. */
const textOf = (x: unknown): string => (typeof x === 'string' ? x : toJsonText(x) ?? '');

/** What a transport can hand a method: JSON, integers past 2^53 as bigints (json.ts). */
const wireArb = fc.jsonValue().chain((j) => fc.oneof(fc.constant(j), fc.bigInt().map((b) => (Array.isArray(j) ? [...j, b] : b))));

interface Case {
  any?: unknown;
  edits?: Edit[];
  /** The whole HTTP body instead of a result in a good envelope. */
  envelope?: unknown;
}
const anyArb = fc.oneof(fc.jsonValue(), fc.anything({ withBigInt: true, withNullPrototype: true, withTypedArray: true, withSparseArray: true }));
const caseArb: fc.Arbitrary<Case> = fc.oneof(
  { weight: 1, arbitrary: anyArb.map((any) => ({ any })) },
  { weight: 4, arbitrary: editsArb.map((edits) => ({ edits })) },
);

const wireCaseArb: fc.Arbitrary<Case> = fc.oneof(
  { weight: 1, arbitrary: wireArb.map((any) => ({ any })) },
  { weight: 4, arbitrary: editsArb.map((edits) => ({ edits })) },
);

export async function rpcTargets({ skip }: GroupOptions): Promise<TargetGroup> {
  const checks = new Set<string>(['u64-range'].filter((c) => !skip.includes(c as CheckName)));
  const targets: Target[] = [];

  // Every validator shapes.ts exports; the two factories over a validator of their own.
  const shapes: Array<[string, Validator, unknown]> = [];
  const bases: Record<string, unknown> = {
    asset,
    assetBatch: [asset, null],
    assetList: METHODS.getAssetsByOwner!.result,
    assetProof: proof,
    assetProofBatch: METHODS.getAssetProofBatch!.result,
    tokenAccountList: METHODS.getTokenAccounts!.result,
    compressedAccount: tokenAccounts.value.items[0].account,
    compressedTokenData: tokenAccounts.value.items[0].tokenData,
    compressedTokenAccount: tokenAccounts.value.items[0],
    compressedAccountProof: photon('-bob-proofs.json').value[0],
    newAddressProof: vector('photon/mock_tests__get_multiple_new_address_proofs_interop.json').value[0],
    validityProof: photon('-bob-validity-proof.json'),
    compressionSignature: signatures[0],
    transactionWithCompressionInfo: METHODS.getTransactionWithCompressionInfo!.result,
    tokenMetadataList: METHODS.getTokenMetadata!.result,
    transferPage: METHODS.getWalletTransfers!.result,
    webhook: METHODS.setWebhookActive!.result,
    mintResult: METHODS.mintCompressedNft!.result,
    latestBlockhash: METHODS.getLatestBlockhash!.result,
    signatureStatuses: METHODS.getSignatureStatuses!.result,
    transaction: METHODS.getTransaction!.result,
    simulation: METHODS.simulateTransaction!.result,
    priorityFee: fee,
    accountInfo: METHODS.getAccountInfo!.result,
    balance: METHODS.getBalance!.result,
    'withContext(u64)': ctx(5),
    'cursorPage(string)': { items: ['a'], cursor: null },
  };
  for (const [name, x] of Object.entries(S)) {
    if (typeof x !== 'function') continue;
    if (name === 'withContext') shapes.push(['withContext(u64)', S.withContext(v.u64), bases['withContext(u64)']]);
    else if (name === 'cursorPage') shapes.push(['cursorPage(string)', S.cursorPage(v.string), bases['cursorPage(string)']]);
    else {
      if (!(name in bases)) throw new Error(`shapes.ts exports ${name}: add a valid value for it to soak/fuzz/rpc-targets.ts`);
      shapes.push([name, x as Validator, bases[name]]);
    }
  }
  for (const [name, validator, base] of shapes) {
    if (validator(base)) throw new Error(`the fixture for ${name} does not validate: ${JSON.stringify(validator(base))}`);
    const facts = factsOf((x) => validator(x) === undefined, base);
    targets.push({
      name: `shape:${name}`,
      weight: 0.5,
      arb: caseArb,
      run(input) {
        const c = input as Case;
        const x = 'any' in c ? c.any : applyEdits(base, c.edits!).value;
        const out = checkFailure(validator, x, validator(x), name);
        if (out === 'ok' && c.edits?.length === 1) {
          const { paths } = applyEdits(base, c.edits);
          const why = mustRefuse(facts, base, x, paths[0]!, checks);
          if (why) throw new Broken(`${name} accepted ${why}`);
        }
        return out;
      },
    });
  }

  // Every client method, through a transport answering the case's result.
  let answer: { body?: unknown; result?: unknown; list?: unknown } = {};
  const transport: Transport = {
    async request(req: TransportRequest) {
      if ('body' in answer) return { status: 200, headers: {}, body: req.responseType === 'text' ? textOf(answer.body) : answer.body, attempts: 1 };
      if ('list' in answer && req.method === 'GET') return { status: 200, headers: {}, body: req.responseType === 'text' ? textOf(answer.list) : answer.list, attempts: 1 };
      const rpc = req.body ? (JSON.parse(req.body) as { jsonrpc?: string; id?: string }) : null;
      const body = rpc?.jsonrpc === '2.0' ? { jsonrpc: '2.0', id: rpc.id, result: answer.result } : answer.result;
      const shaped = req.responseType === 'bytes' ? Buffer.from(toJsonText(body)) : req.responseType === 'text' ? textOf(body) : body;
      return { status: 200, headers: {}, body: shaped, attempts: 1 };
    },
    async close() {},
  };
  const client = createClient({ transport });
  const missing = Object.keys(client).filter((m) => typeof (client as unknown as Record<string, unknown>)[m] === 'function' && m !== 'close' && !(m in METHODS));
  if (missing.length) throw new Error(`client method(s) without a fuzz target: ${missing.join(', ')} (add them to METHODS in soak/fuzz/rpc-targets.ts)`);
  const pagersMissing = Object.keys(client.paginate).filter((m) => !(m in PAGERS));
  if (pagersMissing.length) throw new Error(`paginator(s) without a fuzz target: ${pagersMissing.join(', ')}`);

  for (const [name, m] of Object.entries(METHODS)) {
    answer = { result: m.result, ...('list' in m ? { list: m.list } : {}) };
    try {
      await m.call(client);
    } catch (e) {
      throw new Error(`the fixture for ${name} is refused: ${(e as Error).message}`, { cause: e });
    }
    targets.push({
      name: `method:${name}`,
      arb: fc.oneof({ weight: 6, arbitrary: wireCaseArb }, { weight: 1, arbitrary: wireArb.map((envelope) => ({ envelope })) }),
      async run(input) {
        const c = input as Case;
        answer = 'envelope' in c ? { body: c.envelope } : { result: 'any' in c ? c.any : applyEdits(m.result, c.edits!).value, ...('list' in m ? { list: m.list } : {}) };
        await m.call(client);
        return 'ok' as const;
      },
    });
  }

  for (const [name, p] of Object.entries(PAGERS)) {
    targets.push({
      name: `paginate:${name}`,
      weight: 0.5,
      arb: wireCaseArb,
      async run(input) {
        const c = input as Case;
        // the server answers the same page to every request: the iterator must come to an end
        answer = { result: 'any' in c ? c.any : applyEdits(p.result, c.edits!).value };
        let n = 0;
        for await (const _ of p.call(client)) if (++n > MAX_ITEMS) throw new Broken(`${name}: the iterator went on past ${MAX_ITEMS} items over one repeated page`);
        return 'ok' as const;
      },
    });
  }

  return { targets, close: () => client.close() };
}
