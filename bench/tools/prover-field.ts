/**
 * Which field arithmetic for the prover's NTT (src/prover/ntt.ts's table): one forward transform
 * on 2^13 and 2^16 points with BigInt (% r), with mcl's `Fr` objects, with a Montgomery product on
 * 16 × 16-bit limbs in typed arrays (CIOS, written here), and with mcl's raw exports on heap
 * pointers (the prover's own `ntt`). Each checks one output against the BigInt transform.
 *
 *   npx tsx bench/tools/prover-field.ts
 */
import { FR_SIZE, loadHeap } from '../../src/crypto/mcl-heap.js';
import { domain, ntt, powMod, rootOfUnity } from '../../src/prover/ntt.js';
import { BN254_R as R } from '../../src/prover/r1cs.js';

type Mcl = typeof import('mcl-wasm');
type Fr = InstanceType<Mcl['Fr']>;

function bitReverse<T>(a: T[] | Uint32Array, n: number, swap: (i: number, j: number) => void): void {
  void a;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) swap(i, j);
  }
}

function nttBig(a: bigint[], w: bigint): void {
  const n = a.length;
  bitReverse(a, n, (i, j) => ([a[i], a[j]] = [a[j]!, a[i]!]));
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const step = powMod(w, BigInt(n / len));
    const tw: bigint[] = [1n];
    for (let i = 1; i < half; i++) tw[i] = (tw[i - 1]! * step) % R;
    for (let i = 0; i < n; i += len) {
      for (let j = 0; j < half; j++) {
        const u = a[i + j]!;
        const v = (a[i + j + half]! * tw[j]!) % R;
        a[i + j] = u + v >= R ? u + v - R : u + v;
        a[i + j + half] = u - v < 0n ? u - v + R : u - v;
      }
    }
  }
}

function nttObjects(mcl: Mcl, a: Fr[], w: bigint): void {
  const n = a.length;
  bitReverse(a, n, (i, j) => ([a[i], a[j]] = [a[j]!, a[i]!]));
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const step = new mcl.Fr();
    step.setStr(powMod(w, BigInt(n / len)).toString());
    const one = new mcl.Fr();
    one.setInt(1);
    const tw = [one];
    for (let i = 1; i < half; i++) tw[i] = mcl.mul(tw[i - 1]!, step);
    for (let i = 0; i < n; i += len) {
      for (let j = 0; j < half; j++) {
        const u = a[i + j]!;
        const v = mcl.mul(a[i + j + half]!, tw[j]!);
        a[i + j] = mcl.add(u, v);
        a[i + j + half] = mcl.sub(u, v);
      }
    }
  }
}

// Montgomery on 16 limbs of 16 bits, R = 2^256; limbs little-endian.
const L = 16;
const limbs = (x: bigint, out: Uint32Array, off: number): void => {
  for (let i = 0; i < L; i++, x >>= 16n) out[off + i] = Number(x & 0xffffn);
};
const N = new Uint32Array(L);
limbs(R, N, 0);
let nInv = 1n;
for (let i = 0; i < 5; i++) nInv = (nInv * (2n - ((R * nInv) % 65536n))) % 65536n;
const NP = Number((65536n - nInv) % 65536n);
const RM = (1n << 256n) % R;
const t = new Float64Array(L + 2);

function geN(x: Uint32Array | Float64Array, off: number, top: number): boolean {
  if (top > 0) return true;
  for (let j = L - 1; j >= 0; j--) if (x[off + j] !== N[j]) return x[off + j]! > N[j]!;
  return true;
}
function subN(src: Uint32Array | Float64Array, so: number, out: Uint32Array, oo: number): void {
  let br = 0;
  for (let j = 0; j < L; j++) {
    const d = src[so + j]! - N[j]! - br;
    br = d < 0 ? 1 : 0;
    out[oo + j] = d + br * 65536;
  }
}
function mmul(a: Uint32Array, ao: number, b: Uint32Array, bo: number, out: Uint32Array, oo: number): void {
  t.fill(0);
  for (let i = 0; i < L; i++) {
    const ai = a[ao + i]!;
    let c = 0;
    for (let j = 0; j < L; j++) {
      const s = t[j]! + ai * b[bo + j]! + c;
      c = Math.floor(s / 65536);
      t[j] = s - c * 65536;
    }
    let s = t[L]! + c;
    c = Math.floor(s / 65536);
    t[L] = s - c * 65536;
    t[L + 1]! += c;
    const m = (t[0]! * NP) % 65536;
    s = t[0]! + m * N[0]!;
    c = Math.floor(s / 65536);
    for (let j = 1; j < L; j++) {
      s = t[j]! + m * N[j]! + c;
      c = Math.floor(s / 65536);
      t[j - 1] = s - c * 65536;
    }
    s = t[L]! + c;
    c = Math.floor(s / 65536);
    t[L - 1] = s - c * 65536;
    t[L] = t[L + 1]! + c;
    t[L + 1] = 0;
  }
  if (geN(t, 0, t[L]!)) subN(t, 0, out, oo);
  else for (let j = 0; j < L; j++) out[oo + j] = t[j]!;
}
function madd(a: Uint32Array, ao: number, b: Uint32Array, bo: number, out: Uint32Array, oo: number): void {
  let c = 0;
  for (let j = 0; j < L; j++) {
    const s = a[ao + j]! + b[bo + j]! + c;
    c = s >>> 16;
    out[oo + j] = s & 0xffff;
  }
  if (geN(out, oo, c)) subN(out, oo, out, oo);
}
function msub(a: Uint32Array, ao: number, b: Uint32Array, bo: number, out: Uint32Array, oo: number): void {
  let br = 0;
  for (let j = 0; j < L; j++) {
    const d = a[ao + j]! - b[bo + j]! - br;
    br = d < 0 ? 1 : 0;
    out[oo + j] = (d + 65536) & 0xffff;
  }
  if (br) {
    let c = 0;
    for (let j = 0; j < L; j++) {
      const s = out[oo + j]! + N[j]! + c;
      c = s >>> 16;
      out[oo + j] = s & 0xffff;
    }
  }
}
function nttMont(a: Uint32Array, n: number, w: bigint): void {
  const tw = new Uint32Array((n / 2) * L);
  for (let i = 0, c = 1n; i < n / 2; i++, c = (c * w) % R) limbs((c * RM) % R, tw, i * L);
  const tmp = new Uint32Array(L);
  bitReverse(a, n, (i, j) => {
    for (let q = 0; q < L; q++) [a[i * L + q], a[j * L + q]] = [a[j * L + q]!, a[i * L + q]!];
  });
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const step = n / len;
    for (let i = 0; i < n; i += len) {
      for (let j = 0; j < half; j++) {
        const u = (i + j) * L;
        const v = (i + j + half) * L;
        mmul(a, v, tw, j * step * L, tmp, 0);
        msub(a, u, tmp, 0, a, v);
        madd(a, u, tmp, 0, a, u);
      }
    }
  }
}

const h = await loadHeap();
const mcl = h.w.mcl;
for (const k of [13, 16]) {
  const n = 1 << k;
  const w = rootOfUnity(k);
  const xs = Array.from({ length: n }, (_, i) => (BigInt(i) * 0x1234567890abcdefn + 7n) ** 3n % R);
  const time = (f: () => void): number => {
    const t0 = performance.now();
    f();
    return performance.now() - t0;
  };
  const big = xs.slice();
  const tBig = time(() => nttBig(big, w));
  const objs = xs.map((x) => {
    const f = new mcl.Fr();
    f.setStr(x.toString());
    return f;
  });
  const tObj = time(() => nttObjects(mcl, objs, w));
  const mont = new Uint32Array(n * L);
  xs.forEach((x, i) => limbs((x * RM) % R, mont, i * L));
  const tMont = time(() => nttMont(mont, n, w));
  const d = domain(h, k);
  const p = h.alloc(n * FR_SIZE);
  xs.forEach((x, i) => h.setFr(p + i * FR_SIZE, x));
  const tHeap = time(() => ntt(h, d, p));
  const out = new Uint8Array(64);
  h.getFrVec(p + 5 * FR_SIZE, 1, out);
  let heap5 = 0n;
  for (let i = 31; i >= 0; i--) heap5 = (heap5 << 8n) | BigInt(out[i]!);
  let mont5 = 0n;
  for (let i = L - 1; i >= 0; i--) mont5 = (mont5 << 16n) | BigInt(mont[5 * L + i]!);
  mont5 = (mont5 * powMod(RM, R - 2n)) % R;
  const ok = [BigInt(objs[5]!.getStr(10)), mont5, heap5].every((x) => x === big[5]);
  console.log(`2^${k}: BigInt ${tBig.toFixed(0)} ms, mcl Fr objects ${tObj.toFixed(0)} ms, Montgomery 16-bit limbs ${tMont.toFixed(0)} ms, mcl raw on heap ${tHeap.toFixed(0)} ms; all agree: ${ok}`);
  h.free(p);
}
