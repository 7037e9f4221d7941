/**
 * The gadgets against the hashes the trees use: Poseidon (1–3 inputs) against src/crypto's
 * kernel on seeded random inputs, in both builders; the Merkle path against `poseidonPathRoot`; the
 * 248-bit range check at its boundaries.
 */
import { describe, expect, it } from 'vitest';
import { buildR1cs, computeWitness, isSatisfied, type Cs } from '../../src/prover/r1cs.js';
import { poseidon, poseidonConstraints } from '../../src/prover/gadgets/poseidon.js';
import { merkleRoot } from '../../src/prover/gadgets/merkle-path.js';
import { assertLess } from '../../src/prover/gadgets/range.js';
import { poseidon as poseidonBytes, poseidonPathRoot } from '../../src/crypto/poseidon.js';
import { fromBytes32, toBytes32 } from '../../src/devnet/trees/merkle.js';
import { mulberry32, randomBytes32 } from '../../src/devnet/chain/mulberry32.js';

const rand = mulberry32(23);
/** A random field element (32 random bytes with the top 3 bits cleared: < 2^253 < r). */
const fe = (): bigint => {
  const b = randomBytes32(rand);
  b[0] &= 0x1f;
  return fromBytes32(b);
};

describe('Poseidon gadget', () => {
  it.each([1, 2, 3])('%i input(s): equals the trees\' Poseidon, and the constraints hold', (n) => {
    const circuit = (xs: bigint[], out: bigint) => <S>(cs: Cs<S>): void => {
      const o = cs.publicInput(() => out);
      const ins = xs.map((x) => cs.privateInput(() => x));
      cs.assertEqual(poseidon(cs, ins), o, 'out');
    };
    const zeros = new Array<bigint>(n).fill(0n);
    const r1cs = buildR1cs('p', circuit(zeros, 0n));
    expect(r1cs.constraints.length).toBe(poseidonConstraints(n) + 1);
    for (let k = 0; k < 4; k++) {
      const xs = k === 0 ? zeros : Array.from({ length: n }, fe);
      const expected = fromBytes32(poseidonBytes(xs.map(toBytes32)));
      const w = computeWitness(circuit(xs, expected));
      expect(isSatisfied(r1cs, w)).toBe(true);
      const wrong = computeWitness(circuit(xs, expected + 1n), { check: false });
      expect(isSatisfied(r1cs, wrong)).toBe(false);
    }
    expect(() => computeWitness(circuit(zeros, 1n))).toThrow(/"out"/);
  });

  it('costs 240 constraints for 2 inputs and 261 for 3 (x^5 = 3, the first S-box on lane 0 free)', () => {
    expect(poseidonConstraints(2)).toBe(240);
    expect(poseidonConstraints(3)).toBe(261);
  });
});

describe('Merkle path gadget', () => {
  it('reaches poseidonPathRoot\'s root for random paths, and the index is bounded by the height', () => {
    const height = 8;
    const circuit = (leaf: bigint, index: bigint, sibs: bigint[], root: bigint) => <S>(cs: Cs<S>): void => {
      const r = cs.publicInput(() => root);
      const l = cs.privateInput(() => leaf);
      const i = cs.privateInput(() => index);
      const s = sibs.map((x) => cs.privateInput(() => x));
      cs.assertEqual(merkleRoot(cs, l, i, s, 'p'), r, 'root');
    };
    const r1cs = buildR1cs('path', circuit(0n, 0n, new Array<bigint>(height).fill(0n), 0n));
    for (const index of [0, 1, 0b10110101, 255]) {
      const leaf = fe();
      const sibs = Array.from({ length: height }, fe);
      const proof = new Uint8Array(32 * height);
      sibs.forEach((s, k) => proof.set(toBytes32(s), 32 * k));
      const root = fromBytes32(poseidonPathRoot(toBytes32(leaf), proof, index));
      expect(isSatisfied(r1cs, computeWitness(circuit(leaf, BigInt(index), sibs, root))), `index ${index}`).toBe(true);
      expect(() => computeWitness(circuit(leaf, BigInt(index ^ 1), sibs, root))).toThrow(/"root"/);
    }
    expect(() => computeWitness(circuit(1n, 256n, new Array<bigint>(height).fill(0n), 0n))).toThrow(/"p\.pathIndex"/);
  });
});

describe('248-bit range check (Light\'s AssertIsLess)', () => {
  const circuit = (a: bigint, b: bigint) => <S>(cs: Cs<S>): void => {
    const A = cs.publicInput(() => a);
    const B = cs.publicInput(() => b);
    assertLess(cs, A, B, 'a');
  };
  const r1cs = buildR1cs('less', circuit(0n, 0n));
  const top = (1n << 248n) - 1n;

  it('holds exactly when a < b, for values below 2^248', () => {
    expect(r1cs.constraints.length).toBe(249);
    for (const [a, b] of [[0n, 1n], [5n, 6n], [0n, top], [top - 1n, top], [12345n, 1n << 200n]]) {
      expect(isSatisfied(r1cs, computeWitness(circuit(a, b))), `${a} < ${b}`).toBe(true);
    }
    for (const [a, b] of [[1n, 1n], [top, top], [6n, 5n], [top, 0n], [top, 1n]]) {
      expect(() => computeWitness(circuit(a, b)), `${a} < ${b}`).toThrow(/"a"/);
      expect(isSatisfied(r1cs, computeWitness(circuit(a, b), { check: false })), `${a} < ${b}`).toBe(false);
    }
  });

  it('like Light\'s, it means (a + 2^248 − b) mod r < 2^248: outside 248 bits it is not a comparison', () => {
    // Sound for addresses because the tree holds only values below 2^248 and the address is < 2^248.
    expect(isSatisfied(r1cs, computeWitness(circuit(0n, 1n << 248n)))).toBe(true);
  });
});
