import { describe, expect, it } from 'vitest';
import { BN254_R, buildR1cs, computeWitness, isSatisfied, type Cs } from '../../src/prover/r1cs.js';
import { isCairnError } from '../../src/errors/index.js';

/** x public, y private: y = x³ + x + 5 with x, x's 8 bits, and a select on bit 0. */
function cubic(x: bigint, y: bigint) {
  return <S>(cs: Cs<S>): void => {
    const X = cs.publicInput(() => x, 'x');
    const Y = cs.privateInput(() => y, 'y');
    const x2 = cs.mul(X, X);
    const x3 = cs.mul(x2, X);
    cs.assertEqual(cs.linear([[x3, 1n], [X, 1n]], 5n), Y, 'y');
    const bits = cs.toBits(X, 8, 'x');
    const s = cs.select(bits[0], cs.constant(7n), cs.constant(9n));
    cs.assertEqual(s, cs.linear([[bits[0], BN254_R - 2n]], 9n), 'select');
  };
}

describe('r1cs builders', () => {
  const r1cs = buildR1cs('cubic', cubic(0n, 0n));

  it('lays out w[0] = 1, then the public inputs, then private variables, and the witness satisfies', () => {
    expect(r1cs.nPublic).toBe(1);
    const w = computeWitness(cubic(3n, 35n));
    expect(w.length).toBe(r1cs.nVars);
    expect(w.slice(0, 3)).toEqual([1n, 3n, 35n]);
    expect(isSatisfied(r1cs, w)).toBe(true);
    expect(isSatisfied(r1cs, computeWitness(cubic(4n, 73n)))).toBe(true);
  });

  it('rejects a tampered witness and wrong inputs', () => {
    const w = computeWitness(cubic(3n, 35n));
    for (let i = 1; i < w.length; i++) {
      const bad = w.slice();
      bad[i] = (bad[i] + 1n) % BN254_R;
      expect(isSatisfied(r1cs, bad), `w[${i}]`).toBe(false);
    }
    expect(isSatisfied(r1cs, w.slice(1))).toBe(false);
    try {
      computeWitness(cubic(3n, 36n));
      expect.unreachable();
    } catch (e) {
      expect(isCairnError(e) && e.code).toBe('INPUT_INVALID');
    }
    expect(() => computeWitness(cubic(256n, 256n ** 3n + 261n))).toThrow(/2\^8/);
  });
});
