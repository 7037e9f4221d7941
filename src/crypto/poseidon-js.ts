/**
 * The pure-JS BigInt Poseidon: the reference every faster backend is checked against, and the last
 * resort when neither the native addon nor the WASM kernel can load. It runs the textbook round
 * structure (add constants, S-box x^5, MDS mix) on the Grain-derived parameters, with no
 * precomputed shortcut, so a bug in the optimised kernels cannot hide behind a shared trick.
 * About 10× slower than the kernels; fine for tests and one-off hashes.
 */
import { BN254_R, FULL_ROUNDS, poseidonParams } from './poseidon-params.js';

const R = BN254_R;

function pow5(v: bigint): bigint {
  const sq = (v * v) % R;
  return (((sq * sq) % R) * v) % R;
}

/**
 * Poseidon of 1–12 field elements (each already checked to be < r), as a bigint.
 *
 * @example
 * poseidonBigInt([1n, 2n]); // 7853200120776062878684798364095072458815029376092732009249414926327459813530n
 */
export function poseidonBigInt(inputs: readonly bigint[]): bigint {
  const t = inputs.length + 1;
  const { C, M, partialRounds } = poseidonParams(t);
  let state: bigint[] = [0n, ...inputs];
  const half = FULL_ROUNDS / 2;
  const rounds = FULL_ROUNDS + partialRounds;
  const next: bigint[] = new Array<bigint>(t);
  for (let round = 0; round < rounds; round++) {
    const full = round < half || round >= half + partialRounds;
    for (let i = 0; i < t; i++) {
      const v = (state[i] + C[round * t + i]) % R;
      state[i] = full || i === 0 ? pow5(v) : v;
    }
    for (let i = 0; i < t; i++) {
      const row = M[i];
      let acc = 0n;
      for (let j = 0; j < t; j++) acc += row[j] * state[j];
      next[i] = acc % R;
    }
    state = next.slice();
  }
  return state[0];
}
