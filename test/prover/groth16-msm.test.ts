/**
 * The prover's multi-scalar multiplication (signed-digit Pippenger) and fixed-base tables against
 * mcl's own scalar multiplication, one point at a time, on the scalars where digit carries bite:
 * 0, 1, r − 1, r − 2, 2^253, values with runs of ones across window boundaries, and random ones,
 * for sizes that pick different window widths, in G1 and G2. Also the NTT round trip.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FR_SIZE, loadHeap, scalarsLe, type Group, type Heap } from '../../src/crypto/mcl-heap.js';
import { fixedBase, fixedBaseMul, msm } from '../../src/prover/msm.js';
import { cosetIntt, cosetNtt, domain, intt, ntt } from '../../src/prover/ntt.js';
import { BN254_R as R } from '../../src/prover/r1cs.js';
import { G1_GENERATOR, G2_GENERATOR, g1Into, g2Into } from '../../src/prover/points.js';

function scalars(n: number): bigint[] {
  const edge = [0n, 1n, 2n, R - 1n, R - 2n, 1n << 253n, (1n << 253n) - 1n, (1n << 128n) - 1n];
  for (let w = 3; w <= 16; w++) edge.push(((1n << BigInt(w * 5)) - 1n) << BigInt(w), (1n << BigInt(w - 1)) * 0x1111111111n);
  const out: bigint[] = [];
  for (let i = 0; i < n; i++) out.push(i < edge.length ? edge[i]! % R : BigInt(`0x${randomBytes(32).toString('hex')}`) % R);
  return out;
}

/** n distinct points k·G (k = 3, 5, 7, …) written affine at a fresh pointer, via mcl's own mul. */
function points(h: Heap, g: Group, n: number): number {
  const base = h.alloc(g.size);
  if (g.name === 'G1') g1Into(h, G1_GENERATOR, base);
  else g2Into(h, G2_GENERATOR, base);
  const pts = h.alloc(n * g.size);
  const k = h.alloc(FR_SIZE);
  for (let i = 0; i < n; i++) {
    h.setFr(k, BigInt(2 * i + 3));
    g.mul(pts + i * g.size, base, k);
  }
  g.normalizeVec(pts, n);
  h.free(k);
  h.free(base);
  return pts;
}

function naive(h: Heap, g: Group, pts: number, xs: bigint[]): number {
  const acc = h.alloc(g.size);
  const t = h.alloc(g.size);
  const k = h.alloc(FR_SIZE);
  xs.forEach((x, i) => {
    h.setFr(k, x);
    g.mul(t, pts + i * g.size, k);
    g.add(acc, acc, t);
  });
  h.free(t);
  h.free(k);
  return acc;
}

const equal = (h: Heap, g: Group, a: number, b: number): boolean => {
  const d = h.alloc(g.size);
  const na = h.alloc(g.size);
  g.neg(na, a);
  g.add(d, b, na);
  const z = h.u8().subarray(d + (g.size / 3) * 2, d + g.size).every((x) => x === 0); // identity: z = 0
  h.free(d);
  h.free(na);
  return z;
};

describe('prover arithmetic on the mcl heap', () => {
  for (const [group, sizes] of [['G1', [1, 5, 40, 300]], ['G2', [1, 40]]] as const) {
    it(`msm equals Σ kᵢ·Pᵢ in ${group} (n = ${sizes.join(', ')})`, async () => {
      const h = await loadHeap();
      const g = group === 'G1' ? h.g1 : h.g2;
      for (const n of sizes) {
        const pts = points(h, g, n);
        const xs = scalars(n);
        const out = h.alloc(g.size);
        msm(h, g, out, pts, scalarsLe(xs), n);
        const want = naive(h, g, pts, xs);
        expect(equal(h, g, out, want), `n = ${n}`).toBe(true);
        for (const p of [pts, out, want]) h.free(p);
      }
    });
  }

  it('fixed-base tables equal k·G in G1 and G2', async () => {
    const h = await loadHeap();
    for (const g of [h.g1, h.g2]) {
      const base = h.alloc(g.size);
      if (g.name === 'G1') g1Into(h, G1_GENERATOR, base);
      else g2Into(h, G2_GENERATOR, base);
      const fb = fixedBase(h, g, base);
      const xs = scalars(40);
      const out = h.alloc(xs.length * g.size);
      fixedBaseMul(h, fb, out, scalarsLe(xs), xs.length);
      const k = h.alloc(FR_SIZE);
      const want = h.alloc(g.size);
      xs.forEach((x, i) => {
        h.setFr(k, x);
        g.mul(want, base, k);
        expect(equal(h, g, out + i * g.size, want), `${g.name} k = ${x}`).toBe(true);
      });
      fb.free();
      for (const p of [base, out, k, want]) h.free(p);
    }
  });

  it('ntt ∘ intt and cosetNtt ∘ cosetIntt are the identity', async () => {
    const h = await loadHeap();
    const k = 6;
    const d = domain(h, k);
    const xs = scalars(d.n);
    const p = h.alloc(d.n * FR_SIZE);
    const le = scalarsLe(xs);
    h.setFrVec(p, le, d.n);
    const back = new Uint8Array(d.n * 32 + 4);
    intt(h, d, p);
    ntt(h, d, p);
    h.getFrVec(p, d.n, back);
    expect(Buffer.from(back).equals(Buffer.from(le))).toBe(true);
    cosetNtt(h, d, p);
    cosetIntt(h, d, p);
    h.getFrVec(p, d.n, back);
    expect(Buffer.from(back).equals(Buffer.from(le))).toBe(true);
    h.free(p);
  });
});
