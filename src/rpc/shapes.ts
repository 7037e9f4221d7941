/**
 * Response shapes of every method, as validators (see `validate.ts`). Required fields follow the
 * spec where it marks them and the protocol where it is implicit (an Asset always has `id` and
 * `interface`; a JSON-RPC list always has its `items`); every other field is type-checked when
 * present. `null` is accepted where real servers send it (e.g. `royalty.target`, `delegate`).
 */
import { transactionWithInfo } from './compression/info-shape.js';
import type * as T from './types.js';
import { v, type Validator } from './validate.js';

const str = v.string;
const nstr = v.nullable(v.string);
const int = v.int;
const nint = v.nullable(v.int);
const bool = v.bool;
const u64 = v.u64;

// ---------------------------------------------------------------- DAS

const assetContent = v.object(
  {},
  {
    $schema: str,
    json_uri: str,
    files: v.array(v.object({}, { uri: str, cdn_uri: str, mime: str })),
    metadata: v.object(
      {},
      {
        attributes: v.array(v.object({}, { trait_type: str })),
        description: str,
        name: str,
        symbol: str,
        token_standard: str,
      },
    ),
    links: v.anyObject,
    last_indexed_slot: int,
  },
);

export const asset = v.object(
  { interface: str, id: str },
  {
    last_indexed_slot: int,
    content: assetContent,
    authorities: v.array(v.object({ address: str, scopes: v.array(str) })),
    compression: v.object(
      {},
      {
        eligible: bool,
        compressed: bool,
        data_hash: str,
        creator_hash: str,
        asset_hash: str,
        tree: str,
        seq: u64,
        leaf_id: u64,
      },
    ),
    grouping: v.array(v.object({ group_key: str }, { group_value: nstr })),
    royalty: v.object(
      {},
      {
        royalty_model: str,
        target: nstr,
        percent: v.number,
        basis_points: int,
        primary_sale_happened: bool,
        locked: bool,
      },
    ),
    creators: v.array(v.object({ address: str }, { share: int, verified: bool })),
    ownership: v.object(
      { owner: str },
      { frozen: bool, delegated: bool, delegate: nstr, ownership_model: str },
    ),
    supply: v.nullable(
      v.object({}, { print_max_supply: v.nullable(u64), print_current_supply: v.nullable(u64), edition_nonce: nint }),
    ),
    mutable: bool,
    burnt: bool,
    token_info: v.object(
      {},
      {
        symbol: str,
        // a u64 of base units (the spec says "number": any integer it can be is one)
        supply: u64,
        decimals: int,
        token_program: str,
        price_info: v.object({}, { price_per_token: v.number, currency: str }),
        mint_authority: str,
        freeze_authority: str,
      },
    ),
    inscription: v.anyObject,
    spl20: v.anyObject,
  },
) as unknown as Validator<T.Asset>;

/** getAssetBatch: one entry per requested id; `null` for ids the indexer does not know. */
export const assetBatch = v.array(v.nullable(asset)) as Validator<(T.Asset | null)[]>;

export const assetList = v.object(
  { items: v.array(asset) },
  { total: int, limit: int, page: int, last_indexed_slot: int, before: nstr, after: nstr, cursor: nstr },
) as unknown as Validator<T.AssetList>;

export const assetProof = v.object(
  { root: str, proof: v.array(str), node_index: u64, leaf: str, tree_id: str },
  { last_indexed_slot: int, burnt: bool },
) as unknown as Validator<T.AssetProof>;

/** getAssetProofBatch: keyed by asset id; unknown ids come back as `null`. */
export const assetProofBatch = v.record(v.nullable(assetProof)) as Validator<Record<string, T.AssetProof | null>>;

export const tokenAccountList = v.object(
  {
    token_accounts: v.array(
      v.object(
        { address: str, mint: str, owner: str },
        { amount: u64, delegated_amount: u64, frozen: bool },
      ),
    ),
  },
  { total: int, limit: int, page: int, cursor: nstr, last_indexed_slot: int },
) as unknown as Validator<T.TokenAccountList>;

// ---------------------------------------------------------------- compression

const context = v.object({ slot: u64 });

export function withContext<V>(value: Validator<V>): Validator<T.WithContext<V>> {
  return v.object({ value }, { context }) as unknown as Validator<T.WithContext<V>>;
}

export function cursorPage<I>(item: Validator<I>): Validator<T.CursorPage<I>> {
  return v.object({ items: v.array(item) }, { cursor: nstr }) as unknown as Validator<T.CursorPage<I>>;
}

export const compressedAccount = v.object(
  { hash: str, owner: str, lamports: u64, leafIndex: u64 },
  {
    // v1 accounts name their tree at the top level, v2 accounts inside merkleContext
    tree: str,
    merkleContext: v.object({ tree: str }, { queue: str, treeType: u64 }),
    proveByIndex: bool,
    address: nstr,
    data: v.nullable(v.object({ data: str, dataHash: str, discriminator: u64 })),
    seq: v.nullable(u64),
    slotCreated: u64,
  },
) as unknown as Validator<T.CompressedAccount>;

export const compressedTokenData = v.object(
  { mint: str, owner: str, amount: u64, state: str },
  { delegate: nstr, tlv: nstr },
) as unknown as Validator<T.CompressedTokenData>;

export const compressedTokenAccount = v.object({
  account: compressedAccount,
  tokenData: compressedTokenData,
}) as unknown as Validator<T.CompressedTokenAccount>;

export const compressedAccountProof = v.object({
  hash: str,
  leafIndex: u64,
  merkleTree: str,
  proof: v.array(str),
  root: str,
  rootSeq: u64,
}) as unknown as Validator<T.CompressedAccountProof>;

export const newAddressProof = v.object({
  address: str,
  higherRangeAddress: str,
  lowElementLeafIndex: u64,
  lowerRangeAddress: str,
  merkleTree: str,
  nextIndex: u64,
  proof: v.array(str),
  root: str,
  rootSeq: u64,
}) as unknown as Validator<T.NewAddressProof>;

const proofPoint = v.or(v.array(int), str);

export const validityProof = v.object(
  { compressedProof: v.nullable(v.object({ a: proofPoint, b: proofPoint, c: proofPoint })) },
  {
    roots: v.array(str),
    rootIndices: v.array(u64),
    leafIndices: v.array(u64),
    leaves: v.array(str),
    merkleTrees: v.array(str),
    accounts: v.array(v.anyObject),
    addresses: v.array(v.anyObject),
  },
) as unknown as Validator<T.ValidityProof>;

export const compressionSignature = v.object({
  signature: str,
  slot: u64,
  // Unix time: an i64, typed number (a safe integer is within i64)
  blockTime: int,
}) as unknown as Validator<T.CompressionSignature>;

const accountChange = v.object({ account: compressedAccount }, { optionalTokenData: v.nullable(compressedTokenData) });
const compressionInfo = v.object({ closedAccounts: v.array(accountChange), openedAccounts: v.array(accountChange) });

/** getTransactionWithCompressionInfo: `compression_info` (the spec's spelling) or `compressionInfo`. */
export const transactionWithCompressionInfo = transactionWithInfo<T.TransactionWithCompressionInfo>(compressionInfo);

// ---------------------------------------------------------------- REST

const section = v.nullable(v.object({}, { error: str }));

export const tokenMetadataList = v.array(
  v.object(
    { account: str },
    {
      onChainAccountInfo: section,
      onChainMetadata: section,
      offChainMetadata: section,
      legacyMetadata: v.nullable(v.anyObject),
    },
  ),
) as unknown as Validator<T.TokenMetadataRecord[]>;

export const transferPage = v.object({
  data: v.array(
    v.object(
      { signature: str, timestamp: u64, direction: str },
      { counterparty: str, mint: str, amount: v.number, amountRaw: str, decimals: int, symbol: str },
    ),
  ),
  pagination: v.object({ hasMore: bool }, { nextCursor: nstr }),
}) as unknown as Validator<T.TransferPage>;

export const webhook = v.object(
  { webhookID: str, webhookURL: str },
  {
    wallet: str,
    transactionTypes: v.array(str),
    accountAddresses: v.array(str),
    webhookType: str,
    authHeader: str,
    active: bool,
  },
) as unknown as Validator<T.Webhook>;

export const mintResult = v.object({ signature: str, minted: bool, assetId: str }) as unknown as Validator<T.MintCompressedNftResult>;

// ---------------------------------------------------------------- standard Solana

export const latestBlockhash = withContext(v.object({ blockhash: str, lastValidBlockHeight: u64 }));

export const signatureStatuses = withContext(
  v.array(
    v.nullable(
      v.object({ slot: u64 }, { confirmations: v.nullable(u64), confirmationStatus: nstr, err: v.unknown }),
    ),
  ),
) as unknown as Validator<T.WithContext<(T.SignatureStatus | null)[]>>;

// blockTime: Unix time, an i64 (before 1970 is negative), as a safe integer
export const transaction = v.nullable(v.object({ slot: u64 }, { meta: v.nullable(v.anyObject), blockTime: v.nullable(int) }));

export const simulation = withContext(
  v.object({}, { logs: v.nullable(v.array(str)), unitsConsumed: u64 }),
) as unknown as Validator<T.WithContext<T.SimulationResult>>;

export const priorityFee = v.object(
  {},
  {
    priorityFeeEstimate: v.number,
    priorityFeeLevels: v.object({}, { min: v.number, low: v.number, medium: v.number, high: v.number, veryHigh: v.number, unsafeMax: v.number }),
  },
) as unknown as Validator<T.PriorityFeeEstimate>;

export const accountInfo = withContext(
  v.nullable(v.object({ lamports: u64, owner: str, executable: bool }, { rentEpoch: u64, space: u64 })),
) as unknown as Validator<T.WithContext<T.AccountInfo | null>>;

export const balance = withContext(u64) as Validator<T.WithContext<T.U64>>;
