import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { verifyAccountHash, verifyAccountProof, type AccountClaim, type AccountProof } from '../../src/merkle/compressed/account.js';
import { parseAccountProof, parseCompressedAccount } from '../../src/merkle/compressed/account-parse.js';
import { kinds } from '../../src/merkle/kinds/index.js';

const load = (f: string) => JSON.parse(readFileSync(`test/vectors/photon/${f}`, 'utf8'));
const proofs = kinds['account-proof'].extract(load('e2e_tests__e2e_mint_and_transfer-bob-proofs.json')).map(({ item }) => parseAccountProof(item));
const tokenAccounts = kinds['account-hash'].extract(load('e2e_tests__e2e_mint_and_transfer_transactions-bob-accounts-v2.json')).map(({ item }) => parseCompressedAccount(item));
const lamportAccount = parseCompressedAccount(kinds['account-hash'].extract(load('e2e_tests__lamport_transfers-payer-accounts.json'))[0]!.item);

const flip = (b: Uint8Array, bit: number): Uint8Array => {
  const c = Uint8Array.from(b);
  c[bit >> 3]! ^= 0x80 >> (bit & 7);
  return c;
};

describe('account proof: flipping any bit of a node, the leaf, the root or the index is rejected', () => {
  it('starts from valid proofs', () => {
    for (const p of proofs) expect(verifyAccountProof(p).valid).toBe(true);
  });
  it('property', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: proofs.length - 1 }),
        fc.constantFrom('hash', 'root', 'proof', 'leafIndex'),
        fc.nat(),
        (which, field, r) => {
          const p = proofs[which]!;
          let m: AccountProof;
          if (field === 'leafIndex') m = { ...p, leafIndex: (p.leafIndex ^ (1 << r % 32)) >>> 0 };
          else if (field === 'proof') m = { ...p, proof: flip(p.proof, r % (p.proof.length * 8)) };
          else m = { ...p, [field]: flip(p[field], r % 256) };
          const v = verifyAccountProof(m);
          return v.valid === false && typeof v.reason === 'string' && v.reason.length > 0;
        },
      ),
      { numRuns: 100 },
    );
  });
  it('swapping two different nodes or truncating the path is rejected', () => {
    const p = proofs[0]!;
    const sw = Uint8Array.from(p.proof);
    sw.set(p.proof.subarray(32, 64), 0);
    sw.set(p.proof.subarray(0, 32), 32);
    expect(verifyAccountProof({ ...p, proof: sw }).valid).toBe(false);
    expect(verifyAccountProof({ ...p, proof: p.proof.subarray(0, 32 * 25) }).valid).toBe(false);
  });
});

type Mutable = 'owner' | 'tree' | 'leafIndex' | 'lamports' | 'discriminator' | 'dataHash' | 'hash' | 'mint' | 'tokenOwner' | 'amount' | 'address';

function mutate(a: AccountClaim, field: Mutable, r: number): AccountClaim {
  switch (field) {
    case 'owner':
    case 'tree':
    case 'hash':
      return { ...a, [field]: flip(a[field], r % 256) };
    case 'leafIndex':
      return { ...a, leafIndex: (a.leafIndex ^ (1 << r % 32)) >>> 0 };
    case 'lamports':
      return { ...a, lamports: a.lamports ^ (1n << BigInt(r % 64)) };
    case 'address':
      return { ...a, address: flip(a.address ?? new Uint8Array(32), r % 256) };
    case 'discriminator':
      return a.data ? { ...a, data: { ...a.data, discriminator: flip(a.data.discriminator, r % 64) } } : { ...a, lamports: a.lamports + 1n };
    case 'dataHash':
      return a.data ? { ...a, data: { ...a.data, dataHash: flip(a.data.dataHash, r % 256) } } : { ...a, lamports: a.lamports + 1n };
    case 'mint':
      return a.token ? { ...a, token: { ...a.token, mint: flip(a.token.mint, r % 256) } } : { ...a, owner: flip(a.owner, 0) };
    case 'tokenOwner':
      return a.token ? { ...a, token: { ...a.token, owner: flip(a.token.owner, r % 256) } } : { ...a, owner: flip(a.owner, 1) };
    case 'amount':
      return a.token ? { ...a, token: { ...a.token, amount: a.token.amount ^ (1n << BigInt(r % 64)) } } : { ...a, owner: flip(a.owner, 2) };
  }
}

describe('account hash: flipping any bit of any account field is rejected', () => {
  const all = [...tokenAccounts, lamportAccount];
  it('starts from valid accounts (token accounts in the v2 shape, a lamports-only account)', () => {
    for (const a of all) expect(verifyAccountHash(a).valid).toBe(true);
  });
  it('property', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: all.length - 1 }),
        fc.constantFrom<Mutable>('owner', 'tree', 'leafIndex', 'lamports', 'discriminator', 'dataHash', 'hash', 'mint', 'tokenOwner', 'amount', 'address'),
        fc.nat(),
        (which, field, r) => {
          const v = verifyAccountHash(mutate(all[which]!, field, r));
          return v.valid === false && typeof v.reason === 'string';
        },
      ),
      { numRuns: 100 },
    );
  });
  it('out-of-field address and data hash are rejected with a reason (not thrown)', () => {
    const a = tokenAccounts[0]!;
    expect(verifyAccountHash({ ...a, token: null, data: { ...a.data!, dataHash: new Uint8Array(32).fill(0xff) } }).reason).toMatch(/dataHash.*field modulus/);
    expect(verifyAccountHash({ ...a, address: new Uint8Array(32).fill(0xff) }).reason).toMatch(/address.*field modulus/);
  });
});
