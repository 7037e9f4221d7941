/**
 * BN254 (alt_bn128) point encodings as Solana programs lay them out: big-endian coordinates, G1 =
 * x‖y (64 bytes) or x with flag bits (32 bytes), G2 = x.c1‖x.c0‖y.c1‖y.c0 (128 bytes) or x.c1‖x.c0
 * with flag bits (64 bytes). Flags sit in the top two bits of byte 0: 0x80 = "y is the larger root"
 * (y > −y; for Fp2 compared c1 first, then c0, as arkworks orders it), 0x40 = point at infinity.
 * Here: the moduli, the byte checks both implementations (bn254.ts, bn254-wasm.ts) run before
 * decoding, and `PointError` with its reasons.
 */
import { PointError } from '../errors/index.js';

/** Base field modulus p. */
export const BN254_P = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47n;
/** Scalar field modulus r (the group order; public inputs must be below it). */
export const BN254_R = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001n;

export const FLAG_Y_LARGER = 0x80;
export const FLAG_INFINITY = 0x40;

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

export function checkLength(bytes: Uint8Array, field: string, allowed: readonly number[]): void {
  if (!(bytes instanceof Uint8Array)) throw new PointError(field, 'length', `expected bytes, got ${typeof bytes}`);
  if (!allowed.includes(bytes.length)) throw new PointError(field, 'length', `expected ${allowed.join(' or ')} bytes, got ${bytes.length}`);
}

/** Compressed header: the flags and a copy of x with the flag bits cleared (x < p is checked here). */
export function readCompressed(bytes: Uint8Array, field: string, coords: 1 | 2): { larger: boolean; infinity: boolean; x: Uint8Array } {
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

/** Uncompressed bytes: true for all zeros (infinity), else every coordinate checked < p. */
export function checkUncompressed(bytes: Uint8Array, field: string): boolean {
  let zero = true;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== 0) { zero = false; break; }
  if (zero) return true; // EIP-197 convention: all-zero bytes = infinity
  for (let off = 0; off < bytes.length; off += 32) if (!below(bytes, off, P_BE)) throw new PointError(field, 'coordinate');
  return false;
}
