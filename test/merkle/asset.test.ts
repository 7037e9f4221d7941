/**
 * Asset proofs against the mpl-bubblegum vectors: the full depth-14 proofs, the canopy-9 truncated
 * proof completed from a canopy derived from the full proof and from tree-account bytes, roots
 * the chain still accepts, and JSON that is not an asset proof.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import {
  canopyDepthOf,
  canopyFromProof,
  fillProofFromCanopy,
  parseAssetProof,
  verifyAssetProof,
  verifyAssetProofJson,
} from '../../src/merkle/cnft/asset-proof.js';
import { encodeTreeAccount, parseTreeAccount } from '../../src/merkle/cnft/tree-account.js';
import { InputError } from '../../src/errors/index.js';

const load = (name: string) => JSON.parse(readFileSync(new URL(`../vectors/bubblegum/${name}.json`, import.meta.url), 'utf8'));
const canopy9 = load('mpl_bubblegum_dasApi_3UowCweY_depth14_canopy9');
const canopy0 = load('mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0');
const emptyTable: string[] = JSON.parse(readFileSync(new URL('../vectors/light_hash_vectors.json', import.meta.url), 'utf8')).keccak_cmt_empty_nodes_0_to_31_base58;

describe('mpl-bubblegum asset proofs', () => {
  for (const v of [canopy9, canopy0]) {
    it(`${v.assetId}: the full proof reaches the root`, () => {
      const verdict = verifyAssetProofJson(v.getAssetProof, { label: v.assetId });
      expect(verdict).toEqual({ id: v.assetId, valid: true });
      const p = parseAssetProof(v.getAssetProof);
      expect(p.proof.length).toBe(32 * v.treeInfo.maxDepth);
      expect(bs58.encode(p.treeId!)).toBe(v.getAssetProof.tree_id);
    });
  }

  it('the proof leaf is the asset hash the indexer shows', () => {
    expect(canopy9.getAssetProof.leaf).toBe(canopy9.getAsset.compression.asset_hash);
  });

  describe('canopy-9 truncated proof', () => {
    const full = parseAssetProof(canopy9.getAssetProof, canopy9.assetId);
    const truncated = parseAssetProof({ ...canopy9.getAssetProof, proof: canopy9.truncatedProof }, canopy9.assetId);
    const canopy = canopyFromProof(full.leaf, full.proof, full.nodeIndex, canopy9.treeInfo.canopyDepth);

    it('keeps depth − canopy nodes', () => {
      expect(truncated.proof.length / 32).toBe(canopy9.treeInfo.maxDepth - canopy9.treeInfo.canopyDepth);
      expect(canopyDepthOf(canopy)).toBe(9);
    });

    it('is rejected without a canopy, saying what is missing', () => {
      const v = verifyAssetProof(truncated);
      expect(v.valid).toBe(false);
      expect(v.reason).toMatch(/truncated to 5 of 14/);
    });

    it('verifies with the canopy derived from the full proof', () => {
      expect(verifyAssetProof(truncated, { canopy })).toEqual({ id: canopy9.assetId, valid: true });
      expect(verifyAssetProof(truncated, { canopy: new Uint8Array(canopy.length) }).computedRoot).not.toBe(canopy9.getAssetProof.root);
      expect(bs58.encode(fillProofFromCanopy(truncated.proof, 0, 14, canopy))).toBe(bs58.encode(full.proof));
    });

    it('verifies with the canopy and roots read from tree-account bytes', () => {
      const older = bs58.decode(canopy0.getAssetProof.root); // any other root: an older change-log entry
      const bytes = encodeTreeAccount({ maxDepth: 14, maxBufferSize: 64, canopyDepth: 9, roots: [full.root, older], canopy });
      const tree = parseTreeAccount(bytes);
      expect(tree.canopyDepth).toBe(9);
      expect(verifyAssetProof(truncated, { tree })).toMatchObject({ valid: true });
      expect(verifyAssetProof(full, { tree })).toMatchObject({ valid: true });
    });

    it('a canopy too shallow for the truncation is not enough', () => {
      const shallow = canopyFromProof(full.leaf, full.proof, full.nodeIndex, 8);
      expect(verifyAssetProof(truncated, { canopy: shallow }).reason).toMatch(/do not reach depth 14/);
    });

    it('a wrong canopy sibling makes the truncated proof invalid; path nodes are recomputed, not read', () => {
      for (let level = 5; level < 14; level++) {
        const pathHeap = 2 ** (14 - level); // leaf 0: the path runs down the left edge
        const sibling = canopy.slice();
        sibling[32 * (pathHeap + 1 - 2) + (level % 32)]! ^= 0x80;
        expect(verifyAssetProof(truncated, { canopy: sibling }), `sibling at level ${level}`).toMatchObject({ valid: false });
        const onPath = canopy.slice();
        onPath[32 * (pathHeap - 2)]! ^= 0x80;
        expect(verifyAssetProof(truncated, { canopy: onPath }).valid, `path node at level ${level}`).toBe(true);
      }
    });

    it('all-zero canopy nodes stand for empty subtrees (spl fill_in_proof_from_canopy)', () => {
      // canopy9's upper siblings are empty subtrees: zero them in the canopy and the proof still holds
      const zeroed = canopy.slice();
      let cleared = 0;
      for (let level = 5; level < 14; level++) {
        const heap = Math.floor(2 ** 14 / 2 ** level) + 1; // sibling of the leftmost path
        const node = zeroed.subarray(32 * (heap - 2), 32 * (heap - 1));
        if (bs58.encode(node) === emptyTable[level]) {
          node.fill(0);
          cleared++;
        }
      }
      expect(cleared).toBe(9);
      expect(verifyAssetProof(truncated, { canopy: zeroed })).toMatchObject({ valid: true });
    });
  });

  describe('accepted roots', () => {
    const p = parseAssetProof(canopy0.getAssetProof, canopy0.assetId);
    it('a root among the accepted ones is valid', () => {
      expect(verifyAssetProof(p, { acceptedRoots: [new Uint8Array(32), p.root] }).valid).toBe(true);
    });
    it('a root the tree no longer accepts is invalid, even when the path reaches it', () => {
      const v = verifyAssetProof(p, { acceptedRoots: [new Uint8Array(32)] });
      expect(v).toMatchObject({ valid: false, status: 'stale-root' });
    });
    it('a tree account of another depth is a mismatch', () => {
      const tree = parseTreeAccount(encodeTreeAccount({ maxDepth: 10, maxBufferSize: 8, roots: [p.root] }));
      expect(verifyAssetProof(p, { tree }).reason).toMatch(/depth 14.*depth 10/);
    });
  });
});

describe('parseAssetProof errors name the field', () => {
  const good = canopy0.getAssetProof;
  const cases: [unknown, string][] = [
    [null, 'id1'],
    [{ ...good, root: 42 }, 'id1.root'],
    [{ ...good, leaf: 'not-base58-0OIl' }, 'id1.leaf'],
    [{ ...good, leaf: bs58.encode(new Uint8Array(31)) }, 'id1.leaf'],
    [{ ...good, proof: 'x' }, 'id1.proof'],
    [{ ...good, proof: [...good.proof.slice(0, 3), 7] }, 'id1.proof[3]'],
    [{ ...good, node_index: -1 }, 'id1.node_index'],
    [{ ...good, node_index: '16384' }, 'id1.node_index'],
    [{ ...good, tree_id: 'zz' }, 'id1.tree_id'],
  ];
  for (const [json, field] of cases) {
    it(field, () => {
      let err: unknown;
      try {
        parseAssetProof(json, 'id1');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).context.field).toBe(field);
    });
  }

  it('a node_index that disagrees with the proof length is an invalid verdict, not a throw', () => {
    expect(verifyAssetProofJson({ ...good, node_index: 2 ** 13 }).reason).toMatch(/14 nodes but node_index 8192 implies depth 13/);
    expect(verifyAssetProofJson({ ...good, node_index: 2 ** 15 }).reason).toMatch(/truncated to 14 of 15/);
  });
});
