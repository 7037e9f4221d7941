import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import bs58 from 'bs58';
import { createConcurrentMerkleTree } from '../../src/devnet/trees/merkle.js';
import { assetIdPda, creatorHash, dataHashV1, keccakNode, leafHashV1, type MetadataArgsV1 } from '../../src/devnet/das/leaf.js';
import { keccakPathRoot } from '../../src/crypto/keccak.js';
import { verifyAssetProof, canopyFromProof } from '../../src/merkle/cnft/asset-proof.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

const vec = (name: string) => JSON.parse(fs.readFileSync(new URL(`../vectors/bubblegum/${name}`, import.meta.url), 'utf8'));
const concat = (nodes: Uint8Array[]) => {
  const out = new Uint8Array(nodes.length * 32);
  nodes.forEach((n, i) => out.set(n, i * 32));
  return out;
};

function metadataFrom(m: any): MetadataArgsV1 {
  return {
    name: m.name,
    symbol: m.symbol,
    uri: m.uri,
    sellerFeeBasisPoints: m.sellerFeeBasisPoints,
    primarySaleHappened: m.primarySaleHappened,
    isMutable: m.isMutable,
    editionNonce: m.editionNonce,
    tokenStandard: ['NonFungible', 'FungibleAsset', 'Fungible', 'NonFungibleEdition'].indexOf(m.tokenStandard),
    collection: m.collection ? { verified: m.collection.verified, key: bs58.decode(m.collection.key) } : null,
    uses: null,
    tokenProgramVersion: 0,
    creators: m.creators.map((c: any) => ({ address: bs58.decode(c.address), verified: c.verified, share: c.share })),
  };
}

/** Naive reference: rebuild every level from scratch. */
function naiveRoot(leaves: Map<number, Uint8Array>, depth: number): { root: Uint8Array; levels: Uint8Array[][] } {
  let level: Uint8Array[] = Array.from({ length: 2 ** depth }, (_, i) => leaves.get(i) ?? new Uint8Array(32));
  const levels = [level];
  for (let d = 0; d < depth; d++) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(keccak_256(concat([level[i], level[i + 1]])));
    level = next;
    levels.push(level);
  }
  return { root: level[0], levels };
}

describe('das leaf builder against mpl-bubblegum vectors', () => {
  for (const file of ['mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json', 'mpl_bubblegum_dasApi_3UowCweY_depth14_canopy9.json']) {
    it(`rebuilds id, data_hash, creator_hash and leaf of ${file}`, () => {
      const v = vec(file);
      const a = v.getAsset;
      const m = metadataFrom(v.metadataArgs);
      const tree = bs58.decode(a.compression.tree);
      expect(bs58.encode(assetIdPda(tree, BigInt(a.compression.leaf_id)))).toBe(a.id);
      expect(bs58.encode(dataHashV1(m))).toBe(a.compression.data_hash);
      expect(bs58.encode(creatorHash(m.creators))).toBe(a.compression.creator_hash);
      const owner = bs58.decode(a.ownership.owner);
      const leaf = leafHashV1({
        id: bs58.decode(a.id),
        owner,
        delegate: owner,
        nonce: BigInt(a.compression.leaf_id),
        dataHash: dataHashV1(m),
        creatorHash: creatorHash(m.creators),
      });
      expect(bs58.encode(leaf)).toBe(a.compression.asset_hash);
    });
  }

  it('a depth-14 tree holding the one leaf reproduces the DAS proof and root', () => {
    const v = vec('mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json');
    const t = createConcurrentMerkleTree({ depth: 14, hash: keccakNode });
    t.append(bs58.decode(v.getAssetProof.leaf));
    expect(bs58.encode(t.root())).toBe(v.getAssetProof.root);
    expect(t.proof(0).map((n) => bs58.encode(n))).toEqual(v.getAssetProof.proof);
  });
});

describe('concurrent merkle tree (keccak)', () => {
  it('matches a naive full rebuild after appends, sparse sets and overwrites', () => {
    const depth = 6;
    const t = createConcurrentMerkleTree({ depth, hash: keccakNode, maxBufferSize: 8, canopyDepth: 3 });
    const leaves = new Map<number, Uint8Array>();
    const rnd = (i: number) => keccak_256(new Uint8Array([i, i >> 8, 7]));
    for (let i = 0; i < 10; i++) {
      const leaf = rnd(i);
      expect(t.append(leaf).index).toBe(i);
      leaves.set(i, leaf);
    }
    for (const [i, k] of [[40, 100], [3, 101], [63, 102], [3, 103]]) {
      const leaf = rnd(k);
      t.set(i, leaf);
      leaves.set(i, leaf);
    }
    const { root, levels } = naiveRoot(leaves, depth);
    expect(t.root()).toEqual(root);
    expect(t.size).toBe(64);
    expect(t.seq).toBe(14);
    for (const i of [0, 3, 9, 10, 40, 63]) {
      const proof = t.proof(i);
      expect(proof).toHaveLength(depth);
      expect(keccakPathRoot(t.leaf(i), concat(proof), i)).toEqual(root);
    }
    // Canopy: heap order without the root, canopy[k - 2] = node k.
    const canopy = t.canopy();
    expect(canopy.length).toBe((2 ** 4 - 2) * 32);
    for (let k = 2; k < 16; k++) {
      const h = Math.floor(Math.log2(k));
      expect(canopy.subarray((k - 2) * 32, (k - 1) * 32)).toEqual(levels[depth - h][k - 2 ** h]);
    }
  });

  it('a proof truncated for the canopy verifies with the canopy (Merkle engine)', () => {
    const depth = 10;
    const t = createConcurrentMerkleTree({ depth, hash: keccakNode, canopyDepth: 4 });
    for (let i = 0; i < 37; i++) t.append(keccak_256(new Uint8Array([i, 1])));
    const i = 21;
    const full = concat(t.proof(i));
    const truncated = full.subarray(0, (depth - 4) * 32);
    const canopy = t.canopy();
    // The engine's partial canopy (path nodes only) agrees with ours wherever it knows a node.
    const partial = canopyFromProof(t.leaf(i), full, 2 ** depth + i, 4);
    for (let k = 0; k < partial.length; k += 32) {
      const node = partial.subarray(k, k + 32);
      if (node.some((x) => x !== 0)) expect(node).toEqual(canopy.subarray(k, k + 32));
    }
    const v = verifyAssetProof({ root: t.root(), leaf: t.leaf(i), proof: truncated, nodeIndex: 2 ** depth + i }, { canopy });
    expect(v.valid).toBe(true);
    const bad = verifyAssetProof({ root: t.root(), leaf: t.leaf(i + 1), proof: full, nodeIndex: 2 ** depth + i });
    expect(bad.valid).toBe(false);
  });

  it('keeps a bounded change log of roots', () => {
    const t = createConcurrentMerkleTree({ depth: 4, hash: keccakNode, maxBufferSize: 3 });
    const roots: Uint8Array[] = [t.root()];
    for (let i = 0; i < 5; i++) {
      t.append(keccak_256(new Uint8Array([i])));
      roots.push(t.root());
    }
    expect(t.recentRoots().map((r) => r.seq)).toEqual([3, 4, 5]);
    expect(t.rootSeq(roots[5])).toBe(5);
    expect(t.rootSeq(roots[3])).toBe(3);
    expect(t.rootSeq(roots[2])).toBe(-1); // fell out of the buffer
  });

  it('rejects bad arguments with errors naming the field', () => {
    expect(() => createConcurrentMerkleTree({ depth: 0, hash: keccakNode })).toThrow(/"depth"/);
    expect(() => createConcurrentMerkleTree({ depth: 40, hash: keccakNode })).toThrow(/"depth"/);
    expect(() => createConcurrentMerkleTree({ depth: 5, hash: keccakNode, canopyDepth: 5 })).toThrow(/"canopyDepth"/);
    const t = createConcurrentMerkleTree({ depth: 3, hash: keccakNode });
    expect(() => t.append(new Uint8Array(31))).toThrow(/"leaf": expected 32 bytes, got 31/);
    expect(() => t.set(8, new Uint8Array(32))).toThrow(/"index"/);
    expect(() => t.proof(-1)).toThrow(/"index"/);
    for (let i = 0; i < 8; i++) t.append(new Uint8Array(32).fill(i + 1));
    expect(() => t.append(new Uint8Array(32))).toThrow(/full/);
  });
});
