/**
 * The devnet's V2 answers, fetched over JSON-RPC, verified offline: V2 accounts (plain, with an
 * address and data, token accounts), V2 account proofs (height 32), V2 new-address proofs (height 40)
 * and a V2 validity proof. Every answer verifies through `createVerifier` (raw bytes as `callRaw`
 * returns them, parsed objects, the typed client's answers) and through `cairn verify` run as a
 * process; and every single-bit mutation of a committed field is rejected (never "valid").
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { ADDRESS_TREE_V2 } from '../../src/devnet/compression/store.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import type { Verifier } from '../../src/merkle/verifier/types.js';
import type { KindName } from '../../src/merkle/kinds/index.js';
import { parseJsonLossless } from '../../src/merkle/input.js';
import { verifyValidityProof } from '../../src/merkle/groth16/validity.js';
import { newAddress } from '../support/devnet.js';
import { jsonBytes } from '../support/merkle-v2-fixtures.js';
import { accountFields, accountProofFields, addressProofFields, allMutants, mutate, type Mutant } from '../support/merkle-v2-mutations.js';

type Json = Record<string, any>;
const enc = new TextEncoder();
let devnet: Devnet;
let client: CairnClient;
let verifier: Verifier;
const tmp = mkdtempSync(join(tmpdir(), 'cairn-verify-v2-'));

/** The raw body of a JSON-RPC call (envelope checked by the client, nothing parsed). */
const raw = (method: string, params: unknown): Promise<Uint8Array> => client.callRaw(method, params);

const owner = newAddress();
const program = newAddress();
const mint = newAddress();
const alice = newAddress();
const delegate = newAddress();
const hashes: string[] = [];
const fresh: string[] = [];
// The answers, as bytes and parsed, by method.
const answers: Record<string, { bytes: Uint8Array; json: Json }> = {};

beforeAll(async () => {
  // The stand-in proof: a real one (v2 combined 2-1) adds ~6 s here and this file checks its structure only.
  devnet = await startDevnet({ slotMs: 20, seed: 17, validityProofs: 'fake' });
  await devnet.ready();
  client = createClient({ url: devnet.url, logger: () => {} });
  verifier = createVerifier({ threads: 2 });
  const zk = devnet.compression!;
  const accounts = [
    { owner, lamports: 2n ** 60n + 7n, seeds: [enc.encode('a')], programId: program, data: { discriminator: 5n, data: Uint8Array.from([9, 8, 7]) } },
    { owner, lamports: 1_000n },
    { owner, lamports: 0n, seeds: [enc.encode('b')], programId: program },
    { owner, lamports: 3n, data: { discriminator: 0x0102030405060708n, data: Uint8Array.from([1]) } },
  ];
  for (const a of accounts) hashes.push(String((await zk.createCompressedAccount({ ...a, version: 2 })).account.hash));
  await zk.mintCompressedTokens({ mint, version: 2, recipients: [{ owner: alice, amount: 50n }, { owner: alice, amount: 2n ** 62n + 1n, delegate }] });
  for (let i = 0; i < 3; i++) fresh.push(zk.deriveAddress([enc.encode(`fresh-${i}`)], program, 2));

  const calls: Array<[string, unknown]> = [
    ['getCompressedAccountV2', { hash: hashes[0] }],
    ['getMultipleCompressedAccountsV2', { hashes }],
    // The V1 method on accounts of the v2 tree: the V1 shape, no treeType.
    ['getMultipleCompressedAccounts', { hashes }],
    ['getCompressedAccountsByOwnerV2', { owner }],
    ['getCompressedTokenAccountsByOwnerV2', { owner: alice }],
    ['getCompressedTokenAccountsByDelegateV2', { delegate }],
    ['getCompressedAccountProofV2', { hash: hashes[1] }],
    ['getMultipleCompressedAccountProofsV2', hashes],
    ['getMultipleNewAddressProofsV2', fresh.map((address) => ({ address, tree: ADDRESS_TREE_V2 }))],
    ['getValidityProofV2', { hashes: hashes.slice(0, 2), newAddressesWithTrees: [{ address: fresh[0], tree: ADDRESS_TREE_V2 }] }],
  ];
  for (const [method, params] of calls) {
    const bytes = await raw(method, params);
    answers[method] = { bytes, json: parseJsonLossless(Buffer.from(bytes).toString('utf8')) as Json };
  }
  // Last, as it spends one of the token accounts above: a transfer out of the v2 tree, the accounts it
  // closed and opened in the V2 transaction shape.
  const t = await zk.transferCompressedTokens({ owner: alice, mint, to: newAddress(), amount: 10n, version: 2 });
  const bytes = await raw('getTransactionWithCompressionInfoV2', { signature: t.signature });
  answers.getTransactionWithCompressionInfoV2 = { bytes, json: parseJsonLossless(Buffer.from(bytes).toString('utf8')) as Json };
}, 60_000);
afterAll(async () => {
  await verifier?.close();
  await client?.close();
  await devnet?.stop();
  rmSync(tmp, { recursive: true, force: true });
});

const KINDS: Array<[string, KindName, number]> = [
  ['getCompressedAccountV2', 'account-hash', 1],
  ['getMultipleCompressedAccountsV2', 'account-hash', 4],
  ['getMultipleCompressedAccounts', 'account-hash', 4],
  ['getCompressedAccountsByOwnerV2', 'account-hash', 4],
  ['getCompressedTokenAccountsByOwnerV2', 'account-hash', 2],
  ['getCompressedTokenAccountsByDelegateV2', 'account-hash', 1],
  ['getCompressedAccountProofV2', 'account-proof', 1],
  ['getMultipleCompressedAccountProofsV2', 'account-proof', 4],
  ['getMultipleNewAddressProofsV2', 'address-proof', 3],
  // One token account closed, two opened (the recipient's and the change).
  ['getTransactionWithCompressionInfoV2', 'account-hash', 3],
];

/** `cairn verify` as a process of its own, on a file. */
function cairn(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/cairn.js', 'verify', ...args], { timeout: 60_000, maxBuffer: 64 << 20 }, (e, out, err) =>
      resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, out, err }),
    );
  });
}

describe('the devnet serves V2 trees', () => {
  it('accounts in the height-32 tree (treeType 3), new addresses in the height-40 tree', () => {
    for (const a of answers.getMultipleCompressedAccountsV2!.json.result.value.items) expect(a.merkleContext.treeType).toBe(3);
    for (const p of answers.getMultipleCompressedAccountProofsV2!.json.result.value) expect(p.proof).toHaveLength(32);
    for (const p of answers.getMultipleNewAddressProofsV2!.json.result.value) expect(p.proof).toHaveLength(40);
  });
});

describe('createVerifier: every V2 answer is valid, as bytes and as parsed objects', () => {
  it.each(KINDS)('%s → %s', async (method, kind, n) => {
    const { bytes, json } = answers[method]!;
    for (const input of [bytes, json, json.result, json.result.value ?? json.result]) {
      const v = await verifier.verify(kind, input);
      expect(v).toHaveLength(n);
      for (const x of v) expect(x).toMatchObject({ valid: true });
    }
  });

  it("the typed client's answers for V2 trees (the V1 methods serve them too)", async () => {
    const proof = await client.getCompressedAccountProof({ hash: hashes[0]! });
    expect(proof.value.proof).toHaveLength(32);
    expect(await verifier.verify('account-proof', proof)).toEqual([{ id: hashes[0], valid: true }]);
    const acc = await client.getCompressedAccount({ hash: hashes[0]! });
    expect(await verifier.verify('account-hash', acc)).toEqual([{ id: hashes[0], valid: true }]);
    const tokens = await client.getCompressedTokenAccountsByOwner({ owner: alice });
    const tv = await verifier.verify('account-hash', tokens);
    expect(tv.map((v) => v.valid)).toEqual([true, true]);
  });
});

describe('cairn verify <kind> on the V2 answers (spawned)', () => {
  it.each(KINDS)('%s → %s: exit 0, all valid', async (method, kind, n) => {
    const file = join(tmp, `${method}.json`);
    writeFileSync(file, answers[method]!.bytes);
    const r = await cairn([kind, file, '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ kind, total: n, valid: n, invalid: 0 });
  }, 60_000);
});

describe('the V2 validity proof: its public-input hash, cross-checked with the V2 answers', () => {
  it('circuit v2_combined_32_40_2_1, one public input; not verified (the devnet stand-in proof), never malformed — as bytes or parsed', async () => {
    const { bytes, json } = answers.getValidityProofV2!;
    const opts = {
      accounts: answers.getMultipleCompressedAccountsV2!.json.result.value.items.slice(0, 2),
      accountProofs: answers.getMultipleCompressedAccountProofsV2!.json.result.value.slice(0, 2),
      addressProofs: answers.getMultipleNewAddressProofsV2!.json.result.value.slice(0, 1),
    };
    const v = await verifyValidityProof(json.result.value, opts);
    expect(v).toMatchObject({ valid: false, status: 'not-verified', circuit: 'v2_combined_32_40_2_1' });
    expect(v.publicInputs).toHaveLength(1);
    for (const input of [bytes, json, json.result]) expect(await verifyValidityProof(input, opts)).toEqual(v);
  });

  it('any bit of a root, a leaf or an address flipped: malformed against the proofs it must agree with', async () => {
    const value = answers.getValidityProofV2!.json.result.value;
    const opts = {
      structureOnly: true,
      accounts: answers.getMultipleCompressedAccountsV2!.json.result.value.items.slice(0, 2),
      accountProofs: answers.getMultipleCompressedAccountProofsV2!.json.result.value.slice(0, 2),
      addressProofs: answers.getMultipleNewAddressProofsV2!.json.result.value.slice(0, 1),
    };
    expect((await verifyValidityProof(value, opts)).status).toBe('structure-valid');
    const fields = [
      ...[0, 1].flatMap((i) => [{ path: ['accounts', i, 'hash'], kind: 'b58' as const, bits: 256 }, { path: ['accounts', i, 'root'], kind: 'b58' as const, bits: 256 }]),
      { path: ['addresses', 0, 'address'], kind: 'b58' as const, bits: 256 },
      { path: ['addresses', 0, 'root'], kind: 'b58' as const, bits: 256 },
    ];
    await fc.assert(
      fc.asyncProperty(fc.nat(fields.length - 1), fc.nat(255), async (f, bit) => {
        const v = await verifyValidityProof(mutate(value, fields[f]!, bit).item, opts);
        return v.status === 'malformed';
      }),
      { numRuns: 150 },
    );
  });
});

describe('property: every single-bit mutation of the devnet V2 answers is rejected', () => {
  /** Mutants verified in one call per form; none may be valid, and bytes and objects give the same reasons. */
  async function expectAllRejected(kind: KindName, mutants: Mutant[]): Promise<void> {
    const items = mutants.map((m) => m.item);
    const asObjects = await verifier.verify(kind, items);
    const asBytes = await verifier.verify(kind, jsonBytes(items));
    expect(mutants.filter((_, i) => asObjects[i]!.valid || asBytes[i]!.valid).map((m) => m.label)).toEqual([]);
    expect(asBytes.map((v) => v.reason)).toEqual(asObjects.map((v) => v.reason));
  }

  it('accounts and token accounts: every bit of every field the hash commits to', async () => {
    const items: Json[] = [
      ...answers.getMultipleCompressedAccountsV2!.json.result.value.items,
      ...answers.getMultipleCompressedAccounts!.json.result.value.items,
      ...answers.getCompressedTokenAccountsByOwnerV2!.json.result.value.items,
    ];
    const mutants = items.flatMap((a) => accountFields(a).flatMap((f) => allMutants(a, f)));
    expect(mutants.length).toBeGreaterThan(10_000);
    await expectAllRejected('account-hash', mutants);
  }, 120_000);

  it('account proofs: every bit of hash, root, leaf index, tree type, proveByIndex; 64 random node bits each', async () => {
    const proofs: Json[] = answers.getMultipleCompressedAccountProofsV2!.json.result.value;
    const mutants = proofs.flatMap((p) => {
      const { fields, nodes } = accountProofFields(p);
      const sampled = fc.sample(fc.tuple(fc.nat(nodes.length - 1), fc.nat(255)), { numRuns: 64, seed: 7 }).map(([n, b]) => mutate(p, nodes[n]!, b));
      return [...fields.flatMap((f) => allMutants(p, f)), ...sampled];
    });
    await expectAllRejected('account-proof', mutants);
  }, 120_000);

  it('new-address proofs: every bit of the bounds, the root and the low-element index; 64 random node bits each', async () => {
    const proofs: Json[] = answers.getMultipleNewAddressProofsV2!.json.result.value;
    const mutants = proofs.flatMap((p) => {
      const { fields, nodes } = addressProofFields(p);
      const sampled = fc.sample(fc.tuple(fc.nat(nodes.length - 1), fc.nat(255)), { numRuns: 64, seed: 11 }).map(([n, b]) => mutate(p, nodes[n]!, b));
      return [...fields.flatMap((f) => allMutants(p, f)), ...sampled];
    });
    await expectAllRejected('address-proof', mutants);
  }, 120_000);
});
