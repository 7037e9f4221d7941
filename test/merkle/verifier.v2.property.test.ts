/**
 * Every single-bit mutation of a V2 answer is rejected: built here from the hashing rules (the
 * devnet's own answers get the same test in test/e2e/verify-v2-devnet.test.ts). Every bit of every
 * committed field (hash, root, owner, tree, indices, lamports, address, discriminator, data hash, the
 * token data) is flipped, each mutant verified through createVerifier as parsed objects and as raw
 * bytes; the Merkle nodes (32 or 40 per proof, 256 bits each) are sampled by fast-check.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifierWithTestOptions as createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import type { KindName } from '../../src/merkle/kinds/index.js';
import { buildV2Fixtures, jsonBytes, v1Shape } from '../support/merkle-v2-fixtures.js';
import { accountFields, accountProofFields, addressProofFields, allMutants, mutate, type Field, type Mutant } from '../support/merkle-v2-mutations.js';

type Json = Record<string, unknown>;
const fx = buildV2Fixtures();
const pooled = createVerifier({ threads: 2, jsonParseBelow: 0 });
const inline = createVerifier({ threads: 0 });
afterAll(async () => {
  await pooled.close();
  await inline.close();
});

/** Verify every mutant in one call per form; each must be invalid, and the two forms must agree. */
async function expectAllRejected(kind: KindName, mutants: Mutant[]): Promise<void> {
  const items = mutants.map((m) => m.item);
  const parsed = await pooled.verify(kind, items);
  const raw = await pooled.verify(kind, jsonBytes(items));
  const accepted = mutants.filter((_, i) => parsed[i]!.valid || raw[i]!.valid).map((m) => m.label);
  expect(accepted).toEqual([]);
  expect(raw.map((v) => v.reason)).toEqual(parsed.map((v) => v.reason));
}

const every = (item: Json, fields: Field[]): Mutant[] => fields.flatMap((f) => allMutants(item, f));

describe('V2 answers: every bit of every committed field', () => {
  it('starts from answers that verify', async () => {
    for (const [kind, items] of [
      ['account-hash', [...fx.accounts, ...fx.tokenAccounts]],
      ['account-proof', fx.accountProofs],
      ['address-proof', fx.addressProofs],
    ] as const) {
      for (const v of await pooled.verify(kind, items)) expect(v.valid).toBe(true);
    }
  });

  it('accounts and token accounts (getCompressedAccount(s)V2, getCompressedTokenAccountsByOwnerV2)', async () => {
    const mutants = [...fx.accounts, ...fx.tokenAccounts].flatMap((a) => every(a, accountFields(a)));
    expect(mutants.length).toBeGreaterThan(10_000);
    await expectAllRejected('account-hash', mutants);
  });

  it('the same accounts in the V1 shape (no treeType, so both hashing rules are tried)', async () => {
    const mutants = fx.accounts.map(v1Shape).flatMap((a) => every(a, accountFields(a)));
    await expectAllRejected('account-hash', mutants);
  });

  it('account proofs (getCompressedAccountProofV2): hash, root, leaf index, tree type, proveByIndex', async () => {
    // The first four: leaf indices 0, 1, 2 and 2^31 + 5 (every bit of a big-endian index in play).
    await expectAllRejected('account-proof', fx.accountProofs.slice(0, 4).flatMap((p) => every(p, accountProofFields(p).fields)));
  });

  it('new-address proofs (getMultipleNewAddressProofsV2): bounds, root, low-element index', async () => {
    // A low element at index 0 and one above 2^32.
    await expectAllRejected('address-proof', [fx.addressProofs[0]!, fx.addressProofs[3]!].flatMap((p) => every(p, addressProofFields(p).fields)));
  });
});

describe('V2 answers: any bit of any Merkle node (fast-check)', () => {
  const sample = (kind: KindName, items: Json[], nodesOf: (p: Json) => Field[]) =>
    fc.assert(
      fc.asyncProperty(fc.nat(items.length - 1), fc.nat(), fc.nat(255), async (which, node, bit) => {
        const p = items[which]!;
        const nodes = nodesOf(p);
        const m = mutate(p, nodes[node % nodes.length]!, bit);
        const [v] = await inline.verify(kind, [m.item]);
        return v!.valid === false && /mismatch|field modulus/.test(v!.reason ?? '');
      }),
      { numRuns: 300 },
    );
  it('account proofs: 32 nodes', () => sample('account-proof', fx.accountProofs, (p) => accountProofFields(p).nodes));
  it('new-address proofs: 40 nodes', () => sample('address-proof', fx.addressProofs, (p) => addressProofFields(p).nodes));
});
