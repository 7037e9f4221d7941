/**
 * "Any mutation is rejected" for asset proofs: flipping any bit of any proof node, the leaf, the
 * root or the node index makes the verdict invalid — exhaustively on the mpl-bubblegum vectors
 * (full and canopy-truncated proofs), and with fast-check on random trees of depth 1..24.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canopyFromProof, parseAssetProof, verifyAssetProof, verifyAssetProofBatch, type AssetProofBytes } from '../../src/merkle/cnft/asset-proof.js';
import { keccakPathRoot } from '../../src/crypto/keccak.js';

const v = JSON.parse(readFileSync(new URL('../vectors/bubblegum/mpl_bubblegum_dasApi_3UowCweY_depth14_canopy9.json', import.meta.url), 'utf8'));
const full = parseAssetProof(v.getAssetProof, v.assetId);
const truncated = parseAssetProof({ ...v.getAssetProof, proof: v.truncatedProof }, v.assetId);
const canopy = canopyFromProof(full.leaf, full.proof, full.nodeIndex, 9);

function flip(b: Uint8Array, bit: number): Uint8Array {
  const out = b.slice();
  out[bit >> 3]! ^= 1 << (bit & 7);
  return out;
}

/** Every single-bit mutation of proof, leaf and root, and of the node index's low 20 bits. */
function* mutations(p: AssetProofBytes): Generator<[string, AssetProofBytes]> {
  for (const f of ['proof', 'leaf', 'root'] as const) {
    for (let bit = 0; bit < p[f].length * 8; bit++) yield [`${f} bit ${bit}`, { ...p, [f]: flip(p[f], bit) }];
  }
  for (let bit = 0; bit < 20; bit++) yield [`node_index bit ${bit}`, { ...p, nodeIndex: p.nodeIndex ^ (1 << bit) }];
}

describe('every bit flip of the mpl-bubblegum proof is rejected', () => {
  it('full depth-14 proof', () => {
    expect(verifyAssetProof(full).valid).toBe(true);
    let n = 0;
    for (const [what, m] of mutations(full)) {
      n++;
      if (verifyAssetProof(m).valid) throw new Error(`accepted after flipping ${what}`);
    }
    expect(n).toBe(14 * 256 + 256 + 256 + 20);
  });

  it('canopy-truncated proof (with the canopy)', () => {
    expect(verifyAssetProof(truncated, { canopy }).valid).toBe(true);
    for (const [what, m] of mutations(truncated)) {
      if (verifyAssetProof(m, { canopy }).valid) throw new Error(`accepted after flipping ${what}`);
    }
  });
});

describe('random trees (fast-check)', () => {
  const tree = fc
    .record({
      depth: fc.integer({ min: 1, max: 24 }),
      seed: fc.uint8Array({ minLength: 32, maxLength: 32 }),
      nodes: fc.uint8Array({ minLength: 32 * 24, maxLength: 32 * 24 }),
      index: fc.nat(),
    })
    .map(({ depth, seed, nodes, index }): AssetProofBytes => {
      const proof = nodes.slice(0, 32 * depth);
      const leafIndex = index % 2 ** depth;
      return { leaf: seed, proof, root: keccakPathRoot(seed, proof, leafIndex), nodeIndex: 2 ** depth + leafIndex };
    });

  it('an untouched proof is valid', () => {
    fc.assert(fc.property(tree, (p) => verifyAssetProof(p).valid), { numRuns: 200 });
  });

  it('flipping any bit of a proof node, the leaf or the root is rejected', () => {
    fc.assert(
      fc.property(tree, fc.constantFrom('proof', 'leaf', 'root'), fc.nat(), (p, f, r) => {
        const bits = p[f as 'proof'].length * 8;
        return !verifyAssetProof({ ...p, [f]: flip(p[f as 'proof'], r % bits) }).valid;
      }),
      { numRuns: 400 },
    );
  });

  it('a node index that is not a positive integer is an invalid verdict', () => {
    for (const nodeIndex of [0, -1, 1.5, Number.NaN, 2 ** 60]) expect(verifyAssetProof({ ...full, nodeIndex }).valid).toBe(false);
  });

  it('flipping any bit of the node index is rejected', () => {
    fc.assert(
      fc.property(tree, fc.integer({ min: 0, max: 40 }), (p, bit) => {
        const nodeIndex = Number(BigInt(p.nodeIndex) ^ (1n << BigInt(bit)));
        return !verifyAssetProof({ ...p, nodeIndex }).valid;
      }),
      { numRuns: 400 },
    );
  });

  it('swapping two different proof nodes is rejected', () => {
    fc.assert(
      fc.property(tree, fc.nat(), fc.nat(), (p, a, b) => {
        const n = p.proof.length / 32;
        const i = a % n;
        const j = b % n;
        const x = p.proof.subarray(32 * i, 32 * i + 32);
        const y = p.proof.subarray(32 * j, 32 * j + 32);
        fc.pre(i !== j && x.some((byte, k) => byte !== y[k]));
        const proof = p.proof.slice();
        proof.set(y, 32 * i);
        proof.set(x, 32 * j);
        return !verifyAssetProof({ ...p, proof }).valid;
      }),
      { numRuns: 200 },
    );
  });
});

describe('verifyAssetProofBatch', () => {
  it('gives the same verdicts, in order, as verifyAssetProof one by one', () => {
    const item = fc
      .record({
        depth: fc.integer({ min: 1, max: 20 }),
        leaf: fc.uint8Array({ minLength: 32, maxLength: 32 }),
        nodes: fc.uint8Array({ minLength: 32 * 20, maxLength: 32 * 20 }),
        index: fc.nat(),
        mutate: fc.constantFrom('none', 'none', 'proof', 'leaf', 'root', 'index', 'truncate'),
        bit: fc.nat(),
      })
      .map(({ depth, leaf, nodes, index, mutate, bit }): AssetProofBytes => {
        const proof = nodes.slice(0, 32 * depth);
        const leafIndex = index % 2 ** depth;
        const p: AssetProofBytes = { id: `p${bit}`, leaf, proof, root: keccakPathRoot(leaf, proof, leafIndex), nodeIndex: 2 ** depth + leafIndex };
        if (mutate === 'proof' || mutate === 'leaf' || mutate === 'root') p[mutate] = flip(p[mutate], bit % (p[mutate].length * 8));
        if (mutate === 'index') p.nodeIndex ^= 1 << bit % depth;
        if (mutate === 'truncate') p.proof = p.proof.subarray(0, 32 * (depth - 1));
        return p;
      });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), (items) => {
        expect(verifyAssetProofBatch(items)).toEqual(items.map((p) => verifyAssetProof(p)));
      }),
      { numRuns: 60 },
    );
  });

  it('checks accepted roots and the canopy like the single verifier', () => {
    const items = [full, truncated, { ...full, root: flip(full.root, 3) }];
    expect(verifyAssetProofBatch(items, { canopy })).toEqual(items.map((p) => verifyAssetProof(p, { canopy })));
    const opts = { canopy, acceptedRoots: [new Uint8Array(32)] };
    expect(verifyAssetProofBatch(items, opts).map((v) => v.valid)).toEqual([false, false, false]);
    expect(verifyAssetProofBatch(items, opts)).toEqual(items.map((p) => verifyAssetProof(p, opts)));
  });
});
