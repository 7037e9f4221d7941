/**
 * The number-theoretic transform over BN254's scalar field r on power-of-two domains, on Fr vectors
 * in mcl's heap: evaluations ↔ coefficients, and the coset variants the quotient H = (A·B − C)/Z
 * needs (Z = Xⁿ − 1 vanishes on the domain, so H is evaluated on the coset g·⟨ω⟩ where Z is the
 * constant gⁿ − 1).
 *
 * Field arithmetic, measured with `npx tsx bench/tools/prover-field.ts` (one forward transform,
 * Node 20, a shared 2-core machine: the first row pair quiet, the others under load average 7–9,
 * so compare within a row, not across):
 *
 * | points | BigInt (% r) | mcl `Fr` objects | Montgomery, 16 × 16-bit limbs, typed arrays | mcl raw exports, heap pointers |
 * |-------:|-------------:|-----------------:|--------------------------------------------:|-------------------------------:|
 * | 2^13   | 28–39 ms     | 82–103 ms        | (not in that run)                           | 10–15 ms                       |
 * | 2^16   | 220–250 ms   | 879–907 ms       | (not in that run)                           | 69–75 ms                       |
 * | 2^13   | 34 / 127 ms  | 212 / 503 ms     | 287 / 795 ms                                | 14 / 18 ms                     |
 * | 2^16   | 290 / 1155 ms| 1401 / 8465 ms   | 4157 / 5767 ms                              | 452 / 310 ms                   |
 *
 * The raw exports (mcl's own Montgomery code in wasm, ≈ 0.1 µs a butterfly multiply with the call)
 * are the fastest in every quiet run and all but one loaded one, 2–4× ahead of BigInt. A Montgomery
 * product written in JavaScript (CIOS on 16-bit limbs, carries through doubles) loses even to
 * BigInt: 512 limb products and their carries per multiplication cost more than V8's BigInt
 * multiply and modulo. mcl's objects lose because every operation copies its operands through the
 * wasm stack.
 */
import { BN254_R } from './r1cs.js';
import { FR_SIZE, type Heap } from '../crypto/index.js';

const R = BN254_R;
/** 5 generates r's multiplicative group; r − 1 = 2^28 · odd. */
const GENERATOR = 5n;
const TWO_ADICITY = 28;

export function powMod(b: bigint, e: bigint): bigint {
  let r = 1n;
  b %= R;
  for (; e > 0n; e >>= 1n, b = (b * b) % R) if (e & 1n) r = (r * b) % R;
  return r;
}

/** A primitive 2^k-th root of unity. */
export function rootOfUnity(k: number): bigint {
  if (k > TWO_ADICITY) throw new RangeError(`no 2^${k}-th root of unity in r (2-adicity ${TWO_ADICITY})`);
  return powMod(powMod(GENERATOR, (R - 1n) >> BigInt(TWO_ADICITY)), 1n << BigInt(TWO_ADICITY - k));
}

/** The coset shift: a non-residue, so g·⟨ω⟩ never meets ⟨ω⟩. */
const COSET_SHIFT = GENERATOR;

/** Per-domain tables in the heap: twiddles (ω^i, ω^−i for i < n/2) and powers of g and g⁻¹. */
export interface Domain {
  readonly k: number;
  readonly n: number;
  readonly tw: number;
  readonly twInv: number;
  readonly gPow: number;
  readonly gInvPow: number;
  /** n⁻¹ and (gⁿ − 1)⁻¹ as Frs. */
  readonly nInv: number;
  readonly zInv: number;
  readonly tmp: number;
}

const domains = new WeakMap<Heap, Map<number, Domain>>();

/** The tables of the 2^k domain, built once per thread. */
export function domain(h: Heap, k: number): Domain {
  let byK = domains.get(h);
  if (!byK) domains.set(h, (byK = new Map()));
  let d = byK.get(k);
  if (d) return d;
  const n = 1 << k;
  const powers = (base: bigint, count: number): number => {
    const p = h.alloc(count * FR_SIZE);
    let x = 1n;
    for (let i = 0; i < count; i++, x = (x * base) % R) h.setFr(p + i * FR_SIZE, x);
    return p;
  };
  const w = rootOfUnity(k);
  const gInv = powMod(COSET_SHIFT, R - 2n);
  const scalar = (x: bigint): number => {
    const p = h.alloc(FR_SIZE);
    h.setFr(p, x);
    return p;
  };
  d = {
    k,
    n,
    tw: powers(w, Math.max(1, n / 2)),
    twInv: powers(powMod(w, R - 2n), Math.max(1, n / 2)),
    gPow: powers(COSET_SHIFT, n),
    gInvPow: powers(gInv, n),
    nInv: scalar(powMod(BigInt(n), R - 2n)),
    zInv: scalar(powMod((powMod(COSET_SHIFT, BigInt(n)) - 1n + R) % R, R - 2n)),
    tmp: h.alloc(FR_SIZE),
  };
  byK.set(k, d);
  return d;
}

function bitReverse(h: Heap, base: number, n: number): void {
  const u32 = h.u32();
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const a = (base + i * FR_SIZE) >> 2;
      const b = (base + j * FR_SIZE) >> 2;
      for (let t = 0; t < 8; t++) {
        const x = u32[a + t]!;
        u32[a + t] = u32[b + t]!;
        u32[b + t] = x;
      }
    }
  }
}

// Iterative radix-2 Cooley–Tukey after a bit-reversal: twiddle j of a stage of length len is
// ω_n^(j·n/len), read from the one table of ω_n powers.
function transform(h: Heap, d: Domain, base: number, tw: number): void {
  const { n, tmp } = d;
  const { _mclBnFr_add: add, _mclBnFr_sub: sub, _mclBnFr_mul: mul } = h.m;
  bitReverse(h, base, n);
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const step = (n / len) * FR_SIZE;
    for (let i = 0; i < n; i += len) {
      for (let j = 0; j < half; j++) {
        const u = base + (i + j) * FR_SIZE;
        const v = u + half * FR_SIZE;
        mul(tmp, v, tw + j * step);
        sub(v, u, tmp);
        add(u, u, tmp);
      }
    }
  }
}

function scale(h: Heap, base: number, n: number, table: number, stride: number): void {
  const mul = h.m._mclBnFr_mul;
  for (let i = 0; i < n; i++) mul(base + i * FR_SIZE, base + i * FR_SIZE, table + i * stride);
}

/** Evaluations on ⟨ω⟩ from coefficients, in place. */
export function ntt(h: Heap, d: Domain, base: number): void {
  transform(h, d, base, d.tw);
}

/** Coefficients from evaluations on ⟨ω⟩, in place. */
export function intt(h: Heap, d: Domain, base: number): void {
  transform(h, d, base, d.twInv);
  scale(h, base, d.n, d.nInv, 0);
}

/** Evaluations on the coset g·⟨ω⟩ from coefficients, in place. */
export function cosetNtt(h: Heap, d: Domain, base: number): void {
  scale(h, base, d.n, d.gPow, FR_SIZE);
  transform(h, d, base, d.tw);
}

/** Coefficients from evaluations on the coset g·⟨ω⟩, in place. */
export function cosetIntt(h: Heap, d: Domain, base: number): void {
  intt(h, d, base);
  scale(h, base, d.n, d.gInvPow, FR_SIZE);
}
