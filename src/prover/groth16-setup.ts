/**
 * A Groth16 trusted setup made deterministically from a seed: the toxic waste τ, α, β, γ, δ is
 * hashed from the seed, so anyone with the seed can forge proofs. That is the point for the devnet
 * (its keys can be rebuilt anywhere, byte for byte, with no download) and the reason its key set is
 * opt-in for verifiers: it must never be trusted for a real service's answers.
 *
 * With Lᵢ the Lagrange basis of the domain ⟨ω⟩ (n = 2^k) and uⱼ, vⱼ, wⱼ = Σᵢ Aᵢⱼ·Lᵢ, Σ Bᵢⱼ·Lᵢ,
 * Σ Cᵢⱼ·Lᵢ (rows m … m + nPublic being the public-input rows of qap.ts), the key holds
 * [uⱼ(τ)]₁, [vⱼ(τ)]₁, [vⱼ(τ)]₂, [(β·uⱼ + α·vⱼ + wⱼ)(τ)/δ]₁ for private j, [τⁱ·Z(τ)/δ]₁, and the
 * verifying key [α]₁, [β]₂, [γ]₂, [δ]₂ and ICⱼ = [(β·uⱼ + α·vⱼ + wⱼ)(τ)/γ]₁ for j ≤ nPublic.
 * Scalars are computed with BigInt (linear in the constraints' non-zeros); the points, the cost,
 * by fixed-base tables (msm.ts).
 */
import { createHash } from 'node:crypto';
import { BN254_R, type R1cs } from './r1cs.js';
import { G1_SIZE, G2_SIZE, loadHeap, scalarsLe, type Heap } from '../crypto/index.js';
import { fixedBase, fixedBaseMul, type FixedBase } from './msm.js';
import { powMod, rootOfUnity } from './ntt.js';
import { domainLog } from './qap.js';
import { G1_GENERATOR, G2_GENERATOR, g1Into, g2Into, hexG1, hexG2 } from './points.js';
import { r1csHash, type ProvingKey } from './proving-key.js';

const R = BN254_R;

/** A verifying key in Light's JSON layout (big-endian hex, uncompressed, EIP-197 order). */
export interface VerifyingKeyJson {
  vk_alpha_g1: string;
  vk_beta_g2: string;
  vk_gamma_g2: string;
  vk_delta_g2: string;
  vk_ic: string[];
}

/** The toxic waste, each element SHA-256(seed ‖ 0 ‖ label) mod r (never 0). */
function toxicWaste(seed: Uint8Array): { tau: bigint; alpha: bigint; beta: bigint; gamma: bigint; delta: bigint } {
  const x = (label: string): bigint => {
    const d = createHash('sha256').update(seed).update(Buffer.from([0])).update(label).digest();
    const v = BigInt(`0x${d.toString('hex')}`) % R;
    return v === 0n ? 1n : v;
  };
  return { tau: x('tau'), alpha: x('alpha'), beta: x('beta'), gamma: x('gamma'), delta: x('delta') };
}

const inv = (x: bigint): bigint => powMod(x, R - 2n);

/** Lᵢ(τ) for i < n: ωⁱ·(τⁿ − 1) / (n·(τ − ωⁱ)), with one batch inversion. */
function lagrangeAt(tau: bigint, k: number): bigint[] {
  const n = 1 << k;
  const w = rootOfUnity(k);
  const zTau = (powMod(tau, BigInt(n)) - 1n + R) % R;
  if (zTau === 0n) throw new RangeError('setup: τ lies in the domain; choose another seed');
  const den: bigint[] = new Array(n);
  const wi: bigint[] = new Array(n);
  for (let i = 0, x = 1n; i < n; i++, x = (x * w) % R) {
    wi[i] = x;
    den[i] = (((tau - x + R) % R) * BigInt(n)) % R;
  }
  // Batch inversion: prefix products, one inverse, walk back.
  const pre: bigint[] = new Array(n);
  let acc = 1n;
  for (let i = 0; i < n; i++) {
    pre[i] = acc;
    acc = (acc * den[i]!) % R;
  }
  let invAcc = inv(acc);
  const out: bigint[] = new Array(n);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = (((invAcc * pre[i]!) % R) * ((wi[i]! * zTau) % R)) % R;
    invAcc = (invAcc * den[i]!) % R;
  }
  return out;
}

async function withTables<T>(h: Heap, run: (g1: FixedBase, g2: FixedBase) => T): Promise<T> {
  const base1 = h.alloc(G1_SIZE);
  const base2 = h.alloc(G2_SIZE);
  g1Into(h, G1_GENERATOR, base1);
  g2Into(h, G2_GENERATOR, base2);
  const t1 = fixedBase(h, h.g1, base1);
  const t2 = fixedBase(h, h.g2, base2);
  try {
    return run(t1, t2);
  } finally {
    t1.free();
    t2.free();
    h.free(base1);
    h.free(base2);
  }
}

interface Scalars {
  toxic: ReturnType<typeof toxicWaste>;
  k: number;
  u: bigint[];
  v: bigint[];
  /** ICⱼ's scalars (j ≤ nPublic) and Cⱼ's (private j). */
  ic: bigint[];
  priv: bigint[];
  /** τⁱ·Z(τ)/δ for i < n − 1. */
  hs: bigint[];
}

function scalarsOf(r1cs: R1cs, seed: Uint8Array, withProvingKey: boolean): Scalars {
  const toxic = toxicWaste(seed);
  const { tau, alpha, beta, gamma, delta } = toxic;
  const k = domainLog(r1cs);
  const n = 1 << k;
  const m = r1cs.constraints.length;
  const L = lagrangeAt(tau, k);
  const { nVars, nPublic } = r1cs;
  const u = new Array<bigint>(nVars).fill(0n);
  const v = new Array<bigint>(nVars).fill(0n);
  const w = new Array<bigint>(nVars).fill(0n);
  for (let i = 0; i < m; i++) {
    const con = r1cs.constraints[i]!;
    const li = L[i]!;
    for (const [j, c] of con.a) u[j] = u[j]! + c * li;
    for (const [j, c] of con.b) v[j] = v[j]! + c * li;
    for (const [j, c] of con.c) w[j] = w[j]! + c * li;
  }
  for (let j = 0; j <= nPublic; j++) u[j] = u[j]! + L[m + j]!;
  for (let j = 0; j < nVars; j++) {
    u[j] = u[j]! % R;
    v[j] = v[j]! % R;
    w[j] = w[j]! % R;
  }
  const lin = (j: number, div: bigint): bigint => (((((beta * u[j]!) % R) + ((alpha * v[j]!) % R) + w[j]!) % R) * div) % R;
  const ic = Array.from({ length: nPublic + 1 }, (_, j) => lin(j, inv(gamma)));
  if (!withProvingKey) return { toxic, k, u, v, ic, priv: [], hs: [] };
  const dInv = inv(delta);
  const priv = Array.from({ length: nVars - nPublic - 1 }, (_, i) => lin(nPublic + 1 + i, dInv));
  const zTau = (powMod(tau, BigInt(n)) - 1n + R) % R;
  const hs: bigint[] = new Array(n - 1);
  for (let i = 0, x = (zTau * dInv) % R; i < n - 1; i++, x = (x * tau) % R) hs[i] = x;
  return { toxic, k, u, v, ic, priv, hs };
}

/**
 * The verifying key alone (no proving-key points: milliseconds, not seconds), equal to `setup`'s.
 *
 * @example
 * const vk = await verifyingKeyFor(circuitFor(shape), devnetSeed('v1_inclusion_26_1'));
 */
export async function verifyingKeyFor(r1cs: R1cs, seed: Uint8Array): Promise<VerifyingKeyJson> {
  const h = await loadHeap();
  const s = scalarsOf(r1cs, seed, false);
  const { alpha, beta, gamma, delta } = s.toxic;
  return withTables(h, (t1, t2) => {
    const g1 = g1Points(h, t1);
    const g2 = g2Points(h, t2);
    return vkJson(h, g1([alpha]), g2([beta]), g2([gamma]), g2([delta]), g1(s.ic), s.ic.length);
  });
}

const g1Points = (h: Heap, t1: FixedBase) => (xs: readonly bigint[]): Uint8Array => {
  const out = h.alloc(xs.length * G1_SIZE);
  try {
    fixedBaseMul(h, t1, out, scalarsLe(xs), xs.length);
    return h.copyOut(out, xs.length * G1_SIZE);
  } finally {
    h.free(out);
  }
};

const g2Points = (h: Heap, t2: FixedBase) => (xs: readonly bigint[]): Uint8Array => {
  const out = h.alloc(xs.length * G2_SIZE);
  try {
    fixedBaseMul(h, t2, out, scalarsLe(xs), xs.length);
    return h.copyOut(out, xs.length * G2_SIZE);
  } finally {
    h.free(out);
  }
};

function vkJson(h: Heap, alpha1: Uint8Array, beta2: Uint8Array, gamma2: Uint8Array, delta2: Uint8Array, icPts: Uint8Array, nIc: number): VerifyingKeyJson {
  const at = (bytes: Uint8Array, hex: (h: Heap, p: number) => string, off = 0, size = bytes.length): string => {
    const p = h.copyIn(bytes.subarray(off, off + size));
    try {
      return hex(h, p);
    } finally {
      h.free(p);
    }
  };
  return {
    vk_alpha_g1: at(alpha1, hexG1),
    vk_beta_g2: at(beta2, hexG2),
    vk_gamma_g2: at(gamma2, hexG2),
    vk_delta_g2: at(delta2, hexG2),
    vk_ic: Array.from({ length: nIc }, (_, j) => at(icPts, hexG1, j * G1_SIZE, G1_SIZE)),
  };
}

/**
 * The proving and verifying keys of `r1cs` for the toxic waste derived from `seed`. Deterministic:
 * the same (seed, r1cs) gives the same bytes.
 *
 * @example
 * const { pk, vk } = await setup(circuitFor(shape), devnetSeed('v1_inclusion_26_1'));
 */
export async function setup(r1cs: R1cs, seed: Uint8Array): Promise<{ pk: ProvingKey; vk: VerifyingKeyJson }> {
  const h = await loadHeap();
  const s = scalarsOf(r1cs, seed, true);
  const { alpha, beta, gamma, delta } = s.toxic;
  return withTables(h, (t1, t2) => {
    const g1s = g1Points(h, t1);
    const g2s = g2Points(h, t2);
    const pk: ProvingKey = {
      name: r1cs.name,
      r1csHash: r1csHash(r1cs),
      nVars: r1cs.nVars,
      nPublic: r1cs.nPublic,
      k: s.k,
      alpha1: g1s([alpha]),
      beta1: g1s([beta]),
      delta1: g1s([delta]),
      beta2: g2s([beta]),
      delta2: g2s([delta]),
      a: g1s(s.u),
      b1: g1s(s.v),
      b2: g2s(s.v),
      c: g1s(s.priv),
      h: g1s(s.hs),
    };
    return { pk, vk: vkJson(h, pk.alpha1, pk.beta2, g2s([gamma]), pk.delta2, g1s(s.ic), s.ic.length) };
  });
}
