/**
 * Compressed-NFT leaves (mpl-bubblegum `LeafSchema`): the asset id PDA, `creator_hash`, `data_hash`,
 * the V1 and V2 leaf hashes, and `verifyAssetLeaf`, which recomputes an asset's leaf from what
 * `getAsset` shows. Every builder takes plain bytes and values, so a local chain can build real
 * Bubblegum trees with them; `verifyAssetLeaf` is the JSON edge.
 *
 * Why `data_hash` is only an extra check: the indexer's JSON hard-codes `token_standard:
 * NonFungible` and omits fields (token program version, sometimes the collection's `verified`), so
 * the metadata hash can not always be rebuilt from it. The leaf is recomputed from the hashes the
 * indexer stores in `compression`; re-deriving `data_hash` then either matches, or the verdict says
 * it could not be re-derived — it is never reported as a forgery on that ground alone.
 */
import bs58 from 'bs58';
import { InputError } from '../errors.js';
import { equalBytes, keccak256, keccak256Into } from './hash/keccak.js';
import { findPdaInto } from './hash/pda.js';
import { b58Bytes32, parseAssetProof, splitNodeIndex, verifyAssetProof } from './asset.js';
import { b58Decode32Into } from './fields.js';
import { bad, ok, type Verdict } from './verdict.js';
import type { Projection } from './records/projection.js';

/** mpl-bubblegum's program id, `BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY`. */
export const BUBBLEGUM_PROGRAM_ID: Uint8Array = bs58.decode('BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY');

const enc = new TextEncoder();
const PDA_MARKER = enc.encode('ProgramDerivedAddress');
const ASSET_SEED = enc.encode('asset');

// Scratch memory. `verifyAssetLeaf` runs for every asset of a batch, and in worker threads the young-
// generation GC of its short-lived byte arrays competed with the verifiers for the cores. So the
// builders below serialise into module-level buffers and hash from there. This is safe: JS runs one
// call at a time per isolate (each worker thread has its own copy of this module), none of these
// functions calls back into another that uses the same buffer while it holds data there, and
// nothing returned aliases a scratch buffer — returned hashes and byte strings are fresh or copied.

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function checkU64(v: bigint, field: string): void {
  if (typeof v !== 'bigint' || v < 0n || v >= 1n << 64n) throw new InputError(field, `expected a u64 bigint, got ${String(v)}`, { expected: 'u64', got: String(v) });
}

function bytes32(v: unknown, field: string): Uint8Array {
  if (!(v instanceof Uint8Array) || v.length !== 32) {
    throw new InputError(field, `expected 32 bytes, got ${v instanceof Uint8Array ? v.length : typeof v}`, { expected: '32 bytes' });
  }
  return v;
}

/**
 * `Pubkey::find_program_address`: the first bump from 255 down whose
 * `sha256(seeds ‖ bump ‖ programId ‖ "ProgramDerivedAddress")` is off the ed25519 curve.
 *
 * @example
 * const [pda, bump] = findProgramAddress([seedBytes], programId);
 */
export function findProgramAddress(seeds: Uint8Array[], programId: Uint8Array): [Uint8Array, number] {
  bytes32(programId, 'programId');
  if (seeds.length > 16) throw new InputError('seeds', `expected at most 16 seeds, got ${seeds.length}`);
  seeds.forEach((s, i) => {
    if (!(s instanceof Uint8Array) || s.length > 32) throw new InputError(`seeds[${i}]`, 'expected at most 32 bytes');
  });
  const input = concat([...seeds, new Uint8Array(1), programId, PDA_MARKER]);
  const out = new Uint8Array(32);
  // SHA-256 and the on-curve test per bump run in the PDA kernel (native, WASM or JS: hash/pda.ts).
  const b = findPdaInto(input, input.length - 1 - 32 - PDA_MARKER.length, out);
  if (b < 0) throw new InputError('seeds', 'no viable bump seed');
  return [out, b];
}

// The asset id's PDA preimage: "asset" ‖ tree ‖ nonce u64 LE ‖ bump ‖ Bubblegum ‖ "ProgramDerivedAddress".
const PDA_TREE = ASSET_SEED.length;
const PDA_NONCE = PDA_TREE + 32;
const PDA_BUMP = PDA_NONCE + 8;
const PDA_PROGRAM = PDA_BUMP + 1;
const assetPdaPreimage = new Uint8Array(PDA_PROGRAM + 32 + PDA_MARKER.length);
const assetPdaView = new DataView(assetPdaPreimage.buffer);
assetPdaPreimage.set(ASSET_SEED, 0);
assetPdaPreimage.set(PDA_MARKER, PDA_PROGRAM + 32);

/** `assetIdPda` into `out` (arguments already checked): the preimage is written in place, not concatenated. */
function assetIdInto(tree: Uint8Array, nonce: bigint, out: Uint8Array): void {
  const pre = assetPdaPreimage;
  pre.set(tree, PDA_TREE);
  assetPdaView.setBigUint64(PDA_NONCE, nonce, true);
  pre[PDA_BUMP] = 0;
  pre.set(BUBBLEGUM_PROGRAM_ID, PDA_PROGRAM); // per call: the exported constant is a mutable array
  if (findPdaInto(pre, PDA_BUMP, out) < 0) throw new InputError('seeds', 'no viable bump seed');
}

/**
 * The asset id of a compressed NFT: PDA of `["asset", tree, nonce u64 LE]` under Bubblegum.
 *
 * @example
 * bs58.encode(assetIdPda(bs58.decode(tree), 0n)); // the asset id of leaf 0
 */
export function assetIdPda(tree: Uint8Array, nonce: bigint): Uint8Array {
  bytes32(tree, 'tree');
  checkU64(nonce, 'nonce');
  const out = new Uint8Array(32);
  assetIdInto(tree, nonce, out);
  return out;
}

/** A creator as Bubblegum stores it. */
export interface Creator {
  address: Uint8Array;
  verified: boolean;
  /** Percentage 0..100. */
  share: number;
}

function creatorBytes(creators: Creator[], field: string, withLength: boolean): Uint8Array {
  if (!Array.isArray(creators)) throw new InputError(field, 'expected an array of creators');
  const out = new Uint8Array((withLength ? 4 : 0) + 34 * creators.length);
  let o = 0;
  if (withLength) {
    new DataView(out.buffer).setUint32(0, creators.length, true);
    o = 4;
  }
  creators.forEach((c, i) => {
    out.set(bytes32(c?.address, `${field}[${i}].address`), o);
    if (typeof c.verified !== 'boolean') throw new InputError(`${field}[${i}].verified`, 'expected a boolean');
    if (!Number.isInteger(c.share) || c.share < 0 || c.share > 255) throw new InputError(`${field}[${i}].share`, `expected an integer 0..255, got ${String(c.share)}`);
    out[o + 32] = c.verified ? 1 : 0;
    out[o + 33] = c.share;
    o += 34;
  });
  return out;
}

/**
 * `creator_hash = keccak256(address ‖ verified ‖ share, for each creator)` (no length prefix;
 * no creators → keccak256 of nothing).
 *
 * @example
 * creatorHash([{ address, verified: true, share: 100 }]);
 */
export function creatorHash(creators: Creator[]): Uint8Array {
  return keccak256(creatorBytes(creators, 'creators', false));
}

/** Fields of a V1 leaf. `delegate` is the owner when the asset has no delegate. */
export interface LeafV1Fields {
  id: Uint8Array;
  owner: Uint8Array;
  delegate: Uint8Array;
  /** `compression.leaf_id`. */
  nonce: bigint;
  dataHash: Uint8Array;
  creatorHash: Uint8Array;
}

/** Fields of a V2 leaf. */
export interface LeafV2Fields extends LeafV1Fields {
  collectionHash: Uint8Array;
  assetDataHash: Uint8Array;
  /** bit0 frozen, bit1 frozen by the permanent delegate, bit2 non-transferable; bits 3–7 zero. */
  flags: number;
}

// The leaf preimage, `version ‖ id ‖ owner ‖ delegate ‖ nonce u64 LE ‖ data_hash ‖ creator_hash`
// (V1, 169 bytes), then `‖ collection_hash ‖ asset_data_hash ‖ flags u8` (V2, 234 bytes).
const LEAF_NONCE = 1 + 3 * 32;
const LEAF_V1_END = LEAF_NONCE + 8 + 2 * 32;
const LEAF_FLAGS = LEAF_V1_END + 2 * 32;
const leafPreimage = new Uint8Array(LEAF_FLAGS + 1);
const leafPreimageView = new DataView(leafPreimage.buffer);
const leafV1Bytes = leafPreimage.subarray(0, LEAF_V1_END);
const leafV2Bytes = leafPreimage; // all of it

/** Writes the part common to V1 and V2 to the leaf preimage, checking each field (in this order). */
function writeLeafPrefix(version: number, f: LeafV1Fields): void {
  const b = leafPreimage;
  b[0] = version;
  b.set(bytes32(f.id, 'id'), 1);
  b.set(bytes32(f.owner, 'owner'), 33);
  b.set(bytes32(f.delegate, 'delegate'), 65);
  checkU64(f.nonce, 'nonce');
  leafPreimageView.setBigUint64(LEAF_NONCE, f.nonce, true);
  b.set(bytes32(f.dataHash, 'dataHash'), LEAF_NONCE + 8);
  b.set(bytes32(f.creatorHash, 'creatorHash'), LEAF_NONCE + 40);
}

/** The V1 leaf preimage (a view of the scratch buffer: hash it before the next write). */
function leafV1Preimage(f: LeafV1Fields): Uint8Array {
  writeLeafPrefix(1, f);
  return leafV1Bytes;
}

/** The V2 leaf preimage (a view of the scratch buffer: hash it before the next write). */
function leafV2Preimage(f: LeafV2Fields): Uint8Array {
  if (!Number.isInteger(f.flags) || f.flags < 0 || f.flags > 7) throw new InputError('flags', `expected 0..7 (bits 3–7 must be zero), got ${String(f.flags)}`);
  writeLeafPrefix(2, f);
  leafPreimage.set(bytes32(f.collectionHash, 'collectionHash'), LEAF_V1_END);
  leafPreimage.set(bytes32(f.assetDataHash, 'assetDataHash'), LEAF_V1_END + 32);
  leafPreimage[LEAF_FLAGS] = f.flags;
  return leafV2Bytes;
}

/**
 * V1 leaf: `keccak256(0x01 ‖ id ‖ owner ‖ delegate ‖ nonce u64 LE ‖ data_hash ‖ creator_hash)`.
 *
 * @example
 * const leaf = leafHashV1({ id, owner, delegate: owner, nonce: 0n, dataHash, creatorHash });
 */
export function leafHashV1(f: LeafV1Fields): Uint8Array {
  return keccak256(leafV1Preimage(f)); // keccak256 returns fresh memory
}

/**
 * V2 leaf: `keccak256(0x02 ‖ id ‖ owner ‖ delegate ‖ nonce ‖ data_hash ‖ creator_hash ‖
 * collection_hash ‖ asset_data_hash ‖ flags u8)`.
 *
 * @example
 * const leaf = leafHashV2({ ...v1, collectionHash: collectionHash(null), assetDataHash: assetDataHash(null), flags: 0 });
 */
export function leafHashV2(f: LeafV2Fields): Uint8Array {
  return keccak256(leafV2Preimage(f));
}

/** V2 `collection_hash = keccak256(collection or 32 zero bytes)`. */
export function collectionHash(collection: Uint8Array | null): Uint8Array {
  return keccak256(collection === null ? new Uint8Array(32) : bytes32(collection, 'collection'));
}

/** V2 `asset_data_hash = keccak256(data or nothing)`. */
export function assetDataHash(data: Uint8Array | null): Uint8Array {
  return keccak256(data ?? new Uint8Array(0));
}

/** Token standards as Bubblegum numbers them. */
export const TokenStandard = { NonFungible: 0, FungibleAsset: 1, Fungible: 2, NonFungibleEdition: 3 } as const;
/** Use methods as Bubblegum numbers them. */
export const UseMethod = { Burn: 0, Multiple: 1, Single: 2 } as const;

/** Bubblegum `MetadataArgs` (V1). Numbers for enums: see `TokenStandard`, `UseMethod`; token program version 0 = Original, 1 = Token2022. */
export interface MetadataArgsV1 {
  name: string;
  symbol: string;
  uri: string;
  sellerFeeBasisPoints: number;
  primarySaleHappened: boolean;
  isMutable: boolean;
  editionNonce: number | null;
  tokenStandard: number | null;
  collection: { verified: boolean; key: Uint8Array } | null;
  uses: { useMethod: number; remaining: bigint; total: bigint } | null;
  tokenProgramVersion: number;
  creators: Creator[];
}

/** Bubblegum `MetadataArgsV2`. */
export interface MetadataArgsV2 {
  name: string;
  symbol: string;
  uri: string;
  sellerFeeBasisPoints: number;
  primarySaleHappened: boolean;
  isMutable: boolean;
  tokenStandard: number | null;
  creators: Creator[];
  collection: Uint8Array | null;
}

/**
 * Append-only borsh writer (little-endian), just what MetadataArgs needs. It writes into one growing
 * buffer that is reused from call to call (`reset`), so serialising metadata allocates nothing once
 * the buffer is large enough; `bytes()` is a view of it, valid until the next write.
 */
class Borsh {
  private buf = new Uint8Array(512);
  /** Bytes written so far; setting it back (to a saved value) rewrites from there. */
  pos = 0;
  reset(): this {
    this.pos = 0;
    return this;
  }
  /** Make room for `n` more bytes (keeping what is written). */
  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = new Uint8Array(Math.max(2 * this.buf.length, this.pos + n));
    bigger.set(this.buf);
    this.buf = bigger;
  }
  str(s: string, field: string): this {
    if (typeof s !== 'string') throw new InputError(field, 'expected a string');
    const n = s.length;
    this.reserve(4 + 3 * n); // UTF-8 takes at most 3 bytes per UTF-16 code unit
    const at = this.pos + 4;
    const b = this.buf;
    // ASCII (names, symbols and URIs nearly always are) is copied char by char; anything else is
    // encoded by TextEncoder, which gives the same bytes (lone surrogates become U+FFFD).
    let len = 0;
    while (len < n) {
      const ch = s.charCodeAt(len);
      if (ch >= 0x80) break;
      b[at + len++] = ch;
    }
    if (len < n) len = enc.encodeInto(s, b.subarray(at)).written;
    this.u32(len);
    this.pos += len;
    return this;
  }
  u8(v: number, field = 'u8'): this {
    if (!Number.isInteger(v) || v < 0 || v > 255) throw new InputError(field, `expected 0..255, got ${String(v)}`);
    this.reserve(1);
    this.buf[this.pos++] = v;
    return this;
  }
  u16(v: number, field: string): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new InputError(field, `expected 0..65535, got ${String(v)}`);
    this.reserve(2);
    this.buf[this.pos++] = v & 0xff;
    this.buf[this.pos++] = v >>> 8;
    return this;
  }
  /** A u32 (lengths and u64 halves: the caller knows it is one). */
  u32(v: number): this {
    this.reserve(4);
    const b = this.buf;
    b[this.pos++] = v & 0xff;
    b[this.pos++] = (v >>> 8) & 0xff;
    b[this.pos++] = (v >>> 16) & 0xff;
    b[this.pos++] = v >>> 24;
    return this;
  }
  u64(v: bigint, field: string): this {
    checkU64(v, field);
    return this.u32(Number(v & 0xffffffffn)).u32(Number(v >> 32n));
  }
  bool(v: boolean, field: string): this {
    if (typeof v !== 'boolean') throw new InputError(field, 'expected a boolean');
    return this.u8(v ? 1 : 0);
  }
  optU8(v: number | null, field: string): this {
    return v === null || v === undefined ? this.u8(0) : this.u8(1).u8(v, field);
  }
  /** `src[start..end]` as it is. */
  raw(src: Uint8Array, start = 0, end = src.length): this {
    this.reserve(end - start);
    for (let i = start; i < end; i++) this.buf[this.pos++] = src[i]!;
    return this;
  }
  /** What is written: a view of the scratch buffer, valid until the next write. */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

/** The one metadata writer (scratch: see above). */
const borsh = new Borsh();

/** The fields MetadataArgs V1 and V2 start with. */
type MetadataStart = Pick<MetadataArgsV2, 'name' | 'symbol' | 'uri' | 'sellerFeeBasisPoints' | 'primarySaleHappened' | 'isMutable'>;

/** name, symbol, uri, seller fee, primary sale, mutable: the start of both MetadataArgs versions. */
function writeMetadataStart(w: Borsh, m: MetadataStart): Borsh {
  return w
    .str(m.name, 'name')
    .str(m.symbol, 'symbol')
    .str(m.uri, 'uri')
    .u16(m.sellerFeeBasisPoints, 'sellerFeeBasisPoints')
    .bool(m.primarySaleHappened, 'primarySaleHappened')
    .bool(m.isMutable, 'isMutable');
}

/**
 * borsh(MetadataArgs V1) in two parts: the head (name … edition nonce) and the tail (token standard
 * … creators). Re-deriving a data hash tries up to 20 values of the tail's enums after one head.
 */
function writeMetadataV1Head(w: Borsh, m: MetadataStart, editionNonce: number | null): Borsh {
  return writeMetadataStart(w, m).optU8(editionNonce, 'editionNonce');
}

/** The V1 tail; `creators` is already borsh (u32 count ‖ 34 bytes each): `creators[0..creatorsEnd]`. */
function writeMetadataV1Tail(
  w: Borsh,
  tokenStandard: number | null,
  collection: MetadataArgsV1['collection'],
  uses: MetadataArgsV1['uses'],
  tokenProgramVersion: number,
  creators: Uint8Array,
  creatorsEnd = creators.length,
): Borsh {
  w.optU8(tokenStandard, 'tokenStandard');
  if (collection) w.u8(1).bool(collection.verified, 'collection.verified').raw(bytes32(collection.key, 'collection.key'));
  else w.u8(0);
  if (uses) w.u8(1).u8(uses.useMethod, 'uses.useMethod').u64(uses.remaining, 'uses.remaining').u64(uses.total, 'uses.total');
  else w.u8(0);
  return w.u8(tokenProgramVersion, 'tokenProgramVersion').raw(creators, 0, creatorsEnd);
}

/** The MetadataArgsV2 fields after the token standard: creators (already borsh, `creators[0..creatorsEnd]`), collection. */
function writeMetadataV2End(w: Borsh, creators: Uint8Array, collection: Uint8Array | null, creatorsEnd = creators.length): Borsh {
  w.raw(creators, 0, creatorsEnd);
  if (collection) w.u8(1).raw(bytes32(collection, 'collection'));
  else w.u8(0);
  return w;
}

// The exported serialisers check their arguments in the order they always have (it decides which
// error a caller sees first): V1 head, creators, tail; V2 up to the token standard, creators, collection.

function writeMetadataV1(m: MetadataArgsV1): Borsh {
  const w = writeMetadataV1Head(borsh.reset(), m, m.editionNonce);
  const creators = creatorBytes(m.creators, 'creators', true);
  return writeMetadataV1Tail(w, m.tokenStandard, m.collection, m.uses, m.tokenProgramVersion, creators);
}

function writeMetadataV2(m: MetadataArgsV2): Borsh {
  const w = writeMetadataStart(borsh.reset(), m).optU8(m.tokenStandard, 'tokenStandard');
  const creators = creatorBytes(m.creators, 'creators', true);
  return writeMetadataV2End(w, creators, m.collection);
}

/** borsh(MetadataArgs V1). */
export function metadataArgsV1Bytes(m: MetadataArgsV1): Uint8Array {
  return writeMetadataV1(m).bytes().slice(); // a copy: the writer's buffer is reused
}

/** borsh(MetadataArgsV2). */
export function metadataArgsV2Bytes(m: MetadataArgsV2): Uint8Array {
  return writeMetadataV2(m).bytes().slice();
}

// `keccak256(metadata) ‖ seller_fee_basis_points u16 LE`, hashed again for data_hash.
const dataHashPreimage = new Uint8Array(34);

/** `keccak256(keccak256(metadata) ‖ seller_fee_basis_points u16 LE)` into `out[0..32]`. */
function dataHashInto(metadata: Uint8Array, sfbp: number, out: Uint8Array): Uint8Array {
  keccak256Into(metadata, dataHashPreimage, 0);
  dataHashPreimage[32] = sfbp & 0xff;
  dataHashPreimage[33] = sfbp >>> 8;
  return keccak256Into(dataHashPreimage, out, 0);
}

/**
 * V1 `data_hash = keccak256(keccak256(borsh(MetadataArgs)) ‖ seller_fee_basis_points u16 LE)`.
 *
 * @example
 * dataHashV1({ name: 'My NFT', symbol: '', uri, sellerFeeBasisPoints: 500, primarySaleHappened: false,
 *   isMutable: true, editionNonce: null, tokenStandard: 0, collection: null, uses: null,
 *   tokenProgramVersion: 0, creators: [] });
 */
export function dataHashV1(m: MetadataArgsV1): Uint8Array {
  return dataHashInto(writeMetadataV1(m).bytes(), m.sellerFeeBasisPoints, new Uint8Array(32));
}

/** V2 `data_hash`, same construction over `MetadataArgsV2`. */
export function dataHashV2(m: MetadataArgsV2): Uint8Array {
  return dataHashInto(writeMetadataV2(m).bytes(), m.sellerFeeBasisPoints, new Uint8Array(32));
}

// ------------------------------------------------------------------------------ the JSON edge

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * A value problem in one field: the asset is reported invalid with this reason. (An `InputError`
 * from a decoder or builder becomes the same verdict, with its own message.)
 */
class FieldProblem extends Error {}

/**
 * Decodes the 32-byte base58 `value` into `out[at..at+32]`: fields.ts's fast decoder, which
 * allocates nothing; what it declines goes through asset.ts's `b58Bytes32`, which gives the same
 * bytes or the error naming `field`.
 */
function b58Into(value: unknown, field: string, out: Uint8Array, at = 0): Uint8Array {
  if (typeof value !== 'string' || !b58Decode32Into(value, out, at)) out.set(b58Bytes32(value, field), at);
  return out;
}

function nonceOf(v: unknown): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  // past 2^53 the lossless parser hands over a bigint
  if (typeof v === 'bigint' && v >= 0n && v < 1n << 64n) return v;
  if (typeof v === 'string' && /^[0-9]{1,20}$/.test(v) && BigInt(v) < 1n << 64n) return BigInt(v);
  throw new FieldProblem(`"compression.leaf_id": expected a u64, got ${typeof v === 'bigint' ? v : JSON.stringify(v)}`);
}

// Per-asset scratch of verifyAssetLeaf (see "Scratch memory" above): what it decodes from the JSON
// and the hashes it recomputes. Nothing here is ever returned.
const ZERO32 = new Uint8Array(32);
const assetHashBytes = new Uint8Array(32);
const treeBytes = new Uint8Array(32);
const digest = new Uint8Array(32);
const leafFields: LeafV2Fields = {
  id: new Uint8Array(32),
  owner: new Uint8Array(32),
  delegate: new Uint8Array(32),
  nonce: 0n,
  dataHash: new Uint8Array(32),
  creatorHash: new Uint8Array(32),
  collectionHash: new Uint8Array(32),
  assetDataHash: new Uint8Array(32),
  flags: 0,
};
/** The asset's creators as borsh (`u32 count`, then `address ‖ verified ‖ share` each); grows when needed. */
let creatorsBorsh = new Uint8Array(4 + 34 * 5);
/** The key of the collection in `grouping`, when there is one (`readCollection`). */
const collectionKey = new Uint8Array(32);

/**
 * Checks and serialises the asset's creators into `creatorsBorsh`; returns the length written
 * (so `creatorsBorsh[4..end]` is what `creator_hash` hashes).
 */
function readCreators(asset: Json): number {
  const list = asset.creators ?? [];
  if (!Array.isArray(list)) throw new FieldProblem('"creators": expected an array');
  const end = 4 + 34 * list.length;
  if (creatorsBorsh.length < end) creatorsBorsh = new Uint8Array(end);
  const b = creatorsBorsh;
  const n = list.length; // u32 LE count
  b[0] = n & 0xff;
  b[1] = (n >>> 8) & 0xff;
  b[2] = (n >>> 16) & 0xff;
  b[3] = n >>> 24;
  for (let i = 0, o = 4; i < list.length; i++, o += 34) {
    const c: unknown = list[i];
    if (!isObj(c)) throw new FieldProblem(`"creators[${i}]": expected an object`);
    if (typeof c.verified !== 'boolean') throw new FieldProblem(`"creators[${i}].verified": expected a boolean`);
    if (!Number.isInteger(c.share) || (c.share as number) < 0 || (c.share as number) > 255) throw new FieldProblem(`"creators[${i}].share": expected 0..255`);
    // (the field name is built only when the fast decoder declines: b58Into would build it per creator)
    const address = c.address;
    if (typeof address !== 'string' || !b58Decode32Into(address, b, o)) b.set(b58Bytes32(address, `creators[${i}].address`), o);
    b[o + 32] = c.verified ? 1 : 0;
    b[o + 33] = c.share as number;
  }
  return end;
}

/** The collection the indexer lists in `grouping`: none, or one shown verified, unverified, or without `verified`. */
type SeenCollection = 'none' | 'verified' | 'unverified' | 'unshown';

/** Finds the collection in `grouping`; when there is one its key is decoded into `collectionKey`. */
function readCollection(asset: Json): SeenCollection {
  const groups = asset.grouping;
  if (!Array.isArray(groups)) return 'none';
  for (let i = 0; i < groups.length; i++) {
    const g: unknown = groups[i];
    if (!isObj(g) || g.group_key !== 'collection') continue;
    b58Into(g.group_value, 'grouping.collection.group_value', collectionKey);
    return typeof g.verified === 'boolean' ? (g.verified ? 'verified' : 'unverified') : 'unshown';
  }
  return 'none';
}

// The indexer always prints NonFungible; the real token standard may be any of these, or none.
const TOKEN_STANDARDS: readonly (number | null)[] = [0, null, 1, 2, 3];
const TOKEN_PROGRAM_VERSIONS: readonly number[] = [0, 1];
// V1 collection candidates (keyed on `collectionKey`): an unshown `verified` may be either.
const VERIFIED_COLLECTION = { key: collectionKey, verified: true };
const UNVERIFIED_COLLECTION = { key: collectionKey, verified: false };
const V1_COLLECTIONS: Readonly<Record<SeenCollection, readonly MetadataArgsV1['collection'][]>> = {
  none: [null],
  verified: [VERIFIED_COLLECTION],
  unverified: [UNVERIFIED_COLLECTION],
  unshown: [VERIFIED_COLLECTION, UNVERIFIED_COLLECTION],
};

const MATCHED = { matched: true } as const;
const NOT_MATCHED = { matched: false } as const;

/**
 * Rebuild `data_hash` from the JSON's metadata, trying the values the JSON can not tell
 * (token standard, token program version, an unshown collection `verified`). Returns whether one
 * candidate matches, or why nothing could be tried. `creatorsEnd` is `readCreators`' result.
 */
function rederiveDataHash(asset: Json, v2: boolean, creatorsEnd: number, dataHash: Uint8Array): { matched: boolean; why?: string } {
  const content = isObj(asset.content) ? asset.content : {};
  const meta = isObj(content.metadata) ? content.metadata : {};
  const royalty = isObj(asset.royalty) ? asset.royalty : {};
  const { name, symbol } = meta;
  const uri = content.json_uri;
  const sfbp = royalty.basis_points;
  const psh = royalty.primary_sale_happened;
  const isMutable = asset.mutable;
  if (typeof name !== 'string' || typeof symbol !== 'string' || typeof uri !== 'string') return { matched: false, why: 'name, symbol or json_uri missing' };
  if (!Number.isInteger(sfbp) || (sfbp as number) < 0 || (sfbp as number) > 0xffff) return { matched: false, why: 'royalty.basis_points missing' };
  if (typeof psh !== 'boolean' || typeof isMutable !== 'boolean') return { matched: false, why: 'primary_sale_happened or mutable missing' };
  const collection = readCollection(asset);
  const start: MetadataStart = { name, symbol, uri, sellerFeeBasisPoints: sfbp as number, primarySaleHappened: psh, isMutable };
  // Each candidate rewrites only what follows the part that does not vary (`borsh.pos = mark`).
  const w = borsh;
  if (v2) {
    const mark = writeMetadataStart(w.reset(), start).pos;
    for (const tokenStandard of TOKEN_STANDARDS) {
      w.pos = mark;
      writeMetadataV2End(w.optU8(tokenStandard, 'tokenStandard'), creatorsBorsh, collection === 'none' ? null : collectionKey, creatorsEnd);
      if (equalBytes(dataHashInto(w.bytes(), sfbp as number, digest), dataHash)) return MATCHED;
    }
    return NOT_MATCHED;
  }
  const supply = isObj(asset.supply) ? asset.supply : {};
  const editionNonce = supply.edition_nonce;
  if (editionNonce !== null && editionNonce !== undefined && (!Number.isInteger(editionNonce) || (editionNonce as number) < 0 || (editionNonce as number) > 255)) {
    return { matched: false, why: 'supply.edition_nonce is not a u8' };
  }
  let uses: MetadataArgsV1['uses'] = null;
  if (isObj(asset.uses)) {
    const method = UseMethod[asset.uses.use_method as keyof typeof UseMethod];
    const { remaining, total } = asset.uses;
    if (method === undefined || !Number.isSafeInteger(remaining) || !Number.isSafeInteger(total)) return { matched: false, why: 'uses not understood' };
    uses = { useMethod: method, remaining: BigInt(remaining as number), total: BigInt(total as number) };
  }
  // The head is serialised once; each candidate writes its tail after it.
  const mark = writeMetadataV1Head(w.reset(), start, (editionNonce as number | null | undefined) ?? null).pos;
  for (const tokenStandard of TOKEN_STANDARDS) {
    for (const coll of V1_COLLECTIONS[collection]) {
      for (const tokenProgramVersion of TOKEN_PROGRAM_VERSIONS) {
        w.pos = mark;
        writeMetadataV1Tail(w, tokenStandard, coll, uses, tokenProgramVersion, creatorsBorsh, creatorsEnd);
        if (equalBytes(dataHashInto(w.bytes(), sfbp as number, digest), dataHash)) return MATCHED;
      }
    }
  }
  return NOT_MATCHED;
}

/**
 * The verdict `ok(id, { status: 'matches' })` builds — same properties in the same order — as a
 * plain literal: the usual outcome, and ok()'s spreads allocated more than the rest of a verification.
 */
function matches(id: string | undefined): Verdict {
  return id === undefined ? { valid: true, status: 'matches' } : { id, valid: true, status: 'matches' };
}

/**
 * Every path of a getAsset object that `verifyAssetLeaf` (and the helpers above) reads. The worker
 * pool packs only these (kinds/asset-leaf.ts), so a new read here must be added here too; a test checks that
 * the verdict on the projected copy equals the verdict on the original for every vector and mutation.
 */
export const ASSET_LEAF_READS: Projection = {
  id: true,
  compression: {
    compressed: true,
    asset_hash: true,
    tree: true,
    leaf_id: true,
    data_hash: true,
    creator_hash: true,
    collection_hash: true,
    asset_data_hash: true,
    flags: true,
  },
  ownership: { owner: true, delegate: true, frozen: true, non_transferable: true },
  creators: [{ address: true, verified: true, share: true }],
  grouping: [{ group_key: true, group_value: true, verified: true }],
  content: { json_uri: true, metadata: { name: true, symbol: true } },
  royalty: { basis_points: true, primary_sale_happened: true },
  mutable: true,
  supply: { edition_nonce: true },
  uses: { use_method: true, remaining: true, total: true },
};

/**
 * Recompute a compressed NFT's leaf from its `getAsset` JSON and compare it with
 * `compression.asset_hash`; with `proof` (a `getAssetProof` result) also check that this leaf is
 * the one proven and that the proof holds. Status:
 * - `matches`: id, creator_hash and leaf recomputed, and data_hash re-derived from the metadata;
 * - `cannot-derive`: the leaf matches, but data_hash could not be rebuilt from this JSON (valid);
 * - `mismatch`: something recomputed differs (invalid; the reason says what);
 * - `no-leaf`: the asset is not compressed (decompressed): there is no leaf to verify (invalid);
 * - `redeemed`: the leaf is zero — redeemed, its leaf removed from the tree (invalid: nothing to recompute).
 * Throws `InputError` only when `asset` is not an asset at all.
 *
 * @example
 * const v = verifyAssetLeaf(await rpc.getAsset({ id }), await rpc.getAssetProof({ id }));
 * v.status; // 'matches'
 */
export function verifyAssetLeaf(asset: unknown, proof?: unknown): Verdict {
  if (!isObj(asset)) throw new InputError('asset', 'expected a getAsset object');
  if (!isObj(asset.compression)) throw new InputError('compression', 'expected the asset\'s "compression" object');
  const id = typeof asset.id === 'string' ? asset.id : undefined;
  const c = asset.compression;
  if (c.compressed === false) {
    return bad('the asset is not compressed (decompressed): it has no leaf to verify', id, { status: 'no-leaf' });
  }
  try {
    const assetHash = b58Into(c.asset_hash, 'compression.asset_hash', assetHashBytes);
    if (equalBytes(assetHash, ZERO32)) {
      return bad('the leaf is zero: the asset was redeemed and its leaf removed from the tree; nothing to recompute', id, { status: 'redeemed' });
    }
    // The leaf's fields are decoded straight into the scratch the leaf preimage is built from.
    const f = leafFields;
    b58Into(asset.id, 'id', f.id);
    const tree = b58Into(c.tree, 'compression.tree', treeBytes);
    const nonce = nonceOf(c.leaf_id);
    f.nonce = nonce;
    const ownership = isObj(asset.ownership) ? asset.ownership : {};
    b58Into(ownership.owner, 'ownership.owner', f.owner);
    if (ownership.delegate === null || ownership.delegate === undefined) f.delegate.set(f.owner);
    else b58Into(ownership.delegate, 'ownership.delegate', f.delegate);
    b58Into(c.data_hash, 'compression.data_hash', f.dataHash);
    b58Into(c.creator_hash, 'compression.creator_hash', f.creatorHash);
    const v2 = c.collection_hash !== undefined || c.asset_data_hash !== undefined || c.flags !== undefined;

    assetIdInto(tree, nonce, digest);
    if (!equalBytes(digest, f.id)) {
      return bad(`id is not the asset PDA of tree ${c.tree as string} and leaf_id ${nonce}`, id, { status: 'mismatch' });
    }
    const creatorsEnd = readCreators(asset);
    if (!equalBytes(keccak256Into(creatorsBorsh.subarray(4, creatorsEnd), digest), f.creatorHash)) {
      return bad('compression.creator_hash does not match the creators listed', id, { status: 'mismatch' });
    }
    if (v2) {
      b58Into(c.collection_hash, 'compression.collection_hash', f.collectionHash);
      b58Into(c.asset_data_hash, 'compression.asset_data_hash', f.assetDataHash);
      const flags = c.flags;
      if (!Number.isInteger(flags) || (flags as number) < 0 || (flags as number) > 7) {
        return bad(`"compression.flags": expected 0..7 (bits 3–7 zero), got ${typeof flags === 'bigint' ? flags : JSON.stringify(flags)}`, id, { status: 'mismatch' });
      }
      f.flags = flags as number;
      if (typeof ownership.frozen === 'boolean' && ownership.frozen !== ((f.flags & 3) !== 0)) {
        return bad(`ownership.frozen is ${ownership.frozen} but compression.flags is ${f.flags}`, id, { status: 'mismatch' });
      }
      if (typeof ownership.non_transferable === 'boolean' && ownership.non_transferable !== ((f.flags & 4) !== 0)) {
        return bad(`ownership.non_transferable is ${ownership.non_transferable} but compression.flags is ${f.flags}`, id, { status: 'mismatch' });
      }
      const coll = readCollection(asset);
      // collection_hash = keccak256(collection or 32 zero bytes), as collectionHash()
      if (!equalBytes(keccak256Into(coll === 'none' ? ZERO32 : collectionKey, digest), f.collectionHash)) {
        return bad(`compression.collection_hash does not match ${coll !== 'none' ? 'the collection in grouping' : 'no collection'}`, id, { status: 'mismatch' });
      }
      keccak256Into(leafV2Preimage(f), digest);
    } else {
      keccak256Into(leafV1Preimage(f), digest);
    }
    if (!equalBytes(digest, assetHash)) {
      return bad(`the ${v2 ? 'V2' : 'V1'} leaf recomputed from the asset is ${bs58.encode(digest)}, not compression.asset_hash ${c.asset_hash as string}`, id, {
        status: 'mismatch',
      });
    }

    if (proof !== undefined) {
      const p = parseAssetProof(proof, 'proof');
      if (!equalBytes(p.leaf, assetHash)) return bad('proof.leaf is not this asset\'s leaf (compression.asset_hash)', id, { status: 'mismatch' });
      if (p.treeId && !equalBytes(p.treeId, tree)) return bad('proof.tree_id is not compression.tree', id, { status: 'mismatch' });
      if (BigInt(splitNodeIndex(p.nodeIndex).leafIndex) !== nonce) return bad(`proof.node_index ${p.nodeIndex} is not leaf ${nonce}`, id, { status: 'mismatch' });
      const pv = verifyAssetProof({ ...p, ...(id === undefined ? {} : { id }) });
      if (!pv.valid) return { ...pv, status: 'mismatch' };
    }

    const d = rederiveDataHash(asset, v2, creatorsEnd, f.dataHash);
    if (!d.matched) {
      return ok(id, {
        status: 'cannot-derive',
        reason: `leaf matches; data_hash could not be re-derived from this JSON (${d.why ?? 'the metadata fields it shows do not hash to it, e.g. token_standard is always printed as NonFungible'})`,
      });
    }
    return matches(id);
  } catch (e) {
    if (e instanceof FieldProblem) return bad(e.message, id, { status: 'mismatch' });
    if (e instanceof InputError) return bad(e.message, id, { status: 'mismatch' });
    throw e;
  }
}
