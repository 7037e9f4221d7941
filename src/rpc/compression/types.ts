/**
 * Response types of the compression indexer's V2 methods and of its other methods beyond the spec's
 * nine (balances, by-owner lists, mint holders, the indexer's own state). The spec's types stay in
 * rpc/types.ts; these build on them.
 */
import type { CompressedProof, CompressedTokenData, CursorPage, U64 } from '../types.js';

/** `treeType`: 1 state v1, 2 address v1, 3 state v2 (batched), 4 address v2. */
export type TreeTypeNumber = 1 | 2 | 3 | 4 | (number & {});

/** A tree as the V2 answers describe it (`merkleContext`, `treeContext`). */
export interface TreeContext {
  treeType: TreeTypeNumber;
  tree: string;
  queue: string;
  cpiContext?: string | null;
  nextTreeContext?: { treeType: TreeTypeNumber; tree: string; queue: string; cpiContext?: string | null } | null;
}

/** The V2 account: no top-level `tree`; `merkleContext` and `proveByIndex` instead. */
export interface CompressedAccountV2 {
  hash: string;
  address?: string | null;
  data?: { discriminator: U64; data: string; dataHash: string } | null;
  owner: string;
  lamports: U64;
  leafIndex: number;
  seq?: U64 | null;
  slotCreated: U64;
  merkleContext: TreeContext;
  /** True while the account is still in its tree's output queue: its path proves nothing yet. */
  proveByIndex: boolean;
}

export interface CompressedTokenAccountV2 {
  account: CompressedAccountV2;
  tokenData: CompressedTokenData;
}

export interface CompressedAccountProofV2 {
  hash: string;
  leafIndex: number;
  proof: string[];
  root: string;
  rootSeq: U64;
  proveByIndex: boolean;
  treeContext: TreeContext;
}

/** One account of a V2 validity proof. */
export interface AccountProofInputs {
  hash: string;
  root: string;
  rootIndex: { rootIndex: number; proveByIndex: boolean };
  leafIndex: number;
  merkleContext: TreeContext;
}

/** One new address of a V2 validity proof. */
export interface AddressProofInputs {
  address: string;
  root: string;
  rootIndex: number;
  merkleContext: TreeContext;
}

export interface ValidityProofV2 {
  /** Null when every account is proven by index (nothing for the circuit to prove). */
  compressedProof: CompressedProof | null;
  accounts: AccountProofInputs[];
  addresses: AddressProofInputs[];
}

export interface ClosedAccountV2 {
  account: { account: CompressedAccountV2; nullifier: string; txHash: string };
  optionalTokenData?: CompressedTokenData | null;
}

export interface OpenedAccountV2 {
  account: CompressedAccountV2;
  optionalTokenData?: CompressedTokenData | null;
}

export interface TransactionWithCompressionInfoV2 {
  compression_info: { closedAccounts: ClosedAccountV2[]; openedAccounts: OpenedAccountV2[] };
  transaction: Record<string, unknown>;
}

/** `getMultipleCompressedAccounts`: an item per key asked, `null` where unknown. */
export interface AccountItems<A> {
  items: (A | null)[];
}

export interface TokenBalance {
  mint: string;
  balance: U64;
}

/** `getCompressedTokenBalancesByOwner` (V1) names its list `tokenBalances`. */
export interface TokenBalanceList {
  tokenBalances: TokenBalance[];
  cursor: string | null;
}

export type TokenBalancePage = CursorPage<TokenBalance>;

export interface OwnerBalance {
  owner: string;
  balance: U64;
}
