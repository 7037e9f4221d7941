/**
 * Distinct, valid asset proofs shaped like the shipped ones, for the benchmarks.
 *
 * Why: repeating the two shipped proofs 40,000 times flatters branchy code. A CPU's branch predictor
 * learns the few hundred characters of two proofs, so a decoder that branches on every base58
 * character looked ~1.5× faster on the repeated pair than on real, all-different proofs. A real
 * `getAssetProofBatch` response holds a different leaf, path and root for every asset.
 *
 * Each proof copies a shipped one's shape: its depth, its tree id, and the empty node where it has one.
 * Its leaf, leaf index and other nodes come from a seeded generator, and its root is hashed from them
 * (the same path rule the verifier checks), so every proof is valid and the runs repeat exactly.
 */
import { readFileSync } from 'node:fs';
import { toB58 } from '../../src/merkle/fields.js';
import { keccakPathRoot } from '../../src/crypto/keccak.js';

type ProofJson = { root: string; proof: string[]; node_index: number; leaf: string; tree_id: string };

const EMPTY = '11111111111111111111111111111111';

/** n distinct proofs made from the shapes in `shapes` (parsed asset proofs), the same for the same seed. */
export function distinctAssetProofs(shapes: readonly unknown[], n: number, seed = 1): ProofJson[] {
  if (shapes.length === 0) throw new Error('distinctAssetProofs: no shapes');
  // xorshift32: fast, seeded, and plenty for test data.
  let x = (Math.imul(seed, 0x9e3779b9) | 0) || 1;
  const next = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  const bytes = (len: number): Uint8Array => {
    const out = new Uint8Array(len);
    for (let i = 0; i < len; i++) out[i] = next() & 0xff;
    return out;
  };
  const out: ProofJson[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const shape = shapes[i % shapes.length] as ProofJson;
    const depth = shape.proof.length;
    const leafIndex = next() % 2 ** Math.min(depth, 30);
    const leaf = bytes(32);
    const nodes = bytes(32 * depth);
    shape.proof.forEach((node, j) => {
      if (node === EMPTY) nodes.fill(0, 32 * j, 32 * j + 32);
    });
    out[i] = {
      root: toB58(keccakPathRoot(leaf, nodes, leafIndex)),
      proof: Array.from({ length: depth }, (_, j) => toB58(nodes.subarray(32 * j, 32 * j + 32))),
      node_index: 2 ** depth + leafIndex,
      leaf: toB58(leaf),
      tree_id: shape.tree_id,
    };
  }
  // What a caller holds after JSON.parse of a response: flat strings. bs58.encode builds each string a
  // character at a time, a 44-deep chain of string pieces (~1.4 KB each) that made the objects form
  // walk ~900 MB of them per 40,000 proofs: ~6x slower than on parsed proofs.
  return JSON.parse(JSON.stringify(out)) as ProofJson[];
}

/** `n` distinct parsed proofs shaped like the two shipped ones (canopy 9 and canopy 0), as the measuring tools verify them. */
export function distinctAssetProofItems(n: number): ProofJson[] {
  const shapes = ['mpl_bubblegum_dasApi_3UowCweY_depth14_canopy9.json', 'mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json'].map(
    (f) => (JSON.parse(readFileSync(new URL(`../../test/vectors/bubblegum/${f}`, import.meta.url), 'utf8')) as { getAssetProof: unknown }).getAssetProof,
  );
  return distinctAssetProofs(shapes, n);
}

/**
 * The response body of `distinctAssetProofItems(n)`, as the measuring tools verify it: a Buffer, or
 * (`shared`) a SharedArrayBuffer as `client.callRaw` returns.
 */
export function distinctAssetProofBody(n: number, shared: boolean): Uint8Array {
  const body = Buffer.from(JSON.stringify(distinctAssetProofItems(n)));
  if (!shared) return body;
  const s = new Uint8Array(new SharedArrayBuffer(body.length));
  s.set(body);
  return s;
}
