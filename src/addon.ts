/**
 * The one loader of the native addon (build/Release/cairn_native.node, built by node-gyp at install
 * from native/*.c). Both the Poseidon and the Keccak kernels live in it. Loading never throws: when
 * the addon is missing (no compiler at install, another platform, `CAIRN_NATIVE=0`) callers get
 * `null` bindings and a one-line reason, and fall back to their portable kernels.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nativeDisabled } from './kernels.js';

/**
 * The functions the addon exports. Poseidon functions validate shapes and return -1 on success or
 * the index of the first element that is not < r (nothing is written then).
 */
export interface NativeBindings {
  /** Poseidon of n = concat.length/32 elements (1..12) into out[0..32]. */
  poseidonInto(concat: Uint8Array, out: Uint8Array): number;
  /** `count` hashes of `width` elements each: inputs 32·width·count bytes, out 32·count bytes. */
  poseidonBatch(inputs: Uint8Array, width: number, out: Uint8Array): number;
  /** Merkle path root (index 0 = leaf, k+1 = proof[k] in the returned bad index). */
  poseidonPathRootInto(leaf: Uint8Array, proof: Uint8Array, index: number, out: Uint8Array): number;
  /**
   * m paths of equal depth: leaves 32·m, proofs 32·depth·m, indices Float64Array(m), roots 32·m,
   * verdicts Uint8Array(m) set to 1 (root matches), 0 (mismatch) or 2 (an element is not < r).
   * Returns the number of matches.
   */
  poseidonVerifyBatch(
    leaves: Uint8Array,
    proofs: Uint8Array,
    indices: Float64Array,
    depth: number,
    roots: Uint8Array,
    verdicts: Uint8Array,
  ): number;
  /** Roots of m paths of equal depth written to out (32·m); verdicts as in poseidonVerifyBatch (1 ok, 2 overflow). */
  poseidonPathRootBatch(
    leaves: Uint8Array,
    proofs: Uint8Array,
    indices: Float64Array,
    depth: number,
    out: Uint8Array,
    verdicts: Uint8Array,
  ): number;
  // PDA functions (native/pda.c); absent from an addon built before they existed.
  /** Whether 32 bytes decompress to an ed25519 point (curve25519-dalek rules). */
  ed25519OnCurve?(point: Uint8Array): boolean;
  /** find_program_address over a prepared preimage; writes the address to out, returns the bump or -1. */
  findPda?(preimage: Uint8Array, bumpAt: number, out: Uint8Array): number;
  jsonScan?(bytes: Uint8Array, tape: Uint32Array, state?: Uint32Array, stopAt?: number): number;
  /** An asset proof's batch record from its JSON text (native/asset_proof_json.h): the end, -1 declined, -2 no room. */
  packAssetProofJson?(src: Uint8Array, a: number, b: number, out: Uint8Array, pos: number, id: Uint32Array, ids?: Uint8Array): number;
  /**
   * Items `from … to-1` of a JSON batch's table packed as `packAssetProofJson` packs one, until one is
   * declined: record `at[1] + k` at `at[0]` (moved past it), its offset in the batch header, its leaf's
   * length in `idLens` (native/asset_proof_json.h). Returns the items packed.
   */
  packAssetProofJsonMany?(
    src: Uint8Array,
    table: Uint32Array,
    from: number,
    to: number,
    out: Uint8Array,
    at: Uint32Array,
    id: Uint32Array,
    ids: Uint8Array,
    idLens: Uint32Array,
  ): number;
  /** Asset-proof records of a batch verified in place (native/asset_proof_records.h): codes 1 valid / 0 ask JS; -1 bad header. */
  verifyAssetProofRecords?(batch: Uint8Array, codes: Uint8Array): number;
  /** A base58 string of exactly 32 bytes into out[off..off+32]; false when it is not (out untouched). */
  b58Decode32Into?(s: string, out: Uint8Array, off: number): boolean;
  /**
   * The items of a container that start in bytes[from..to), reading bytes[0..n) only, into `table` (4 u32
   * per item: key start/end, value start/end) and `meta` ([status, first, next, count]); returns the
   * status (native/json_ranges.h).
   */
  jsonItemsInRange?(bytes: Uint8Array, n: number, from: number, to: number, exact: boolean, keyed: boolean, table: Uint32Array, meta: Uint32Array): number;
  /** dst[dstAt..+n] = src[srcAt..+n] (not overlapping), with non-temporal stores when `stream` (native/copy_stream.h). */
  copyBytes?(dst: Uint8Array, dstAt: number, src: Uint8Array, srcAt: number, n: number, stream: boolean): void;
  // Keccak functions (native/keccak.c), see that file for their contracts.
  keccak256?(data: Uint8Array): Uint8Array;
  /** The digest written to out[at..at+32] (absent from an addon built before it existed). */
  keccak256Into?(data: Uint8Array, out: Uint8Array, at: number): void;
  keccakPathRoot?(leaf: Uint8Array, proof: Uint8Array, index: number): Uint8Array;
  keccakPathRootInto?(leaf: Uint8Array, proof: Uint8Array, index: number, out: Uint8Array): void;
  keccakPathRootBatch?(leaves: Uint8Array, proofs: Uint8Array, indices: Uint32Array, depth: number, out: Uint8Array): void;
  keccakVerifyBatch?(
    leaves: Uint8Array,
    proofs: Uint8Array,
    indices: Uint32Array,
    depth: number,
    roots: Uint8Array,
    out: Uint8Array,
  ): number;
}

/** The addon, or why it did not load (`reason` is null exactly when `bindings` is not), and the file that was loaded or looked for. */
export type NativeLoad = { bindings: NativeBindings; reason: null; path: string } | { bindings: null; reason: string; path: string };

let loaded: NativeLoad | undefined;

/** The package root: this file sits at src/ (or dist/ once compiled). */
function packageRoot(): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..');
}

/**
 * Load the addon once per process (per worker thread). Never throws.
 *
 * @example
 * const { bindings, reason } = loadNativeWithReason();
 * if (!bindings) console.warn(`native kernels unavailable: ${reason}`);
 */
export function loadNativeWithReason(): NativeLoad {
  if (loaded) return loaded;
  const path = join(packageRoot(), 'build', 'Release', 'cairn_native.node');
  if (nativeDisabled()) {
    loaded = { bindings: null, reason: 'disabled by CAIRN_NATIVE=0', path };
  } else if (!existsSync(path)) {
    loaded = { bindings: null, reason: `addon not built (${path} missing; run "node scripts/build-native.mjs")`, path };
  } else {
    try {
      const bindings = createRequire(import.meta.url)(path) as NativeBindings;
      loaded = { bindings, reason: null, path };
    } catch (e) {
      loaded = { bindings: null, reason: `addon failed to load: ${(e as Error).message.split('\n')[0]}`, path };
    }
  }
  return loaded;
}

/**
 * The addon's functions, or null when it cannot load (see `loadNativeWithReason` / `nativeLoadError`).
 *
 * @example
 * const native = loadNative();
 * const root = native ? native.keccakPathRoot!(leaf, proof, index) : portableRoot(leaf, proof, index);
 */
export function loadNative(): NativeBindings | null {
  return loadNativeWithReason().bindings;
}

/** Why the addon did not load, or null when it did. */
export function nativeLoadError(): string | null {
  return loadNativeWithReason().reason;
}
