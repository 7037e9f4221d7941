/**
 * Keccak-256 for the Merkle engine: single hashes, whole proof paths and batches of paths. Three
 * backends give identical output — the native addon (build/Release/cairn_native.node, one JS→C
 * crossing per path or per batch), WebAssembly (cairn's own kernel, _keccak-wasm.ts) and plain
 * JavaScript — and the fastest one that loads is chosen when this module is first imported.
 * `CAIRN_KECCAK=native|wasm|js` forces one (an unavailable forced backend is an error, not a
 * silent fallback); `CAIRN_NATIVE=0` (addon.ts) disables the addon altogether.
 *
 * Every public function checks its arguments (`"leaf": expected 32 bytes, got 31`) and throws an
 * `InputError` naming the parameter; the kernels behind them trust their input.
 */
import { CairnError, ErrorCodes, InputError } from '../errors/index.js';
import { loadNativeWithReason, type NativeBindings } from '../addon.js';
import { kernelSwitch } from '../kernels.js';
import { keccak256Js, keccakPathRootJs } from './_keccak-js.js';
import { createKeccakWasmKernel } from './_keccak-wasm.js';
import { equalBytes } from './bytes.js';
import type { KeccakKernel } from './_keccak-kernel.js';

export type { KeccakKernel } from './_keccak-kernel.js';
export type KeccakBackend = 'native' | 'wasm' | 'js';

/** The plain-JavaScript kernel: always available. */
export const jsKeccakKernel: KeccakKernel = {
  name: 'js',
  keccak256: (data) => keccak256Js(data),
  pathRootInto: (leaf, proof, index, out) => void keccakPathRootJs(leaf, proof, index, out),
};

type NativeKeccak = Required<Pick<NativeBindings, 'keccak256' | 'keccakPathRoot' | 'keccakPathRootInto' | 'keccakPathRootBatch' | 'keccakVerifyBatch'>> &
  Pick<NativeBindings, 'keccak256Into'>;

/** The addon's keccak functions, or null with the reason (addon missing, or built without keccak.c). */
function nativeKeccak(): { fns: NativeKeccak; reason: null } | { fns: null; reason: string } {
  const { bindings, reason } = loadNativeWithReason();
  if (!bindings) return { fns: null, reason };
  if (typeof bindings.keccakPathRootInto !== 'function' || typeof bindings.keccak256 !== 'function') {
    return { fns: null, reason: 'the native addon has no keccak functions' };
  }
  return { fns: bindings as NativeKeccak, reason: null };
}

function nativeKernel(fns: NativeKeccak): KeccakKernel {
  const into = fns.keccak256Into;
  return {
    name: 'native',
    // Into a plain Uint8Array from every backend: the addon's own Buffers cost more than the hash.
    keccak256: into
      ? (d) => {
          const out = new Uint8Array(32);
          into(d, out, 0);
          return out;
        }
      : (d) => {
          const b = fns.keccak256(d);
          return new Uint8Array(b.buffer, b.byteOffset, 32);
        },
    pathRootInto: (l, p, i, o) => fns.keccakPathRootInto(l, p, i, o),
  };
}

/**
 * Every backend that loads in this process, fastest first (the JS one always). For tests and
 * benchmarks that compare backends; normal code uses the functions below.
 *
 * @example
 * for (const k of availableKeccakKernels()) console.log(k.name, k.keccak256(data));
 */
export function availableKeccakKernels(): KeccakKernel[] {
  const out: KeccakKernel[] = [];
  const n = nativeKeccak().fns;
  if (n) out.push(nativeKernel(n));
  try {
    out.push(createKeccakWasmKernel());
  } catch {
    /* no WebAssembly here: the JS kernel remains */
  }
  out.push(jsKeccakKernel);
  return out;
}

function selectKernel(): { kernel: KeccakKernel; native: NativeKeccak | null; why: string } {
  const forced = kernelSwitch('CAIRN_KECCAK');
  if (forced !== undefined && forced !== '' && forced !== 'native' && forced !== 'wasm' && forced !== 'js') {
    throw new InputError('CAIRN_KECCAK', `expected native, wasm or js, got "${forced}"`, { expected: 'native|wasm|js', got: forced });
  }
  const native = forced === 'wasm' || forced === 'js' ? { fns: null, reason: `CAIRN_KECCAK=${forced}` } : nativeKeccak();
  if (native.fns) return { kernel: nativeKernel(native.fns), native: native.fns, why: 'native addon loaded' };
  if (forced === 'native') {
    throw new CairnError(ErrorCodes.MERKLE_KERNEL_UNAVAILABLE, `CAIRN_KECCAK=native but the native keccak kernel is unavailable: ${native.reason}`, {
      context: { backend: 'native', reason: native.reason },
    });
  }
  if (forced !== 'js') {
    try {
      return { kernel: createKeccakWasmKernel(), native: null, why: `native unavailable (${native.reason})` };
    } catch (e) {
      if (forced === 'wasm') {
        throw new CairnError(ErrorCodes.MERKLE_KERNEL_UNAVAILABLE, 'CAIRN_KECCAK=wasm but WebAssembly is unavailable', { cause: e, context: { backend: 'wasm' } });
      }
    }
  }
  return { kernel: jsKeccakKernel, native: null, why: forced === 'js' ? 'CAIRN_KECCAK=js' : `native and wasm unavailable (${native.reason})` };
}

// Chosen once per process (per worker thread), at import.
const selected = selectKernel();
const kernel = selected.kernel;
const nativeFns = selected.native;

/** The backend in use: 'native', 'wasm' or 'js'. */
export function keccakBackend(): KeccakBackend {
  return kernel.name;
}

/** Why this backend was chosen (e.g. "native unavailable (addon not built …)"), for diagnostics. */
export function keccakBackendReason(): string {
  return selected.why;
}

function assertBytes(value: unknown, field: string, len?: number): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new InputError(field, `expected Uint8Array, got ${value === null ? 'null' : typeof value}`, { expected: 'Uint8Array', got: typeof value });
  }
  if (len !== undefined && value.length !== len) {
    throw new InputError(field, `expected ${len} bytes, got ${value.length}`, { expected: `${len} bytes`, got: value.length });
  }
}

function assertProof(proof: unknown, field = 'proof'): asserts proof is Uint8Array {
  assertBytes(proof, field);
  if (proof.length % 32 !== 0) {
    throw new InputError(field, `expected a multiple of 32 bytes, got ${proof.length}`, { expected: '32·n bytes', got: proof.length });
  }
}

function assertIndex(index: unknown, field = 'index'): asserts index is number {
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) {
    throw new InputError(field, `expected a non-negative safe integer, got ${String(index)}`, { expected: 'integer ≥ 0', got: String(index) });
  }
}

/**
 * keccak256 of `data` (Keccak padding, as Solana's `keccak::hashv`).
 *
 * @example
 * keccak256(new TextEncoder().encode('abc')); // 4e03657a…
 */
export function keccak256(data: Uint8Array): Uint8Array {
  assertBytes(data, 'data');
  return kernel.keccak256(data);
}

/**
 * `keccak256` written to `out[at..at+32]` (returns `out`), for code that hashes into scratch memory.
 * The JS and native kernels write there directly, with no allocation; the WASM kernel's fresh
 * 32-byte result is copied. `data` may overlap `out`: it is read completely before the digest is
 * written.
 *
 * @example
 * const scratch = new Uint8Array(64);
 * keccak256Into(left, scratch, 0);
 * keccak256Into(right, scratch, 32);
 */
export function keccak256Into(data: Uint8Array, out: Uint8Array, at = 0): Uint8Array {
  assertBytes(data, 'data');
  assertBytes(out, 'out');
  if (!Number.isSafeInteger(at) || at < 0 || at + 32 > out.length) {
    throw new InputError('at', `expected an offset with 32 bytes of "out" after it (0..${out.length - 32}), got ${String(at)}`);
  }
  if (kernel === jsKeccakKernel) keccak256Js(data, out, at);
  else if (nativeFns?.keccak256Into) nativeFns.keccak256Into(data, out, at);
  else if (nativeFns) out.set(nativeFns.keccak256(data), at); // an older addon's Buffer, copied without a view over it
  else out.set(kernel.keccak256(data), at);
  return out;
}

/**
 * The root reached from `leaf` through `proof` (32·n bytes, ordered leaf → root): at level i the
 * node is the left child when bit i of `index` is 0. One kernel call for the whole path.
 *
 * @example
 * const root = keccakPathRoot(leaf, proofConcat, leafIndex);
 * const ok = equalBytes(root, expectedRoot);
 */
export function keccakPathRoot(leaf: Uint8Array, proof: Uint8Array, index: number): Uint8Array {
  assertBytes(leaf, 'leaf', 32);
  assertProof(proof);
  assertIndex(index);
  const out = new Uint8Array(32);
  kernel.pathRootInto(leaf, proof, index, out);
  return out;
}

/**
 * `keccakPathRoot` writing into `out[0..32]` (no allocation per call, for hot loops).
 *
 * @example
 * const scratch = new Uint8Array(32);
 * keccakPathRootInto(leaf, proof, index, scratch);
 */
export function keccakPathRootInto(leaf: Uint8Array, proof: Uint8Array, index: number, out: Uint8Array): Uint8Array {
  assertBytes(leaf, 'leaf', 32);
  assertProof(proof);
  assertIndex(index);
  assertBytes(out, 'out');
  if (out.length < 32) throw new InputError('out', `expected at least 32 bytes, got ${out.length}`);
  kernel.pathRootInto(leaf, proof, index, out);
  return out;
}

/**
 * Verify m paths of equal `depth` in one call: `leaves` 32·m bytes, `proofs` 32·depth·m, `indices`
 * m leaf indices, `roots` 32·m. Sets `verdicts[k]` to 1 when path k reaches `roots[k]`, else 0, and
 * returns the number of valid paths. With the native addon the whole batch is one crossing.
 *
 * @example
 * const verdicts = new Uint8Array(m);
 * const valid = keccakVerifyBatch(leaves, proofs, Uint32Array.from(idx), 14, roots, verdicts);
 */
export function keccakVerifyBatch(
  leaves: Uint8Array,
  proofs: Uint8Array,
  indices: Uint32Array,
  depth: number,
  roots: Uint8Array,
  verdicts: Uint8Array,
): number {
  if (!(indices instanceof Uint32Array)) throw new InputError('indices', 'expected Uint32Array', { expected: 'Uint32Array' });
  const m = indices.length;
  if (!Number.isInteger(depth) || depth < 0 || depth > 64) throw new InputError('depth', `expected an integer 0..64, got ${String(depth)}`);
  assertBytes(leaves, 'leaves', 32 * m);
  assertBytes(proofs, 'proofs', 32 * depth * m);
  assertBytes(roots, 'roots', 32 * m);
  assertBytes(verdicts, 'verdicts');
  if (verdicts.length < m) throw new InputError('verdicts', `expected at least ${m} bytes, got ${verdicts.length}`);
  if (nativeFns) return nativeFns.keccakVerifyBatch(leaves, proofs, indices, depth, roots, verdicts);
  const h = new Uint8Array(32);
  let valid = 0;
  for (let k = 0; k < m; k++) {
    kernel.pathRootInto(leaves.subarray(32 * k, 32 * k + 32), proofs.subarray(32 * depth * k, 32 * depth * (k + 1)), indices[k]!, h);
    const ok = equalBytes(h, roots.subarray(32 * k, 32 * k + 32));
    verdicts[k] = ok ? 1 : 0;
    if (ok) valid++;
  }
  return valid;
}

/**
 * `keccak256(data ‖ 0xFF)` with byte 0 cleared, so the result is below the BN254 field modulus
 * (light-protocol's `hash_to_bn254_field_size_be`).
 *
 * @example
 * const field = hashToField(ownerPubkeyBytes); // field[0] === 0
 */
export function hashToField(data: Uint8Array): Uint8Array {
  assertBytes(data, 'data');
  const buf = new Uint8Array(data.length + 1);
  buf.set(data, 0);
  buf[data.length] = 0xff;
  const out = kernel.keccak256(buf); // every kernel returns fresh memory: safe to modify
  out[0] = 0;
  return out;
}
