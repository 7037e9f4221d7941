/**
 * The resources of the service interface (spec: "Resources and their fields"), as TypeScript types.
 * The spec rarely says which fields are always present, so most fields are optional; the response
 * validators in `shapes.ts` check the type of every field that arrives. u64 quantities are
 * `number | bigint`: bigint only when the value exceeded 2^53 on the wire.
 */
import type { Commitment, PriorityLevel } from '../solana/index.js';

export type U64 = number | bigint;

// ---------------------------------------------------------------- DAS

export type AssetInterface =
  | 'V1_NFT'
  | 'V1_PRINT'
  | 'LEGACY_NFT'
  | 'V2_NFT'
  | 'FungibleAsset'
  | 'FungibleToken'
  | 'Custom'
  | 'Identity'
  | 'Executable'
  | 'ProgrammableNFT'
  | (string & {});

export interface AssetContent {
  $schema?: string;
  json_uri?: string;
  files?: { uri?: string; cdn_uri?: string; mime?: string }[];
  metadata?: {
    attributes?: { value?: unknown; trait_type?: string }[];
    description?: string;
    name?: string;
    symbol?: string;
    token_standard?: string;
  };
  links?: { image?: string; external_url?: string; [k: string]: unknown };
  /** Batch results carry it here. */
  last_indexed_slot?: number;
}

export interface Asset {
  interface: AssetInterface;
  id: string;
  last_indexed_slot?: number;
  content?: AssetContent;
  authorities?: { address: string; scopes: string[] }[];
  compression?: {
    eligible: boolean;
    compressed: boolean;
    data_hash: string;
    creator_hash: string;
    asset_hash: string;
    tree: string;
    seq: number;
    leaf_id: number;
  };
  grouping?: { group_key: string; group_value: string | null; [k: string]: unknown }[];
  royalty?: {
    royalty_model: string;
    target: string | null;
    percent: number;
    basis_points: number;
    primary_sale_happened: boolean;
    locked: boolean;
  };
  creators?: { address: string; share: number; verified: boolean }[];
  ownership?: {
    frozen: boolean;
    delegated: boolean;
    delegate: string | null;
    ownership_model: string;
    owner: string;
  };
  supply?: { print_max_supply?: U64 | null; print_current_supply?: U64 | null; edition_nonce?: number | null } | null;
  mutable?: boolean;
  burnt?: boolean;
  token_info?: {
    symbol?: string;
    supply?: U64;
    decimals?: number;
    token_program?: string;
    price_info?: { price_per_token?: number; currency?: string };
    mint_authority?: string;
    freeze_authority?: string;
    [k: string]: unknown;
  };
  inscription?: Record<string, unknown>;
  spl20?: Record<string, unknown>;
  [k: string]: unknown;
}

/** `result` of the DAS list methods. */
export interface AssetList {
  last_indexed_slot?: number;
  total: number;
  limit: number;
  page?: number;
  before?: string;
  after?: string;
  cursor?: string;
  items: Asset[];
}

export interface AssetProof {
  last_indexed_slot?: number;
  root: string;
  proof: string[];
  node_index: number;
  leaf: string;
  tree_id: string;
  burnt?: boolean;
}

export interface TokenAccount {
  address: string;
  mint: string;
  owner: string;
  amount: U64;
  delegated_amount?: U64;
  frozen?: boolean;
  burnt?: unknown;
  [k: string]: unknown;
}

export interface TokenAccountList {
  last_indexed_slot?: number;
  total?: number;
  limit?: number;
  page?: number;
  cursor?: string | null;
  token_accounts: TokenAccount[];
}

// ---------------------------------------------------------------- compression

export interface Context {
  slot: number;
}

/** `result` of most compression methods. */
export interface WithContext<T> {
  context: Context;
  value: T;
}

export interface CursorPage<T> {
  items: T[];
  cursor: string | null;
}

export interface CompressedAccount {
  hash: string;
  address?: string | null;
  data?: { discriminator: U64; data: string; dataHash: string } | null;
  owner: string;
  lamports: U64;
  /** v1 layout; v2 accounts carry the tree in `merkleContext.tree`. */
  tree?: string;
  merkleContext?: { tree: string; queue?: string; treeType?: number; [k: string]: unknown };
  proveByIndex?: boolean;
  leafIndex: number;
  seq?: U64 | null;
  slotCreated: U64;
  [k: string]: unknown;
}

export interface CompressedTokenData {
  mint: string;
  owner: string;
  amount: U64;
  delegate?: string | null;
  state: 'initialized' | 'frozen' | (string & {});
  tlv?: string | null;
}

export interface CompressedTokenAccount {
  account: CompressedAccount;
  tokenData: CompressedTokenData;
}

export interface CompressedAccountProof {
  hash: string;
  leafIndex: number;
  merkleTree: string;
  proof: string[];
  root: string;
  rootSeq: U64;
}

export interface NewAddressProof {
  address: string;
  higherRangeAddress: string;
  lowElementLeafIndex: number;
  lowerRangeAddress: string;
  merkleTree: string;
  nextIndex: number;
  proof: string[];
  root: string;
  rootSeq: U64;
}

/** A Groth16 proof; servers send the points as byte arrays or strings. */
export interface CompressedProof {
  a: number[] | string;
  b: number[] | string;
  c: number[] | string;
}

/** Validity proof, v1 (`roots`, `leaves`, …) or v2 (`accounts`, `addresses`) layout. */
export interface ValidityProof {
  compressedProof: CompressedProof | null;
  roots?: string[];
  rootIndices?: number[];
  leafIndices?: number[];
  leaves?: string[];
  merkleTrees?: string[];
  accounts?: Record<string, unknown>[];
  addresses?: Record<string, unknown>[];
  [k: string]: unknown;
}

export interface CompressionSignature {
  blockTime: number;
  signature: string;
  slot: number;
}

export interface CompressionAccountChange {
  account: CompressedAccount;
  optionalTokenData?: CompressedTokenData | null;
}

export interface TransactionWithCompressionInfo {
  compression_info: { closedAccounts: CompressionAccountChange[]; openedAccounts: CompressionAccountChange[] };
  transaction: Record<string, unknown>;
}

// ---------------------------------------------------------------- REST

/** One record of the deprecated token-metadata lookup; sections kept loose (legacy shapes vary). */
export interface TokenMetadataRecord {
  account: string;
  onChainAccountInfo?: { accountInfo?: Record<string, unknown> | null; error?: string } | null;
  onChainMetadata?: { metadata?: Record<string, unknown> | null; error?: string } | null;
  offChainMetadata?: { metadata?: Record<string, unknown> | null; uri?: string; error?: string } | null;
  legacyMetadata?: Record<string, unknown> | null;
}

export interface WalletTransfer {
  signature: string;
  timestamp: number;
  direction: 'in' | 'out' | (string & {});
  counterparty?: string;
  mint?: string;
  amount?: number;
  amountRaw?: string;
  decimals?: number;
  symbol?: string;
  [k: string]: unknown;
}

export interface TransferPage {
  data: WalletTransfer[];
  pagination: { hasMore: boolean; nextCursor?: string | null };
}

export type WebhookType = 'enhanced' | 'raw' | 'discord' | 'enhancedDevnet' | 'rawDevnet' | 'discordDevnet';

export interface Webhook {
  webhookID: string;
  wallet?: string;
  webhookURL: string;
  transactionTypes?: string[];
  accountAddresses?: string[];
  webhookType?: WebhookType | (string & {});
  authHeader?: string;
  active?: boolean;
}

export interface MintCompressedNftResult {
  signature: string;
  minted: boolean;
  assetId: string;
}

// ---------------------------------------------------------------- standard Solana

// Commitment and PriorityLevel are defined once for every part, in solana/commitment.ts.
export type { Commitment, PriorityLevel };

export interface LatestBlockhash {
  blockhash: string;
  lastValidBlockHeight: number;
  /** The `context.slot` of the answer. */
  slot: number;
}

export interface SignatureStatus {
  slot: number;
  confirmations: number | null;
  err: unknown;
  confirmationStatus?: Commitment | null;
  status?: unknown;
}

export interface SimulationResult {
  err: unknown;
  logs: string[] | null;
  unitsConsumed?: number;
  [k: string]: unknown;
}

export interface PriorityFeeEstimate {
  priorityFeeEstimate?: number;
  priorityFeeLevels?: { min: number; low: number; medium: number; high: number; veryHigh: number; unsafeMax: number };
}

export interface AccountInfo {
  lamports: U64;
  owner: string;
  data: unknown;
  executable: boolean;
  rentEpoch?: U64;
  space?: number;
}
