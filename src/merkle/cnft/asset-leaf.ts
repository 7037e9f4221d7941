/**
 * `verifyAssetLeaf`: a compressed NFT's leaf (mpl-bubblegum `LeafSchema`) recomputed from what
 * `getAsset` shows — asset id PDA, `creator_hash`, the V1 or V2 leaf hash, and `data_hash` re-derived
 * from the metadata — with the builders of bubblegum/ (which take plain bytes and values, so a local
 * chain can build real Bubblegum trees with them). This module is the JSON edge and the verdict.
 *
 * Why `data_hash` is only an extra check: the indexer's JSON hard-codes `token_standard:
 * NonFungible` and omits fields (token program version, sometimes the collection's `verified`), so
 * the metadata hash can not always be rebuilt from it. The leaf is recomputed from the hashes the
 * indexer stores in `compression`; re-deriving `data_hash` then either matches, or the verdict says
 * it could not be re-derived — it is never reported as a forgery on that ground alone.
 */
import { encodeBase58 } from '../../solana/index.js';
import { isPlainObject } from '../../assert.js';
import { InputError } from '../../errors/index.js';
import { keccak256Into, equalBytes } from '../../crypto/index.js';
import { b58Bytes32, parseAssetProof, splitNodeIndex, verifyAssetProof } from './asset-proof.js';
import { b58Decode32Into } from '../fields.js';
import { bad, ok, type Verdict } from '../verdict.js';
import type { Projection } from '../records/projection.js';
import { assetIdInto } from './bubblegum/asset-id.js';
import { leafV1Preimage, leafV2Preimage, type LeafV2Fields } from './bubblegum/leaf-hash.js';
import { borsh, dataHashInto, UseMethod, writeMetadataStart, writeMetadataV1Head, writeMetadataV1Tail, writeMetadataV2End, type MetadataArgsV1, type MetadataStart } from './bubblegum/metadata.js';

// Scratch memory. `verifyAssetLeaf` runs for every asset of a batch, and in worker threads the young-
// generation GC of its short-lived byte arrays competed with the verifiers for the cores. So the
// builders (bubblegum/) and this module serialise into module-level buffers and hash from there.
// This is safe: JS runs one call at a time per isolate (each worker thread has its own copy of these
// modules), none of these functions calls back into another that uses the same buffer while it holds
// data there, and nothing returned aliases a scratch buffer — returned hashes and byte strings are
// fresh or copied.

type Json = Record<string, unknown>;

/**
 * A value problem in one field: the asset is reported invalid with this reason. (An `InputError`
 * from a decoder or builder becomes the same verdict, with its own message.)
 */
class FieldProblem extends Error {}

/**
 * Decodes the 32-byte base58 `value` into `out[at..at+32]`: fields.ts's fast decoder, which
 * allocates nothing; what it declines goes through asset-proof.ts's `b58Bytes32`, which gives the same
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
    if (!isPlainObject(c)) throw new FieldProblem(`"creators[${i}]": expected an object`);
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
    if (!isPlainObject(g) || g.group_key !== 'collection') continue;
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
  const content = isPlainObject(asset.content) ? asset.content : {};
  const meta = isPlainObject(content.metadata) ? content.metadata : {};
  const royalty = isPlainObject(asset.royalty) ? asset.royalty : {};
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
  const supply = isPlainObject(asset.supply) ? asset.supply : {};
  const editionNonce = supply.edition_nonce;
  if (
    editionNonce !== null &&
    editionNonce !== undefined &&
    (!Number.isInteger(editionNonce) || (editionNonce as number) < 0 || (editionNonce as number) > 255)
  ) {
    return { matched: false, why: 'supply.edition_nonce is not a u8' };
  }
  let uses: MetadataArgsV1['uses'] = null;
  if (isPlainObject(asset.uses)) {
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
 * pool packs only these (kinds/asset-leaf.ts), so a new read here must be added here too; a test
 * checks that the verdict on the projected copy equals the verdict on the original for every vector
 * and mutation.
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
  if (!isPlainObject(asset)) throw new InputError('asset', 'expected a getAsset object');
  if (!isPlainObject(asset.compression)) throw new InputError('compression', 'expected the asset\'s "compression" object');
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
    const ownership = isPlainObject(asset.ownership) ? asset.ownership : {};
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
      return bad(`the ${v2 ? 'V2' : 'V1'} leaf recomputed from the asset is ${encodeBase58(digest)}, not compression.asset_hash ${c.asset_hash as string}`, id, {
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
