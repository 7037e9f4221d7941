/**
 * Generates native/poseidon_constants.h: the Poseidon parameters of every width t = 2..13 in the
 * "optimised" shape the C kernel runs (constants folded into the first full round after the partial
 * rounds, sparse partial-round matrices), each in Montgomery form (R = 2^256) as four little-endian
 * 64-bit limbs. The plain parameters come from the Grain LFSR (src/crypto/poseidon-params.ts);
 * the optimised form is derived here and checked, for every width, to give the same hash as the
 * plain rounds on random inputs. When poseidon-lite is installed its tables are compared too.
 *
 * Run: npx tsx scripts/gen-poseidon-constants.ts
 *
 * The transformation (our own derivation of the Poseidon paper's appendix B idea):
 * - Partial round i is x -> M·sbox0(x + c_i). Only lane 0 meets the S-box, so lanes 1.. of c_i pass
 *   through linearly: keep the scalar c_i[0] and add M·(0, c_i[1..]) to the next round's constants.
 * - Factor M = S·H with H = diag(1, Â) and S = [[m00, w],[v, I]]: Â = M[1..][1..], v = M[1..][0],
 *   w = M[0][1..]·Â^{-1}. H leaves lane 0 alone, so it commutes with sbox0 and with adding a lane-0
 *   constant, and can move into the previous round's matrix (H·M), which is factored again. The
 *   last H lands in the final first-half full round, whose matrix becomes P = H·M.
 */
import { writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BN254_R as R, FULL_ROUNDS, PARTIAL_ROUNDS, invMod, poseidonParams } from '../src/crypto/poseidon-params.js';
import { poseidonBigInt } from '../src/crypto/poseidon-js.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const mod = (a: bigint): bigint => ((a % R) + R) % R;

type Mat = bigint[][];
const matMul = (a: Mat, b: readonly (readonly bigint[])[]): Mat => a.map((row) => b[0].map((_, j) => mod(row.reduce((s, x, k) => s + x * b[k][j], 0n))));
const matVec = (a: readonly (readonly bigint[])[], v: readonly bigint[]): bigint[] => a.map((row) => mod(row.reduce((s, x, k) => s + x * v[k], 0n)));

function matInv(a: Mat): Mat {
  const n = a.length;
  const m = a.map((row, i) => [...row, ...row.map((_, j) => (i === j ? 1n : 0n))]);
  for (let c = 0; c < n; c++) {
    let p = c;
    while (p < n && m[p][c] === 0n) p++;
    if (p === n) throw new Error('singular matrix');
    [m[c], m[p]] = [m[p], m[c]];
    const iv = invMod(m[c][c]);
    m[c] = m[c].map((x) => mod(x * iv));
    for (let r = 0; r < n; r++) {
      if (r === c || m[r][c] === 0n) continue;
      const f = m[r][c];
      m[r] = m[r].map((x, j) => mod(x - f * m[c][j]));
    }
  }
  return m.map((row) => row.slice(n));
}

export interface Optimized {
  t: number;
  rp: number;
  /** 8 full rounds × t constants (first half rounds 0..3, second half 4..7). */
  cf: bigint[];
  M: Mat;
  P: Mat;
  /** Per partial round: [c, m00, w_1..w_{t-1}, v_1..v_{t-1}] (2t values). */
  partial: bigint[];
}

function optimize(t: number): Optimized {
  const { C, M, partialRounds: rp } = poseidonParams(t);
  const half = FULL_ROUNDS / 2;
  const round = (r: number): bigint[] => C.slice(r * t, r * t + t);
  const cf: bigint[] = [];
  for (let r = 0; r < half; r++) cf.push(...round(r));
  // Constant folding, forward through the partial rounds.
  const scalars: bigint[] = [];
  let carry = new Array<bigint>(t).fill(0n);
  for (let i = 0; i < rp; i++) {
    const c = round(half + i).map((x, k) => mod(x + carry[k]));
    scalars.push(c[0]);
    carry = matVec(M, [0n, ...c.slice(1)]);
  }
  const firstSecond = round(half + rp).map((x, k) => mod(x + carry[k]));
  cf.push(...firstSecond);
  for (let r = half + rp + 1; r < FULL_ROUNDS + rp; r++) cf.push(...round(r));
  // Sparse factorisation, backward.
  const sparse: bigint[][] = new Array(rp);
  let A: Mat = M.map((row) => [...row]);
  for (let i = rp - 1; i >= 0; i--) {
    const hat = A.slice(1).map((row) => row.slice(1));
    const w = matVec(matInv(hat).map((_, j) => matInv(hat).map((row) => row[j])), A[0].slice(1)); // w = a01·Â^{-1}
    const v = A.slice(1).map((row) => row[0]);
    sparse[i] = [scalars[i], A[0][0], ...w, ...v];
    const H: Mat = A.map((_, r) => A.map((__, c) => (r === 0 || c === 0 ? (r === c ? 1n : 0n) : hat[r - 1][c - 1])));
    A = matMul(H, M);
  }
  return { t, rp, cf, M: M.map((r) => [...r]), P: A, partial: sparse.flat() };
}

function pow5(x: bigint): bigint {
  const s = (x * x) % R;
  return (((s * s) % R) * x) % R;
}

/** Evaluates the optimised form (the algorithm native/poseidon.c runs) in BigInt. */
function evalOptimized(o: Optimized, inputs: bigint[]): bigint {
  const { t, rp } = o;
  let s = [0n, ...inputs];
  for (let r = 0; r < FULL_ROUNDS; r++) {
    s = s.map((x, k) => pow5(mod(x + o.cf[r * t + k])));
    s = matVec(r === FULL_ROUNDS / 2 - 1 ? o.P : o.M, s);
    if (r === FULL_ROUNDS / 2 - 1) {
      for (let i = 0; i < rp; i++) {
        const p = o.partial.slice(i * 2 * t, (i + 1) * 2 * t);
        const x0 = pow5(mod(s[0] + p[0]));
        let n0 = p[1] * x0;
        for (let k = 1; k < t; k++) n0 += p[1 + k] * s[k];
        for (let k = 1; k < t; k++) s[k] = mod(s[k] + p[t + k] * x0);
        s[0] = mod(n0);
      }
    }
  }
  return s[0];
}

const MONT_R = 1n << 256n;
const limbs = (x: bigint): string[] => {
  const m = (x * MONT_R) % R;
  return [0n, 1n, 2n, 3n].map((i) => '0x' + ((m >> (64n * i)) & 0xffffffffffffffffn).toString(16).padStart(16, '0') + 'ULL');
};

function checkAgainstLite(t: number): string {
  const req = createRequire(import.meta.url);
  const dir = join(root, 'node_modules', 'poseidon-lite');
  if (!existsSync(dir)) return 'poseidon-lite not installed: table check skipped';
  const un = req(join(dir, 'poseidon', 'unstringify.js')).default as (o: unknown) => { C: bigint[]; M: bigint[][] };
  const lite = un(req(join(dir, 'constants', `${t - 1}.js`)).default);
  const p = poseidonParams(t);
  const same = lite.C.length === p.C.length && lite.C.every((v, i) => v === p.C[i]) && lite.M.every((row, i) => row.every((v, j) => v === p.M[i][j]));
  if (!same) throw new Error(`t=${t}: Grain-derived parameters differ from poseidon-lite's tables`);
  return 'matches poseidon-lite';
}

const out: string[] = [
  '/* GENERATED by scripts/gen-poseidon-constants.ts: do not edit. Poseidon (circom, BN254 r, x^5)',
  ' * parameters for t = 2..13 in the optimised layout of native/poseidon.c, Montgomery form (R = 2^256),',
  ' * four little-endian 64-bit limbs per element. Per width: CF[8t] full-round constants, M[t*t],',
  ' * P[t*t] (last first-half round matrix), then per partial round [c, m00, w[t-1], v[t-1]]. */',
  '#ifndef CAIRN_POSEIDON_CONSTANTS_H',
  '#define CAIRN_POSEIDON_CONSTANTS_H',
  '#include <stdint.h>',
  '',
];
const rnd = (): bigint => {
  let v = 0n;
  for (let i = 0; i < 4; i++) v = (v << 64n) | BigInt.asUintN(64, BigInt(Math.floor(Math.random() * 2 ** 53)) * 2654435761n);
  return v % R;
};
for (let t = 2; t <= 13; t++) {
  const o = optimize(t);
  for (let k = 0; k < 4; k++) {
    const inputs = Array.from({ length: t - 1 }, () => (k === 0 ? BigInt(k + 1) : rnd()));
    if (evalOptimized(o, inputs) !== poseidonBigInt(inputs)) throw new Error(`t=${t}: optimised form disagrees with the reference`);
  }
  const note = checkAgainstLite(t);
  const all = [...o.cf, ...o.M.flat(), ...o.P.flat(), ...o.partial];
  out.push(`/* t = ${t}: ${o.rp} partial rounds, ${all.length} elements; ${note} */`);
  out.push(`static const uint64_t POSEIDON_T${t}[${all.length * 4}] = {`);
  for (const x of all) out.push('  ' + limbs(x).join(', ') + ',');
  out.push('};', '');
  console.log(`t=${t}: ${all.length} elements, optimised form verified, ${note}`);
}
out.push('static const uint64_t *const POSEIDON_TABLES[14] = {0, 0, ' + Array.from({ length: 12 }, (_, i) => `POSEIDON_T${i + 2}`).join(', ') + '};');
out.push(`static const int POSEIDON_PARTIAL_ROUNDS[14] = {0, 0, ${PARTIAL_ROUNDS.join(', ')}};`);
const limb = (x: bigint, i: number): string => '0x' + ((x >> (64n * BigInt(i))) & 0xffffffffffffffffn).toString(16).padStart(16, '0') + 'ULL';
const rInv = (() => {
  // -r^{-1} mod 2^64 by Newton iteration
  const W = 1n << 64n;
  let x = 1n;
  for (let i = 0; i < 7; i++) x = (x * (2n - ((R % W) * x) % W)) % W;
  return (W - x) % W;
})();
const R2 = (MONT_R * MONT_R) % R;
out.push(`static const uint64_t POSEIDON_MOD[4] = {${[0, 1, 2, 3].map((i) => limb(R, i)).join(', ')}};`);
out.push(`static const uint64_t POSEIDON_R2[4] = {${[0, 1, 2, 3].map((i) => limb(R2, i)).join(', ')}};`);
out.push(`static const uint64_t POSEIDON_ONE[4] = {${[0, 1, 2, 3].map((i) => limb(MONT_R % R, i)).join(', ')}};`);
out.push(`#define POSEIDON_NINV 0x${rInv.toString(16)}ULL /* -r^-1 mod 2^64 */`);
// The portable build's nine 29-bit limbs (Montgomery R' = 2^261), see native/poseidon.c.
const l29 = (x: bigint): string =>
  Array.from({ length: 9 }, (_, i) => '0x' + ((x >> (29n * BigInt(i))) & 0x1fffffffn).toString(16) + 'ULL').join(', ');
const W29 = 1n << 29n;
const rInv29 = (() => {
  let x = 1n;
  for (let i = 0; i < 6; i++) x = (x * (2n - ((R % W29) * x) % W29 + W29)) % W29;
  return (W29 - x) % W29;
})();
out.push(`static const uint64_t POSEIDON_Q29[9] = {${l29(R)}};`);
out.push(`static const uint64_t POSEIDON_2R29[9] = {${l29(2n * R)}};`);
out.push(`static const uint64_t POSEIDON_K266_29[9] = {${l29((1n << 266n) % R)}}; /* 2^266 mod r */`);
out.push(`static const uint64_t POSEIDON_R2_29[9] = {${l29((1n << 522n) % R)}}; /* 2^522 mod r */`);
out.push(`#define POSEIDON_NINV29 0x${rInv29.toString(16)}ULL /* -r^-1 mod 2^29 */`);
out.push('', '#endif', '');
writeFileSync(join(root, 'native', 'poseidon_constants.h'), out.join('\n'));
console.log('wrote native/poseidon_constants.h');
