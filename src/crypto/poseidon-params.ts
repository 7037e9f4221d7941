/**
 * Poseidon parameters for the circom-compatible instance over the BN254 scalar field, derived from
 * first principles rather than copied: the round constants and the MDS matrix come out of the Grain
 * LFSR exactly as the Poseidon reference script (`generate_parameters_grain.sage 1 0 254 t 8 R_P r`)
 * produces them, which is how circomlib's `poseidon_constants` were made. The derivation is checked
 * against the published vectors (test/vectors/light_hash_vectors.json) and against poseidon-lite's
 * shipped tables by scripts/gen-poseidon-constants.ts.
 *
 * Deriving one width costs a few milliseconds, done once per width on first use and cached.
 */
import { CairnError, ErrorCodes } from '../errors/index.js';

/** The BN254 scalar field modulus r (the field circom and Light Protocol hash in). */
export const BN254_R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

/** Full rounds (all widths) and partial rounds by width t = 2..13 (index t − 2), per circomlib. */
export const FULL_ROUNDS = 8;
export const PARTIAL_ROUNDS: readonly number[] = [56, 57, 56, 60, 60, 63, 64, 63, 60, 66, 60, 65];

/** Plain (unoptimised) parameters of one width: `C` has (8 + R_P)·t constants, `M` is t×t. */
export interface PoseidonParams {
  readonly t: number;
  readonly partialRounds: number;
  /** Round constants, round-major: `C[round * t + i]`. */
  readonly C: readonly bigint[];
  /** MDS matrix: the mix is `s'[i] = Σ_j M[i][j]·s[j]`. */
  readonly M: readonly (readonly bigint[])[];
}

/**
 * A Grain LFSR bit source in the self-shrinking mode the Poseidon reference uses. The 80-bit state
 * lives in a ring buffer so one step is O(1).
 */
function grainSource(t: number, partialRounds: number): (bits: number) => bigint {
  const state = new Uint8Array(80);
  let n = 0;
  const push = (value: number, width: number): void => {
    for (let i = width - 1; i >= 0; i--) state[n++] = (value >>> i) & 1;
  };
  push(1, 2); // field: prime field
  push(0, 4); // s-box: x^alpha
  push(254, 12); // field size in bits
  push(t, 12);
  push(FULL_ROUNDS, 10);
  push(partialRounds, 10);
  while (n < 80) state[n++] = 1;

  let head = 0; // index of the oldest bit (bit 0 of the sequence)
  const step = (): number => {
    const b =
      state[(head + 62) % 80] ^
      state[(head + 51) % 80] ^
      state[(head + 38) % 80] ^
      state[(head + 23) % 80] ^
      state[(head + 13) % 80] ^
      state[head];
    state[head] = b; // the oldest bit leaves, the new one enters at the end
    head = head === 79 ? 0 : head + 1;
    return b;
  };
  for (let i = 0; i < 160; i++) step();
  // Self-shrinking: draw pairs; when the first bit is 1 emit the second, else drop both.
  const bit = (): number => {
    for (;;) {
      const a = step();
      const b = step();
      if (a) return b;
    }
  };
  return (bits: number): bigint => {
    // Build 254 bits in 32-bit chunks (MSB first) to keep BigInt work small.
    let v = 0n;
    let left = bits;
    while (left > 0) {
      const take = Math.min(30, left);
      let chunk = 0;
      for (let i = 0; i < take; i++) chunk = chunk * 2 + bit();
      v = (v << BigInt(take)) | BigInt(chunk);
      left -= take;
    }
    return v;
  };
}

/** a^e mod r. */
function powMod(a: bigint, e: bigint): bigint {
  let base = ((a % BN254_R) + BN254_R) % BN254_R;
  let x = 1n;
  while (e > 0n) {
    if (e & 1n) x = (x * base) % BN254_R;
    base = (base * base) % BN254_R;
    e >>= 1n;
  }
  return x;
}

/** Multiplicative inverse mod r (Fermat); throws on zero. */
export function invMod(a: bigint): bigint {
  const x = ((a % BN254_R) + BN254_R) % BN254_R;
  if (x === 0n) throw new CairnError(ErrorCodes.INTERNAL, 'inverse of zero', { context: { invariant: 'invMod of a nonzero value' } });
  return powMod(x, BN254_R - 2n);
}

const cache = new Map<number, PoseidonParams>();

/**
 * The parameters of width `t` (= number of inputs + 1, 2..13).
 *
 * @example
 * const { C, M } = poseidonParams(3); // the 2-input instance
 */
export function poseidonParams(t: number): PoseidonParams {
  const hit = cache.get(t);
  if (hit) return hit;
  // poseidon() and its batch forms check 1..12 inputs first: a width outside 2..13 is cairn's bug
  if (!Number.isInteger(t) || t < 2 || t > 13) throw new CairnError(ErrorCodes.INTERNAL, `poseidon width t must be 2..13, got ${t}`, { context: { invariant: 'poseidon width 2..13' } });
  const partialRounds = PARTIAL_ROUNDS[t - 2];
  const draw = grainSource(t, partialRounds);
  const C: bigint[] = [];
  const want = (FULL_ROUNDS + partialRounds) * t;
  while (C.length < want) {
    const v = draw(254);
    if (v < BN254_R) C.push(v); // rejection sampling, as the reference does for prime fields
  }
  // Cauchy MDS from 2t further draws (reduced, not rejected, as in the reference's create_mds_p).
  const xs: bigint[] = [];
  const ys: bigint[] = [];
  for (let i = 0; i < t; i++) xs.push(draw(254) % BN254_R);
  for (let i = 0; i < t; i++) ys.push(draw(254) % BN254_R);
  const M = xs.map((x) => ys.map((y) => invMod(x + y)));
  const params: PoseidonParams = { t, partialRounds, C, M };
  cache.set(t, params);
  return params;
}
