/**
 * BN254 (alt_bn128) point codecs for Groth16 proofs and verifying keys (encodings: bn254-encoding.ts):
 * every decoder checks that coordinates are < p, that the point lies on the curve and, for G2, that
 * it lies in the prime-order subgroup (G1 has cofactor 1).
 *
 * Two implementations sit side by side: this portable one over `@noble/curves` (sync, always there,
 * the reference) and a fast one over `mcl-wasm` (BN_SNARK1, bn254-wasm.ts), loaded on demand by
 * `loadBn254Wasm()`. Both accept and reject exactly the same byte strings; the tests hold them to that.
 */
import { bn254 } from '@noble/curves/bn254.js';
import { CairnError, ErrorCodes, PointError } from '../errors/index.js';
import { beToBig, bigToBe, BN254_P, checkLength, checkUncompressed, FLAG_INFINITY, FLAG_Y_LARGER, readCompressed } from './bn254-encoding.js';

const { Fp, Fp2 } = bn254.fields;
/** An element of Fp2 in @noble/curves. */
export type Fp2T = ReturnType<typeof Fp2.fromBigTuple>;
/** A G1 point of @noble/curves. */
export type G1Point = ReturnType<typeof bn254.G1.Point.fromAffine>;
/** A G2 point of @noble/curves. */
export type G2Point = ReturnType<typeof bn254.G2.Point.fromAffine>;
/** The twist's curve constant b' (y² = x³ + b'), for both implementations' on-curve checks. */
export const G2_B: Fp2T = Fp2.fromBigTuple([
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

/** ψ's constants, computed once from ξ = 9 + i (no magic numbers to mistype). */
export function psiConstants(): { wx: Fp2T; wy: Fp2T; wx2: bigint } {
  const xi = Fp2.fromBigTuple([9n, 1n]);
  const wx = Fp2.pow(xi, (BN254_P - 1n) / 3n);
  const wy = Fp2.pow(xi, (BN254_P - 1n) / 2n);
  const conj = (f: Fp2T): Fp2T => Fp2.fromBigTuple([f.c0, Fp.neg(f.c1)]);
  const n = Fp2.mul(wx, conj(wx));
  // The shortcut for ψ² rests on these two facts; check them rather than trust them.
  if (n.c1 !== 0n || !Fp2.eql(Fp2.mul(wy, conj(wy)), Fp2.neg(Fp2.ONE))) throw new CairnError(ErrorCodes.INTERNAL, 'bn254: ψ constants are inconsistent', { context: { invariant: 'bn254 ψ constants' } });
  return { wx, wy, wx2: n.c0 };
}
