/**
 * New-address proofs: non-inclusion in an indexed Merkle tree. The low element `(value, nextIndex,
 * nextValue)` brackets the new address (`lowerRangeAddress < address < higherRangeAddress`, strict),
 * its leaf walks up the path to the root, and the address must be below 2^248. v1 trees have height
 * 26 and leaf `Poseidon(value, nextIndex, nextValue)`; v2 (batched) trees have height 40 and leaf
 * `Poseidon(value, nextValue)`. Also the address derivations (v1 and v2) the SDKs use.
 *
 * Rules: docs/hashing.md §4.
 */
import { isPlainObject } from '../../assert.js';
import { poseidon, poseidonPathRoot, hashToField, keccak256, below248, compareBytes, equalBytes, inField } from '../../crypto/index.js';
import { bad, ok, type Verdict } from '../verdict.js';
import { TreeType } from './account.js';
import { b58Field, nodesField, toB58, u32Field, u32Value, u64Value, uintField } from '../fields.js';
import type { BatchWriter } from '../records/batch-writer.js';
import type { RecordReader } from '../records/record-reader.js';
import { FieldError } from '../../errors/index.js';

/** Heights of the address trees. */
export const ADDRESS_TREE_HEIGHT = { v1: 26, v2: 40 } as const;

/** The largest value an indexed address tree holds, `2^248 − 1` (its sentinel upper bound). */
export const HIGHEST_ADDRESS = (1n << 248n) - 1n;

/** A new-address proof on bytes. */
export interface NewAddressProof {
  address: Uint8Array;
  lowerRangeAddress: Uint8Array;
  higherRangeAddress: Uint8Array;
  /** Index of the low element's successor (committed to by the v1 leaf only). */
  nextIndex: bigint;
  lowElementLeafIndex: number;
  root: Uint8Array;
  /** Sibling nodes leaf → root, concatenated. */
  proof: Uint8Array;
  /** 1 or 2; when absent the proof height decides (26 → v1, 40 → v2). */
  version?: 1 | 2;
}

/**
 * The indexed-tree leaf of a low element: v1 `Poseidon(value, nextIndex as 32-byte BE, nextValue)`,
 * v2 `Poseidon(value, nextValue)`.
 *
 * @example
 * indexedLeaf(1, zero32, 1n, highest) // the leaf of element 0 in a fresh v1 address tree
 */
export function indexedLeaf(version: 1 | 2, value: Uint8Array, nextIndex: bigint, nextValue: Uint8Array): Uint8Array {
  if (version === 2) return poseidon([value, nextValue]);
  const idx = new Uint8Array(32);
  new DataView(idx.buffer).setBigUint64(24, nextIndex, false);
  return poseidon([value, idx, nextValue]);
}

/**
 * Verify a new-address (non-inclusion) proof. Invalid when the address is ≥ 2^248, outside the strict
 * range, or when the low element's leaf does not walk up to `root`.
 *
 * @example
 * verifyNewAddressProof(parseNewAddressProof(item)).valid // true
 */
export function verifyNewAddressProof(p: NewAddressProof, id?: string): Verdict {
  if (p.proof.length % 32 !== 0) return bad(`proof: length ${p.proof.length} is not a multiple of 32`, id);
  const height = p.proof.length / 32;
  const version = p.version ?? (height === ADDRESS_TREE_HEIGHT.v1 ? 1 : height === ADDRESS_TREE_HEIGHT.v2 ? 2 : 0);
  if (version === 0) return bad(`proof: expected ${ADDRESS_TREE_HEIGHT.v1} (v1) or ${ADDRESS_TREE_HEIGHT.v2} (v2) nodes, got ${height}`, id);
  const want = version === 1 ? ADDRESS_TREE_HEIGHT.v1 : ADDRESS_TREE_HEIGHT.v2;
  if (height !== want) return bad(`proof: a v${version} address tree has height ${want}, got ${height} nodes`, id);
  if (!below248(p.address)) return bad('address: not below 2^248 (addresses are 248-bit values)', id);
  if (!inField(p.lowerRangeAddress)) return bad('lowerRangeAddress: not below the BN254 field modulus', id);
  if (!inField(p.higherRangeAddress)) return bad('higherRangeAddress: not below the BN254 field modulus', id);
  if (!(compareBytes(p.lowerRangeAddress, p.address) < 0)) return bad('address: not above lowerRangeAddress (the range is strict)', id, { status: 'out-of-range' });
  if (!(compareBytes(p.address, p.higherRangeAddress) < 0)) return bad('address: not below higherRangeAddress (the range is strict)', id, { status: 'out-of-range' });
  if (!Number.isInteger(p.lowElementLeafIndex) || p.lowElementLeafIndex < 0 || p.lowElementLeafIndex >= 2 ** height) {
    return bad(`lowElementLeafIndex: ${p.lowElementLeafIndex} does not fit a tree of height ${height}`, id);
  }
  if (version === 1 && p.nextIndex >= 1n << BigInt(height)) return bad(`nextIndex: ${p.nextIndex} does not fit a tree of height ${height}`, id);
  if (!inField(p.root)) return bad('root: not below the BN254 field modulus', id);
  for (let i = 0; i < height; i++) {
    if (!inField(p.proof.subarray(i * 32, i * 32 + 32))) return bad(`proof[${i}]: not below the BN254 field modulus`, id);
  }
  const leaf = indexedLeaf(version, p.lowerRangeAddress, p.nextIndex, p.higherRangeAddress);
  const computed = poseidonPathRoot(leaf, p.proof, p.lowElementLeafIndex);
  if (!equalBytes(computed, p.root)) return bad('root mismatch: the low element does not walk up to root', id, { computedRoot: toB58(computed) });
  return ok(id);
}

// ---------------------------------------------------------------------------------------------
// Address derivation (what the SDKs do to turn seeds into an address).

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

/**
 * v1 address seed: `keccak(programId ‖ seeds…)` with byte 0 cleared.
 *
 * @example
 * const seed = deriveAddressSeedV1([utf8('foo'), utf8('bar')], programId);
 */
export function deriveAddressSeedV1(seeds: readonly Uint8Array[], programId: Uint8Array): Uint8Array {
  const h = keccak256(concat([programId, ...seeds]));
  const out = Uint8Array.from(h);
  out[0] = 0;
  return out;
}

/**
 * v1 address: `hashToField(tree ‖ seed)`.
 *
 * @example
 * const address = deriveAddressV1(deriveAddressSeedV1(seeds, programId), addressTree);
 */
export function deriveAddressV1(seed: Uint8Array, tree: Uint8Array): Uint8Array {
  return hashToField(concat([tree, seed]));
}

/**
 * v2 address seed: `hashToField(seeds…)`.
 *
 * @example
 * const address = deriveAddressV2(deriveAddressSeedV2(seeds), addressTree, programId);
 */
export function deriveAddressSeedV2(seeds: readonly Uint8Array[]): Uint8Array {
  return hashToField(concat(seeds));
}

/** v2 address: `hashToField(seed ‖ tree ‖ programId)`. */
export function deriveAddressV2(seed: Uint8Array, tree: Uint8Array, programId: Uint8Array): Uint8Array {
  return hashToField(concat([seed, tree, programId]));
}

// ---------------------------------------------------------------------------------------------
// JSON edge and records.

type Json = Record<string, unknown>;

/**
 * The low element's leaf index: a v2 address tree has 2^40 leaves, so it is read as an integer
 * below 2^53 (not a u32); whether it fits the tree is the verifier's check, against the height.
 */
function leafIndexField(v: unknown): number {
  const x = uintField(v, 'lowElementLeafIndex', 64);
  if (x > BigInt(Number.MAX_SAFE_INTEGER)) throw new FieldError('lowElementLeafIndex', `expected an integer below 2^53, got ${x}`);
  return Number(x);
}

/** `leafIndexField` for the packer: the usual small integer as is. */
function leafIndexValue(v: unknown): number {
  return typeof v === 'number' && v >= 0 && Number.isSafeInteger(v) ? v : leafIndexField(v);
}

/** True for anything shaped like a `getMultipleNewAddressProofs` item. */
export function looksLikeNewAddressProof(v: Json): boolean {
  return typeof v.address === 'string' && 'lowerRangeAddress' in v && 'higherRangeAddress' in v && Array.isArray(v.proof);
}

/**
 * Parse one `getMultipleNewAddressProofs(V2)` item. Throws `FieldError` naming the field.
 *
 * @example
 * res.value.map((item) => verifyNewAddressProof(parseNewAddressProof(item)));
 */
export function parseNewAddressProof(item: unknown): NewAddressProof {
  if (!isPlainObject(item)) throw new FieldError('item', 'expected an object');
  const ctx = isPlainObject(item.treeContext) ? item.treeContext : isPlainObject(item.merkleContext) ? item.merkleContext : null;
  let version: 1 | 2 | undefined;
  if (ctx && ctx.treeType !== undefined) {
    const t = u32Field(ctx.treeType, 'treeContext.treeType');
    if (t === TreeType.AddressV1) version = 1;
    else if (t === TreeType.AddressV2) version = 2;
    else throw new FieldError('treeContext.treeType', `expected an address tree (2 or 4), got ${t}`);
  }
  return {
    address: b58Field(item.address, 'address'),
    lowerRangeAddress: b58Field(item.lowerRangeAddress, 'lowerRangeAddress'),
    higherRangeAddress: b58Field(item.higherRangeAddress, 'higherRangeAddress'),
    nextIndex: uintField(item.nextIndex ?? 0, 'nextIndex', 64),
    lowElementLeafIndex: leafIndexField(item.lowElementLeafIndex),
    root: b58Field(item.root, 'root'),
    proof: nodesField(item.proof, 'proof'),
    ...(version ? { version } : {}),
  };
}

/**
 * Pack one `getMultipleNewAddressProofs(V2)` item for a worker (`parseNewAddressProof`'s checks, in its
 * order; the base58 fields are copied as they are and decoded by the worker).
 *
 * @example
 * const w = new BatchWriter(1); w.begin(); packNewAddressProof(res.value[0], w);
 */
export function packNewAddressProof(item: unknown, w: BatchWriter): void {
  if (!isPlainObject(item)) throw new FieldError('item', 'expected an object');
  const ctx = isPlainObject(item.treeContext) ? item.treeContext : isPlainObject(item.merkleContext) ? item.merkleContext : null;
  let version = 0;
  if (ctx && ctx.treeType !== undefined) {
    const t = u32Value(ctx.treeType, 'treeContext.treeType');
    if (t === TreeType.AddressV1) version = 1;
    else if (t === TreeType.AddressV2) version = 2;
    else throw new FieldError('treeContext.treeType', `expected an address tree (2 or 4), got ${t}`);
  }
  w.u8(version);
  w.b58(item.address, 'address');
  w.b58(item.lowerRangeAddress, 'lowerRangeAddress');
  w.b58(item.higherRangeAddress, 'higherRangeAddress');
  w.u64(u64Value(item.nextIndex ?? 0, 'nextIndex'));
  w.u64(leafIndexValue(item.lowElementLeafIndex));
  w.b58(item.root, 'root');
  w.nodes(item.proof, 'proof');
}

/** The worker side of `packNewAddressProof` (throws what `parseNewAddressProof` would). */
export function unpackNewAddressProof(r: RecordReader): NewAddressProof {
  const v = r.u8('version');
  const address = r.b58('address');
  const lowerRangeAddress = r.b58('lowerRangeAddress');
  const higherRangeAddress = r.b58('higherRangeAddress');
  const nextIndex = r.u64('nextIndex');
  const lowElementLeafIndex = Number(r.u64('lowElementLeafIndex'));
  const root = r.b58('root');
  const proof = r.nodes('proof');
  return { address, lowerRangeAddress, higherRangeAddress, nextIndex, lowElementLeafIndex, root, proof, ...(v === 1 || v === 2 ? { version: v } : {}) };
}
