/**
 * Compressed accounts in Poseidon state trees: the account hash (v1 trees little-endian, v2 batched
 * trees big-endian), the compressed-token data hash v1, and the account proof (a Poseidon path of
 * height 26 for v1 trees, 32 for v2). Pure functions on bytes; the JSON edge that
 * turns the indexer's shapes into them is account-parse.ts, the worker pool's records account-records.ts.
 *
 * Rules: docs/hashing.md §3 (checked against light-protocol and photon).
 */
import { poseidon, poseidonPathRoot, hashToField, equalBytes, inField } from '../../crypto/index.js';
import { bad, ok, type Verdict } from '../verdict.js';
import { toB58 } from '../fields.js';
import { FieldError } from '../../errors/index.js';

/** Tree types as the indexer numbers them in `merkleContext.treeType` / `treeContext.treeType`. */
export const TreeType = { StateV1: 1, AddressV1: 2, StateV2: 3, AddressV2: 4 } as const;
export type TreeType = (typeof TreeType)[keyof typeof TreeType];

/** Heights of the state trees (v1: concurrent tree of height 26; v2: batched tree of height 32). */
export const STATE_TREE_HEIGHT = { v1: 26, v2: 32 } as const;
/** Root history of v1 state trees: the root index on chain is `rootSeq % 2400`. */
export const STATE_V1_ROOT_HISTORY = 2400;

/** The fields an account hash commits to. Without `treeType` the v1 rule hashes it (see verifyAccountHash). */
export interface CompressedAccount {
  owner: Uint8Array;
  tree: Uint8Array;
  leafIndex: number;
  lamports: bigint;
  address?: Uint8Array | null;
  /** Absent or null for an account without data. */
  data?: { discriminator: Uint8Array; dataHash: Uint8Array } | null;
  treeType?: TreeType;
}

/** Compressed-token account data (the fields its v1 data hash commits to). */
export interface TokenData {
  mint: Uint8Array;
  owner: Uint8Array;
  amount: bigint;
  delegate?: Uint8Array | null;
  frozen?: boolean;
}

const isBatched = (t: TreeType | undefined): boolean => t === TreeType.StateV2 || t === TreeType.AddressV2;

/**
 * The account hash: `Poseidon(hashToField(owner), leafIndex, hashToField(tree), [lamports], [address],
 * [discriminator, dataHash])`, optional fields omitted. Throws `FieldError` when an input is ≥ r.
 *
 * @example
 * const h = hashCompressedAccount({ owner, tree, leafIndex: 3, lamports: 0n, data: { discriminator, dataHash } });
 */
export function hashCompressedAccount(a: CompressedAccount): Uint8Array {
  const be = isBatched(a.treeType);
  const inputs: Uint8Array[] = [hashToField(a.owner)];
  const idx = new Uint8Array(32);
  new DataView(idx.buffer).setUint32(28, a.leafIndex >>> 0, !be);
  inputs.push(idx, hashToField(a.tree));
  if (a.lamports !== 0n) {
    const l = new Uint8Array(32);
    new DataView(l.buffer).setBigUint64(24, a.lamports, !be);
    l[23] = 1;
    inputs.push(l);
  }
  if (a.address) {
    if (!inField(a.address)) throw new FieldError('address', 'is not below the BN254 field modulus');
    inputs.push(a.address);
  }
  if (a.data) {
    if (a.data.discriminator.length !== 8) throw new FieldError('data.discriminator', `expected 8 bytes, got ${a.data.discriminator.length}`);
    const d = new Uint8Array(32);
    d.set(a.data.discriminator, 24);
    d[23] = 2;
    if (!inField(a.data.dataHash)) throw new FieldError('data.dataHash', 'is not below the BN254 field modulus');
    inputs.push(d, a.data.dataHash);
  }
  return poseidon(inputs);
}

/**
 * Compressed-token data hash: `Poseidon(hashToField(mint), hashToField(owner), amount u64 at 24..32
 * [, hashToField(delegate)] [, frozen marker])`, the amount little-endian (v1) or big-endian (`be`:
 * light-protocol's TokenData::hash for batched trees, and every account with the V2 discriminator).
 *
 * @example
 * hashTokenData({ mint, owner, amount: 100n }, false) // equals a v1 token account's data.dataHash
 */
export function hashTokenData(t: TokenData, be: boolean): Uint8Array {
  const amount = new Uint8Array(32);
  new DataView(amount.buffer).setBigUint64(24, t.amount, !be);
  const inputs = [hashToField(t.mint), hashToField(t.owner), amount];
  if (t.delegate) inputs.push(hashToField(t.delegate));
  if (t.frozen) {
    const f = new Uint8Array(32);
    f[31] = 1;
    inputs.push(f);
  }
  return poseidon(inputs);
}

/**
 * Compressed-token data hash v1 (amount little-endian): `hashTokenData(t, false)`.
 *
 * @example
 * hashTokenDataV1({ mint, owner, amount: 100n }) // equals the account's data.dataHash
 */
export function hashTokenDataV1(t: TokenData): Uint8Array {
  return hashTokenData(t, false);
}

/**
 * The amount byte orders a token account's data hash may use, from its discriminator and tree (none:
 * not re-derived). The compressed-token program records the token-data version in the discriminator:
 * `2,0,0,0,0,0,0,0` (V1) hashes the amount little-endian, `0,0,0,0,0,0,0,3` (V2) big-endian,
 * `…,4` (ShaFlat, SHA-256) is not re-derived. Before versions existed the program hashed
 * V1-discriminator accounts of batched trees big-endian, so there both orders are accepted (no
 * single-bit change of the amount turns one order into the other). Any other discriminator is
 * re-derived little-endian outside batched trees, as before V2, and not at all inside them.
 */
function tokenAmountOrders(data: { discriminator: Uint8Array } | null | undefined, batched: boolean): readonly boolean[] {
  const d = data?.discriminator;
  const zeros = d !== undefined && d.length === 8 && d[1] === 0 && d[2] === 0 && d[3] === 0 && d[4] === 0 && d[5] === 0 && d[6] === 0;
  if (zeros && d[0] === 0 && d[7] === 3) return BE_ONLY;
  if (zeros && d[0] === 0 && d[7] === 4) return NONE;
  if (!batched) return LE_ONLY;
  if (zeros && d[0] === 2 && d[7] === 0) return LE_OR_BE;
  return NONE;
}
const LE_ONLY = [false] as const;
const BE_ONLY = [true] as const;
const LE_OR_BE = [false, true] as const;
const NONE = [] as const;

/** An account proof as `getCompressedAccountProof` returns it, on bytes. */
export interface AccountProof {
  hash: Uint8Array;
  root: Uint8Array;
  /** Sibling nodes leaf → root, concatenated (32 bytes each). */
  proof: Uint8Array;
  leafIndex: number;
  /** From `treeContext.treeType` when the response has it; else the height decides. */
  treeType?: TreeType;
  /** v2: the account is still in the output queue; the path does not prove it. */
  proveByIndex?: boolean;
}

/** The status of a V2 item that is still in the output queue (`proveByIndex: true`). */
export const PROVE_BY_INDEX = 'prove-by-index';

/**
 * Verify an account proof: the hash walked up the path with the bits of `leafIndex` must give `root`.
 *
 * @example
 * verifyAccountProof(parseAccountProof(json)).valid // true
 */
export function verifyAccountProof(p: AccountProof, id?: string): Verdict {
  if (p.proveByIndex) {
    return bad('not proven by the path: proveByIndex is set (the account is still in the output queue and is proven by index, not by this Merkle path)', id, { status: PROVE_BY_INDEX });
  }
  if (p.proof.length % 32 !== 0) return bad(`proof: length ${p.proof.length} is not a multiple of 32`, id);
  const height = p.proof.length / 32;
  if (p.treeType === TreeType.AddressV1 || p.treeType === TreeType.AddressV2) {
    return bad(`treeType ${p.treeType} is an address tree, not a state tree`, id);
  }
  const want: number[] =
    p.treeType === TreeType.StateV1
      ? [STATE_TREE_HEIGHT.v1]
      : p.treeType === TreeType.StateV2
        ? [STATE_TREE_HEIGHT.v2]
        : [STATE_TREE_HEIGHT.v1, STATE_TREE_HEIGHT.v2];
  if (!want.includes(height)) return bad(`proof: expected ${want.join(' or ')} nodes, got ${height}`, id);
  if (!Number.isInteger(p.leafIndex) || p.leafIndex < 0 || p.leafIndex >= 2 ** height) {
    return bad(`leafIndex: ${p.leafIndex} does not fit a tree of height ${height}`, id);
  }
  if (!inField(p.hash)) return bad('hash: not below the BN254 field modulus', id);
  if (!inField(p.root)) return bad('root: not below the BN254 field modulus', id);
  for (let i = 0; i < height; i++) {
    if (!inField(p.proof.subarray(i * 32, i * 32 + 32))) return bad(`proof[${i}]: not below the BN254 field modulus`, id);
  }
  const computed = poseidonPathRoot(p.hash, p.proof, p.leafIndex);
  if (!equalBytes(computed, p.root)) return bad('root mismatch: the path does not lead from hash to root', id, { computedRoot: toB58(computed) });
  return ok(id);
}

/** An account to re-hash, with the hash the indexer claims and (for token accounts) its token data. */
export interface AccountClaim extends CompressedAccount {
  hash: Uint8Array;
  token?: TokenData | null;
  /** v2: the account is still in the output queue (its hash is checked all the same). */
  proveByIndex?: boolean;
}

/**
 * Recompute the account hash (and, for a v1 token account, its data hash) and compare with the claim.
 *
 * @example
 * verifyAccountHash(parseCompressedAccount(item)).valid // true
 */
export function verifyAccountHash(a: AccountClaim, id?: string): Verdict {
  let computed: Uint8Array;
  try {
    if (a.token && a.data) {
      const orders = tokenAmountOrders(a.data, isBatched(a.treeType));
      const token = a.token;
      const dataHash = a.data.dataHash;
      if (orders.length > 0 && !orders.some((be) => equalBytes(hashTokenData(token, be), dataHash))) {
        return bad('data.dataHash does not match the token data (mint, owner, amount, delegate, state)', id);
      }
    }
    computed = hashCompressedAccount(a);
  } catch (e) {
    if (e instanceof FieldError) return bad(e.message, id);
    throw e;
  }
  // The V1 shape (a top-level `tree`, no treeType) is served for accounts of v2 trees too: without a
  // treeType both rules are tried (they differ in the byte order of the index and lamports, which no
  // single-bit change of either field turns into the other).
  if (!equalBytes(computed, a.hash) && a.treeType === undefined && equalBytes(hashCompressedAccount({ ...a, treeType: TreeType.StateV2 }), a.hash)) {
    return ok(id);
  }
  if (!equalBytes(computed, a.hash)) return bad('hash mismatch: the account fields do not hash to the claimed hash', id, { computedRoot: toB58(computed) });
  // The hash is right, but a queued account is not in its tree yet: say so rather than a plain valid.
  return a.proveByIndex ? ok(id, { status: PROVE_BY_INDEX }) : ok(id);
}
