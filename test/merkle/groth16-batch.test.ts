import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { negateG1Bytes } from '../../src/crypto/bn254.js';
import { loadBn254Wasm } from '../../src/crypto/bn254-wasm.js';
import { initGroth16, parseVerifyingKey, verifyGroth16, type Groth16Backend, type Groth16Proof } from '../../src/merkle/groth16/verify.js';
import { verifyGroth16Batch, type Groth16BatchItem } from '../../src/merkle/groth16/batch.js';
import { CairnError, InputError, PointError } from '../../src/errors/index.js';

const vec = JSON.parse(readFileSync('test/vectors/groth16/groth16_solana_test_vector.json', 'utf8'));
const e2e = JSON.parse(readFileSync('test/vectors/light_e2e/light_v1_inclusion_groth16_e2e.json', 'utf8'));
const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));

// Two real proofs under two different keys: the Light e2e proof (2 inputs, compressed) and the
// groth16-solana proof (9 inputs, uncompressed, A negated here).
const p0 = e2e.proofs[0];
const light: Groth16BatchItem = {
  proof: { a: hex(p0.compressedProof.a), b: hex(p0.compressedProof.b), c: hex(p0.compressedProof.c) },
  publicInputs: [hex(p0.root), hex(p0.leaf)],
  vk: parseVerifyingKey(e2e.vk_inclusion_26_1_at_338e47405, 'v1_inclusion_26_1'),
};
const solana: Groth16BatchItem = {
  proof: { a: negateG1Bytes(hex(vec.proof_uncompressed.a)), b: hex(vec.proof_uncompressed.b), c: hex(vec.proof_uncompressed.c) },
  publicInputs: vec.public_inputs.map(hex),
  vk: parseVerifyingKey(vec.vk, 'groth16_solana'),
};

beforeAll(async () => {
  expect(await initGroth16()).toBe('mcl');
});

const flip = (b: Uint8Array, bit: number): Uint8Array => {
  const out = b.slice();
  out[bit >> 3]! ^= 0x80 >> (bit & 7);
  return out;
};

/** A copy of `item` with one bit of a, b, c or a public input flipped. */
function mutated(item: Groth16BatchItem, part: number, bit: number): Groth16BatchItem {
  if (part < 3) {
    const k = (['a', 'b', 'c'] as const)[part]!;
    const b = item.proof[k];
    return { ...item, proof: { ...item.proof, [k]: flip(b, bit % (b.length * 8)) } as Groth16Proof };
  }
  const inputs = (item.publicInputs as Uint8Array[]).slice();
  const j = (part - 3) % inputs.length;
  inputs[j] = flip(inputs[j]!, bit % 256);
  return { ...item, publicInputs: inputs };
}

describe.each<Groth16Backend>(['mcl', 'noble'])('verifyGroth16Batch (%s)', (backend) => {
  it('verifies proofs under different keys together, and an empty batch', () => {
    expect(verifyGroth16Batch([light, solana, light], { backend })).toEqual([true, true, true]);
    expect(verifyGroth16Batch([], { backend })).toEqual([]);
  });

  it('names the one proof that does not verify (inputs swapped: well formed, wrong)', () => {
    const swapped = { ...light, publicInputs: [light.publicInputs[1]!, light.publicInputs[0]!] };
    expect(verifyGroth16Batch([light, swapped, solana, light], { backend })).toEqual([true, false, true, true]);
  });

  it('points at infinity decode but never verify, in a batch either', () => {
    const inf = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i === 0 ? 0x40 : 0));
    for (const k of ['a', 'b', 'c'] as const) {
      const bad = { ...light, proof: { ...light.proof, [k]: inf(k === 'b' ? 64 : 32) } };
      expect(verifyGroth16Batch([light, bad, light], { backend })).toEqual([true, false, true]);
    }
    const all = { ...light, proof: { a: inf(32), b: inf(64), c: inf(32) } };
    expect(verifyGroth16Batch([all, all, solana], { backend })).toEqual([false, false, true]);
  });

  it('a malformed item throws a typed error naming it', () => {
    const bad = { ...light, proof: { ...light.proof, b: new Uint8Array(64).fill(0x11) } };
    expect(() => verifyGroth16Batch([light, bad], { backend })).toThrow(PointError);
    try {
      verifyGroth16Batch([light, bad], { backend });
    } catch (e) {
      expect((e as CairnError).context).toMatchObject({ field: 'items[1].proof.b' });
    }
    expect(() => verifyGroth16Batch([{ ...light, publicInputs: [light.publicInputs[0]!] }], { backend })).toThrow(InputError);
  });
});

describe('verifyGroth16Batch: any single-bit change is rejected, alone and in a batch (mcl)', () => {
  const base = [light, solana, light, solana];
  it('exactly the mutated proof is named, or the error names its item', () => {
    fc.assert(
      fc.property(fc.nat({ max: base.length - 1 }), fc.nat({ max: 3 + 8 }), fc.nat({ max: 1023 }), (at, part, bit) => {
        const items = base.slice();
        items[at] = mutated(base[at]!, part, bit);
        let single: boolean | 'error';
        try {
          single = verifyGroth16(items[at]!.proof, items[at]!.publicInputs, items[at]!.vk);
        } catch (e) {
          single = e instanceof CairnError ? 'error' : false;
        }
        if (single === true) return false;
        try {
          const ok = verifyGroth16Batch(items);
          return single === false && ok.every((v, i) => v === (i !== at));
        } catch (e) {
          return single === 'error' && e instanceof CairnError && String(e.context.field).startsWith(`items[${at}].`);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a batch of 64 where one proof is wrong names exactly that one', () => {
    const items = Array.from({ length: 64 }, (_, i) => (i % 2 ? light : solana));
    const wrong = { ...light, publicInputs: [light.publicInputs[0]!, flip(light.publicInputs[1] as Uint8Array, 255)] };
    items[37] = wrong;
    const ok = verifyGroth16Batch(items);
    expect(ok.flatMap((v, i) => (v ? [] : [i]))).toEqual([37]);
  });

  it('the multi-Miller loop equals the product of single Miller loops', async () => {
    const w = await loadBn254Wasm();
    const a = w.g1(light.proof.a);
    const c = w.g1(light.proof.c);
    const b = w.g2(light.proof.b);
    const { mcl } = w;
    const one = mcl.finalExp(w.millerLoopVec([a, c], [b, b]));
    expect(one.isEqual(mcl.finalExp(mcl.mul(mcl.millerLoop(a, b), mcl.millerLoop(c, b))))).toBe(true);
    expect(w.millerLoopVec([], []).isOne()).toBe(true);
    expect(() => w.millerLoopVec([a], [])).toThrow(RangeError);
  });
});
