/**
 * The fast BN254 codecs over `mcl-wasm` (BN_SNARK1 = the same curve as EIP-196/197 and Solana's
 * syscalls), loaded on demand by `loadBn254Wasm()`: the same byte strings accepted and refused as the
 * portable ones (bn254.ts), much faster once loaded.
 */
import { CairnError, ErrorCodes, InputError, PointError } from '../errors/index.js';
import { bigToBe, checkLength, checkUncompressed, FLAG_INFINITY, FLAG_Y_LARGER, isScalar, readCompressed } from './bn254-encoding.js';
import { G2_B, psiConstants } from './bn254.js';
import { noteSlowPath } from './slow-paths.js';

type Mcl = typeof import('mcl-wasm');
type Fp = InstanceType<Mcl['Fp']>;
type Fp2 = InstanceType<Mcl['Fp2']>;
/** A G1 point of mcl-wasm. */
export type MclG1 = InstanceType<Mcl['G1']>;
/** A G2 point of mcl-wasm. */
export type MclG2 = InstanceType<Mcl['G2']>;
/** A scalar of mcl-wasm. */
export type MclFr = InstanceType<Mcl['Fr']>;
/** An element of GT (Fp12) of mcl-wasm. */
export type MclGT = InstanceType<Mcl['GT']>;

/** The mcl-backed decoders; obtained from `loadBn254Wasm()`. */
export interface Bn254Wasm {
  readonly mcl: Mcl;
  g1(bytes: Uint8Array, field?: string): MclG1;
  g2(bytes: Uint8Array, field?: string): MclG2;
  /** A scalar from 32 big-endian bytes; throws `InputError` (field `scalar`) when ≥ r (callers check first). */
  fr(bytes: Uint8Array, off?: number): MclFr;
  /** G1 back to bytes (compressed or not), for tests and the devnet's fake proofs. */
  g1ToBytes(p: MclG1, compressed: boolean): Uint8Array;
  /** True when a point of the twist lies in the prime-order subgroup G2 (fast endomorphism test). */
  inG2(p: MclG2): boolean;
  /**
   * ∏ᵢ millerLoop(g1s[i], g2s[i]) in one multi-Miller loop (no final exponentiation): the Fp12
   * squarings are shared by every pair, ≈ 0.67 ms per pair at 64 pairs against 0.91 ms for one alone.
   */
  millerLoopVec(g1s: readonly MclG1[], g2s: readonly MclG2[]): MclGT;
}

let wasm: Bn254Wasm | undefined;
let loading: Promise<Bn254Wasm> | undefined;

/**
 * The mcl decoders when `loadBn254Wasm()` has finished, else undefined (never starts a load).
 *
 * @example
 * const w = bn254WasmIfLoaded(); // undefined until `await loadBn254Wasm()`
 */
export function bn254WasmIfLoaded(): Bn254Wasm | undefined {
  return wasm;
}

/**
 * Load and initialise mcl-wasm once per thread (≈ 0.3–0.5 s the first time). Concurrent calls share
 * one load. Rejects with `MERKLE_KERNEL_UNAVAILABLE` when the module cannot load; callers then stay
 * on the portable path.
 *
 * @example
 * const w = await loadBn254Wasm();
 * const B = w.g2(proof.b, 'proof.b');
 */
export function loadBn254Wasm(): Promise<Bn254Wasm> {
  if (wasm) return Promise.resolve(wasm);
  loading ??= (async () => {
    try {
      const mcl = liveExports(await import('mcl-wasm'));
      await mcl.init(mcl.BN_SNARK1);
      wasm = makeWasm(mcl);
      return wasm;
    } catch (e) {
      loading = undefined;
      throw new CairnError(ErrorCodes.MERKLE_KERNEL_UNAVAILABLE, `mcl-wasm could not load: ${e instanceof Error ? e.message : String(e)}`, {
        context: { kernel: 'mcl-wasm' },
        cause: e,
      });
    }
  })();
  return loading;
}

/**
 * mcl-wasm is CommonJS. Node's ESM loader gives an `import()` of it a namespace whose named exports
 * are a snapshot taken when the module ran — before `init()`, so its `mod` (the raw emscripten module
 * the multi-Miller loop needs) stays `undefined` there forever — and the live `module.exports` as
 * `default`. tsx and vitest hand back the live object either way, which is why only the packed build
 * lost the batch path (every batch threw, and each proof was checked alone). The live object it is.
 */
function liveExports(ns: unknown): Mcl {
  const d = (ns as { default?: unknown }).default;
  return (d !== null && typeof d === 'object' && typeof (d as Mcl).init === 'function' ? d : ns) as Mcl;
}

/** The decoders over an initialised mcl: each a function of the curve's constants, built once here. */
function makeWasm(mcl: Mcl): Bn254Wasm {
  const c = curveConstants(mcl);
  const mod = (mcl as unknown as { mod?: MclModule }).mod;
  return {
    mcl,
    g1: (bytes, field = 'g1') => decodeG1(c, bytes, field),
    g2: (bytes, field = 'g2') => decodeG2(c, bytes, field),
    fr: (bytes, off = 0) => decodeFr(mcl, bytes, off),
    g1ToBytes: (p, compressed) => encodeG1(c, p, compressed),
    inG2: (p) => inG2(c, p),
    millerLoopVec: (g1s, g2s) => (mod ? millerLoopVec(mcl, mod, g1s, g2s) : millerLoopEach(mcl, g1s, g2s)),
  };
}

/** The parts of mcl-wasm's emscripten module `millerLoopVec` reaches for (not in its typings). */
interface MclModule {
  _malloc(n: number): number;
  _free(p: number): void;
  _mclBn_millerLoopVec(e: number, xs: number, ys: number, n: number): void;
  copyToHeap32(a: Uint32Array, pos: number): void;
  copyFromHeap32(a: Uint32Array, pos: number): void;
}
type Raw = { a_: Uint32Array };

// mcl's C API has mclBn_millerLoopVec; its JS wrapper does not expose it. The points are copied into
// one heap block (malloc, not the small emscripten stack: 64 pairs are ≈ 27 kB) and the result back.
function millerLoopVec(mcl: Mcl, mod: MclModule, g1s: readonly MclG1[], g2s: readonly MclG2[]): MclGT {
  const n = g1s.length;
  if (n !== g2s.length) throw new RangeError(`millerLoopVec: ${n} G1 points but ${g2s.length} G2 points`);
  const e = new mcl.GT();
  if (n === 0) {
    e.setInt(1);
    return e;
  }
  const eLen = (e as unknown as Raw).a_.length * 4;
  const g1Len = (g1s[0] as unknown as Raw).a_.length * 4;
  const g2Len = (g2s[0] as unknown as Raw).a_.length * 4;
  const base = mod._malloc(eLen + n * (g1Len + g2Len));
  try {
    const xs = base + eLen;
    const ys = xs + n * g1Len;
    for (let i = 0; i < n; i++) {
      mod.copyToHeap32((g1s[i] as unknown as Raw).a_, xs + i * g1Len);
      mod.copyToHeap32((g2s[i] as unknown as Raw).a_, ys + i * g2Len);
    }
    mod._mclBn_millerLoopVec(base, xs, ys, n);
    mod.copyFromHeap32((e as unknown as Raw).a_, base);
  } finally {
    mod._free(base);
  }
  return e;
}

/** `millerLoopVec` without mcl's raw module: one Miller loop per pair (the same value, slower; counted). */
function millerLoopEach(mcl: Mcl, g1s: readonly MclG1[], g2s: readonly MclG2[]): MclGT {
  if (g1s.length !== g2s.length) throw new RangeError(`millerLoopVec: ${g1s.length} G1 points but ${g2s.length} G2 points`);
  noteSlowPath('groth16-miller-loop-vec');
  let e = new mcl.GT();
  e.setInt(1);
  for (let i = 0; i < g1s.length; i++) e = mcl.mul(e, mcl.millerLoop(g1s[i]!, g2s[i]!));
  return e;
}

/** The field elements the decoders and the subgroup test use, as mcl values. */
interface CurveConstants {
  readonly mcl: Mcl;
  readonly one: Fp;
  /** b of G1: y² = x³ + 3. */
  readonly three: Fp;
  readonly fp2One: Fp2;
  /** b of the twist G2 (bn254.ts's `G2_B`). */
  readonly b2: Fp2;
  /** ψ's constants (see `inG2`): ωx, ωy and ωx·ω̄x. */
  readonly wx: Fp2;
  readonly wy: Fp2;
  readonly wx2: Fp2;
  /** The BN parameter u, as a scalar. */
  readonly u: MclFr;
}

function curveConstants(mcl: Mcl): CurveConstants {
  const one = new mcl.Fp();
  one.setInt(1);
  const three = new mcl.Fp();
  three.setInt(3);
  const fp2One = new mcl.Fp2();
  fp2One.setInt(1, 0);
  const b2 = new mcl.Fp2();
  b2.set_a(fpFromBe(mcl, bigToBe(G2_B.c0, 32), 0));
  b2.set_b(fpFromBe(mcl, bigToBe(G2_B.c1, 32), 0));
  const { wx, wy, wx2 } = psiConstants();
  const u = new mcl.Fr();
  u.setStr('4965661367192848881', 10);
  return { mcl, one, three, fp2One, b2, wx: fp2Const(mcl, wx.c0, wx.c1), wy: fp2Const(mcl, wy.c0, wy.c1), wx2: fp2Const(mcl, wx2, 0n), u };
}

function fpFromBe(mcl: Mcl, b: Uint8Array, off: number): Fp {
  const f = new mcl.Fp();
  // Callers have checked < p, so the reduction never changes the value.
  f.setBigEndianMod(b.subarray(off, off + 32));
  return f;
}

/** An Fp2 from 64 bytes at `off`: c1 first, then c0 (the EIP-197 order). */
function fp2FromBe(mcl: Mcl, b: Uint8Array, off: number): Fp2 {
  const f = new mcl.Fp2();
  f.set_b(fpFromBe(mcl, b, off));
  f.set_a(fpFromBe(mcl, b, off + 32));
  return f;
}

function fp2Const(mcl: Mcl, c0: bigint, c1: bigint): Fp2 {
  const f = new mcl.Fp2();
  f.set_a(fpFromBe(mcl, bigToBe(c0, 32), 0));
  f.set_b(fpFromBe(mcl, bigToBe(c1, 32), 0));
  return f;
}

// mcl serialises Fp little-endian; "larger than p − y" is a comparison from the top byte down.
function larger(mcl: Mcl, y: Fp): boolean {
  const a = y.serialize();
  const n = mcl.neg(y).serialize();
  for (let i = a.length - 1; i >= 0; i--) if (a[i] !== n[i]) return a[i]! > n[i]!;
  return false;
}

function decodeG1(c: CurveConstants, bytes: Uint8Array, field: string): MclG1 {
  const { mcl } = c;
  checkLength(bytes, field, [32, 64]);
  const p = new mcl.G1();
  if (bytes.length === 32) {
    const h = readCompressed(bytes, field, 1);
    if (h.infinity) return p;
    const x = fpFromBe(mcl, h.x, 0);
    const [okRoot, y0] = mcl.squareRoot(mcl.add(mcl.mul(mcl.sqr(x), x), c.three));
    if (!okRoot) throw new PointError(field, 'not-on-curve', 'x³ + 3 has no square root');
    const y = larger(mcl, y0) === h.larger ? y0 : mcl.neg(y0);
    p.setX(x);
    p.setY(y);
    p.setZ(c.one);
    return p;
  }
  if (checkUncompressed(bytes, field)) return p;
  p.setX(fpFromBe(mcl, bytes, 0));
  p.setY(fpFromBe(mcl, bytes, 32));
  p.setZ(c.one);
  if (!p.isValid()) throw new PointError(field, 'not-on-curve');
  return p;
}

function decodeG2(c: CurveConstants, bytes: Uint8Array, field: string): MclG2 {
  const { mcl } = c;
  checkLength(bytes, field, [64, 128]);
  const p = new mcl.G2();
  if (bytes.length === 64) {
    const h = readCompressed(bytes, field, 2);
    if (h.infinity) return p;
    const x = fp2FromBe(mcl, h.x, 0);
    const [okRoot, y0] = mcl.squareRoot(mcl.add(mcl.mul(mcl.sqr(x), x), c.b2));
    if (!okRoot) throw new PointError(field, 'not-on-curve', 'x³ + b has no square root in Fp2');
    const c1 = y0.get_b();
    const isLarger = c1.isZero() ? larger(mcl, y0.get_a()) : larger(mcl, c1);
    const y = isLarger === h.larger ? y0 : mcl.neg(y0);
    p.setX(x);
    p.setY(y);
    p.setZ(c.fp2One);
  } else {
    if (checkUncompressed(bytes, field)) return p;
    const x = fp2FromBe(mcl, bytes, 0);
    const y = fp2FromBe(mcl, bytes, 64);
    if (!mcl.sqr(y).isEqual(mcl.add(mcl.mul(mcl.sqr(x), x), c.b2))) throw new PointError(field, 'not-on-curve');
    p.setX(x);
    p.setY(y);
    p.setZ(c.fp2One);
  }
  // The twist has a large cofactor: a point on the curve may still be outside the r-torsion.
  if (!inG2(c, p)) throw new PointError(field, 'not-in-subgroup');
  return p;
}

// G2 subgroup membership by the endomorphism ψ (untwist–Frobenius–twist), after El Housni,
// Guillevic, Piellard, "Co-factor clearing and subgroup membership testing on pairing-friendly
// curves" (ePrint 2022/348, §3 and §5.1), as gnark-crypto checks BN254:
//   P ∈ G2  ⇔  [u+1]P + ψ([u]P) + ψ²([u]P) = ψ³([2u]P),  u = 4965661367192848881.
// One 63-bit scalar multiplication instead of a 254-bit one; measured ≈ 2× faster than mcl's
// isValidOrder here. The tests hold it equal to isValidOrder on random points in and out of G2.
// On affine points ψ(x, y) = (x̄·ωx, ȳ·ωy) with ωx = ξ^((p−1)/3), ωy = ξ^((p−1)/2), ξ = 9 + i; and
// ψ²(x, y) = (x·ωx·ω̄x, −y) since ξ^((p²−1)/2) = −1.
function inG2(c: CurveConstants, p: MclG2): boolean {
  const { mcl } = c;
  if (p.isZero()) return true;
  const q = mcl.mul(p, c.u);
  if (q.isZero()) return false; // only O has order dividing u in G2; p ≠ O here
  const qn = mcl.normalize(q);
  const qx = qn.getX();
  const qy = qn.getY();
  const lhs = mcl.add(mcl.add(q, p), mcl.add(psi(c, qx, qy), affine(c, mcl.mul(qx, c.wx2), mcl.neg(qy))));
  const d = mcl.dbl(q);
  if (d.isZero()) return false;
  const dn = mcl.normalize(d);
  const dx = mcl.mul(dn.getX(), c.wx2);
  const dy = mcl.neg(dn.getY());
  return lhs.isEqual(psi(c, dx, dy));
}

/** ψ of the affine point (x, y): (x̄·ωx, ȳ·ωy). */
function psi(c: CurveConstants, x: Fp2, y: Fp2): MclG2 {
  return affine(c, c.mcl.mul(conj(c.mcl, x), c.wx), c.mcl.mul(conj(c.mcl, y), c.wy));
}

function conj(mcl: Mcl, f: Fp2): Fp2 {
  const g = new mcl.Fp2();
  g.set_a(f.get_a());
  g.set_b(mcl.neg(f.get_b()));
  return g;
}

function affine(c: CurveConstants, x: Fp2, y: Fp2): MclG2 {
  const q = new c.mcl.G2();
  q.setX(x);
  q.setY(y);
  q.setZ(c.fp2One);
  return q;
}

function decodeFr(mcl: Mcl, b: Uint8Array, off: number): MclFr {
  if (!isScalar(b, off)) throw new InputError('scalar', 'not below the scalar field modulus r', { expected: '< r' });
  const f = new mcl.Fr();
  f.setBigEndianMod(b.subarray(off, off + 32));
  return f;
}

/** G1 to bytes, compressed (x with the y-larger flag) or not (x, y); the identity as its flag or zeros. */
function encodeG1(c: CurveConstants, p: MclG1, compressed: boolean): Uint8Array {
  if (p.isZero()) {
    const out = new Uint8Array(compressed ? 32 : 64);
    if (compressed) out[0] = FLAG_INFINITY;
    return out;
  }
  const n = c.mcl.normalize(p);
  const le = (f: Fp): Uint8Array => f.serialize().slice().reverse();
  const x = le(n.getX());
  if (compressed) {
    if (larger(c.mcl, n.getY())) x[0] |= FLAG_Y_LARGER;
    return x;
  }
  const out = new Uint8Array(64);
  out.set(x, 0);
  out.set(le(n.getY()), 32);
  return out;
}
