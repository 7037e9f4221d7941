import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import bs58 from 'bs58';
import {
  ADDRESS_TREE_HEIGHT,
  deriveAddressSeedV1,
  deriveAddressSeedV2,
  deriveAddressV1,
  deriveAddressV2,
  HIGHEST_ADDRESS,
  indexedLeaf,
  parseNewAddressProof,
  verifyNewAddressProof,
  type NewAddressProof,
} from '../../src/merkle/compressed/address.js';
import { kinds } from '../../src/merkle/kinds/index.js';
import { poseidon } from '../../src/crypto/poseidon.js';
import { bigintToBe } from '../../src/crypto/bytes.js';

const light = JSON.parse(readFileSync('test/vectors/light_hash_vectors.json', 'utf8'));
const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const toHex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const zeros = (light.poseidon_zero_bytes_0_to_40 as string[]).map(hex);
const utf8 = (s: string) => new TextEncoder().encode(s);

const SHIPPED = [
  'test/vectors/photon/e2e_tests__nullfiier_and_address_queue_transactions-proof-address.json',
  'test/vectors/photon/mock_tests__get_multiple_new_address_proofs_interop.json',
];
const shipped = SHIPPED.flatMap((f) => kinds['address-proof'].extract(JSON.parse(readFileSync(f, 'utf8'))).map(({ item }) => ({ f, item })));

/** Root and proofs of a sparse Poseidon tree of `height` holding `leaves` from index 0. */
function sparseTree(leaves: Uint8Array[], height: number): { root: Uint8Array; proof: (i: number) => Uint8Array } {
  const levels: Uint8Array[][] = [leaves];
  for (let h = 0; h < height; h++) {
    const cur = levels[h]!;
    const next: Uint8Array[] = [];
    for (let i = 0; i < cur.length; i += 2) next.push(poseidon([cur[i]!, cur[i + 1] ?? zeros[h]!]));
    levels.push(next.length ? next : [poseidon([zeros[h]!, zeros[h]!])]);
  }
  return {
    root: levels[height]![0]!,
    proof(i) {
      const out = new Uint8Array(32 * height);
      for (let h = 0; h < height; h++) out.set(levels[h]![(i >> h) ^ 1] ?? zeros[h]!, 32 * h);
      return out;
    },
  };
}

const HIGH = bigintToBe(HIGHEST_ADDRESS);
const val = (v: string) => (v === 'HIGH' ? HIGH : bigintToBe(BigInt(v)));

describe('new-address proofs in vectors/photon', () => {
  it('finds both shipped proofs (v1, height 26)', () => {
    expect(shipped).toHaveLength(2);
    for (const s of shipped) expect((s.item as any).proof).toHaveLength(ADDRESS_TREE_HEIGHT.v1);
  });
  it.each(shipped.map((s) => [s.f.split('/').pop(), s.item]))('%s verifies', (_f, item) => {
    expect(verifyNewAddressProof(parseNewAddressProof(item))).toEqual({ valid: true });
  });
  it('the address of a shipped proof moved just outside its range is invalid although the path is fine', () => {
    const p = parseNewAddressProof(shipped[0]!.item);
    const atLower = verifyNewAddressProof({ ...p, address: p.lowerRangeAddress });
    expect(atLower.valid).toBe(false);
    expect(atLower.status).toBe('out-of-range');
    expect(verifyNewAddressProof({ ...p, address: p.higherRangeAddress }).reason).toMatch(/not below higherRangeAddress/);
  });
  it('an address ≥ 2^248 is rejected with a reason, even inside the range', () => {
    const p = parseNewAddressProof(shipped[0]!.item);
    const v = verifyNewAddressProof({ ...p, address: bigintToBe(1n << 248n), higherRangeAddress: bigintToBe((1n << 248n) + 5n) });
    expect(v.valid).toBe(false);
    expect(v.reason).toMatch(/2\^248/);
  });
  it('out-of-field bounds and nodes are rejected naming the field', () => {
    const p = parseNewAddressProof(shipped[0]!.item);
    const proof = Uint8Array.from(p.proof);
    proof.fill(0xff, 0, 32);
    expect(verifyNewAddressProof({ ...p, proof }).reason).toMatch(/proof\[0\]: not below the BN254 field modulus/);
    expect(verifyNewAddressProof({ ...p, higherRangeAddress: new Uint8Array(32).fill(0xff) }).reason).toMatch(/higherRangeAddress: not below/);
    expect(verifyNewAddressProof({ ...p, lowElementLeafIndex: 2 ** 26 }).reason).toMatch(/lowElementLeafIndex/);
  });
});

describe('indexed trees (light_hash_vectors.json)', () => {
  const sets = Object.entries(light.v1_indexed_address_tree_h26_roots).filter(([k]) => !k.startsWith('_')) as [string, any][];
  it.each(sets)('v1 height-26 root %s', (_name, s) => {
    const els = s.elements as [string, number][];
    const leaves = els.map(([v, next]) => indexedLeaf(1, val(v), BigInt(next), val(els[next]![0])));
    expect(toHex(sparseTree(leaves, 26).root)).toBe(s.root);
  });
  it('v1 leaf of the initial element is indexed_leaf_v1_H_0_1_HIGH', () => {
    expect(toHex(indexedLeaf(1, val('0'), 1n, HIGH))).toBe(light.light_constants.indexed_leaf_v1_H_0_1_HIGH);
  });
  it('non-inclusion proofs built from every tree state verify, and fail outside the range', () => {
    const s = light.v1_indexed_address_tree_h26_roots.after_append_12;
    const els = s.elements as [string, number][];
    const leaves = els.map(([v, next]) => indexedLeaf(1, val(v), BigInt(next), val(els[next]![0])));
    const tree = sparseTree(leaves, 26);
    // Element 4 is (12, next 2 → 30): the range (12, 30) excludes 12 and 30, holds 13..29.
    const mk = (address: bigint): NewAddressProof => ({
      address: bigintToBe(address),
      lowerRangeAddress: val('12'),
      higherRangeAddress: val('30'),
      nextIndex: 2n,
      lowElementLeafIndex: 4,
      root: tree.root,
      proof: tree.proof(4),
    });
    expect(verifyNewAddressProof(mk(13n))).toEqual({ valid: true });
    expect(verifyNewAddressProof(mk(29n))).toEqual({ valid: true });
    expect(verifyNewAddressProof(mk(12n)).valid).toBe(false);
    expect(verifyNewAddressProof(mk(30n)).valid).toBe(false);
    // The v1 leaf commits to nextIndex: a wrong one breaks the path.
    expect(verifyNewAddressProof({ ...mk(20n), nextIndex: 3n }).reason).toMatch(/root mismatch/);
    // The root of this state also equals the published constant.
    expect(toHex(tree.root)).toBe(s.root);
  });
  it('v2 (height 40): the initial batched address tree root, and a proof against it', () => {
    const leaf0 = indexedLeaf(2, val('0'), 0n, HIGH);
    expect(toHex(leaf0)).toBe(toHex(poseidon([val('0'), HIGH])));
    const tree = sparseTree([leaf0], 40);
    expect(bs58.encode(tree.root)).toBe(light.light_constants.v2_ADDRESS_TREE_INIT_ROOT_40_base58);
    const p: NewAddressProof = {
      address: bigintToBe(123456789n),
      lowerRangeAddress: val('0'),
      higherRangeAddress: HIGH,
      nextIndex: 1n,
      lowElementLeafIndex: 0,
      root: tree.root,
      proof: tree.proof(0),
    };
    expect(verifyNewAddressProof(p)).toEqual({ valid: true });
    expect(verifyNewAddressProof({ ...p, version: 1 }).reason).toMatch(/v1 address tree has height 26/);
    // The largest address is 2^248 − 2 (strictly below the sentinel 2^248 − 1).
    expect(verifyNewAddressProof({ ...p, address: bigintToBe(HIGHEST_ADDRESS - 1n) })).toEqual({ valid: true });
    expect(verifyNewAddressProof({ ...p, address: HIGH }).valid).toBe(false);
  });
  it('a v1 tree with a treeType of 4 in its context is held to height 40', () => {
    const item = { ...(shipped[0]!.item as object), treeContext: { treeType: 4 } };
    expect(verifyNewAddressProof(parseNewAddressProof(item)).reason).toMatch(/height 40/);
    expect(() => parseNewAddressProof({ ...(shipped[0]!.item as object), treeContext: { treeType: 1 } })).toThrow(/address tree/);
  });
});

describe('address derivation (light_hash_vectors.json)', () => {
  const d = light.address_derivation;
  const programId = bs58.decode(d.program_id);
  it('v1 seed and address', () => {
    const seed = deriveAddressSeedV1(d.v1.seeds.map(utf8), programId);
    expect(toHex(seed)).toBe(d.v1.seed_hex);
    expect(bs58.encode(deriveAddressV1(seed, bs58.decode(d.v1.tree)))).toBe(d.v1.address);
  });
  it('v2 seed and address', () => {
    const seed = deriveAddressSeedV2(d.v2.seeds.map(utf8));
    expect(Array.from(seed.subarray(0, 6))).toEqual(d.v2.seed_first6);
    const addr = deriveAddressV2(seed, bs58.decode(d.v2.tree), programId);
    expect(Array.from(addr.subarray(0, 6))).toEqual(d.v2.address_first6);
    expect(addr[0]).toBe(0);
  });
});
