/**
 * mcl-wasm's raw exports, for the prover's bulk arithmetic. mcl's JavaScript classes copy every
 * operand onto the wasm stack and back (≈ 1 µs per call) and cap a call at its 1 MB stack; the prover
 * instead keeps its vectors (scalars, points) in mcl's own heap and calls the C functions on
 * pointers: a field multiplication then costs a wasm call (≈ 0.1 µs), and a 2^16-point vector is one
 * `malloc`. Values in the heap are in mcl's internal layout (Montgomery form; an Fp is 6 limbs of 8
 * bytes, so a G1 point takes 144 bytes and a G2 point 288 even on BN254): only this file and the
 * proving-key cache (which records mcl's version) depend on it.
 */
import { loadBn254Wasm, type Bn254Wasm } from './bn254-wasm.js';

/** Bytes per value in mcl's heap layout. */
export const FR_SIZE = 32;
export const G1_SIZE = 144;
export const G2_SIZE = 288;

type Fn = (...args: number[]) => number;

/** The raw exports the prover calls (pointer arguments; see mcl's bn.h). */
export interface McModule {
  _malloc(n: number): number;
  _free(p: number): void;
  _mclBnFr_add: Fn;
  _mclBnFr_sub: Fn;
  _mclBnFr_mul: Fn;
  _mclBnFr_setLittleEndian: Fn;
  _mclBnFr_getLittleEndian: Fn;
  _mclBnG1_add: Fn;
  _mclBnG1_dbl: Fn;
  _mclBnG1_neg: Fn;
  _mclBnG1_mul: Fn;
  _mclBnG1_normalizeVec: Fn;
  _mclBnG2_add: Fn;
  _mclBnG2_dbl: Fn;
  _mclBnG2_neg: Fn;
  _mclBnG2_mul: Fn;
  _mclBnG2_normalizeVec: Fn;
  wasmMemory: { readonly buffer: ArrayBuffer };
}

/** One group's raw operations, so the multi-scalar code is written once for G1 and G2. */
export interface Group {
  readonly name: 'G1' | 'G2';
  readonly size: number;
  add(z: number, x: number, y: number): void;
  dbl(y: number, x: number): void;
  neg(y: number, x: number): void;
  /** y = x·k, k a pointer to an Fr in mcl's layout. */
  mul(y: number, x: number, k: number): void;
  /** Affine form (z = 1) of n points in place: mixed additions are ~25% cheaper. */
  normalizeVec(p: number, n: number): void;
}

/** The heap and its helpers, one per thread. */
export interface Heap {
  readonly w: Bn254Wasm;
  readonly m: McModule;
  readonly g1: Group;
  readonly g2: Group;
  /** malloc that throws instead of returning 0. Memory is zeroed (the identity point, the scalar 0). */
  alloc(bytes: number): number;
  free(p: number): void;
  /** A fresh view of the heap (growth detaches old views). */
  u8(): Uint8Array;
  u32(): Uint32Array;
  /** Write x (0 ≤ x < r) at `ptr` as an Fr. */
  setFr(ptr: number, x: bigint): void;
  /** Write n little-endian 32-byte integers < r (from `le` at `off`) as Frs at `ptr`. */
  setFrVec(ptr: number, le: Uint8Array, n: number): void;
  /** Read n Frs at `ptr` as little-endian 32-byte integers into `out`. */
  getFrVec(ptr: number, n: number, out: Uint8Array): void;
  /** Copy `bytes` (mcl layout) into a fresh allocation. */
  copyIn(bytes: Uint8Array): number;
  copyOut(ptr: number, bytes: number): Uint8Array;
}

let heap: Promise<Heap> | undefined;

/**
 * mcl's heap for this thread (loads mcl-wasm once, shared with the verifier's codecs).
 *
 * @example
 * const h = await loadHeap();
 * const p = h.alloc(FR_SIZE); h.setFr(p, 5n);
 */
export function loadHeap(): Promise<Heap> {
  heap ??= loadBn254Wasm().then(makeHeap);
  return heap;
}

function makeHeap(w: Bn254Wasm): Heap {
  // `mod` is an accessor on the CommonJS exports; an ESM namespace may hold it only under `default`.
  const ns = w.mcl as unknown as { mod?: McModule; default?: { mod?: McModule } };
  const m = ns.mod ?? ns.default?.mod;
  if (!m) throw new Error('mcl-wasm exposes no raw module (mod): unsupported mcl-wasm version');
  let u8 = new Uint8Array(m.wasmMemory.buffer);
  const view = (): Uint8Array => (u8.length === 0 || u8.buffer !== m.wasmMemory.buffer ? (u8 = new Uint8Array(m.wasmMemory.buffer)) : u8);
  const scratch = m._malloc(64);
  const group = (name: 'G1' | 'G2', size: number): Group => {
    const p = name === 'G1' ? { add: m._mclBnG1_add, dbl: m._mclBnG1_dbl, neg: m._mclBnG1_neg, mul: m._mclBnG1_mul, nv: m._mclBnG1_normalizeVec } : { add: m._mclBnG2_add, dbl: m._mclBnG2_dbl, neg: m._mclBnG2_neg, mul: m._mclBnG2_mul, nv: m._mclBnG2_normalizeVec };
    return { name, size, add: p.add, dbl: p.dbl, neg: p.neg, mul: p.mul, normalizeVec: (ptr, n) => void (n > 0 && p.nv(ptr, ptr, n)) };
  };
  const h: Heap = {
    w,
    m,
    g1: group('G1', G1_SIZE),
    g2: group('G2', G2_SIZE),
    alloc(bytes) {
      const p = m._malloc(Math.max(bytes, 16));
      if (!p) throw new RangeError(`mcl heap: cannot allocate ${bytes} bytes`);
      view().fill(0, p, p + bytes);
      return p;
    },
    free: (p) => m._free(p),
    u8: view,
    u32: () => new Uint32Array(m.wasmMemory.buffer),
    setFr(ptr, x) {
      const b = view();
      for (let i = 0; i < 32; i++, x >>= 8n) b[scratch + i] = Number(x & 0xffn);
      if (m._mclBnFr_setLittleEndian(ptr, scratch, 32) !== 0) throw new RangeError('mcl: scalar not below r');
    },
    setFrVec(ptr, le, n) {
      for (let i = 0; i < n; i++) {
        view().set(le.subarray(i * 32, i * 32 + 32), scratch);
        m._mclBnFr_setLittleEndian(ptr + i * FR_SIZE, scratch, 32);
      }
    },
    getFrVec(ptr, n, out) {
      for (let i = 0; i < n; i++) {
        const len = m._mclBnFr_getLittleEndian(scratch, 32, ptr + i * FR_SIZE);
        const b = view();
        out.set(b.subarray(scratch, scratch + len), i * 32);
        out.fill(0, i * 32 + len, i * 32 + 32);
      }
    },
    copyIn(bytes) {
      const p = h.alloc(bytes.length);
      view().set(bytes, p);
      return p;
    },
    copyOut: (ptr, bytes) => view().slice(ptr, ptr + bytes),
  };
  return h;
}

/** Little-endian 32 bytes of each bigint (all < r), packed: the form the multi-scalar code reads. */
export function scalarsLe(xs: readonly bigint[], from = 0, to = xs.length): Uint8Array {
  const out = new Uint8Array((to - from) * 32 + 4); // +4: the window reader may look past the end
  const dv = new DataView(out.buffer);
  for (let i = from; i < to; i++) {
    let x = xs[i]!;
    const o = (i - from) * 32;
    for (let k = 0; k < 4; k++, x >>= 64n) dv.setBigUint64(o + k * 8, BigInt.asUintN(64, x), true);
  }
  return out;
}
