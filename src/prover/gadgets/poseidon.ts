/**
 * Poseidon as a circuit: the circom-compatible permutation the devnet's trees hash with
 * (src/crypto/poseidon-params.ts, the same Grain-derived constants and MDS matrix), over any
 * `Cs`. Width t = inputs + 1 (t = 3 for a Merkle node, t = 4 for a v1 address leaf); the state starts
 * as [0, inputs…]. Each S-box x^5 costs 3 constraints (x², x⁴, x⁴·x); constant additions and the MDS
 * mix are linear and cost none. Full rounds apply the S-box to every lane, partial rounds to lane 0.
 * The very first S-box acts on lane 0 = 0 + C₀, a constant, so it is computed, not constrained:
 * (8·t + R_P)·3 − 3 constraints: 240 for t = 3 (as circom's Poseidon(2) counts) and 261 for t = 4.
 */
import { FULL_ROUNDS, poseidonParams } from '../../crypto/index.js';
import { BN254_R, type Cs } from '../r1cs.js';

const R = BN254_R;

function pow5(v: bigint): bigint {
  const sq = (v * v) % R;
  return (((sq * sq) % R) * v) % R;
}

function sbox<S>(cs: Cs<S>, x: S): S {
  const x2 = cs.mul(x, x);
  const x4 = cs.mul(x2, x2);
  return cs.mul(x4, x);
}

/** Number of constraints `poseidon` adds for `n` inputs. */
export function poseidonConstraints(n: number): number {
  const t = n + 1;
  return (FULL_ROUNDS * t + poseidonParams(t).partialRounds) * 3 - 3;
}

/**
 * Poseidon of 1–12 signals, as a signal (a linear combination of the last round's S-box outputs).
 *
 * @example
 * const parent = poseidon(cs, [left, right]); // 240 constraints
 */
export function poseidon<S>(cs: Cs<S>, inputs: readonly S[]): S {
  return cs.call('poseidon', inputs, permutation)[0];
}

/** The permutation's circuit, recorded once per width by the builder (see `Cs.call`). */
function permutation<S>(cs: Cs<S>, inputs: readonly S[]): S[] {
  const t = inputs.length + 1;
  const { C, M, partialRounds } = poseidonParams(t);
  const half = FULL_ROUNDS / 2;
  const rounds = FULL_ROUNDS + partialRounds;
  // After the S-box layer, lane i is (signal, pending constant): the round constant of a lane that
  // skips the S-box is carried into the mix instead of materialised, so it stays one linear step.
  let state: S[] = [cs.constant(0n), ...inputs];
  const pending: bigint[] = new Array<bigint>(t).fill(0n);
  for (let round = 0; round < rounds; round++) {
    const full = round < half || round >= half + partialRounds;
    for (let i = 0; i < t; i++) {
      const c = C[round * t + i];
      if (round === 0 && i === 0) {
        state[0] = cs.constant(pow5(c)); // lane 0 starts at 0: its first S-box is a constant
        pending[0] = 0n;
      } else if (full || i === 0) {
        state[i] = sbox(cs, cs.linear([[state[i], 1n]], c));
        pending[i] = 0n;
      } else {
        pending[i] = c;
      }
    }
    const next: S[] = new Array<S>(t);
    for (let i = 0; i < t; i++) {
      const row = M[i];
      let k0 = 0n;
      const terms: Array<readonly [S, bigint]> = new Array(t);
      for (let j = 0; j < t; j++) {
        terms[j] = [state[j], row[j]];
        if (pending[j] !== 0n) k0 += row[j] * pending[j];
      }
      next[i] = cs.linear(terms, k0 % R);
    }
    state = next;
  }
  return [state[0]];
}
