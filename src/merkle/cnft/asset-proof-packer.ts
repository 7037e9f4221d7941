/**
 * `nativeAssetProofPacker`: the workers' way to pack a getAssetProof item straight from its JSON text
 * (native/asset_proof_json.c), without `JSON.parse` or a single string. Parsing and packing cost
 * ~3.5 µs and ~4 KB of garbage per proof, and with every core verifying, that garbage is collected
 * on the verifying threads themselves. The record reads back (RecordReader) exactly as the one
 * kinds/asset-proof.ts's `pack` writes for the parsed item, its base58 already decoded; anything but
 * the plain shape is declined, and the item parsed.
 *
 * `nativeAssetProofRecords`: the workers' way to verify those records, and `pack`'s, where they lie in
 * the batch (native/asset_proof_records.c), with no object per proof.
 *
 * Native only: the same reader in JS ran at ~4 ns per byte and lost to `JSON.parse` (tried, reverted).
 * `CAIRN_ASSET_PROOF_JSON=parse` turns the packer off.
 */
import type { BatchWriter } from '../records/batch-writer.js';
import { loadNative } from '../../addon.js';
import { assetProofPackerOff } from '../../kernels.js';
import { keccakBackend } from '../../crypto/index.js';

/**
 * Packs the item `src[a..b)` into `w` and puts its id's (the leaf's) byte range in `id[0..1]`, or
 * declines (false). With `ids`, the leaf's text is also copied to `ids[id[2]..]` and `id[2]` moved past
 * it (a leaf that packs is at most 44 bytes: keep that much room).
 */
export type JsonPacker = (src: Uint8Array, a: number, b: number, w: BatchWriter, id: Uint32Array, ids?: Uint8Array) => boolean;

let packer: JsonPacker | null | undefined;

/** The native packer, or null where the addon is not built (or `CAIRN_NATIVE=0`). */
export function nativeAssetProofPacker(): JsonPacker | null {
  if (packer !== undefined) return packer;
  // CAIRN_ASSET_PROOF_JSON=parse turns it off (to compare, or to rule it out).
  const fn = assetProofPackerOff() ? undefined : loadNative()?.packAssetProofJson;
  // A record is never longer than its text plus the field headers (4 × 5 bytes, a length byte per node).
  packer = fn
    ? (src, a, b, w, id, ids) => {
        const pos = w.length;
        const end = fn(src, a, b, w.reserve(b - a + 96), pos, id, ids);
        if (end < 0) return false;
        w.commit(end);
        return true;
      }
    : null;
  return packer;
}

/**
 * Packs items `from … to-1` of a JSON batch's `table` (4 u32 per item: its start and end in `src` at 2
 * and 3) into `w` one after another until one is declined, their leaves' lengths into `idLens` and
 * texts to `ids` as `JsonPacker` does; returns how many it packed (the next one, if any, declined).
 */
export type JsonManyPacker = (
  src: Uint8Array,
  table: Uint32Array,
  from: number,
  to: number,
  w: BatchWriter,
  id: Uint32Array,
  ids: Uint8Array,
  idLens: Uint32Array,
) => number;

let manyPacker: JsonManyPacker | null | undefined;
/** Where the next record goes and its index, in and out of the native call. */
const at = new Uint32Array(2);

/**
 * The native packer for a whole batch in one call (an addon built before it existed: null, and the
 * items are packed one call each). A call from JS costs ~250 ns, a tenth of a proof's packing.
 */
export function nativeAssetProofManyPacker(): JsonManyPacker | null {
  if (manyPacker !== undefined) return manyPacker;
  const fn = nativeAssetProofPacker() ? loadNative()?.packAssetProofJsonMany : undefined;
  manyPacker = fn
    ? (src, table, from, to, w, id, ids, idLens) => {
        // Room for every record left: none is longer than its text plus the field headers.
        const span = Math.max(0, table[4 * (to - 1) + 3]! - table[4 * from + 2]!);
        const out = w.reserve(span + 96 * (to - from));
        at[0] = w.length;
        at[1] = w.records;
        const k = fn(src, table, from, to, out, at, id, ids, idLens);
        w.commitMany(k, at[0]!);
        return k;
      }
    : null;
  return manyPacker;
}

/**
 * Verifies a batch's asset-proof records where they lie: `codes[i]` becomes 1 for a record (as the
 * native packer or kinds/asset-proof.ts's `pack` wrote it) whose full path hashes to its root, 0 for any other,
 * which the caller verifies the usual way (its reason comes from there). Returns false when the batch
 * header is malformed (nothing answered).
 */
export type RecordsVerifier = (batch: Uint8Array, codes: Uint8Array) => boolean;

let recordsVerifier: RecordsVerifier | null | undefined;

/**
 * The native in-place verifier (native/asset_proof_records.c), or null: without the addon, or when
 * keccak is not on its native backend (a chosen backend is honoured; this hashes with the native one).
 */
export function nativeAssetProofRecords(): RecordsVerifier | null {
  if (recordsVerifier !== undefined) return recordsVerifier;
  const fn = keccakBackend() === 'native' ? loadNative()?.verifyAssetProofRecords : undefined;
  recordsVerifier = fn ? (batch, codes) => fn(batch, codes) >= 0 : null;
  return recordsVerifier;
}
