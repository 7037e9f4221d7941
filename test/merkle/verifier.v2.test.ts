/**
 * The V2 response shapes, built here from the hashing rules with cairn's own Poseidon (a small state
 * tree of height 32 and an address tree of height 40), verified through every way in: the pure
 * functions, `createVerifier` on parsed objects and on raw bytes (parsed whole and through the tape,
 * inline and on workers), and `verifyValidityProof` on the V2 validity shape with its cross-checks.
 */
import bs58 from 'bs58';
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifierWithTestOptions as createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { hashCompressedAccount, hashTokenData, TreeType, verifyAccountHash, verifyAccountProof } from '../../src/merkle/compressed/account.js';
import { parseAccountProof, parseCompressedAccount } from '../../src/merkle/compressed/account-parse.js';
import { parseNewAddressProof, verifyNewAddressProof } from '../../src/merkle/compressed/address.js';
import { verifyValidityProofSync } from '../../src/merkle/groth16/validity.js';
import { hashToField } from '../../src/crypto/keccak.js';
import { buildV2Fixtures, jsonBytes, jsonText, v1Shape, V2_STATE_TREE, type V2Fixtures } from '../support/merkle-v2-fixtures.js';

const fx: V2Fixtures = buildV2Fixtures();

describe('V2 fixtures, function by function', () => {
  it('every V2 account hashes to its claim (treeType 3: leaf index and lamports big-endian)', () => {
    for (const item of fx.accounts) expect(verifyAccountHash(parseCompressedAccount(item))).toEqual({ valid: true });
    for (const item of fx.tokenAccounts) expect(verifyAccountHash(parseCompressedAccount(item))).toEqual({ valid: true });
  });

  it('the same fields under the v1 rule give another hash (the rule follows treeType)', () => {
    const a = parseCompressedAccount(fx.accounts[0]);
    expect(bs58.encode(hashCompressedAccount({ ...a, treeType: TreeType.StateV1 }))).not.toBe(fx.accounts[0]!.hash);
  });

  it('every V2 account proof walks its 32 nodes to the root', () => {
    for (const p of fx.accountProofs) expect(verifyAccountProof(parseAccountProof(p))).toEqual({ valid: true });
  });

  it('a proveByIndex proof is neither valid nor a mismatch: its own status says it is still queued', () => {
    const v = verifyAccountProof(parseAccountProof(fx.queuedProof));
    expect(v).toMatchObject({ valid: false, status: 'prove-by-index' });
    expect(v.reason).toMatch(/proveByIndex/);
    expect(v.reason).not.toMatch(/mismatch/);
  });

  it('every V2 new-address proof: 40 nodes, leaf P(value, nextValue)', () => {
    for (const p of fx.addressProofs) expect(verifyNewAddressProof(parseNewAddressProof(p))).toEqual({ valid: true });
  });

  it('a V2 address tree leaf index above 2^32 is read, not refused as a u32', () => {
    const p = fx.addressProofs.find((x) => (x.lowElementLeafIndex as number) > 2 ** 32);
    expect(p).toBeDefined();
    expect(verifyNewAddressProof(parseNewAddressProof(p))).toEqual({ valid: true });
  });

  it('token data in batched trees: amount big-endian (light-protocol TokenData::hash, its circuit-equivalence vector)', () => {
    const key = (n: number) => {
      const b = new Uint8Array(32);
      b[7] = n;
      return b;
    };
    const h = hashTokenData({ mint: key(1), owner: key(2), amount: 1000000n, delegate: key(3) }, true);
    expect(BigInt('0x' + Buffer.from(h).toString('hex'))).toBe(12698830169693734517877055378728747723888091986541703429186543307137690361131n);
  });
});

describe('V2 fixtures through createVerifier: parsed objects and raw bytes, inline and on workers', () => {
  const inline = createVerifier({ threads: 0 });
  const pooled = createVerifier({ threads: 2, jsonParseBelow: 0 });
  afterAll(async () => {
    await inline.close();
    await pooled.close();
  });
  const bytes = jsonBytes;
  const env = (value: unknown) => ({ jsonrpc: '2.0', id: 1, result: { context: { slot: 9 }, value } });
  const cases: Array<[string, 'account-hash' | 'account-proof' | 'address-proof', () => unknown, number]> = [
    ['getCompressedAccountsByOwnerV2', 'account-hash', () => env({ items: fx.accounts, cursor: null }), fx.accounts.length],
    ['getCompressedAccountV2', 'account-hash', () => env(fx.accounts[0]), 1],
    ['getMultipleCompressedAccountsV2', 'account-hash', () => env({ items: fx.accounts }), fx.accounts.length],
    ['getCompressedTokenAccountsByOwnerV2', 'account-hash', () => env({ items: fx.tokenAccounts, cursor: null }), fx.tokenAccounts.length],
    ['getCompressedAccountProofV2', 'account-proof', () => env(fx.accountProofs[0]), 1],
    ['getMultipleCompressedAccountProofsV2', 'account-proof', () => env(fx.accountProofs), fx.accountProofs.length],
    ['getMultipleNewAddressProofsV2', 'address-proof', () => env(fx.addressProofs), fx.addressProofs.length],
  ];
  for (const [method, kind, input, n] of cases) {
    it(`${method} (${kind}): all valid, every form`, async () => {
      for (const v of [inline, pooled]) {
        for (const form of [input(), bytes(input())]) {
          const verdicts = await v.verify(kind, form);
          expect(verdicts).toHaveLength(n);
          for (const x of verdicts) expect(x).toMatchObject({ valid: true });
        }
      }
    });
  }

  it('a proveByIndex proof among valid ones: its own verdict, the same on every path', async () => {
    const list = env([fx.accountProofs[0], fx.queuedProof, fx.accountProofs[1]]);
    for (const v of [inline, pooled]) {
      for (const form of [list, bytes(list)]) {
        const [a, q, b] = await v.verify('account-proof', form);
        expect(a!.valid && b!.valid).toBe(true);
        expect(q).toMatchObject({ id: fx.queuedProof.hash, valid: false, status: 'prove-by-index' });
      }
    }
  });

  it('accounts of a V2 tree in the V1 shape (no treeType): both rules tried, valid; a changed leaf index is not', async () => {
    const items = fx.accounts.map(v1Shape);
    const bent = { ...items[3]!, leafIndex: (items[3]!.leafIndex as number) + 1 };
    for (const v of [inline, pooled]) {
      for (const form of [env(items), bytes(env(items))]) for (const x of await v.verify('account-hash', form)) expect(x).toMatchObject({ valid: true });
      const [x] = await v.verify('account-hash', [bent]);
      expect(x).toMatchObject({ valid: false, reason: expect.stringMatching(/hash mismatch/) });
    }
  });

  it('an account still queued (proveByIndex): its hash holds, and the verdict says it is not in the tree yet', async () => {
    const list = env({ items: [fx.accounts[0], fx.queuedAccount] });
    for (const v of [inline, pooled]) {
      for (const form of [list, bytes(list)]) {
        const [a, q] = await v.verify('account-hash', form);
        expect(a).toEqual({ id: fx.accounts[0]!.hash, valid: true });
        expect(q).toEqual({ id: fx.queuedAccount.hash, valid: true, status: 'prove-by-index' });
      }
      const table = await v.verifyTable('account-hash', bytes(list));
      expect(table.at(1)).toEqual({ id: fx.queuedAccount.hash, valid: true, status: 'prove-by-index' });
    }
  });

  it('a V2 token account with a u64 discriminator above 2^53 from JSON.parse: read exactly, not refused', async () => {
    const parsed = JSON.parse(jsonText(fx.tokenAccounts[0]));
    expect(Number.isSafeInteger(parsed.account.data.discriminator)).toBe(false);
    expect(await inline.verify('account-hash', [parsed])).toEqual([{ id: parsed.account.hash, valid: true }]);
  });
});

describe('V2 validity-proof shape: the public-input hash, cross-checked against the V2 answers', () => {
  it('inclusion and non-inclusion over V2 trees: the V2 circuits, one public input, cross-checks pass', () => {
    const v = verifyValidityProofSync(fx.validity, {
      structureOnly: true,
      accounts: fx.accounts.slice(0, 2),
      accountProofs: [...fx.accountProofs.slice(0, 2), fx.queuedProof],
      addressProofs: fx.addressProofs.slice(0, 1),
    });
    expect(v).toMatchObject({ status: 'proof-absent', circuit: 'v2_combined_32_40_2_1' });
    expect(v.publicInputs).toHaveLength(1);
  });

  it('an account proof proven by index matches its entry without a path; a path-proven one must reach its root', () => {
    const wrongRoot = structuredClone(fx.validity);
    (wrongRoot.accounts as Array<Record<string, unknown>>)[0]!.root =
      (wrongRoot.accounts as Array<Record<string, unknown>>)[1]!.root === fx.accountProofs[0]!.root
        ? bs58.encode(hashToField(new Uint8Array([1])))
        : fx.accountProofs[1]!.root;
    const v = verifyValidityProofSync(wrongRoot, { structureOnly: true, accountProofs: [fx.accountProofs[0]] });
    expect(v.status).toBe('malformed');
  });

  it('a queued entry with a path-proven account proof for it is refused', () => {
    const v = verifyValidityProofSync(fx.validity, { structureOnly: true, accountProofs: [{ ...fx.queuedProof, proveByIndex: false }] });
    expect(v.status).toBe('malformed');
  });

  it('raw JSON bytes (a Uint8Array, an ArrayBuffer, a SharedArrayBuffer) give the verdict the parsed value gives', () => {
    const want = verifyValidityProofSync(fx.validity, { structureOnly: true });
    const body = jsonBytes({ jsonrpc: '2.0', id: 1, result: { context: { slot: 3 }, value: fx.validity } });
    const shared = new Uint8Array(new SharedArrayBuffer(body.length));
    shared.set(body);
    for (const input of [body, body.buffer, shared, shared.buffer]) expect(verifyValidityProofSync(input, { structureOnly: true })).toEqual(want);
  });

  it('bytes that are not JSON: InputError naming the value', () => {
    expect(() => verifyValidityProofSync(new TextEncoder().encode('{"value": '))).toThrow(/"value": the bytes are not JSON/);
  });

  it('the state tree named in the fixtures is a V2 tree', () => {
    expect((fx.accounts[0]!.merkleContext as Record<string, unknown>).tree).toBe(V2_STATE_TREE);
  });
});
