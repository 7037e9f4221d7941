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
import { equalBytes, keccak256 } from './hash/keccak.js';
import { findPdaInto } from './hash/pda.js';
import { b58Bytes32, parseAssetProof, splitNodeIndex, verifyAssetProof } from './asset.js';
import { bad, ok, type Verdict } from './verdict.js';
import type { Projection } from './codec.js';

/** mpl-bubblegum's program id, `BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY`. */
export const BUBBLEGUM_PROGRAM_ID: Uint8Array = bs58.decode('BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY');

const enc = new TextEncoder();
const PDA_MARKER = enc.encode('ProgramDerivedAddress');
const ASSET_SEED = enc.encode('asset');

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

function u64le(v: bigint, field: string): Uint8Array {
  if (typeof v !== 'bigint' || v < 0n || v >= 1n << 64n) throw new InputError(field, `expected a u64 bigint, got ${String(v)}`, { expected: 'u64', got: String(v) });
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, v, true);
  return out;
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

/**
 * The asset id of a compressed NFT: PDA of `["asset", tree, nonce u64 LE]` under Bubblegum.
 *
 * @example
 * bs58.encode(assetIdPda(bs58.decode(tree), 0n)); // the asset id of leaf 0
 */
export function assetIdPda(tree: Uint8Array, nonce: bigint): Uint8Array {
  bytes32(tree, 'tree');
  return findProgramAddress([ASSET_SEED, tree, u64le(nonce, 'nonce')], BUBBLEGUM_PROGRAM_ID)[0];
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

function leafPrefix(version: number, f: LeafV1Fields): Uint8Array[] {
  return [
    Uint8Array.of(version),
    bytes32(f.id, 'id'),
    bytes32(f.owner, 'owner'),
    bytes32(f.delegate, 'delegate'),
    u64le(f.nonce, 'nonce'),
    bytes32(f.dataHash, 'dataHash'),
    bytes32(f.creatorHash, 'creatorHash'),
  ];
}

/**
 * V1 leaf: `keccak256(0x01 ‖ id ‖ owner ‖ delegate ‖ nonce u64 LE ‖ data_hash ‖ creator_hash)`.
 *
 * @example
 * const leaf = leafHashV1({ id, owner, delegate: owner, nonce: 0n, dataHash, creatorHash });
 */
export function leafHashV1(f: LeafV1Fields): Uint8Array {
  return keccak256(concat(leafPrefix(1, f)));
}

/**
 * V2 leaf: `keccak256(0x02 ‖ id ‖ owner ‖ delegate ‖ nonce ‖ data_hash ‖ creator_hash ‖
 * collection_hash ‖ asset_data_hash ‖ flags u8)`.
 *
 * @example
 * const leaf = leafHashV2({ ...v1, collectionHash: collectionHash(null), assetDataHash: assetDataHash(null), flags: 0 });
 */
export function leafHashV2(f: LeafV2Fields): Uint8Array {
  if (!Number.isInteger(f.flags) || f.flags < 0 || f.flags > 7) throw new InputError('flags', `expected 0..7 (bits 3–7 must be zero), got ${String(f.flags)}`);
  return keccak256(concat([...leafPrefix(2, f), bytes32(f.collectionHash, 'collectionHash'), bytes32(f.assetDataHash, 'assetDataHash'), Uint8Array.of(f.flags)]));
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

/** Append-only borsh writer (little-endian), just what MetadataArgs needs. */
class Borsh {
  private parts: Uint8Array[] = [];
  str(s: string, field: string): this {
    if (typeof s !== 'string') throw new InputError(field, 'expected a string');
    const b = enc.encode(s);
    this.u32(b.length).parts.push(b);
    return this;
  }
  u8(v: number, field = 'u8'): this {
    if (!Number.isInteger(v) || v < 0 || v > 255) throw new InputError(field, `expected 0..255, got ${String(v)}`);
    this.parts.push(Uint8Array.of(v));
    return this;
  }
  u16(v: number, field: string): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new InputError(field, `expected 0..65535, got ${String(v)}`);
    this.parts.push(Uint8Array.of(v & 0xff, v >>> 8));
    return this;
  }
  u32(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v, true);
    this.parts.push(b);
    return this;
  }
  bool(v: boolean, field: string): this {
    if (typeof v !== 'boolean') throw new InputError(field, 'expected a boolean');
    return this.u8(v ? 1 : 0);
  }
  optU8(v: number | null, field: string): this {
    return v === null || v === undefined ? this.u8(0) : this.u8(1).u8(v, field);
  }
  raw(b: Uint8Array): this {
    this.parts.push(b);
    return this;
  }
  done(): Uint8Array {
    return concat(this.parts);
  }
}

function sfbpSuffix(sfbp: number): Uint8Array {
  return Uint8Array.of(sfbp & 0xff, sfbp >>> 8);
}

/**
 * borsh(MetadataArgs V1) in two parts: `head` (name … edition nonce) and `tail` (token standard …
 * creators). Re-deriving a data hash tries up to 20 values of the tail's enums against one head.
 */
function metadataV1Head(m: MetadataArgsV1): Borsh {
  return new Borsh()
    .str(m.name, 'name')
    .str(m.symbol, 'symbol')
    .str(m.uri, 'uri')
    .u16(m.sellerFeeBasisPoints, 'sellerFeeBasisPoints')
    .bool(m.primarySaleHappened, 'primarySaleHappened')
    .bool(m.isMutable, 'isMutable')
    .optU8(m.editionNonce, 'editionNonce');
}

function metadataV1Tail(w: Borsh, m: MetadataArgsV1, creators: Uint8Array): Borsh {
  w.optU8(m.tokenStandard, 'tokenStandard');
  if (m.collection) w.u8(1).bool(m.collection.verified, 'collection.verified').raw(bytes32(m.collection.key, 'collection.key'));
  else w.u8(0);
  if (m.uses) w.u8(1).u8(m.uses.useMethod, 'uses.useMethod').raw(u64le(m.uses.remaining, 'uses.remaining')).raw(u64le(m.uses.total, 'uses.total'));
  else w.u8(0);
  return w.u8(m.tokenProgramVersion, 'tokenProgramVersion').raw(creators);
}

/** borsh(MetadataArgs V1). */
export function metadataArgsV1Bytes(m: MetadataArgsV1): Uint8Array {
  return metadataV1Tail(metadataV1Head(m), m, creatorBytes(m.creators, 'creators', true)).done();
}

/** borsh(MetadataArgsV2). */
export function metadataArgsV2Bytes(m: MetadataArgsV2): Uint8Array {
  const w = new Borsh()
    .str(m.name, 'name')
    .str(m.symbol, 'symbol')
    .str(m.uri, 'uri')
    .u16(m.sellerFeeBasisPoints, 'sellerFeeBasisPoints')
    .bool(m.primarySaleHappened, 'primarySaleHappened')
    .bool(m.isMutable, 'isMutable')
    .optU8(m.tokenStandard, 'tokenStandard')
    .raw(creatorBytes(m.creators, 'creators', true));
  if (m.collection) w.u8(1).raw(bytes32(m.collection, 'collection'));
  else w.u8(0);
  return w.done();
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
  return dataHashOf(metadataArgsV1Bytes(m), m.sellerFeeBasisPoints);
}

/** `keccak256(keccak256(metadata) ‖ seller_fee_basis_points u16 LE)`. */
function dataHashOf(metadata: Uint8Array, sfbp: number): Uint8Array {
  return keccak256(concat([keccak256(metadata), sfbpSuffix(sfbp)]));
}

/** V2 `data_hash`, same construction over `MetadataArgsV2`. */
export function dataHashV2(m: MetadataArgsV2): Uint8Array {
  return keccak256(concat([keccak256(metadataArgsV2Bytes(m)), sfbpSuffix(m.sellerFeeBasisPoints)]));
}

// ------------------------------------------------------------------------------ the JSON edge

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A value problem in one field: the asset is reported invalid with this reason. */
class FieldProblem extends Error {}

function field<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof InputError) throw new FieldProblem(e.message);
    throw e;
  }
}

function nonceOf(v: unknown): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'string' && /^[0-9]{1,20}$/.test(v) && BigInt(v) < 1n << 64n) return BigInt(v);
  throw new FieldProblem(`"compression.leaf_id": expected a u64, got ${JSON.stringify(v)}`);
}

function creatorsOf(asset: Json): Creator[] {
  const list = asset.creators ?? [];
  if (!Array.isArray(list)) throw new FieldProblem('"creators": expected an array');
  return list.map((c, i) => {
    if (!isObj(c)) throw new FieldProblem(`"creators[${i}]": expected an object`);
    if (typeof c.verified !== 'boolean') throw new FieldProblem(`"creators[${i}].verified": expected a boolean`);
    if (!Number.isInteger(c.share) || (c.share as number) < 0 || (c.share as number) > 255) throw new FieldProblem(`"creators[${i}].share": expected 0..255`);
    return { address: field(() => b58Bytes32(c.address, `creators[${i}].address`)), verified: c.verified, share: c.share as number };
  });
}

/** The collection the indexer lists in `grouping` (key and, when shown, `verified`). */
function collectionOf(asset: Json): { key: Uint8Array; verified?: boolean } | null {
  const g = Array.isArray(asset.grouping) ? asset.grouping.find((x) => isObj(x) && x.group_key === 'collection') : undefined;
  if (!isObj(g)) return null;
  const key = field(() => b58Bytes32(g.group_value, 'grouping.collection.group_value'));
  return typeof g.verified === 'boolean' ? { key, verified: g.verified } : { key };
}

/**
 * Rebuild `data_hash` from the JSON's metadata, trying the values the JSON can not tell
 * (token standard, token program version, an unshown collection `verified`). Returns whether one
 * candidate matches, or why nothing could be tried.
 */
function rederiveDataHash(asset: Json, v2: boolean, creators: Creator[], dataHash: Uint8Array): { matched: boolean; why?: string } {
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
  const collection = collectionOf(asset);
  // The indexer always prints NonFungible; the real value may be any of these, or none.
  const standards: (number | null)[] = [0, null, 1, 2, 3];
  const base = { name, symbol, uri, sellerFeeBasisPoints: sfbp as number, primarySaleHappened: psh, isMutable, creators };
  if (v2) {
    for (const tokenStandard of standards) {
      if (equalBytes(dataHashV2({ ...base, tokenStandard, collection: collection?.key ?? null }), dataHash)) return { matched: true };
    }
    return { matched: false };
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
  const collections: MetadataArgsV1['collection'][] = collection
    ? collection.verified === undefined
      ? [{ key: collection.key, verified: true }, { key: collection.key, verified: false }]
      : [{ key: collection.key, verified: collection.verified }]
    : [null];
  // The head and the creators are serialised once; each candidate only appends its tail to the head.
  const first: MetadataArgsV1 = { ...base, editionNonce: (editionNonce as number | null | undefined) ?? null, tokenStandard: 0, collection: null, uses, tokenProgramVersion: 0 };
  const head = metadataV1Head(first).done();
  const creatorsBorsh = creatorBytes(creators, 'creators', true);
  for (const tokenStandard of standards) {
    for (const collection of collections) {
      for (const tokenProgramVersion of [0, 1]) {
        const bytes = metadataV1Tail(new Borsh().raw(head), { ...first, tokenStandard, collection, tokenProgramVersion }, creatorsBorsh).done();
        if (equalBytes(dataHashOf(bytes, sfbp as number), dataHash)) return { matched: true };
      }
    }
  }
  return { matched: false };
}

const ZERO32 = new Uint8Array(32);

/**
 * Every path of a getAsset object that `verifyAssetLeaf` (and the helpers above) reads. The worker
 * pool packs only these (kinds.ts), so a new read here must be added here too; a test checks that
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
    const assetHash = field(() => b58Bytes32(c.asset_hash, 'compression.asset_hash'));
    if (equalBytes(assetHash, ZERO32)) {
      return bad('the leaf is zero: the asset was redeemed and its leaf removed from the tree; nothing to recompute', id, { status: 'redeemed' });
    }
    const idBytes = field(() => b58Bytes32(asset.id, 'id'));
    const tree = field(() => b58Bytes32(c.tree, 'compression.tree'));
    const nonce = nonceOf(c.leaf_id);
    const ownership = isObj(asset.ownership) ? asset.ownership : {};
    const owner = field(() => b58Bytes32(ownership.owner, 'ownership.owner'));
    const delegate = ownership.delegate === null || ownership.delegate === undefined ? owner : field(() => b58Bytes32(ownership.delegate, 'ownership.delegate'));
    const dataHash = field(() => b58Bytes32(c.data_hash, 'compression.data_hash'));
    const storedCreatorHash = field(() => b58Bytes32(c.creator_hash, 'compression.creator_hash'));
    const v2 = c.collection_hash !== undefined || c.asset_data_hash !== undefined || c.flags !== undefined;

    if (!equalBytes(assetIdPda(tree, nonce), idBytes)) {
      return bad(`id is not the asset PDA of tree ${c.tree as string} and leaf_id ${nonce}`, id, { status: 'mismatch' });
    }
    const creators = creatorsOf(asset);
    if (!equalBytes(creatorHash(creators), storedCreatorHash)) {
      return bad('compression.creator_hash does not match the creators listed', id, { status: 'mismatch' });
    }
    const v1Fields: LeafV1Fields = { id: idBytes, owner, delegate, nonce, dataHash, creatorHash: storedCreatorHash };
    let leaf: Uint8Array;
    if (v2) {
      const collHash = field(() => b58Bytes32(c.collection_hash, 'compression.collection_hash'));
      const adHash = field(() => b58Bytes32(c.asset_data_hash, 'compression.asset_data_hash'));
      const flags = c.flags;
      if (!Number.isInteger(flags) || (flags as number) < 0 || (flags as number) > 7) {
        return bad(`"compression.flags": expected 0..7 (bits 3–7 zero), got ${JSON.stringify(flags)}`, id, { status: 'mismatch' });
      }
      const f = flags as number;
      if (typeof ownership.frozen === 'boolean' && ownership.frozen !== ((f & 3) !== 0)) {
        return bad(`ownership.frozen is ${ownership.frozen} but compression.flags is ${f}`, id, { status: 'mismatch' });
      }
      if (typeof ownership.non_transferable === 'boolean' && ownership.non_transferable !== ((f & 4) !== 0)) {
        return bad(`ownership.non_transferable is ${ownership.non_transferable} but compression.flags is ${f}`, id, { status: 'mismatch' });
      }
      const coll = collectionOf(asset);
      if (!equalBytes(collectionHash(coll?.key ?? null), collHash)) {
        return bad(`compression.collection_hash does not match ${coll ? 'the collection in grouping' : 'no collection'}`, id, { status: 'mismatch' });
      }
      leaf = leafHashV2({ ...v1Fields, collectionHash: collHash, assetDataHash: adHash, flags: f });
    } else {
      leaf = leafHashV1(v1Fields);
    }
    if (!equalBytes(leaf, assetHash)) {
      return bad(`the ${v2 ? 'V2' : 'V1'} leaf recomputed from the asset is ${bs58.encode(leaf)}, not compression.asset_hash ${c.asset_hash as string}`, id, {
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

    const d = rederiveDataHash(asset, v2, creators, dataHash);
    if (!d.matched) {
      return ok(id, {
        status: 'cannot-derive',
        reason: `leaf matches; data_hash could not be re-derived from this JSON (${d.why ?? 'the metadata fields it shows do not hash to it, e.g. token_standard is always printed as NonFungible'})`,
      });
    }
    return ok(id, { status: 'matches' });
  } catch (e) {
    if (e instanceof FieldProblem) return bad(e.message, id, { status: 'mismatch' });
    if (e instanceof InputError) return bad(e.message, id, { status: 'mismatch' });
    throw e;
  }
}
