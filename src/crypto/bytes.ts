/**
 * Big-endian byte strings as the proofs carry them: conversions to and from bigints (off the hot
 * path), comparisons, and the field bounds checked on bytes (no bigint on the hot path).
 */

/** Big-endian bytes → bigint (diagnostics and range checks off the hot path). */
export function beToBigint(b: Uint8Array): bigint {
  let v = 0n;
  for (let i = 0; i < b.length; i++) v = (v << 8n) | BigInt(b[i]!);
  return v;
}

/** bigint → `len` big-endian bytes. */
export function bigintToBe(v: bigint, len = 32): Uint8Array {
  const out = new Uint8Array(len);
  for (let i = len - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Lexicographic comparison of equal-length big-endian byte strings: -1, 0 or 1. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Constant-length byte comparison (not constant-time: nothing secret is compared here). */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The BN254 scalar field modulus r, 32 big-endian bytes: every Poseidon input must be below it. */
export const BN254_R = bigintToBe(21888242871839275222246405745257275088548364400416034343698204186575808495617n);

/** True when the 32 big-endian bytes are < r. */
export function inField(b: Uint8Array): boolean {
  return compareBytes(b, BN254_R) < 0;
}

/** True when the 32 big-endian bytes are < 2^248 (addresses: the first byte is zero). */
export function below248(b: Uint8Array): boolean {
  return b.length === 32 && b[0] === 0;
}
