import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { initGroth16, pairingChecks, verifyGroth16 } from '../../src/merkle/groth16/verify.js';
import { negateG1Bytes } from '../../src/crypto/bn254.js';
import {
  CAIRN_DEVNET,
  keySetByName,
  keySetFromJson,
  keySetNames,
  LIGHT_2024_06,
  LIGHT_CURRENT,
  OPT_IN_KEY_SETS,
  resolveKeySets,
  SHIPPED_KEY_SETS,
} from '../../src/merkle/groth16/keys/index.js';
import { verifyValidityProofSync, verifyValidityProofsSync } from '../../src/merkle/groth16/validity.js';
import { InputError } from '../../src/errors/index.js';
import { devnetValidityValue, e2eValidityValue } from '../support/merkle-json-fixtures.js';

const vec = JSON.parse(readFileSync('test/vectors/groth16/groth16_solana_test_vector.json', 'utf8'));
const e2e = JSON.parse(readFileSync('test/vectors/light_e2e/light_v1_inclusion_groth16_e2e.json', 'utf8'));
const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));

beforeAll(async () => {
  expect(await initGroth16()).toBe('mcl');
});

describe('key sets: default, opt-in, by name, from a vk file', () => {
  it('the default sets are Light’s only; cairn-devnet@1 is opt-in', () => {
    expect(SHIPPED_KEY_SETS).toEqual([LIGHT_CURRENT, LIGHT_2024_06]);
    expect(OPT_IN_KEY_SETS).toEqual([CAIRN_DEVNET]);
    expect(CAIRN_DEVNET.version).toBe('cairn-devnet@1');
    for (const s of OPT_IN_KEY_SETS) expect(SHIPPED_KEY_SETS).not.toContain(s);
    expect(SHIPPED_KEY_SETS.every((s) => s.version.startsWith('light-protocol@'))).toBe(true);
  });

  it('names: short names and version labels; unknown names are a typed error listing the known ones', () => {
    expect(keySetByName('light-8ddf06ba')).toBe(LIGHT_CURRENT);
    expect(keySetByName('light-338e47405')).toBe(LIGHT_2024_06);
    expect(keySetByName(LIGHT_2024_06.version)).toBe(LIGHT_2024_06);
    expect(keySetByName('cairn-devnet-1')).toBe(CAIRN_DEVNET);
    expect(keySetByName('cairn-devnet@1')).toBe(CAIRN_DEVNET);
    expect(keySetByName('cairn')).toBeUndefined();
    expect(keySetNames()).toEqual(['light-8ddf06ba', 'light-338e47405', 'cairn-devnet-1']);
    expect(() => resolveKeySets(['light-8ddf06ba', 'nope'])).toThrow(InputError);
    expect(() => resolveKeySets(['nope'])).toThrow(/keySets\[0\].*unknown key set "nope"/);
    expect(() => resolveKeySets('light-8ddf06ba' as never)).toThrow(/"keySets": expected an array/);
    expect(() => resolveKeySets([{ version: 'x' } as never])).toThrow(/keySets\[0\].*its stored form/);
    expect(() => verifyValidityProofSync(e2eValidityValue(), { keySets: [42 as never] })).toThrow(InputError);
  });

  it('a test key set from the groth16-solana vector: its proof verifies under it, and a set travels as its stored form', () => {
    const set = keySetFromJson({ keys: { groth16_solana_9: vec.vk } }, 'test-set@1');
    const vk = set.get('groth16_solana_9')!;
    const proof = { a: negateG1Bytes(hex(vec.proof_uncompressed.a)), b: hex(vec.proof_uncompressed.b), c: hex(vec.proof_uncompressed.c) };
    expect(verifyGroth16(proof, vec.public_inputs.map(hex), vk)).toBe(true);
    // The stored form (what a worker receives) gives one set per distinct form: keys are prepared once.
    const [again] = resolveKeySets([JSON.parse(JSON.stringify(set.packed))]);
    const [same] = resolveKeySets([JSON.parse(JSON.stringify(set.packed))]);
    expect(again).toBe(same);
    expect(again!.version).toBe('test-set@1');
    expect(() => keySetFromJson({ keys: {} }, 'x')).toThrow(/holds no key/);
    expect(() => keySetFromJson({ keys: { k: { ...vec.vk, vk_alpha_g1: '00' } } }, 'x')).toThrow(/k\.vk_alpha_g1/);
  });

  it('keySets picks the sets tried: the verdict names the one that verified, and a set without the circuit is not tried', () => {
    const value = e2eValidityValue();
    const own = keySetFromJson({ keys: { v1_inclusion_26_1: e2e.vk_inclusion_26_1_at_338e47405 } }, 'mine');
    expect(verifyValidityProofSync(value)).toMatchObject({ valid: true, keySet: LIGHT_2024_06.version });
    expect(verifyValidityProofSync(value, { keySets: [own] })).toMatchObject({ valid: true, keySet: 'mine' });
    expect(verifyValidityProofSync(value, { keySets: ['light-8ddf06ba', own.packed] })).toMatchObject({ valid: true, keySet: 'mine' });
    expect(verifyValidityProofSync(value, { keySets: ['light-8ddf06ba'] })).toMatchObject({ valid: false, status: 'not-verified', tried: [LIGHT_CURRENT.version] });
    const testSet = keySetFromJson({ keys: { groth16_solana_9: vec.vk } }, 'test-set@1');
    const v = verifyValidityProofSync(value, { keySets: [testSet] });
    expect(v).toMatchObject({ valid: false, status: 'malformed' });
    expect(v.reason).toMatch(/no key v1_inclusion_26_1 with 2 public inputs in test-set@1/);
  });

  it('a devnet proof verifies only when cairn-devnet@1 is asked for, never by default', () => {
    const value = devnetValidityValue();
    const byDefault = verifyValidityProofSync(value);
    expect(byDefault).toMatchObject({ valid: false, status: 'not-verified', tried: [LIGHT_CURRENT.version, LIGHT_2024_06.version] });
    expect(verifyValidityProofSync(value, { keySets: ['cairn-devnet-1'] })).toMatchObject({ valid: true, keySet: 'cairn-devnet@1', circuit: 'v1_inclusion_26_1' });
    expect(verifyValidityProofSync(value, { keySets: [...SHIPPED_KEY_SETS, CAIRN_DEVNET] })).toMatchObject({ valid: true, keySet: 'cairn-devnet@1' });
    // A Light proof is not a devnet proof either.
    expect(verifyValidityProofSync(e2eValidityValue(), { keySets: [CAIRN_DEVNET] })).toMatchObject({ valid: false, status: 'not-verified' });
  });

  it('many answers at once give the verdicts each gives alone', () => {
    const good = e2eValidityValue();
    const wrong = e2eValidityValue();
    (wrong.leaves as string[])[0] = (good.roots as string[])[0]!;
    const redacted = { ...e2eValidityValue(), compressedProof: { a: [], b: [], c: [] } };
    const values = [good, wrong, redacted, good];
    expect(verifyValidityProofsSync(values)).toEqual(values.map((x) => verifyValidityProofSync(x)));
    expect(verifyValidityProofsSync(values).map((x) => x.status)).toEqual(['verified', 'not-verified', 'proof-absent', 'verified']);
    // Again (the set that verified the last pilot is now tried first), and a devnet proof among them.
    const dev = devnetValidityValue();
    const mixed = [wrong, good, dev, good];
    const opts = mixed.map((v) => (v === dev ? { keySets: ['cairn-devnet-1'] } : {}));
    expect(verifyValidityProofsSync(mixed, opts)).toEqual(mixed.map((v, i) => verifyValidityProofSync(v, opts[i])));
    // The portable backend gives the same verdicts (one proof at a time).
    expect(verifyValidityProofsSync([good, wrong], { backend: 'noble' })).toEqual([good, wrong].map((x) => verifyValidityProofSync(x)));
  });

  it('the key set that last verified a circuit goes first: one pairing check per proof, alone or in a batch, and the verdict names the same set', () => {
    const value = e2eValidityValue();
    const alone = verifyValidityProofSync(value);
    expect(alone).toMatchObject({ valid: true, keySet: LIGHT_2024_06.version });
    // Light's current set comes first in the defaults and does not verify this 2024 proof: trying
    // it first again each time doubled the cost of every such proof.
    let before = pairingChecks();
    expect(verifyValidityProofSync(value)).toEqual(alone);
    expect(pairingChecks() - before).toBe(1);
    before = pairingChecks();
    const many = verifyValidityProofsSync(Array.from({ length: 12 }, () => value));
    expect(many.every((v) => v.valid && v.keySet === LIGHT_2024_06.version)).toBe(true);
    expect(pairingChecks() - before).toBe(1);
    // a proof the remembered set does not verify still finds its own, and is remembered in turn
    const devnet = verifyValidityProofSync(devnetValidityValue(), { keySets: [LIGHT_2024_06, CAIRN_DEVNET] });
    expect(devnet).toMatchObject({ valid: true, keySet: CAIRN_DEVNET.version });
    before = pairingChecks();
    expect(verifyValidityProofSync(devnetValidityValue(), { keySets: [LIGHT_2024_06, CAIRN_DEVNET] })).toEqual(devnet);
    expect(pairingChecks() - before).toBe(1);
    // a wrong proof is tried under every set, and says so in their order
    const wrong = { ...value, leaves: [(value.leaves as string[])[0]!.replace(/.$/, (c) => (c === '1' ? '2' : '1'))] };
    const nope = verifyValidityProofSync(wrong);
    expect(nope).toMatchObject({ valid: false, tried: [LIGHT_CURRENT.version, LIGHT_2024_06.version] });
  });
});
