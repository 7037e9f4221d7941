/**
 * BN254 (alt_bn128) point codecs for Groth16 proofs and verifying keys, as Solana programs lay them
 * out: big-endian coordinates, G1 = x‖y (64 bytes) or x with flag bits (32 bytes), G2 = x.c1‖x.c0‖
 * y.c1‖y.c0 (128 bytes) or x.c1‖x.c0 with flag bits (64 bytes). Flags sit in the top two bits of
 * byte 0: 0x80 = "y is the larger root" (y > −y; for Fp2 compared c1 first, then c0, as arkworks
 * orders it), 0x40 = point at infinity. Every decoder checks that coordinates are < p, that the point
 * lies on the curve and, for G2, that it lies in the prime-order subgroup (G1 has cofactor 1).
 *
 * Two implementations sit side by side: a portable one over `@noble/curves` (sync, always there, the
 * reference) and a fast one over `mcl-wasm` (BN_SNARK1), loaded on demand by `loadBn254Wasm()`.
 * Both accept and reject exactly the same byte strings; the tests hold them to that.
 */
import { bn254 } from '@noble/curves/bn254.js';
import { CairnError, ErrorCodes } from '../errors.js';

/** Base field modulus p. */
export const BN254_P = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n;
/** Scalar field modulus r (the group order; public inputs must be below it). */
export const BN254_R = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;

const FLAG_Y_LARGER = 0x80;
const FLAG_INFINITY = 0x40;

/** Why a point was refused. Stable strings: tests and verdicts match on them. */
export type PointFailure = 'length' | 'flags' | 'coordinate' | 'not-on-curve' | 'not-in-subgroup';

const FAILURE_TEXT: Record<PointFailure, string> = {
  length: 'wrong length',
  flags: 'invalid flag bits',
  coordinate: 'coordinate is not below the base field modulus p',
  'not-on-curve': 'not on the curve',
  'not-in-subgroup': 'not in the prime-order subgroup',
};

/** A point that cannot be used: `context.field` names it, `context.reason` says why. */
export class PointError extends CairnError<{ field: string; reason: PointFailure; detail?: string }> {
  constructor(field: string, reason: PointFailure, detail?: string) {
    super(ErrorCodes.MERKLE_INVALID_INPUT, `"${field}": ${FAILURE_TEXT[reason]}${detail ? ` (${detail})` : ''}`, {
      context: { field, reason, ...(detail === undefined ? {} : { detail }) },
    });
  }
}

const P_BE = bigToBe(BN254_P, 32);
const R_BE = bigToBe(BN254_R, 32);

/**
 * Big-endian bytes → bigint.
 *
 * @example
 * beToBig(Uint8Array.of(1, 0)); // 256n
 */
export function beToBig(b: Uint8Array, off = 0, len = b.length - off): bigint {
  let v = 0n;
  for (let i = off; i < off + len; i++) v = (v << 8n) | BigInt(b[i]!);
  return v;
}

/**
 * bigint → `len` big-endian bytes (caller guarantees it fits).
 *
 * @example
 * bigToBe(256n, 2); // Uint8Array [1, 0]
 */
export function bigToBe(v: bigint, len: number, out = new Uint8Array(len), off = 0): Uint8Array {
  for (let i = off + len - 1; i >= off; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Compare 32 big-endian bytes at `off` with a 32-byte modulus; true when strictly below it. */
function below(b: Uint8Array, off: number, m: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) {
    const x = b[off + i]!;
    const y = m[i]!;
    if (x !== y) return x < y;
  }
  return false;
}

/**
 * True when 32 big-endian bytes encode an integer < r (a valid public input / scalar).
 *
 * @example
 * isScalar(bigToBe(BN254_R, 32)); // false: r itself is out of range
 */
export function isScalar(b: Uint8Array, off = 0): boolean {
  return b.length - off >= 32 && below(b, off, R_BE);
}

function checkLength(bytes: Uint8Array, field: string, allowed: readonly number[]): void {
  if (!(bytes instanceof Uint8Array)) throw new PointError(field, 'length', `expected bytes, got ${typeof bytes}`);
  if (!allowed.includes(bytes.length)) throw new PointError(field, 'length', `expected ${allowed.join(' or ')} bytes, got ${bytes.length}`);
}

/** Compressed header: the flags and a copy of x with the flag bits cleared (x < p is checked here). */
function readCompressed(bytes: Uint8Array, field: string, coords: 1 | 2): { larger: boolean; infinity: boolean; x: Uint8Array } {
  const flags = bytes[0]! & 0xc0;
  const x = bytes.slice();
  x[0] &= 0x3f;
  if (flags === (FLAG_Y_LARGER | FLAG_INFINITY)) throw new PointError(field, 'flags', 'both infinity and sign set');
  if (flags & FLAG_INFINITY) {
    for (let i = 0; i < x.length; i++) if (x[i] !== 0) throw new PointError(field, 'flags', 'infinity flag with a non-zero x');
    return { larger: false, infinity: true, x };
  }
  for (let c = 0; c < coords; c++) if (!below(x, c * 32, P_BE)) throw new PointError(field, 'coordinate');
  return { larger: (flags & FLAG_Y_LARGER) !== 0, infinity: false, x };
}

function checkUncompressed(bytes: Uint8Array, field: string): boolean {
  let zero = true;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) { zero = false; break; }
  if (zero) return true; // EIP-197 convention: all-zero bytes = infinity
  for (let off = 0; off < bytes.length; off += 32) if (!below(bytes, off, P_BE)) throw new PointError(field, 'coordinate');
  return false;
}

// ---------------------------------------------------------------------------------------------
// Portable implementation (@noble/curves)

const { Fp, Fp2 } = bn254.fields;
type Fp2T = ReturnType<typeof Fp2.fromBigTuple>;
/** A G1 point of @noble/curves. */
export type G1Point = ReturnType<typeof bn254.G1.Point.fromAffine>;
/** A G2 point of @noble/curves. */
export type G2Point = ReturnType<typeof bn254.G2.Point.fromAffine>;
const G2_B: Fp2T = Fp2.fromBigTuple([
  19485874751759354771024239261021720505790618469301721065564631296452457478373n,
  266929791119991161246907387137283842545076965332900288569378510910307636690n,
]);
const HALF_P = (BN254_P - 1n) / 2n;

/** Fp2 "larger than its negation" in arkworks' order: c1 decides, c0 breaks a tie (c1 = 0). */
function fp2Larger(y: Fp2T): boolean {
  if (y.c1 !== 0n) return y.c1 > HALF_P;
  return y.c0 > HALF_P;
}

/**
 * Decode a G1 point from 32 compressed or 64 uncompressed big-endian bytes (portable path).
 * Throws `PointError` naming `field` when the bytes are not a point of the group.
 *
 * @example
 * const A = g1FromBytes(proof.a, 'proof.a'); // 32 or 64 bytes
 */
export function g1FromBytes(bytes: Uint8Array, field = 'g1'): G1Point {
  checkLength(bytes, field, [32, 64]);
  if (bytes.length === 32) {
    const h = readCompressed(bytes, field, 1);
    if (h.infinity) return bn254.G1.Point.ZERO;
    const x = beToBig(h.x);
    const rhs = Fp.add(Fp.mul(Fp.sqr(x), x), 3n);
    let y: bigint;
    try {
      y = Fp.sqrt(rhs);
    } catch {
      throw new PointError(field, 'not-on-curve', 'x³ + 3 has no square root');
    }
    if ((y > HALF_P) !== h.larger) y = Fp.neg(y);
    return bn254.G1.Point.fromAffine({ x, y });
  }
  if (checkUncompressed(bytes, field)) return bn254.G1.Point.ZERO;
  const x = beToBig(bytes, 0, 32);
  const y = beToBig(bytes, 32, 32);
  if (Fp.sqr(y) !== Fp.add(Fp.mul(Fp.sqr(x), x), 3n)) throw new PointError(field, 'not-on-curve');
  return bn254.G1.Point.fromAffine({ x, y });
}

const BN_U = 4965661367192848881n;
let psiPortable: { wx: Fp2T; wy: Fp2T; wx2: Fp2T } | undefined;

/**
 * G2 membership by the ψ endomorphism (the same test as the fast backend; see `inG2` there), on
 * noble's points: `[u+1]P + ψ([u]P) + ψ²([u]P) = ψ³([2u]P)`. A 63-bit multiplication instead of
 * noble's 254-bit `isTorsionFree`.
 *
 * @example
 * inG2Portable(g2FromBytes(proof.b)); // true (decoders already require it)
 */
export function inG2Portable(p: G2Point): boolean {
  if (p.is0()) return true;
  if (!psiPortable) {
    const c = psiConstants();
    psiPortable = { wx: c.wx, wy: c.wy, wx2: Fp2.fromBigTuple([c.wx2, 0n]) };
  }
  const { wx, wy, wx2 } = psiPortable;
  const conj = (f: Fp2T): Fp2T => Fp2.fromBigTuple([f.c0, Fp.neg(f.c1)]);
  const psi = (a: { x: Fp2T; y: Fp2T }) => bn254.G2.Point.fromAffine({ x: Fp2.mul(conj(a.x), wx), y: Fp2.mul(conj(a.y), wy) });
  const psi2 = (a: { x: Fp2T; y: Fp2T }) => ({ x: Fp2.mul(a.x, wx2), y: Fp2.neg(a.y) });
  const q = p.multiplyUnsafe(BN_U);
  if (q.is0()) return false;
  const qa = q.toAffine();
  const lhs = q.add(p).add(psi(qa)).add(bn254.G2.Point.fromAffine(psi2(qa)));
  const d = q.double();
  if (d.is0()) return false;
  return lhs.equals(psi(psi2(d.toAffine())));
}

/**
 * Decode a G2 point from 64 compressed or 128 uncompressed big-endian bytes (portable path), with the
 * subgroup check.
 *
 * @example
 * const B = g2FromBytes(proof.b, 'proof.b');
 */
export function g2FromBytes(bytes: Uint8Array, field = 'g2'): G2Point {
  checkLength(bytes, field, [64, 128]);
  let p: G2Point;
  if (bytes.length === 64) {
    const h = readCompressed(bytes, field, 2);
    if (h.infinity) return bn254.G2.Point.ZERO;
    const x = Fp2.fromBigTuple([beToBig(h.x, 32, 32), beToBig(h.x, 0, 32)]);
    const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), G2_B);
    let y: Fp2T;
    try {
      y = Fp2.sqrt(rhs);
    } catch {
      throw new PointError(field, 'not-on-curve', 'x³ + b has no square root in Fp2');
    }
    if (!Fp2.eql(Fp2.sqr(y), rhs)) throw new PointError(field, 'not-on-curve', 'x³ + b has no square root in Fp2');
    if (fp2Larger(y) !== h.larger) y = Fp2.neg(y);
    p = bn254.G2.Point.fromAffine({ x, y });
  } else {
    if (checkUncompressed(bytes, field)) return bn254.G2.Point.ZERO;
    const x = Fp2.fromBigTuple([beToBig(bytes, 32, 32), beToBig(bytes, 0, 32)]);
    const y = Fp2.fromBigTuple([beToBig(bytes, 96, 32), beToBig(bytes, 64, 32)]);
    if (!Fp2.eql(Fp2.sqr(y), Fp2.add(Fp2.mul(Fp2.sqr(x), x), G2_B))) throw new PointError(field, 'not-on-curve');
    p = bn254.G2.Point.fromAffine({ x, y });
  }
  if (!inG2Portable(p)) throw new PointError(field, 'not-in-subgroup');
  return p;
}

/**
 * 32-byte compressed form of a G1 point.
 *
 * @example
 * g1ToCompressed(g1FromBytes(uncompressed64)); // 32 bytes, sign in bit 7 of byte 0
 */
export function g1ToCompressed(p: G1Point): Uint8Array {
  const out = new Uint8Array(32);
  if (p.is0()) {
    out[0] = FLAG_INFINITY;
    return out;
  }
  const a = p.toAffine();
  bigToBe(a.x, 32, out);
  if (a.y > HALF_P) out[0] |= FLAG_Y_LARGER;
  return out;
}

/**
 * 64-byte uncompressed form x‖y of a G1 point (infinity = 64 zero bytes).
 *
 * @example
 * g1ToUncompressed(g1FromBytes(compressed32)); // x‖y, big-endian
 */
export function g1ToUncompressed(p: G1Point): Uint8Array {
  const out = new Uint8Array(64);
  if (p.is0()) return out;
  const a = p.toAffine();
  bigToBe(a.x, 32, out, 0);
  bigToBe(a.y, 32, out, 32);
  return out;
}

/**
 * 64-byte compressed form x.c1‖x.c0 of a G2 point.
 *
 * @example
 * g2ToCompressed(g2FromBytes(uncompressed128)); // 64 bytes, as `compressedProof.b`
 */
export function g2ToCompressed(p: G2Point): Uint8Array {
  const out = new Uint8Array(64);
  if (p.is0()) {
    out[0] = FLAG_INFINITY;
    return out;
  }
  const a = p.toAffine();
  bigToBe(a.x.c1, 32, out, 0);
  bigToBe(a.x.c0, 32, out, 32);
  if (fp2Larger(a.y)) out[0] |= FLAG_Y_LARGER;
  return out;
}

/**
 * 128-byte uncompressed form x.c1‖x.c0‖y.c1‖y.c0 of a G2 point (infinity = zeros).
 *
 * @example
 * g2ToUncompressed(g2FromBytes(compressed64)); // EIP-197 order
 */
export function g2ToUncompressed(p: G2Point): Uint8Array {
  const out = new Uint8Array(128);
  if (p.is0()) return out;
  const a = p.toAffine();
  bigToBe(a.x.c1, 32, out, 0);
  bigToBe(a.x.c0, 32, out, 32);
  bigToBe(a.y.c1, 32, out, 64);
  bigToBe(a.y.c0, 32, out, 96);
  return out;
}

/**
 * Negate an encoded G1 point without decoding it fully: flips the sign flag of a compressed point,
 * replaces y by p − y in an uncompressed one. (Solana Groth16 verifiers take −A, not A.)
 *
 * @example
 * const negA = negateG1Bytes(proofA64);
 */
export function negateG1Bytes(bytes: Uint8Array, field = 'g1'): Uint8Array {
  checkLength(bytes, field, [32, 64]);
  if (bytes.length === 32) {
    const h = readCompressed(bytes, field, 1);
    const out = bytes.slice();
    if (!h.infinity) out[0] ^= FLAG_Y_LARGER;
    return out;
  }
  if (checkUncompressed(bytes, field)) return bytes.slice();
  const out = bytes.slice();
  const y = beToBig(bytes, 32, 32);
  bigToBe(y === 0n ? 0n : BN254_P - y, 32, out, 32);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fast implementation (mcl-wasm, BN_SNARK1 = the same curve as EIP-196/197 and Solana's syscalls)

type Mcl = typeof import('mcl-wasm');
/** A G1 point of mcl-wasm. */
export type MclG1 = InstanceType<Mcl['G1']>;
/** A G2 point of mcl-wasm. */
export type MclG2 = InstanceType<Mcl['G2']>;
/** A scalar of mcl-wasm. */
export type MclFr = InstanceType<Mcl['Fr']>;

/** The mcl-backed decoders; obtained from `loadBn254Wasm()`. */
export interface Bn254Wasm {
  readonly mcl: Mcl;
  g1(bytes: Uint8Array, field?: string): MclG1;
  g2(bytes: Uint8Array, field?: string): MclG2;
  /** A scalar from 32 big-endian bytes; throws `RangeError` when ≥ r (callers check first). */
  fr(bytes: Uint8Array, off?: number): MclFr;
  /** G1 back to bytes (compressed or not), for tests and the devnet's fake proofs. */
  g1ToBytes(p: MclG1, compressed: boolean): Uint8Array;
  /** True when a point of the twist lies in the prime-order subgroup G2 (fast endomorphism test). */
  inG2(p: MclG2): boolean;
}

/** ψ's constants, computed once from ξ = 9 + i (no magic numbers to mistype). */
function psiConstants(): { wx: Fp2T; wy: Fp2T; wx2: bigint } {
  const xi = Fp2.fromBigTuple([9n, 1n]);
  const wx = Fp2.pow(xi, (BN254_P - 1n) / 3n);
  const wy = Fp2.pow(xi, (BN254_P - 1n) / 2n);
  const conj = (f: Fp2T): Fp2T => Fp2.fromBigTuple([f.c0, Fp.neg(f.c1)]);
  const n = Fp2.mul(wx, conj(wx));
  // The shortcut for ψ² rests on these two facts; check them rather than trust them.
  if (n.c1 !== 0n || !Fp2.eql(Fp2.mul(wy, conj(wy)), Fp2.neg(Fp2.ONE))) throw new Error('bn254: ψ constants are inconsistent');
  return { wx, wy, wx2: n.c0 };
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
      const mcl = (await import('mcl-wasm')) as Mcl;
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

function makeWasm(mcl: Mcl): Bn254Wasm {
  const fpFromBe = (b: Uint8Array, off: number): InstanceType<Mcl['Fp']> => {
    const f = new mcl.Fp();
    // Callers have checked < p, so the reduction never changes the value.
    f.setBigEndianMod(b.subarray(off, off + 32));
    return f;
  };
  const one = new mcl.Fp();
  one.setInt(1);
  const three = new mcl.Fp();
  three.setInt(3);
  const fp2One = new mcl.Fp2();
  fp2One.setInt(1, 0);
  const b2 = new mcl.Fp2();
  b2.set_a(fpFromBe(bigToBe(G2_B.c0, 32), 0));
  b2.set_b(fpFromBe(bigToBe(G2_B.c1, 32), 0));

  // mcl serialises Fp little-endian; "larger than p − y" is a comparison from the top byte down.
  const larger = (y: InstanceType<Mcl['Fp']>): boolean => {
    const a = y.serialize();
    const n = mcl.neg(y).serialize();
    for (let i = a.length - 1; i >= 0; i--) if (a[i] !== n[i]) return a[i]! > n[i]!;
    return false;
  };

  const g1 = (bytes: Uint8Array, field = 'g1'): MclG1 => {
    checkLength(bytes, field, [32, 64]);
    const p = new mcl.G1();
    if (bytes.length === 32) {
      const h = readCompressed(bytes, field, 1);
      if (h.infinity) return p;
      const x = fpFromBe(h.x, 0);
      const [okRoot, y0] = mcl.squareRoot(mcl.add(mcl.mul(mcl.sqr(x), x), three));
      if (!okRoot) throw new PointError(field, 'not-on-curve', 'x³ + 3 has no square root');
      const y = larger(y0) === h.larger ? y0 : mcl.neg(y0);
      p.setX(x);
      p.setY(y);
      p.setZ(one);
      return p;
    }
    if (checkUncompressed(bytes, field)) return p;
    p.setX(fpFromBe(bytes, 0));
    p.setY(fpFromBe(bytes, 32));
    p.setZ(one);
    if (!p.isValid()) throw new PointError(field, 'not-on-curve');
    return p;
  };

  const fp2 = (b: Uint8Array, off: number): InstanceType<Mcl['Fp2']> => {
    const f = new mcl.Fp2();
    f.set_b(fpFromBe(b, off));
    f.set_a(fpFromBe(b, off + 32));
    return f;
  };

  const g2 = (bytes: Uint8Array, field = 'g2'): MclG2 => {
    checkLength(bytes, field, [64, 128]);
    const p = new mcl.G2();
    if (bytes.length === 64) {
      const h = readCompressed(bytes, field, 2);
      if (h.infinity) return p;
      const x = fp2(h.x, 0);
      const [okRoot, y0] = mcl.squareRoot(mcl.add(mcl.mul(mcl.sqr(x), x), b2));
      if (!okRoot) throw new PointError(field, 'not-on-curve', 'x³ + b has no square root in Fp2');
      const c1 = y0.get_b();
      const isLarger = c1.isZero() ? larger(y0.get_a()) : larger(c1);
      const y = isLarger === h.larger ? y0 : mcl.neg(y0);
      p.setX(x);
      p.setY(y);
      p.setZ(fp2One);
    } else {
      if (checkUncompressed(bytes, field)) return p;
      const x = fp2(bytes, 0);
      const y = fp2(bytes, 64);
      if (!mcl.sqr(y).isEqual(mcl.add(mcl.mul(mcl.sqr(x), x), b2))) throw new PointError(field, 'not-on-curve');
      p.setX(x);
      p.setY(y);
      p.setZ(fp2One);
    }
    // The twist has a large cofactor: a point on the curve may still be outside the r-torsion.
    if (!inG2(p)) throw new PointError(field, 'not-in-subgroup');
    return p;
  };

  // G2 subgroup membership by the endomorphism ψ (untwist–Frobenius–twist), after El Housni,
  // Guillevic, Piellard, "Co-factor clearing and subgroup membership testing on pairing-friendly
  // curves" (ePrint 2022/348, §3 and §5.1), as gnark-crypto checks BN254:
  //   P ∈ G2  ⇔  [u+1]P + ψ([u]P) + ψ²([u]P) = ψ³([2u]P),  u = 4965661367192848881.
  // One 63-bit scalar multiplication instead of a 254-bit one; measured ≈ 2× faster than mcl's
  // isValidOrder here. The tests hold it equal to isValidOrder on random points in and out of G2.
  // On affine points ψ(x, y) = (x̄·ωx, ȳ·ωy) with ωx = ξ^((p−1)/3), ωy = ξ^((p−1)/2), ξ = 9 + i; and
  // ψ²(x, y) = (x·ωx·ω̄x, −y) since ξ^((p²−1)/2) = −1.
  const fp2Const = (c0: bigint, c1: bigint) => {
    const f = new mcl.Fp2();
    f.set_a(fpFromBe(bigToBe(c0, 32), 0));
    f.set_b(fpFromBe(bigToBe(c1, 32), 0));
    return f;
  };
  const { wx, wy, wx2 } = psiConstants();
  const WX = fp2Const(wx.c0, wx.c1);
  const WY = fp2Const(wy.c0, wy.c1);
  const WX2 = fp2Const(wx2, 0n);
  const U = new mcl.Fr();
  U.setStr('4965661367192848881', 10);
  const conj = (f: InstanceType<Mcl['Fp2']>): InstanceType<Mcl['Fp2']> => {
    const g = new mcl.Fp2();
    g.set_a(f.get_a());
    g.set_b(mcl.neg(f.get_b()));
    return g;
  };
  const affine = (x: InstanceType<Mcl['Fp2']>, y: InstanceType<Mcl['Fp2']>): MclG2 => {
    const q = new mcl.G2();
    q.setX(x);
    q.setY(y);
    q.setZ(fp2One);
    return q;
  };
  const psi = (x: InstanceType<Mcl['Fp2']>, y: InstanceType<Mcl['Fp2']>): MclG2 => affine(mcl.mul(conj(x), WX), mcl.mul(conj(y), WY));
  const inG2 = (p: MclG2): boolean => {
    if (p.isZero()) return true;
    const q = mcl.mul(p, U);
    if (q.isZero()) return false; // only O has order dividing u in G2; p ≠ O here
    const qn = mcl.normalize(q);
    const qx = qn.getX();
    const qy = qn.getY();
    const lhs = mcl.add(mcl.add(q, p), mcl.add(psi(qx, qy), affine(mcl.mul(qx, WX2), mcl.neg(qy))));
    const d = mcl.dbl(q);
    if (d.isZero()) return false;
    const dn = mcl.normalize(d);
    const dx = mcl.mul(dn.getX(), WX2);
    const dy = mcl.neg(dn.getY());
    return lhs.isEqual(psi(dx, dy));
  };

  const fr = (b: Uint8Array, off = 0): MclFr => {
    if (!isScalar(b, off)) throw new RangeError('scalar is not below r');
    const f = new mcl.Fr();
    f.setBigEndianMod(b.subarray(off, off + 32));
    return f;
  };

  const g1ToBytes = (p: MclG1, compressed: boolean): Uint8Array => {
    if (p.isZero()) {
      const out = new Uint8Array(compressed ? 32 : 64);
      if (compressed) out[0] = FLAG_INFINITY;
      return out;
    }
    const n = mcl.normalize(p);
    const le = (f: InstanceType<Mcl['Fp']>): Uint8Array => f.serialize().slice().reverse();
    const x = le(n.getX());
    if (compressed) {
      if (larger(n.getY())) x[0] |= FLAG_Y_LARGER;
      return x;
    }
    const out = new Uint8Array(64);
    out.set(x, 0);
    out.set(le(n.getY()), 32);
    return out;
  };

  return { mcl, g1, g2, fr, g1ToBytes, inG2 };
}
