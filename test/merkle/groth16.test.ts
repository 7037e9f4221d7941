import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BN254_R, bigToBe } from '../../src/crypto/bn254-encoding.js';
import { g1FromBytes, g1ToCompressed, g2FromBytes, g2ToCompressed, negateG1Bytes } from '../../src/crypto/bn254.js';
import {
  groth16Backend,
  initGroth16,
  parseVerifyingKey,
  prepareProof,
  verifyGroth16,
  verifyPrepared,
  type Groth16Backend,
  type Groth16Proof,
  type VerifyingKey,
} from '../../src/merkle/groth16/verify.js';
import { InputError, PointError } from '../../src/errors/index.js';

const vec = JSON.parse(readFileSync('test/vectors/groth16/groth16_solana_test_vector.json', 'utf8'));
const e2e = JSON.parse(readFileSync('test/vectors/light_e2e/light_v1_inclusion_groth16_e2e.json', 'utf8'));
const head = JSON.parse(readFileSync('test/vectors/groth16/light_verifying_keys_head.json', 'utf8'));
const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));

const vk = parseVerifyingKey(vec.vk, 'groth16_solana');
const inputs: Uint8Array[] = vec.public_inputs.map(hex);
// The vector's A is not negated; Solana verifiers take −A.
const proof: Groth16Proof = { a: negateG1Bytes(hex(vec.proof_uncompressed.a)), b: hex(vec.proof_uncompressed.b), c: hex(vec.proof_uncompressed.c) };

const e2eProof = e2e.proofs[0];
const e2eCompressed: Groth16Proof = { a: hex(e2eProof.compressedProof.a), b: hex(e2eProof.compressedProof.b), c: hex(e2eProof.compressedProof.c) };
const e2eInputs = [hex(e2eProof.root), hex(e2eProof.leaf)];
const key2024 = parseVerifyingKey(e2e.vk_inclusion_26_1_at_338e47405, 'v1_inclusion_26_1@338e47405');
const keyHead = parseVerifyingKey(head.keys.v1_inclusion_26_1, 'v1_inclusion_26_1');

beforeAll(async () => {
  expect(await initGroth16()).toBe('mcl');
});

const flip = (b: Uint8Array, bit: number): Uint8Array => {
  const out = b.slice();
  out[bit >> 3]! ^= 0x80 >> (bit & 7);
  return out;
};

/** "Rejected" = a typed error naming the problem, or the pairing check failing. Never true. */
function rejected(f: () => boolean): boolean {
  try {
    return f() === false;
  } catch (e) {
    return e instanceof PointError || e instanceof InputError;
  }
}

describe.each<Groth16Backend>(['mcl', 'noble'])('groth16 (%s backend)', (backend) => {
  it('verifies the groth16-solana vector (9 public inputs, −A)', () => {
    expect(verifyGroth16(proof, inputs, vk, { backend })).toBe(true);
  });

  it('accepts a plain A with negateA, and rejects a plain A without it', () => {
    const plain = { ...proof, a: hex(vec.proof_uncompressed.a) };
    expect(verifyGroth16(plain, inputs, vk, { backend, negateA: true })).toBe(true);
    expect(verifyGroth16(plain, inputs, vk, { backend })).toBe(false);
  });

  it('verifies the same proof in compressed form', () => {
    const compressed: Groth16Proof = {
      a: g1ToCompressed(g1FromBytes(proof.a)),
      b: g2ToCompressed(g2FromBytes(proof.b)),
      c: g1ToCompressed(g1FromBytes(proof.c)),
    };
    expect(verifyGroth16(compressed, inputs, vk, { backend })).toBe(true);
  });

  it('light e2e v1 inclusion proof: verifies with the 2024 key, not with the current key', () => {
    expect(verifyGroth16(e2eCompressed, e2eInputs, key2024, { backend })).toBe(true);
    expect(verifyGroth16(e2eCompressed, e2eInputs, keyHead, { backend })).toBe(false);
  });

  it('points at infinity decode but never verify', () => {
    const inf1 = new Uint8Array(32);
    inf1[0] = 0x40;
    const inf2 = new Uint8Array(64);
    inf2[0] = 0x40;
    for (const p of [{ ...e2eCompressed, a: inf1 }, { ...e2eCompressed, b: inf2 }, { ...e2eCompressed, c: inf1 }, { a: inf1, b: inf2, c: inf1 }]) {
      expect(verifyGroth16(p, e2eInputs, key2024, { backend })).toBe(false);
    }
  });

  it('bigint inputs give the same answer as bytes', () => {
    const big = inputs.map((b) => BigInt('0x' + Buffer.from(b).toString('hex')));
    expect(verifyGroth16(proof, big, vk, { backend })).toBe(true);
  });
});

describe('groth16: every mutation is rejected (mcl backend; property tests)', () => {
  const bits = (b: Uint8Array) => fc.nat({ max: b.length * 8 - 1 });

  it('a bit of a, b or c flipped (uncompressed proof)', () => {
    for (const part of ['a', 'b', 'c'] as const) {
      fc.assert(
        fc.property(bits(proof[part]), (bit) => rejected(() => verifyGroth16({ ...proof, [part]: flip(proof[part], bit) }, inputs, vk))),
        { numRuns: 25 },
      );
    }
  });

  it('a bit of a, b or c flipped (compressed e2e proof, including the flag bits)', () => {
    for (const part of ['a', 'b', 'c'] as const) {
      for (const bit of [0, 1, 2, 7, 100, e2eCompressed[part].length * 8 - 1]) {
        expect(rejected(() => verifyGroth16({ ...e2eCompressed, [part]: flip(e2eCompressed[part], bit) }, e2eInputs, key2024)), `${part} bit ${bit}`).toBe(true);
      }
      fc.assert(
        fc.property(bits(e2eCompressed[part]), (bit) =>
          rejected(() => verifyGroth16({ ...e2eCompressed, [part]: flip(e2eCompressed[part], bit) }, e2eInputs, key2024)),
        ),
        { numRuns: 10 },
      );
    }
  });

  it('a bit of any public input flipped', () => {
    const pp = prepareProof(proof);
    fc.assert(
      fc.property(fc.nat({ max: inputs.length - 1 }), fc.nat({ max: 255 }), (i, bit) => {
        const mutated = inputs.slice();
        mutated[i] = flip(inputs[i]!, bit);
        return rejected(() => verifyPrepared(pp, mutated, vk));
      }),
      { numRuns: 20 },
    );
    // Every input once, at its lowest bit (always still < r, so it is the pairing that says no).
    for (let i = 0; i < inputs.length; i++) {
      const mutated = inputs.slice();
      mutated[i] = flip(inputs[i]!, 255);
      expect(verifyPrepared(pp, mutated, vk), `input ${i}`).toBe(false);
    }
  });

  it('a bit of any key element flipped', () => {
    const pp = prepareProof(proof);
    const parts: Array<[string, (k: VerifyingKey, bit: number) => VerifyingKey, number]> = [
      ['alpha', (k, bit) => ({ ...k, alpha: flip(k.alpha, bit) }), 512],
      ['beta', (k, bit) => ({ ...k, beta: flip(k.beta, bit) }), 1024],
      ['gamma', (k, bit) => ({ ...k, gamma: flip(k.gamma, bit) }), 1024],
      ['delta', (k, bit) => ({ ...k, delta: flip(k.delta, bit) }), 1024],
      ...vk.ic.map((_, i): [string, (k: VerifyingKey, bit: number) => VerifyingKey, number] => [
        `ic[${i}]`,
        (k, bit) => ({ ...k, ic: k.ic.map((p, j) => (j === i ? flip(p, bit) : p)) }),
        512,
      ]),
    ];
    for (const [name, mutate, nbits] of parts) {
      fc.assert(
        fc.property(fc.nat({ max: nbits - 1 }), (bit) => rejected(() => verifyPrepared(pp, inputs, mutate(vk, bit)))),
        { numRuns: 3, seed: name.length },
      );
    }
  });

  it('a key element replaced by another valid point is rejected by the pairing (not by a decode error)', () => {
    const pp = prepareProof(proof);
    expect(verifyPrepared(pp, inputs, { ...vk, ic: [vk.ic[1]!, vk.ic[0]!, ...vk.ic.slice(2)] })).toBe(false);
    expect(verifyPrepared(pp, inputs, { ...vk, gamma: vk.beta })).toBe(false);
    expect(verifyPrepared(pp, inputs, { ...vk, alpha: negateG1Bytes(vk.alpha) })).toBe(false);
  });
});

describe('groth16: bad input gets a typed error naming the field', () => {
  it('public inputs ≥ r are rejected, never reduced', () => {
    for (const v of [BN254_R, BN254_R + 1n, (1n << 256n) - 1n]) {
      const mutated = inputs.slice();
      mutated[3] = bigToBe(v, 32);
      expect(() => verifyGroth16(proof, mutated, vk)).toThrow(InputError);
      try {
        verifyGroth16(proof, mutated, vk);
      } catch (e) {
        expect((e as InputError).context.field).toBe('publicInputs[3]');
      }
    }
    expect(() => verifyGroth16(proof, [...inputs.slice(0, 8), BN254_R], vk)).toThrow(/publicInputs\[8\]/);
    expect(() => verifyGroth16(proof, [...inputs.slice(0, 8), -1n], vk)).toThrow(/publicInputs\[8\]/);
  });

  it('the wrong number of inputs', () => {
    expect(() => verifyGroth16(proof, inputs.slice(1), vk)).toThrow(/takes 9 public inputs, got 8/);
  });

  it('malformed proof points name the part', () => {
    expect(() => verifyGroth16({ ...proof, b: new Uint8Array(100) }, inputs, vk)).toThrow(/"proof\.b": wrong length/);
    const offCurve = proof.c.slice();
    offCurve[63]! ^= 1;
    expect(() => verifyGroth16({ ...proof, c: offCurve }, inputs, vk)).toThrow(/"proof\.c": not on the curve/);
  });

  it('malformed keys name the element', () => {
    expect(() => parseVerifyingKey({ ...vec.vk, vk_alpha_g1: 'zz' }, 'k')).toThrow(/"k\.vk_alpha_g1"/);
    expect(() => parseVerifyingKey({ ...vec.vk, vk_ic: [] }, 'k')).toThrow(/"k\.vk_ic"/);
    expect(() => parseVerifyingKey({ ...vec.vk, nr_pubinputs: 3 }, 'k')).toThrow(/"k\.nr_pubinputs"/);
    expect(() => parseVerifyingKey(null)).toThrow(InputError);
    const bad = { ...vk, delta: flip(vk.delta, 1000) };
    expect(() => verifyGroth16(proof, inputs, bad)).toThrow(/"groth16_solana\.delta"/);
  });

  it("backend 'auto' is mcl once loaded", () => {
    expect(groth16Backend()).toBe('mcl');
  });
});
