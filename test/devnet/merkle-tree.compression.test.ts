import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import bs58 from 'bs58';
import { createConcurrentMerkleTree, createIndexedMerkleTree, fromBytes32, HIGHEST_ADDRESS, toBytes32 } from '../../src/devnet/trees/merkle.js';
import { poseidon, poseidonPathRoot } from '../../src/crypto/poseidon.js';
import { indexedLeaf, verifyNewAddressProof } from '../../src/merkle/compressed/address.js';
import { createCompressionStore, newTokenAccount } from '../../src/devnet/compression/store.js';

const light = JSON.parse(fs.readFileSync(new URL('../vectors/light_hash_vectors.json', import.meta.url), 'utf8'));
const photon = (name: string) => JSON.parse(fs.readFileSync(new URL(`../vectors/photon/${name}`, import.meta.url), 'utf8'));
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const node2 = (l: Uint8Array, r: Uint8Array) => poseidon([l, r]);
const concat = (nodes: Uint8Array[]) => {
  const out = new Uint8Array(nodes.length * 32);
  nodes.forEach((n, i) => out.set(n, i * 32));
  return out;
};
const indexed = () =>
  createIndexedMerkleTree({
    height: 26,
    hash2: node2,
    leafHash: (v, n, nv) => indexedLeaf(1, v, fromBytes32(n), nv),
  });

describe('Poseidon state tree (height 26)', () => {
  it('has the zero nodes of light-protocol', () => {
    const t = createConcurrentMerkleTree({ depth: 26, hash: node2, maxBufferSize: 2400 });
    for (let i = 0; i <= 26; i++) expect(hex(t.zero(i))).toBe(light.poseidon_zero_bytes_0_to_40[i]);
    expect(hex(t.root())).toBe(light.poseidon_zero_bytes_0_to_40[26]);
  });

  it('proofs of appended leaves walk up to the root with the engine', () => {
    const t = createConcurrentMerkleTree({ depth: 26, hash: node2, maxBufferSize: 2400 });
    const leaves = Array.from({ length: 5 }, (_, i) => toBytes32(BigInt(1000 + i)));
    for (const l of leaves) t.append(l);
    t.set(2, new Uint8Array(32)); // nullified
    for (const i of [0, 1, 3, 4]) expect(poseidonPathRoot(leaves[i], concat(t.proof(i)), i)).toEqual(t.root());
    expect(poseidonPathRoot(leaves[2], concat(t.proof(2)), 2)).not.toEqual(t.root());
    expect(t.seq).toBe(6);
  });
});

describe('indexed address tree (v1)', () => {
  const roots = light.v1_indexed_address_tree_h26_roots;

  it('initialises like light-protocol (root, seq 3)', () => {
    const t = indexed();
    expect(hex(t.tree.root())).toBe(roots.init.root);
    expect(hex(t.tree.root())).toBe(light.light_constants.v1_address_tree_init_root_h26);
    expect(hex(t.tree.leaf(0))).toBe(light.light_constants.indexed_leaf_v1_H_0_1_HIGH);
    expect(t.tree.seq).toBe(3);
    expect(t.element(1)).toEqual({ value: HIGHEST_ADDRESS, nextIndex: 0, nextValue: 0n });
  });

  it('reproduces the reference roots after inserting 30, 42, 12', () => {
    const t = indexed();
    t.insert(30n);
    expect(hex(t.tree.root())).toBe(roots.after_append_30.root);
    t.insert(42n);
    expect(hex(t.tree.root())).toBe(roots.after_append_42.root);
    t.insert(12n);
    expect(hex(t.tree.root())).toBe(roots.after_append_12.root);
    const expected = roots.after_append_12.elements.map(([v, n]: [string, number]) => [v === 'HIGH' ? HIGHEST_ADDRESS : BigInt(v), n]);
    expect(Array.from({ length: t.length }, (_, i) => [t.element(i).value, t.element(i).nextIndex])).toEqual(expected);
  });

  it('non-inclusion proofs verify with the Merkle engine; members and out-of-range values are refused', () => {
    const t = indexed();
    for (const v of [30n, 42n, 12n, 1n << 200n]) t.insert(v);
    for (const q of [1n, 13n, 31n, 41n, 43n, (1n << 200n) + 1n, HIGHEST_ADDRESS - 1n]) {
      const p = t.nonInclusionProof(q);
      const verdict = verifyNewAddressProof({
        address: toBytes32(q),
        lowerRangeAddress: toBytes32(p.lowElement.value),
        higherRangeAddress: toBytes32(p.lowElement.nextValue),
        nextIndex: BigInt(p.lowElement.nextIndex),
        lowElementLeafIndex: p.lowElementIndex,
        root: p.root,
        proof: concat(p.proof),
      });
      expect(verdict, `value ${q}`).toEqual({ valid: true });
    }
    expect(() => t.nonInclusionProof(42n)).toThrow(/already exists/);
    expect(() => t.insert(30n)).toThrow(/already exists/);
    expect(() => t.nonInclusionProof(0n)).toThrow(/"address"/);
    expect(() => t.nonInclusionProof(HIGHEST_ADDRESS)).toThrow(/"address"/);
  });

  it('answers the photon mock new-address proof byte for byte on a fresh tree', () => {
    const v = photon('mock_tests__get_multiple_new_address_proofs_interop.json').value[0];
    const store = createCompressionStore();
    const p = store.addressTree.nonInclusionProof(fromBytes32(bs58.decode(v.address)));
    expect(bs58.encode(p.root)).toBe(v.root);
    expect(p.rootSeq).toBe(v.rootSeq);
    expect(p.lowElementIndex).toBe(v.lowElementLeafIndex);
    expect(p.lowElement.nextIndex).toBe(v.nextIndex);
    expect(bs58.encode(toBytes32(p.lowElement.value))).toBe(v.lowerRangeAddress);
    expect(bs58.encode(toBytes32(p.lowElement.nextValue))).toBe(v.higherRangeAddress);
    expect(p.proof.map((n) => bs58.encode(n))).toEqual(v.proof);
  });
});

describe('compressed token accounts', () => {
  it('token data hash matches the light/photon reference', () => {
    for (const c of light.compressed_token_data_hash_v1.cases) {
      const acc = newTokenAccount({ mint: bs58.decode(c.mint), owner: bs58.decode(c.owner), amount: BigInt(c.amount), delegate: null, frozen: false });
      expect(bs58.encode(acc.data!.dataHash)).toBe(c.dataHash);
    }
  });

  it('token data bytes have the layout of the photon snapshot', () => {
    const item = photon('e2e_tests__e2e_mint_and_transfer-bob-accounts.json').value.items[0];
    const t = item.tokenData;
    const acc = newTokenAccount({ mint: bs58.decode(t.mint), owner: bs58.decode(t.owner), amount: BigInt(t.amount), delegate: null, frozen: false });
    expect(Buffer.from(acc.data!.data).toString('base64')).toBe(item.account.data.data);
    expect(bs58.encode(acc.data!.dataHash)).toBe(item.account.data.dataHash);
  });
});
