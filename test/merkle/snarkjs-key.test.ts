/**
 * snarkjs's `verification_key.json` taken wherever a verifying key is (`parseVerifyingKey`, a key set,
 * `--vk`): a real snarkjs key and proof (test/vectors/groth16/snarkjs_circom_runtime.json, made by
 * snarkjs 0.7.6; the key is the one circom_runtime ships) verify through cairn, a changed input does
 * not; and a count given as a string is named for what it is, not as a mismatch of counts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors/index.js';
import { initGroth16, parseVerifyingKey, verifyGroth16 } from '../../src/merkle/groth16/verify.js';
import { keySetFromJson } from '../../src/merkle/groth16/keys/key-set.js';

const fixture = JSON.parse(readFileSync(new URL('../vectors/groth16/snarkjs_circom_runtime.json', import.meta.url), 'utf8'));
const shipped = JSON.parse(readFileSync(new URL('../../node_modules/circom_runtime/test/circuit/verification_key.json', import.meta.url), 'utf8'));
const solana = JSON.parse(readFileSync(new URL('../vectors/groth16/groth16_solana_test_vector.json', import.meta.url), 'utf8'));

const be = (dec: string) => Buffer.from(BigInt(dec).toString(16).padStart(64, '0'), 'hex');
const g1 = (p: string[]) => new Uint8Array(Buffer.concat([be(p[0]!), be(p[1]!)]));
const g2 = (p: string[][]) => new Uint8Array(Buffer.concat([be(p[0]![1]!), be(p[0]![0]!), be(p[1]![1]!), be(p[1]![0]!)]));
const proof = { a: g1(fixture.proof.pi_a), b: g2(fixture.proof.pi_b), c: g1(fixture.proof.pi_c) };
const inputs: bigint[] = fixture.publicSignals.map((s: string) => BigInt(s));

function refused(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error('expected an InputError');
}

describe("snarkjs's verification_key.json", () => {
  it('is the file snarkjs ships, and a snarkjs proof verifies against it through cairn (both backends)', async () => {
    expect(fixture.verification_key).toEqual(shipped);
    const vk = parseVerifyingKey(shipped, 'circuit');
    expect(vk.ic).toHaveLength(shipped.nPublic + 1);
    for (const backend of ['noble', 'mcl'] as const) {
      if (backend === 'mcl') await initGroth16();
      // snarkjs's proofs carry A, not −A
      expect(verifyGroth16(proof, inputs, vk, { negateA: true, backend })).toBe(true);
      expect(verifyGroth16(proof, [inputs[0]!, 7n, ...inputs.slice(2)], vk, { negateA: true, backend })).toBe(false);
    }
  });

  it('goes into a key set, named by its circuit (a bare key needs the name)', () => {
    const set = keySetFromJson({ keys: { v1_inclusion_26_1: shipped } }, 'mine');
    expect(set.has('v1_inclusion_26_1')).toBe(true);
    expect(keySetFromJson(shipped, 'mine', 'v1_inclusion_26_1').has('v1_inclusion_26_1')).toBe(true);
    expect(refused(() => keySetFromJson(shipped, 'mine', 'verification_key')).message).toMatch(/needs its circuit name.*"verification_key" is not a circuit name/);
  });

  it('refuses a bad element naming it', () => {
    expect(refused(() => parseVerifyingKey({ ...shipped, protocol: 'plonk' })).context.field).toBe('vk.protocol');
    expect(refused(() => parseVerifyingKey({ ...shipped, IC: shipped.IC.slice(1) })).context.field).toBe('vk.nPublic');
    const e = refused(() => parseVerifyingKey({ ...shipped, nPublic: '4' }));
    expect(e.context.field).toBe('vk.nPublic');
    expect(e.message).toMatch(/a string where a number belongs/);
    expect(refused(() => parseVerifyingKey({ ...shipped, vk_alpha_1: ['1', 'x', '1'] })).context.field).toBe('vk.vk_alpha_1[1]');
    expect(refused(() => parseVerifyingKey({ ...shipped, vk_beta_2: [['1', '2'], ['3']] })).context.field).toBe('vk.vk_beta_2[1]');
  });
});

describe('nr_pubinputs given as a string', () => {
  it('is named as a string where a number belongs, not as a count mismatch', () => {
    const n = solana.vk.vk_ic.length - 1;
    expect(parseVerifyingKey({ ...solana.vk, nr_pubinputs: n }).ic).toHaveLength(n + 1);
    const e = refused(() => parseVerifyingKey({ ...solana.vk, nr_pubinputs: String(n) }));
    expect(e.context.field).toBe('vk.nr_pubinputs');
    expect(e.message).toMatch(/got the string "9": a string where a number belongs/);
    expect(e.message).not.toMatch(/vk_ic has/);
    // a real mismatch still says so
    expect(refused(() => parseVerifyingKey({ ...solana.vk, nr_pubinputs: n + 1 })).message).toMatch(/vk_ic has 10 points/);
  });
});
