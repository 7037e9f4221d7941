/**
 * `nativeAssetProofPacker`: the workers' way to pack a getAssetProof item straight from its JSON text
 * (native/asset_proof_json.c), without `JSON.parse` or a single string. Parsing and packing cost
 * ~3.5 µs and ~4 KB of garbage per proof, and with every core verifying, that garbage is collected
 * on the verifying threads themselves. The record is byte for byte the one kinds.ts's asset-proof
 * `pack` writes for the parsed item; anything but the plain shape is declined, and the item parsed.
 *
 * Native only: the same reader in JS ran at ~4 ns per byte and lost to `JSON.parse` (tried, reverted).
 * `CAIRN_ASSET_PROOF_JSON=parse` turns it off.
 */
import type { BatchWriter } from '../codec.js';
import { loadNative } from '../hash/native.js';

/** Packs the item `src[a..b)` into `w` and puts its id's (the leaf's) byte range in `id`, or declines. */
export type JsonPacker = (src: Uint8Array, a: number, b: number, w: BatchWriter, id: Uint32Array) => boolean;

let packer: JsonPacker | null | undefined;

/** The native packer, or null where the addon is not built (or `CAIRN_NATIVE=0`). */
export function nativeAssetProofPacker(): JsonPacker | null {
  if (packer !== undefined) return packer;
  // CAIRN_ASSET_PROOF_JSON=parse turns it off (to compare, or to rule it out).
  const fn = process.env.CAIRN_ASSET_PROOF_JSON === 'parse' ? undefined : loadNative()?.packAssetProofJson;
  // A record is never longer than its text plus the field headers (4 × 5 bytes, a length byte per node).
  packer = fn ? (src, a, b, w, id) => w.packWith(b - a + 96, (out, pos) => fn(src, a, b, out, pos, id)) : null;
  return packer;
}
