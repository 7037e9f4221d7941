/**
 * Runtime shapes of the V2 compression answers and of the indexer's other methods (see rpc/shapes.ts
 * for the spec's nine). Required fields are those stateless.js 0.23's own schemas require, so an
 * answer that passes here passes there too.
 */
import { transactionWithInfo } from './info-shape.js';
import type * as C from './types.js';
import type * as T from '../types.js';
import { compressedTokenData, withContext } from '../shapes.js';
import * as S from '../shapes.js';
import { v, type Validator } from '../validate.js';

const str = v.string;
const nstr = v.nullable(v.string);
const u64 = v.u64;
const bool = v.bool;

// Servers send the points as byte arrays or as strings (as rpc/shapes.ts accepts for V1).
const proofPoint = v.or(v.array(v.int), str);
const compressedProofShape = v.object({ a: proofPoint, b: proofPoint, c: proofPoint });

const nextTreeContext = v.object({ treeType: u64, tree: str, queue: str }, { cpiContext: nstr });

const treeContext = v.object(
  { treeType: u64, tree: str, queue: str },
  { cpiContext: nstr, nextTreeContext: v.nullable(nextTreeContext) },
) as unknown as Validator<C.TreeContext>;

export const compressedAccountV2 = v.object(
  { hash: str, owner: str, lamports: u64, leafIndex: u64, slotCreated: u64, merkleContext: treeContext, proveByIndex: bool },
  {
    address: nstr,
    data: v.nullable(v.object({ data: str, dataHash: str, discriminator: u64 })),
    seq: v.nullable(u64),
  },
) as unknown as Validator<C.CompressedAccountV2>;

export const compressedTokenAccountV2 = v.object({
  account: compressedAccountV2,
  tokenData: compressedTokenData,
}) as unknown as Validator<C.CompressedTokenAccountV2>;

export const compressedAccountProofV2 = v.object({
  hash: str,
  leafIndex: u64,
  proof: v.array(str),
  root: str,
  rootSeq: u64,
  proveByIndex: bool,
  treeContext,
}) as unknown as Validator<C.CompressedAccountProofV2>;

export const validityProofV2 = v.object({
  compressedProof: v.nullable(compressedProofShape),
  accounts: v.array(
    v.object({ hash: str, root: str, rootIndex: v.object({ rootIndex: u64, proveByIndex: bool }), leafIndex: u64, merkleContext: treeContext }),
  ),
  addresses: v.array(v.object({ address: str, root: str, rootIndex: u64, merkleContext: treeContext })),
}) as unknown as Validator<C.ValidityProofV2>;

const tokenData = v.nullable(compressedTokenData);
const compressionInfoV2 = v.object({
  closedAccounts: v.array(v.object({ account: v.object({ account: compressedAccountV2, nullifier: str, txHash: str }) }, { optionalTokenData: tokenData })),
  openedAccounts: v.array(v.object({ account: compressedAccountV2 }, { optionalTokenData: tokenData })),
});

/** Like the V1 one: `compression_info` (the spec's spelling) or `compressionInfo`. */
export const transactionWithCompressionInfoV2 = transactionWithInfo<C.TransactionWithCompressionInfoV2>(compressionInfoV2);

export function accountItems<A>(item: Validator<A>): Validator<C.AccountItems<A>> {
  return v.object({ items: v.array(v.nullable(item)) }) as unknown as Validator<C.AccountItems<A>>;
}

const tokenBalance = v.object({ mint: str, balance: u64 }) as unknown as Validator<C.TokenBalance>;
export const tokenBalanceList = withContext(v.object({ tokenBalances: v.array(tokenBalance) }, { cursor: nstr }) as unknown as Validator<C.TokenBalanceList>);
export const tokenBalancePage = withContext(S.cursorPage(tokenBalance));
export const ownerBalancePage = withContext(S.cursorPage(v.object({ owner: str, balance: u64 }) as unknown as Validator<C.OwnerBalance>));
export const balance = withContext(u64);
export const tokenAccountBalance = withContext(v.object({ amount: u64 }) as unknown as Validator<{ amount: number | bigint }>);

// The signature lists (signatures.ts): unpaged `{items}`, paged `{items, cursor}`, and the
// non-vote list whose items carry `error` (null, or left out by servers that skip a null).
export const signatureList = withContext(v.object({ items: v.array(S.compressionSignature) }) as unknown as Validator<{ items: T.CompressionSignature[] }>);
export const signaturePage = withContext(S.cursorPage(S.compressionSignature));
const signatureWithError = v.object({ signature: str, slot: u64, blockTime: v.int }, { error: nstr }) as unknown as Validator<
  T.CompressionSignature & { error?: string | null }
>;
export const signatureWithErrorList = withContext(
  v.object({ items: v.array(signatureWithError) }) as unknown as Validator<{ items: (T.CompressionSignature & { error?: string | null })[] }>,
);
