/**
 * Bubblegum's `MetadataArgs` (V1 and V2): their borsh bytes and the `data_hash` over them, in parts
 * (start, V1 head and tail, V2 end) so that `verifyAssetLeaf` can re-derive a data hash trying the
 * values the indexer's JSON does not show, rewriting only what varies.
 */
import { keccak256Into } from '../../../crypto/index.js';
import { bytes32 } from './check-args.js';
import { Borsh } from './borsh.js';
import { creatorBytes, type Creator } from './leaf-hash.js';

/** Token standards as Bubblegum numbers them. */
export const TokenStandard = { NonFungible: 0, FungibleAsset: 1, Fungible: 2, NonFungibleEdition: 3 } as const;
/** Use methods as Bubblegum numbers them. */
export const UseMethod = { Burn: 0, Multiple: 1, Single: 2 } as const;

/** The fields MetadataArgs V1 and V2 start with, in their borsh order (`writeMetadataStart`). */
export interface MetadataStart {
  name: string;
  symbol: string;
  uri: string;
  sellerFeeBasisPoints: number;
  primarySaleHappened: boolean;
  isMutable: boolean;
}

/** Bubblegum `MetadataArgs` (V1). Numbers for enums: see `TokenStandard`, `UseMethod`; token program version 0 = Original, 1 = Token2022. */
export interface MetadataArgsV1 extends MetadataStart {
  editionNonce: number | null;
  tokenStandard: number | null;
  collection: { verified: boolean; key: Uint8Array } | null;
  uses: { useMethod: number; remaining: bigint; total: bigint } | null;
  tokenProgramVersion: number;
  creators: Creator[];
}

/** Bubblegum `MetadataArgsV2`. */
export interface MetadataArgsV2 extends MetadataStart {
  tokenStandard: number | null;
  creators: Creator[];
  collection: Uint8Array | null;
}

/** The one metadata writer (scratch: see asset-leaf.ts). */
export const borsh = new Borsh();

/** name, symbol, uri, seller fee, primary sale, mutable: the start of both MetadataArgs versions. */
export function writeMetadataStart(w: Borsh, m: MetadataStart): Borsh {
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
export function writeMetadataV1Head(w: Borsh, m: MetadataStart, editionNonce: number | null): Borsh {
  return writeMetadataStart(w, m).optU8(editionNonce, 'editionNonce');
}

/** The V1 tail; `creators` is already borsh (u32 count ‖ 34 bytes each): `creators[0..creatorsEnd]`. */
export function writeMetadataV1Tail(
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
export function writeMetadataV2End(w: Borsh, creators: Uint8Array, collection: Uint8Array | null, creatorsEnd = creators.length): Borsh {
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

// `keccak256(metadata) ‖ seller_fee_basis_points u16 LE`, hashed again for data_hash.
const dataHashPreimage = new Uint8Array(34);

/** `keccak256(keccak256(metadata) ‖ seller_fee_basis_points u16 LE)` into `out[0..32]`. */
export function dataHashInto(metadata: Uint8Array, sfbp: number, out: Uint8Array): Uint8Array {
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
