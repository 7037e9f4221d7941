/**
 * Valid proofs of every kind for `cairn bench verify`, made on the spot from a seed so the benchmark
 * needs no service, no devnet and no files: asset proofs (keccak, depth 14, each with its own leaf,
 * path and root, as a `getAssetProofBatch` answer holds them), compressed-account proofs (Poseidon,
 * height 26, all against one state tree's root as `getMultipleCompressedAccountProofs` answers),
 * new-address proofs (an indexed tree holding random addresses, proofs for others), and one real
 * validity proof: Light's v1 inclusion proof of a photon integration test, made under the 2024
 * verifying key (a Groth16 proof cannot be made up; proving one here would take seconds and a
 * proving key). Every kind is made valid by construction and each verdict is checked by the family,
 * so a benchmark that verifies nothing cannot look fast.
 */
import { encodeBase58 } from '../solana/index.js';
import { keccakPathRoot, poseidon } from '../crypto/index.js';
import { indexedLeaf, type KindName } from '../merkle/index.js';
import { createConcurrentMerkleTree, createIndexedMerkleTree, fromBytes32, toBytes32 } from '../devnet/internal.js';

/** The kinds this benchmark makes proofs of. */
export const BENCH_KINDS = ['asset-proof', 'account-proof', 'address-proof', 'validity-proof'] as const;
export type BenchKind = (typeof BENCH_KINDS)[number] & KindName;

/** xorshift32 from a seed: repeatable runs, plenty for test data. */
function seeded(seed: number): (len: number) => Uint8Array {
  let x = (Math.imul(seed, 0x9e3779b9) | 0) || 1;
  return (len) => {
    const out = new Uint8Array(len);
    for (let i = 0; i < len; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out[i] = x & 0xff;
    }
    return out;
  };
}

/** 32 bytes below the BN254 field modulus: the first byte cleared, as Light's hashToField does. */
function fieldBytes(bytes: (len: number) => Uint8Array): Uint8Array {
  const b = bytes(32);
  b[0] = 0;
  return b;
}

const b58 = encodeBase58;
const node2 = (l: Uint8Array, r: Uint8Array): Uint8Array => poseidon([l, r]);

/** `n` distinct asset proofs of depth 14 (keccak), each with its own leaf, path and root. */
function assetProofs(n: number, seed: number): unknown[] {
  const bytes = seeded(seed);
  const depth = 14;
  const treeId = b58(bytes(32));
  return Array.from({ length: n }, () => {
    const leafIndex = (bytes(2)[0]! << 6) | (bytes(1)[0]! & 63);
    const leaf = bytes(32);
    const nodes = bytes(32 * depth);
    return {
      root: b58(keccakPathRoot(leaf, nodes, leafIndex)),
      proof: Array.from({ length: depth }, (_, j) => b58(nodes.subarray(32 * j, 32 * j + 32))),
      node_index: 2 ** depth + leafIndex,
      leaf: b58(leaf),
      tree_id: treeId,
    };
  });
}

const STATE_TREE = 'smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT';
const ADDRESS_TREE = 'amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2';

/** `n` compressed-account proofs (height 26): `n` leaves appended to one state tree, each proved against its root. */
function accountProofs(n: number, seed: number): unknown[] {
  const bytes = seeded(seed);
  const tree = createConcurrentMerkleTree({ depth: 26, hash: node2, maxBufferSize: 2400 });
  const leaves = Array.from({ length: n }, () => fieldBytes(bytes));
  for (const leaf of leaves) tree.append(leaf);
  const root = b58(tree.root());
  return leaves.map((leaf, i) => ({
    hash: b58(leaf),
    leafIndex: i,
    merkleTree: STATE_TREE,
    proof: tree.proof(i).map((p) => b58(p)),
    root,
    rootSeq: tree.seq,
  }));
}

/** `n` new-address proofs (v1, height 26): an indexed tree holding `n` random addresses, each proof for another. */
function addressProofs(n: number, seed: number): unknown[] {
  const bytes = seeded(seed);
  const tree = createIndexedMerkleTree({
    height: 26,
    hash2: node2,
    leafHash: (value, nextIndex, nextValue) => indexedLeaf(1, value, fromBytes32(nextIndex), nextValue),
    init: 'v1',
  });
  for (let i = 0; i < n; i++) tree.insert(fromBytes32(fieldBytes(bytes)));
  const out: unknown[] = [];
  while (out.length < n) {
    const address = fromBytes32(fieldBytes(bytes));
    if (tree.has(address)) continue;
    const p = tree.nonInclusionProof(address);
    out.push({
      address: b58(toBytes32(address)),
      higherRangeAddress: b58(toBytes32(p.lowElement.nextValue)),
      lowElementLeafIndex: p.lowElementIndex,
      lowerRangeAddress: b58(toBytes32(p.lowElement.value)),
      merkleTree: ADDRESS_TREE,
      nextIndex: p.lowElement.nextIndex,
      proof: p.proof.map((x) => b58(x)),
      root: b58(p.root),
      rootSeq: p.rootSeq,
    });
  }
  return out;
}

/**
 * Light's v1 inclusion proof of one compressed account (photon's lamport-transfer integration test,
 * helius-labs/photon @366a15b3), verified under the light-protocol@338e47405 (2024) key set that
 * cairn ships: the proof users meet on chain, as `getValidityProof` answers it.
 */
const LIGHT_2024_PROOF = {
  a: '8d2a869b032c49caa3189caa7b6f62f8f072af0e8b13b8224b79080ffe659ea7',
  b: '84cc602688122cd4cbe4a71460ed0d1b7669ccb88e6540d7b947d7a177e83a53116de67631d7b8ea47cbfd50b2465905ebba83116e99d2fabcbe7936d33f957e',
  c: '035b1d5dc9c924a7059f355c0f936405df59c8a34c0e6c2f25b8eded8b9519f8',
  root: '24ecad13fcb34c079de0d48c3cd92bb572e9e98518b3aeb256fbdeb6d07ea663',
  leaf: '0e4a2207e985d4b0aed9aebcf000acc290fc8532709f48f97bf0773dd5fa1628',
};

function validityProofs(n: number): unknown[] {
  const arr = (h: string): number[] => Array.from(Buffer.from(h, 'hex'));
  const hex58 = (h: string): string => b58(Buffer.from(h, 'hex'));
  const one = {
    compressedProof: { a: arr(LIGHT_2024_PROOF.a), b: arr(LIGHT_2024_PROOF.b), c: arr(LIGHT_2024_PROOF.c) },
    roots: [hex58(LIGHT_2024_PROOF.root)],
    rootIndices: [1],
    leafIndices: [0],
    leaves: [hex58(LIGHT_2024_PROOF.leaf)],
    merkleTrees: [STATE_TREE],
  };
  return Array.from({ length: n }, () => one);
}

/** Distinct proofs made per kind before they are repeated to the count asked (Poseidon ones cost as much to make as to verify). */
const DISTINCT: Record<BenchKind, number> = { 'asset-proof': 5_000, 'account-proof': 1_000, 'address-proof': 500, 'validity-proof': 1 };

/**
 * `n` valid items of `kind` in the service's JSON shape (parsed: what a caller holds after
 * `JSON.parse`), the same for the same seed.
 *
 * @example
 * const items = benchProofs('asset-proof', 10_000);
 */
export function benchProofs(kind: BenchKind, n: number, seed = 1): unknown[] {
  const distinct = Math.min(n, DISTINCT[kind]);
  const made =
    kind === 'asset-proof' ? assetProofs(distinct, seed) : kind === 'account-proof' ? accountProofs(distinct, seed) : kind === 'address-proof' ? addressProofs(distinct, seed) : validityProofs(distinct);
  // Flat strings, as JSON.parse gives them.
  const flat = JSON.parse(JSON.stringify(made)) as unknown[];
  return Array.from({ length: n }, (_, i) => flat[i % flat.length]);
}
