import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import bs58 from 'bs58';
import { hashCompressedAccount, hashTokenDataV1, TreeType, verifyAccountHash, verifyAccountProof } from '../../src/merkle/compressed/account.js';
import { parseAccountProof, parseCompressedAccount } from '../../src/merkle/compressed/account-parse.js';
import { kinds } from '../../src/merkle/kinds/index.js';
import { poseidon } from '../../src/crypto/poseidon.js';

const PHOTON = 'test/vectors/photon';
const files = readdirSync(PHOTON)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((name) => ({ name, json: JSON.parse(readFileSync(join(PHOTON, name), 'utf8')) as unknown }));
const light = JSON.parse(readFileSync('test/vectors/light_hash_vectors.json', 'utf8'));
const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** Every item of `kind` in every photon file (files holding none are skipped). */
function itemsOf(kind: 'account-hash' | 'account-proof') {
  const out: { file: string; item: unknown }[] = [];
  for (const f of files) {
    let items;
    try {
      items = kinds[kind].extract(f.json);
    } catch {
      continue;
    }
    for (const { item } of items) out.push({ file: f.name, item });
  }
  return out;
}

describe('account hash: every compressed account in vectors/photon', () => {
  const accounts = itemsOf('account-hash');
  it('finds them all (16 from account lists, 20 opened/closed in transactions)', () => {
    expect(accounts.length).toBe(36);
  });
  it.each(accounts.map((a, i) => [`${a.file} #${i}`, a.item]))('%s', (_label, item) => {
    const claim = parseCompressedAccount(item);
    expect(verifyAccountHash(claim)).toEqual({ valid: true });
    expect(bs58.encode(hashCompressedAccount(claim))).toBe((item as any).hash ?? (item as any).account?.hash ?? (item as any).account?.account?.hash);
  });
  it('covers token accounts, lamports-only accounts and the v2 (merkleContext) shape', () => {
    const claims = accounts.map((a) => parseCompressedAccount(a.item));
    expect(claims.some((c) => c.token)).toBe(true);
    expect(claims.some((c) => c.lamports > 0n && !c.data)).toBe(true);
    expect(accounts.some((a) => JSON.stringify(a.item).includes('merkleContext'))).toBe(true);
  });
  it('a changed field makes the claim invalid with a reason', () => {
    const claim = parseCompressedAccount(accounts[0]!.item);
    const v = verifyAccountHash({ ...claim, leafIndex: claim.leafIndex + 1 });
    expect(v.valid).toBe(false);
    expect(v.reason).toMatch(/hash mismatch/);
  });
  it('the hashing rule follows treeType: the same fields hashed as a v2 tree differ', () => {
    const claim = parseCompressedAccount(accounts[0]!.item);
    expect(toHex(hashCompressedAccount({ ...claim, treeType: TreeType.StateV2 }))).not.toBe(toHex(claim.hash));
    expect(verifyAccountHash({ ...claim, treeType: TreeType.StateV2 }).valid).toBe(false);
  });
  it('a token account whose amount was changed fails on its data hash', () => {
    const tok = accounts.map((a) => parseCompressedAccount(a.item)).find((c) => c.token)!;
    const v = verifyAccountHash({ ...tok, token: { ...tok.token!, amount: tok.token!.amount + 1n } });
    expect(v.valid).toBe(false);
    expect(v.reason).toMatch(/dataHash does not match the token data/);
  });
});

describe('light_hash_vectors.json', () => {
  it('v2 account-hash reference (compressed_account.rs reference(), is_batched = true)', () => {
    const r = light.compressed_account_hash_v2_reference;
    const dataHash = poseidon([Uint8Array.from([...new Uint8Array(31).fill(2), 0])]);
    expect(toHex(dataHash)).toBe(light.poseidon_bn254_circom['P1([2u8;31]||[0])'].out);
    const h = hashCompressedAccount({
      owner: hex(r.owner),
      tree: hex(r.tree),
      leafIndex: r.leaf_index,
      lamports: BigInt(r.lamports),
      address: hex(r.address),
      data: { discriminator: hex(r.discriminator), dataHash },
      treeType: TreeType.StateV2,
    });
    expect(BigInt('0x' + toHex(h)).toString()).toBe(r.expected_is_batched_true_dec);
  });
  it.each(light.compressed_token_data_hash_v1.cases as any[])('token data hash v1, amount $amount', (c: any) => {
    const h = hashTokenDataV1({ mint: bs58.decode(c.mint), owner: bs58.decode(c.owner), amount: BigInt(c.amount) });
    expect(bs58.encode(h)).toBe(c.dataHash);
  });
  it('delegate and frozen each change the token data hash', () => {
    const c = light.compressed_token_data_hash_v1.cases[0];
    const base = { mint: bs58.decode(c.mint), owner: bs58.decode(c.owner), amount: 5n };
    const plain = toHex(hashTokenDataV1(base));
    const del = toHex(hashTokenDataV1({ ...base, delegate: bs58.decode(c.owner) }));
    const frozen = toHex(hashTokenDataV1({ ...base, frozen: true }));
    expect(new Set([plain, del, frozen]).size).toBe(3);
  });
});

describe('account proofs: every getCompressedAccountProof value in vectors/photon', () => {
  const proofs = itemsOf('account-proof');
  it('finds them all (16, height 26)', () => {
    expect(proofs.length).toBe(16);
    for (const p of proofs) expect((p.item as any).proof).toHaveLength(26);
  });
  it.each(proofs.map((p, i) => [`${p.file} #${i}`, p.item]))('%s', (_label, item) => {
    expect(verifyAccountProof(parseAccountProof(item))).toEqual({ valid: true });
  });
  it('every account in an account list has its proof among the proofs of the same test', () => {
    const proofHashes = new Set(proofs.map((p) => (p.item as any).hash));
    const listed = itemsOf('account-hash').filter((a) => /-accounts\.json$/.test(a.file) && !a.file.includes('-v2'));
    expect(listed.length).toBeGreaterThan(0);
    for (const a of listed) expect(proofHashes.has(parseAccountHashString(a.item))).toBe(true);
  });
  it('proveByIndex is reported as not proven by the path (not valid, no crash)', () => {
    const item = { ...(proofs[0]!.item as object), proveByIndex: true, treeContext: { treeType: 3 } };
    const v = verifyAccountProof(parseAccountProof(item));
    expect(v.valid).toBe(false);
    expect(v.status).toBe('prove-by-index');
    expect(v.reason).toMatch(/not proven by the path/);
  });
  it('a v1 proof claimed for a v2 tree (height 32) is rejected for its height', () => {
    const item = { ...(proofs[0]!.item as object), treeContext: { treeType: 3 } };
    expect(verifyAccountProof(parseAccountProof(item)).reason).toMatch(/expected 32 nodes, got 26/);
    const addr = { ...(proofs[0]!.item as object), treeContext: { treeType: 2 } };
    expect(verifyAccountProof(parseAccountProof(addr)).reason).toMatch(/address tree/);
  });
  it('a height-32 (v2) path verifies: a fresh tree with one leaf at index 5', () => {
    const zeros = light.poseidon_zero_bytes_0_to_40.map(hex) as Uint8Array[];
    const leaf = poseidon([hex('01'.repeat(31) + '00')]);
    // Build the root by hand: siblings are the zero subtrees, index 5 = 0b101.
    let node = leaf;
    let idx = 5;
    const proof = new Uint8Array(32 * 32);
    for (let h = 0; h < 32; h++) {
      proof.set(zeros[h]!, 32 * h);
      node = idx & 1 ? poseidon([zeros[h]!, node]) : poseidon([node, zeros[h]!]);
      idx >>= 1;
    }
    expect(verifyAccountProof({ hash: leaf, root: node, proof, leafIndex: 5, treeType: TreeType.StateV2 })).toEqual({ valid: true });
    expect(verifyAccountProof({ hash: leaf, root: node, proof, leafIndex: 4, treeType: TreeType.StateV2 }).valid).toBe(false);
  });
  it('the zero table: the root of an empty height-26 tree is zero_bytes[26]', () => {
    const zeros = light.poseidon_zero_bytes_0_to_40.map(hex) as Uint8Array[];
    const proof = new Uint8Array(26 * 32);
    for (let h = 0; h < 26; h++) proof.set(zeros[h]!, 32 * h);
    expect(verifyAccountProof({ hash: zeros[0]!, root: zeros[26]!, proof, leafIndex: 12345 })).toEqual({ valid: true });
  });
  it('out-of-range leafIndex, out-of-field nodes and wrong lengths are rejected with a reason', () => {
    const p = parseAccountProof(proofs[0]!.item);
    expect(verifyAccountProof({ ...p, leafIndex: 2 ** 26 }).reason).toMatch(/leafIndex/);
    const big = Uint8Array.from(p.proof);
    big.fill(0xff, 32 * 3, 32 * 4);
    expect(verifyAccountProof({ ...p, proof: big }).reason).toMatch(/proof\[3\]: not below the BN254 field modulus/);
    expect(verifyAccountProof({ ...p, hash: new Uint8Array(32).fill(0xff) }).reason).toMatch(/hash: not below/);
    expect(verifyAccountProof({ ...p, proof: p.proof.subarray(0, 25 * 32) }).reason).toMatch(/expected 26 or 32 nodes, got 25/);
  });
  it('malformed JSON fields name the field', () => {
    const item = { ...(proofs[0]!.item as any) };
    item.proof = [...item.proof];
    item.proof[4] = 'not-base58-0OIl';
    expect(() => parseAccountProof(item)).toThrow(/"proof\[4\]"/);
    expect(() => parseAccountProof({ ...(proofs[0]!.item as any), leafIndex: -1 })).toThrow(/"leafIndex"/);
  });
});

function parseAccountHashString(item: unknown): string {
  const i = item as any;
  return i.hash ?? i.account?.hash;
}
