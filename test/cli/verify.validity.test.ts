import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyCli } from '../support/verify-cli.js';
import { devnetValidityValue, e2eValidityValue } from '../support/merkle-json-fixtures.js';

const cli = verifyCli;

const V = 'test/vectors';
const e2e = JSON.parse(readFileSync(`${V}/light_e2e/light_v1_inclusion_groth16_e2e.json`, 'utf8'));
const head = JSON.parse(readFileSync(`${V}/groth16/light_verifying_keys_head.json`, 'utf8'));
const V2024 = 'light-protocol@338e47405 (2024-06-25)';

const tmp = mkdtempSync(join(tmpdir(), 'cairn-verify-validity-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const file = (name: string, v: unknown): string => {
  const f = join(tmp, name);
  writeFileSync(f, JSON.stringify(v));
  return f;
};

// The public Light e2e proof as the service answers getValidityProof, and its 2024 key as a vk file.
const answer = file('e2e.json', { jsonrpc: '2.0', id: 1, result: { context: { slot: 1 }, value: e2eValidityValue() } });
const vk2024 = file('vk-2024.json', { keys: { v1_inclusion_26_1: e2e.vk_inclusion_26_1_at_338e47405 } });
const vkHead = file('vk-head.json', { keys: { v1_inclusion_26_1: head.keys.v1_inclusion_26_1 } });
const json = (out: string) => JSON.parse(out) as { total: number; valid: number; invalid: number; items: Array<Record<string, unknown>> };

describe('cairn verify validity-proof', () => {
  it('verifies the public Light e2e vector with the shipped sets, naming the 2024 key set', async () => {
    const r = await cli(['validity-proof', answer, '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    // Named by the leaf it proves (the key of a keyed answer otherwise).
    const leaf = (e2eValidityValue().leaves as string[])[0]!;
    expect(json(r.out).items).toEqual([{ id: leaf, valid: true, status: 'verified', circuit: 'v1_inclusion_26_1', keySet: V2024 }]);
    const t = await cli(['validity-proof', answer]);
    expect(t.out).toMatch(new RegExp(`^ok +${leaf} \\[verified\\] v1_inclusion_26_1, key set light-protocol@338e47405`));
  });

  it('--vk FILE: verifies against that file instead of the shipped sets', async () => {
    const r = await cli(['validity-proof', answer, '--vk', vk2024, '--json']);
    expect(r.code).toBe(0);
    expect(json(r.out).items[0]).toMatchObject({ valid: true, keySet: 'vk:vk-2024.json' });
    // Two files: tried in order, the second verifies.
    const two = await cli(['validity-proof', answer, '--vk', vkHead, '--vk', vk2024, '--json']);
    expect(json(two.out).items[0]).toMatchObject({ valid: true, keySet: 'vk:vk-2024.json' });
  });

  it('only a key set that does not match: "no key set verified this proof", exit 1', async () => {
    for (const argv of [
      ['--vk', vkHead],
      ['--key-set', 'light-8ddf06ba'],
    ]) {
      const r = await cli(['validity-proof', answer, ...argv, '--json']);
      expect(r.code).toBe(1);
      expect(json(r.out).items[0]).toMatchObject({ valid: false, status: 'not-verified' });
      expect(json(r.out).items[0]!.reason).toMatch(/^no key set verified this proof \(tried v1_inclusion_26_1 in /);
    }
    const t = await cli(['validity-proof', answer, '--vk', vkHead, '--only-invalid']);
    expect(t.out).toMatch(/^INVALID +\w+ \[not-verified\]: no key set verified this proof/);
  });

  it('--key-set cairn-devnet-1: the only way a devnet proof verifies', async () => {
    const dev = file('devnet.json', [devnetValidityValue()]);
    const plain = await cli(['validity-proof', dev, '--json']);
    expect(plain.code).toBe(1);
    expect(json(plain.out).items[0]!.reason).toMatch(/^no key set verified this proof/);
    const r = await cli(['validity-proof', dev, '--key-set', 'cairn-devnet-1', '--json']);
    expect(r.code).toBe(0);
    expect(json(r.out).items[0]).toMatchObject({ valid: true, keySet: 'cairn-devnet@1' });
  });

  it('redacted or zeroed proof bytes are reported missing, never valid', async () => {
    const redacted = await cli(['validity-proof', `${V}/photon/e2e_tests__e2e_mint_and_transfer-bob-validity-proof.json`, '--json']);
    expect(redacted.code).toBe(1);
    expect(json(redacted.out).items[0]).toMatchObject({ valid: false, status: 'proof-absent', reason: 'structure valid, proof bytes absent' });
    const zeroed = e2eValidityValue();
    zeroed.compressedProof = { a: new Array(32).fill(0), b: new Array(64).fill(0), c: new Array(32).fill(0) };
    const z = await cli(['validity-proof', '-', '--json'], JSON.stringify(zeroed));
    expect(z.code).toBe(1);
    expect(json(z.out).items[0]).toMatchObject({ valid: false, status: 'proof-absent' });
  });

  it('--accounts: each account must re-hash to one of the leaves', async () => {
    const account = { ...e2e.leaves[0], address: null, data: null, seq: 1, slotCreated: 0 };
    const good = file('accounts.json', { jsonrpc: '2.0', id: 1, result: { context: { slot: 1 }, value: { items: [account] } } });
    const r = await cli(['validity-proof', answer, '--accounts', good, '--json']);
    expect(r.code).toBe(0);
    expect(json(r.out).items[0]).toMatchObject({ valid: true, keySet: V2024 });
    const bad = file('accounts-bad.json', [{ ...account, lamports: account.lamports + 1 }]);
    const b = await cli(['validity-proof', answer, '--accounts', bad, '--json']);
    expect(b.code).toBe(1);
    expect(json(b.out).items[0]).toMatchObject({ valid: false, status: 'malformed' });
    expect(json(b.out).items[0]!.reason).toMatch(/accounts\[0\].*not among the proof's leaves/);
  });

  it('--addresses: each new-address proof must verify and end at the root the answer gives its address', async () => {
    const answerFile = `${V}/photon/mock_tests__get_multiple_new_address_proofs_interop-validity-proof.json`;
    const proofs = JSON.parse(readFileSync(`${V}/photon/mock_tests__get_multiple_new_address_proofs_interop.json`, 'utf8'));
    const good = await cli(['validity-proof', answerFile, '--addresses', file('addresses.json', proofs), '--json']);
    // The photon answer's proof bytes are redacted: the cross-check passes, the proof is missing.
    expect(json(good.out).items[0]).toMatchObject({ valid: false, status: 'proof-absent' });
    const moved = { ...proofs, value: [{ ...proofs.value[0], root: proofs.value[0].proof[3] }] };
    const bad = await cli(['validity-proof', answerFile, '--addresses', file('addresses-moved.json', moved), '--json']);
    expect(json(bad.out).items[0]).toMatchObject({ valid: false, status: 'malformed' });
    expect(json(bad.out).items[0]!.reason).toMatch(/addressProofs\[0\]/);
  });

  it('usage errors exit 2: an unknown key set, an unreadable or malformed vk file, a validity flag on another kind', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['validity-proof', answer, '--key-set', 'nope'], /unknown key set "nope"; expected one of light-8ddf06ba, light-338e47405, cairn-devnet-1/],
      [['validity-proof', answer, '--vk', join(tmp, 'missing.json')], /--vk: cannot read/],
      [['validity-proof', answer, '--vk', file('vk-bad.json', { keys: { v1_inclusion_26_1: { ...e2e.vk_inclusion_26_1_at_338e47405, vk_alpha_g1: 'zz' } } })], /--vk .*vk_alpha_g1/],
      [['account-proof', answer, '--vk', vk2024], /apply to validity-proof only/],
    ];
    for (const [argv, re] of cases) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(re);
    }
  });
});
