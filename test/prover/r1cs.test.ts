import { describe, expect, it } from 'vitest';
import { BN254_R, buildR1cs, computeWitness, isSatisfied, type Cs, type SubCircuit } from '../../src/prover/r1cs.js';
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

describe('sub-circuits (Cs.call)', () => {
  // (x + 1)·y − x, recorded once, then renamed onto inputs that are linear combinations sharing variables.
  const body: SubCircuit = (cs, [x, y]) => [cs.sub(cs.mul(cs.linear([[x, 1n]], 1n), y), x)];
  const circuit = (a: bigint, b: bigint, out: bigint, viaCall: boolean) => <S>(cs: Cs<S>): void => {
    const o = cs.publicInput(() => out);
    const A = cs.privateInput(() => a);
    const B = cs.privateInput(() => b);
    const run = (x: S, y: S): S => (viaCall ? cs.call('test-sub', [x, y], body)[0] : body(cs, [x, y])[0]);
    const first = run(cs.add(A, B), A); // inputs share A
    const second = run(first, cs.sub(B, A));
    cs.assertEqual(second, o, 'out');
  };
  const expected = (a: bigint, b: bigint): bigint => {
    const f = (x: bigint, y: bigint): bigint => ((x + 1n) * y - x + BN254_R * BN254_R) % BN254_R;
    return f(f(a + b, a), (b - a + BN254_R) % BN254_R);
  };

  it('builds the same system as running the body inline, and its witness satisfies it', () => {
    const called = buildR1cs('called', circuit(0n, 0n, 0n, true));
    const inline = buildR1cs('inline', circuit(0n, 0n, 0n, false));
    expect(called.nVars).toBe(inline.nVars);
    expect(called.constraints.length).toBe(inline.constraints.length);
    for (const [a, b] of [[3n, 5n], [0n, 0n], [BN254_R - 1n, 7n]]) {
      const w = computeWitness(circuit(a, b, expected(a, b), true));
      expect(isSatisfied(called, w)).toBe(true);
      expect(isSatisfied(inline, w)).toBe(true);
      const wrong = computeWitness(circuit(a, b, expected(a, b) + 1n, true), { check: false });
      expect(isSatisfied(called, wrong)).toBe(false);
    }
  });
});
