/**
 * mpl-bubblegum's `LeafSchema` hashes: `creator_hash`, the V1 and V2 leaf hashes and the V2
 * collection and asset-data hashes. The leaf preimage is module scratch that `verifyAssetLeaf` fills
 * for every asset (why scratch: see asset-leaf.ts); nothing returned aliases it.
 */
import { InputError } from '../../../errors/index.js';
import { keccak256 } from '../../../crypto/index.js';
import { bytes32, checkU64 } from './check-args.js';

/** A creator as Bubblegum stores it. */
export interface Creator {
  address: Uint8Array;
  verified: boolean;
  /** Percentage 0..100. */
  share: number;
}

export function creatorBytes(creators: Creator[], field: string, withLength: boolean): Uint8Array {
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
export function leafV1Preimage(f: LeafV1Fields): Uint8Array {
  writeLeafPrefix(1, f);
  return leafV1Bytes;
}

/** The V2 leaf preimage (a view of the scratch buffer: hash it before the next write). */
export function leafV2Preimage(f: LeafV2Fields): Uint8Array {
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
 * const leaf = leafHashV2({ ...v1, collectionHash: collectionHash(null), assetDataHash: keccak256(new Uint8Array(0)), flags: 0 });
 */
export function leafHashV2(f: LeafV2Fields): Uint8Array {
  return keccak256(leafV2Preimage(f));
}

/** V2 `collection_hash = keccak256(collection or 32 zero bytes)`. */
export function collectionHash(collection: Uint8Array | null): Uint8Array {
  return keccak256(collection === null ? new Uint8Array(32) : bytes32(collection, 'collection'));
}
