import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { keySetFromJson, LIGHT_2024_06 } from '../../src/merkle/groth16/keys/index.js';
import { kinds } from '../../src/merkle/kinds/index.js';
import { groth16Backend } from '../../src/merkle/groth16/verify.js';
import { e2eValidityValue, itemsOf } from '../support/merkle-json-fixtures.js';

const e2e = JSON.parse(readFileSync('test/vectors/light_e2e/light_v1_inclusion_groth16_e2e.json', 'utf8'));
const V2024 = LIGHT_2024_06.version;

describe('validity-proof as a verify kind', () => {
  // First in the file: nothing has loaded mcl in this thread yet. Workers run the same prepare().
  it('prepare() loads mcl on the thread that verifies, so the slower portable backend is never used', async () => {
    expect(groth16Backend()).toBe('noble');
    await kinds['validity-proof'].prepare!();
    expect(groth16Backend()).toBe('mcl');
  });

  it('names an answer by its key, else its first leaf or address', () => {
    const { id } = kinds['validity-proof'];
    const value = e2eValidityValue();
    expect(id(value)).toBe((value.leaves as string[])[0]);
    expect(id({ getValidityProof: value, keySets: [] })).toBe((value.leaves as string[])[0]);
    expect(id(value, 'mine')).toBe('mine');
    expect(id({ compressedProof: null, accounts: [{ hash: 'h1' }], addresses: [] })).toBe('h1');
    expect(id({ compressedProof: null, accounts: [], addresses: [{ address: 'a1' }] })).toBe('a1');
    expect(id(null)).toBeUndefined();
  });

  const pooled = createVerifier({ threads: 2 });
  const inline = createVerifier({ threads: 0 });
  afterAll(async () => {
    await Promise.all([pooled.close(), inline.close()]);
  });

  it.each([
    ['pooled', pooled],
    ['inline', inline],
  ])('%s: the e2e proof verifies under the 2024 key, a changed root does not, redacted bytes are proof-absent', async (_, v) => {
    const good = e2eValidityValue();
    const bad = e2eValidityValue();
    (bad.roots as string[])[0] = (good.leaves as string[])[0]!;
    const redacted = itemsOf('validity-proof')[1]; // photon's, proof bytes redacted
    const verdicts = await v.verify('validity-proof', [good, bad, redacted, good]);
    expect(verdicts.map((x) => x.valid)).toEqual([true, false, false, true]);
    expect(verdicts[0]).toMatchObject({ status: 'verified', keySet: V2024, circuit: 'v1_inclusion_26_1' });
    expect(verdicts[1]).toMatchObject({ status: 'not-verified' });
    expect(verdicts[1]!.reason).toMatch(/^no key set verified this proof/);
    expect(verdicts[2]).toMatchObject({ status: 'proof-absent' });
  });

  it('a bundle picks its key sets (by name or as a set from a vk file) and crosses to the workers', async () => {
    const own = keySetFromJson({ keys: { v1_inclusion_26_1: e2e.vk_inclusion_26_1_at_338e47405 } }, 'my-vk.json');
    const value = e2eValidityValue();
    const verdicts = await pooled.verify('validity-proof', [
      { getValidityProof: value, keySets: [own.packed] },
      { getValidityProof: value, keySets: ['light-8ddf06ba'] },
      { getValidityProof: value, keySets: ['no-such-set'] },
      { getValidityProof: { jsonrpc: '2.0', id: 1, result: { context: { slot: 1 }, value } }, keySets: ['light-338e47405'] },
    ]);
    expect(verdicts[0]).toMatchObject({ valid: true, keySet: 'my-vk.json' });
    expect(verdicts[1]).toMatchObject({ valid: false, status: 'not-verified', tried: ['light-protocol@8ddf06ba'] });
    expect(verdicts[2]).toMatchObject({ valid: false });
    expect(verdicts[2]!.reason).toMatch(/unknown key set "no-such-set"/);
    expect(verdicts[3]).toMatchObject({ valid: true, keySet: V2024 });
  });

  it('many proofs in one batch: one wrong among them is named', async () => {
    const items = Array.from({ length: 20 }, () => e2eValidityValue());
    (items[13]!.leaves as string[])[0] = (items[13]!.roots as string[])[0]!;
    const verdicts = await inline.verify('validity-proof', items);
    expect(verdicts.flatMap((x, i) => (x.valid ? [] : [i]))).toEqual([13]);
  });
});
