/**
 * Multi-scalar multiplication Σ kᵢ·Pᵢ (Pippenger's bucket method with signed digits) and fixed-base
 * multiplication k·G for many k (a table of byte multiples), both on points in mcl's heap, built
 * from mcl's raw point additions.
 *
 * Why not mcl's `mulVec`: in this wasm build it costs ≈ 45 µs per G1 point whatever the size
 * (measured 2^13 and 2^16 points: 46 and 45 µs/pt; G2 162 µs/pt), i.e. it does not scale like a
 * bucket method, and its JavaScript wrapper copies the vectors onto a 1 MB stack (≈ 7,000 G1 points
 * at most). A mixed addition costs 0.90 µs (G1) and 3.45 µs (G2) here, and Pippenger with c-bit
 * signed windows needs ≈ 254/c of them per point, plus 2^c per window for the buckets: ≈ 16 µs per
 * G1 point at 2^16. Zero scalars cost nothing and small ones (the circuits' bits) one addition.
 */
import type { Group, Heap } from '../crypto/index.js';

const BITS = 254;

function windowBits(n: number): number {
  if (n < 32) return 3;
  return Math.min(16, Math.max(4, Math.round(Math.log2(n)) - 2));
}

/**
 * Signed c-bit digits of each scalar, window-major: digits[w·n + i] ∈ [−2^(c−1), 2^(c−1)].
 * `le` holds n little-endian 32-byte scalars (< 2^254) and 4 spare bytes.
 */
function signedDigits(le: Uint8Array, n: number, c: number, windows: number): Int32Array {
  const out = new Int32Array(windows * n);
  const full = 1 << c;
  const half = full >> 1;
  const mask = full - 1;
  for (let i = 0; i < n; i++) {
    const base = i * 32;
    let carry = 0;
    for (let w = 0; w < windows; w++) {
      const bit = w * c;
      const byte = base + (bit >> 3);
      let v = 0;
      if (bit < 256) v = ((le[byte]! | (le[byte + 1]! << 8) | (le[byte + 2]! << 16)) >>> (bit & 7)) & mask;
      if (bit + c > 256) v &= (1 << Math.max(0, 256 - bit)) - 1;
      v += carry;
      if (v > half) {
        v -= full;
        carry = 1;
      } else carry = 0;
      out[w * n + i] = v;
    }
  }
  return out;
}

/**
 * out = Σ kᵢ·Pᵢ over n affine points at `pts` (group `g`) and n scalars (little-endian bytes).
 *
 * @example
 * msm(h, h.g1, out, pointsPtr, scalarsLe(witness), witness.length);
 */
export function msm(h: Heap, g: Group, out: number, pts: number, le: Uint8Array, n: number): void {
  h.u8().fill(0, out, out + g.size);
  if (n === 0) return;
  const c = windowBits(n);
  const windows = Math.floor(BITS / c) + 1;
  const digits = signedDigits(le, n, c, windows);
  const nb = 1 << (c - 1);
  const S = g.size;
  const buckets = h.alloc(nb * S);
  const tmp = h.alloc(S);
  const sum = h.alloc(S);
  const tot = h.alloc(S);
  try {
    for (let w = windows - 1; w >= 0; w--) {
      if (w !== windows - 1) for (let k = 0; k < c; k++) g.dbl(out, out);
      h.u8().fill(0, buckets, buckets + nb * S);
      const row = w * n;
      let used = 0;
      for (let i = 0; i < n; i++) {
        const d = digits[row + i]!;
        if (d > 0) g.add(buckets + (d - 1) * S, buckets + (d - 1) * S, pts + i * S);
        else if (d < 0) {
          g.neg(tmp, pts + i * S);
          g.add(buckets + (-d - 1) * S, buckets + (-d - 1) * S, tmp);
        } else continue;
        used++;
      }
      if (used === 0) continue;
      // Σ (k+1)·bucket[k] as a running sum from the top bucket down.
      const u8 = h.u8();
      u8.fill(0, sum, sum + S);
      u8.fill(0, tot, tot + S);
      for (let k = nb - 1; k >= 0; k--) {
        g.add(sum, sum, buckets + k * S);
        g.add(tot, tot, sum);
      }
      g.add(out, out, tot);
    }
  } finally {
    for (const p of [buckets, tmp, sum, tot]) h.free(p);
  }
}

/**
 * A table for k·G: T[j][d] = d·2^(8j)·G for the 32 bytes j of k and every byte value d (affine),
 * so each product costs 32 mixed additions instead of a 254-bit double-and-add.
 */
export interface FixedBase {
  readonly g: Group;
  readonly table: number;
  free(): void;
}

export function fixedBase(h: Heap, g: Group, base: number): FixedBase {
  const S = g.size;
  const table = h.alloc(32 * 256 * S);
  const u8 = (): Uint8Array => h.u8();
  const cur = h.alloc(S);
  u8().copyWithin(cur, base, base + S);
  for (let j = 0; j < 32; j++) {
    const row = table + j * 256 * S;
    // T[j][0] stays the identity (zeroed memory).
    u8().copyWithin(row + S, cur, cur + S);
    for (let d = 2; d < 256; d++) g.add(row + d * S, row + (d - 1) * S, row + S);
    g.dbl(cur, row + 128 * S); // 2^(8(j+1))·G = 2 · (128 · 2^(8j)·G)
  }
  h.free(cur);
  g.normalizeVec(table, 32 * 256);
  return { g, table, free: () => h.free(table) };
}

/**
 * out[i] = kᵢ·G for n scalars (little-endian bytes), written affine at `out` (n points).
 */
export function fixedBaseMul(h: Heap, fb: FixedBase, out: number, le: Uint8Array, n: number): void {
  const { g, table } = fb;
  const S = g.size;
  h.u8().fill(0, out, out + n * S);
  for (let i = 0; i < n; i++) {
    const p = out + i * S;
    const o = i * 32;
    for (let j = 0; j < 32; j++) {
      const d = le[o + j]!;
      if (d !== 0) g.add(p, p, table + (j * 256 + d) * S);
    }
  }
  g.normalizeVec(out, n);
}
