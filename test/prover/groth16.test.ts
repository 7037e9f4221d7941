/**
 * The Groth16 prover on small systems written here: x³ + x + 5 = out and a chain of squarings (a
 * few hundred constraints, so the NTT runs on several stages), proved and then checked by cairn's
 * own verifier, which shares no code with the prover beyond the point codecs.
 */
import { describe, expect, it } from 'vitest';
import { initGroth16, parseVerifyingKey, verifyGroth16 } from '../../src/merkle/groth16/verify.js';
import { prove } from '../../src/prover/groth16-prove.js';
import { setup } from '../../src/prover/groth16-setup.js';
import { buildR1cs, computeWitness, isSatisfied, type CircuitDefinition } from '../../src/prover/r1cs.js';
import { InputError } from '../../src/errors/index.js';

const seed = new TextEncoder().encode('cairn-test-seed');

function cubic(x: bigint): CircuitDefinition {
  return (cs) => {
    const out = cs.publicInput(() => x ** 3n + x + 5n, 'out');
    const xv = cs.privateInput(() => x, 'x');
    const x2 = cs.mul(xv, xv);
    const x3 = cs.mul(x2, xv);
    cs.assertEqual(cs.linear([[x3, 1n], [xv, 1n]], 5n), out, 'out');
  };
}

// y = x^(2^steps), with x and y public: more constraints than a single NTT stage.
function squarings(x: bigint, steps: number): CircuitDefinition {
  let y = x;
  const R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;
  for (let i = 0; i < steps; i++) y = (y * y) % R;
  return (cs) => {
    const xv = cs.publicInput(() => x, 'x');
    const yv = cs.publicInput(() => y, 'y');
    let acc = xv;
    for (let i = 0; i < steps; i++) acc = cs.mul(acc, acc);
    cs.assertEqual(acc, yv, 'y');
  };
}

describe('groth16 prover (mcl heap)', () => {
  it('proves x³ + x + 5 = 35 and the proof verifies; other outputs do not', async () => {
    await initGroth16();
    const r1cs = buildR1cs('toy_cubic', cubic(3n));
    const w = computeWitness(cubic(3n));
    expect(isSatisfied(r1cs, w)).toBe(true);
    const { pk, vk } = await setup(r1cs, seed);
    const key = parseVerifyingKey(vk, 'toy_cubic');
    const proof = await prove(pk, r1cs, w);
    expect([proof.a.length, proof.b.length, proof.c.length]).toEqual([32, 64, 32]);
    expect(verifyGroth16(proof, [35n], key)).toBe(true);
    expect(verifyGroth16(proof, [36n], key)).toBe(false);
    expect(verifyGroth16(proof, [35n], key, { backend: 'noble' })).toBe(true);
    // Fresh randomness per proof: a second proof differs and also verifies.
    const again = await prove(pk, r1cs, w);
    expect(Buffer.from(again.a).equals(Buffer.from(proof.a))).toBe(false);
    expect(verifyGroth16(again, [35n], key)).toBe(true);
  });

  it('proves a 300-squaring chain; flipping any bit of a, b or c fails', async () => {
    await initGroth16();
    const def = squarings(7n, 300);
    const r1cs = buildR1cs('toy_squarings', def);
    const w = computeWitness(def);
    const { pk, vk } = await setup(r1cs, seed);
    const key = parseVerifyingKey(vk, 'toy_squarings');
    const proof = await prove(pk, r1cs, w);
    const pub = [w[1]!, w[2]!];
    expect(verifyGroth16(proof, pub, key)).toBe(true);
    expect(verifyGroth16(proof, [w[1]!, (w[2]! + 1n)], key)).toBe(false);
    for (const part of ['a', 'b', 'c'] as const) {
      for (const bit of [0, 7, 100, proof[part].length * 8 - 1]) {
        const bad = { ...proof, [part]: Uint8Array.from(proof[part]) };
        bad[part][bit >> 3] ^= 1 << (bit & 7);
        let ok: boolean;
        try {
          ok = verifyGroth16(bad, pub, key);
        } catch {
          ok = false; // not a point any more
        }
        expect(ok, `${part} bit ${bit}`).toBe(false);
      }
    }
  });

  it('setup is deterministic in (seed, system)', async () => {
    const r1cs = buildR1cs('toy_cubic', cubic(3n));
    const a = await setup(r1cs, seed);
    const b = await setup(r1cs, seed);
    expect(b.vk).toEqual(a.vk);
    expect(Buffer.from(b.pk.h).equals(Buffer.from(a.pk.h))).toBe(true);
    const c = await setup(r1cs, new TextEncoder().encode('another seed'));
    expect(c.vk.vk_alpha_g1).not.toBe(a.vk.vk_alpha_g1);
  });

  it('refuses a witness that does not satisfy the system, and a key for another system', async () => {
    const r1cs = buildR1cs('toy_cubic', cubic(3n));
    const { pk } = await setup(r1cs, seed);
    const w = computeWitness(cubic(3n));
    const bad = [...w];
    bad[2] = 4n; // x = 4 with out = 35
    await expect(prove(pk, r1cs, bad)).rejects.toBeInstanceOf(InputError);
    const other = buildR1cs('toy_squarings', squarings(7n, 3));
    await expect(prove(pk, other, computeWitness(squarings(7n, 3)))).rejects.toThrow(/another constraint system/);
  });
});
