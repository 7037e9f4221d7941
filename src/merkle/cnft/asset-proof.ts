/**
 * Compressed-NFT asset proofs (keccak256 concurrent Merkle trees, as `getAssetProof` returns them):
 * JSON is parsed once into bytes (`parseAssetProof`, errors name the field), then verified on bytes
 * (`verifyAssetProof`) with the whole path hashed in one kernel call. Proofs truncated for a tree's
 * canopy are completed from the canopy — given as bytes, or from the parsed tree account, which also
 * supplies every root the chain still accepts.
 *
 * Index rule (spl concurrent-merkle-tree): `node_index = 2^depth + leaf_index`; at level i the node
 * is the left child when bit i of the leaf index is 0. DAS always returns the full-depth proof.
 */
import { encodeBase58, base58Bytes } from '../../solana/index.js';
import { isPlainObject } from '../../assert.js';
import { base58TooLong } from '../../base58-bound.js';
import { InputError } from '../../errors/index.js';
import { keccakPathRoot, keccakVerifyBatch, equalBytes } from '../../crypto/index.js';
import { emptyNode } from './empty-node.js';
import { b58Decode32, describe } from '../fields.js';
import { bad, ok, type Verdict } from '../verdict.js';
import type { TreeAccount } from './tree-account.js';

/** A `getAssetProof` item decoded to bytes. */
export interface AssetProofBytes {
  /** Identifier echoed into the verdict (the asset id, when known). */
  id?: string;
  root: Uint8Array;
  leaf: Uint8Array;
  /** Proof nodes concatenated, 32 bytes each, leaf → root (full depth, or truncated for a canopy). */
  proof: Uint8Array;
  /** `2^depth + leafIndex`, as the indexer reports it. */
  nodeIndex: number;
  /** The tree (`tree_id`), when given. */
  treeId?: Uint8Array;
}

export interface VerifyAssetProofOptions {
  /** Canopy bytes of the tree (heap order without the root), to complete a truncated proof. */
  canopy?: Uint8Array;
  /** Roots the chain still accepts (a tree account's change-log roots): `root` must be one of them. */
  acceptedRoots?: Uint8Array[];
  /** A parsed tree account: supplies `canopy` and `acceptedRoots` and checks the depth. */
  tree?: TreeAccount;
}

const ZERO32 = new Uint8Array(32);

// ---------------------------------------------------------------------------------- parsing

/** A base58 string of exactly 32 bytes, or an InputError naming `field`. */
export function b58Bytes32(value: unknown, field: string): Uint8Array {
  if (typeof value !== 'string') throw new InputError(field, `expected a base58 string, got ${describe(value)}`, { expected: 'base58', got: describe(value) });
  // The common case without bs58's generic (quadratic, allocating) decoder; bs58 gives the errors.
  const fast = b58Decode32(value);
  if (fast) return fast;
  if (base58TooLong(value, 32)) throw new InputError(field, `expected 32 bytes of base58, got ${value.length} characters`, { expected: '32 bytes', got: `${value.length} characters` });
  let out: Uint8Array;
  try {
    out = base58Bytes(value);
  } catch {
    throw new InputError(field, `not valid base58: ${describe(value)}`, { expected: 'base58', got: describe(value) });
  }
  if (out.length !== 32) throw new InputError(field, `expected 32 bytes, got ${out.length}`, { expected: '32 bytes', got: out.length });
  return out;
}

/**
 * Decode one `getAssetProof` result (`{ root, proof[], node_index, leaf, tree_id }`) to bytes.
 * Throws `InputError` naming the field (prefixed by `label`, e.g. `"3Uow….proof[2]"`).
 *
 * @example
 * const p = parseAssetProof(await rpc.getAssetProof({ id }), id);
 * verifyAssetProof(p).valid;
 */
export function parseAssetProof(json: unknown, label?: string): AssetProofBytes {
  const at = (f: string) => (label ? `${label}.${f}` : f);
  if (!isPlainObject(json)) throw new InputError(label ?? 'proof', `expected an asset proof object, got ${describe(json)}`, { expected: 'object', got: describe(json) });
  const root = b58Bytes32(json.root, at('root'));
  const leaf = b58Bytes32(json.leaf, at('leaf'));
  const nodes = json.proof;
  if (!Array.isArray(nodes)) throw new InputError(at('proof'), `expected an array of base58 nodes, got ${describe(nodes)}`, { expected: 'array', got: describe(nodes) });
  if (nodes.length > 64) throw new InputError(at('proof'), `expected at most 64 nodes, got ${nodes.length}`, { expected: '≤ 64 nodes', got: nodes.length });
  const proof = new Uint8Array(32 * nodes.length);
  for (let i = 0; i < nodes.length; i++) proof.set(b58Bytes32(nodes[i], at(`proof[${i}]`)), 32 * i);
  const ni = json.node_index;
  if (typeof ni !== 'number' || !Number.isSafeInteger(ni) || ni < 1) {
    throw new InputError(at('node_index'), `expected a positive integer, got ${describe(ni)}`, { expected: 'integer ≥ 1', got: describe(ni) });
  }
  const out: AssetProofBytes = { root, leaf, proof, nodeIndex: ni };
  if (label !== undefined) out.id = label;
  if (json.tree_id !== undefined && json.tree_id !== null) out.treeId = b58Bytes32(json.tree_id, at('tree_id'));
  return out;
}

// ---------------------------------------------------------------------------------- canopy

/** Depth N of a canopy of `(2^(N+1) − 2)·32` bytes, or an InputError. */
export function canopyDepthOf(canopy: Uint8Array): number {
  if (!(canopy instanceof Uint8Array)) throw new InputError('canopy', 'expected Uint8Array');
  const nodes = canopy.length / 32;
  const n2 = nodes + 2;
  if (!Number.isInteger(nodes) || (n2 & (n2 - 1)) !== 0) {
    throw new InputError('canopy', `expected (2^(N+1) − 2)·32 bytes, got ${canopy.length}`, { expected: '(2^(N+1) − 2)·32 bytes', got: canopy.length });
  }
  return Math.log2(n2) - 1;
}

/** Depth of the tree and leaf index from `node_index = 2^depth + leaf_index`. */
export function splitNodeIndex(nodeIndex: number): { depth: number; leafIndex: number } {
  let depth = nodeIndex < 2 ** 32 ? 31 - Math.clz32(nodeIndex) : 32;
  while (2 ** (depth + 1) <= nodeIndex) depth++;
  return { depth, leafIndex: nodeIndex - 2 ** depth };
}

/**
 * Complete a truncated proof (the first `proof.length/32` levels) up to `depth` from the canopy, the
 * way spl-account-compression does on chain: the sibling at heap index `s` is `canopy[s − 2]`, and an
 * all-zero canopy node stands for the empty subtree of that height.
 *
 * @example
 * const full = fillProofFromCanopy(truncated, leafIndex, 14, canopy); // 14·32 bytes
 */
export function fillProofFromCanopy(proof: Uint8Array, leafIndex: number, depth: number, canopy: Uint8Array): Uint8Array {
  const have = proof.length / 32;
  const n = canopyDepthOf(canopy);
  if (have + n < depth) {
    throw new InputError('proof', `truncated proof of ${have} nodes plus a canopy of depth ${n} do not reach depth ${depth}`);
  }
  const out = new Uint8Array(32 * depth);
  out.set(proof.subarray(0, 32 * Math.min(have, depth)), 0);
  for (let level = have; level < depth; level++) {
    const heap = Math.floor((2 ** depth + leafIndex) / 2 ** level);
    const sibling = heap % 2 === 0 ? heap + 1 : heap - 1; // heap index, < 2^(n+1)
    const node = canopy.subarray(32 * (sibling - 2), 32 * (sibling - 1));
    out.set(equalBytes(node, ZERO32) ? emptyNode(level) : node, 32 * level);
  }
  return out;
}

/**
 * The part of a depth-`canopyDepth` canopy that a full proof determines: the path's nodes and their
 * siblings in the top levels (other nodes stay zero, i.e. unknown). Enough to check this leaf's
 * truncated proof offline when only the full proof is at hand.
 *
 * @example
 * const canopy = canopyFromProof(leaf, fullProof, nodeIndex, 9);
 * verifyAssetProof({ ...p, proof: fullProof.subarray(0, 5 * 32) }, { canopy }).valid; // true
 */
export function canopyFromProof(leaf: Uint8Array, proof: Uint8Array, nodeIndex: number, canopyDepth: number): Uint8Array {
  const { depth, leafIndex } = splitNodeIndex(nodeIndex);
  if (proof.length !== 32 * depth) throw new InputError('proof', `expected a full proof of ${depth} nodes, got ${proof.length / 32}`);
  if (!Number.isInteger(canopyDepth) || canopyDepth < 0 || canopyDepth > depth) throw new InputError('canopyDepth', `expected 0..${depth}, got ${String(canopyDepth)}`);
  const canopy = new Uint8Array(32 * (2 ** (canopyDepth + 1) - 2));
  let node = leaf;
  for (let level = 0; level < depth; level++) {
    const heap = Math.floor((2 ** depth + leafIndex) / 2 ** level);
    const sib = proof.subarray(32 * level, 32 * level + 32);
    const heapDepth = depth - level;
    if (heapDepth <= canopyDepth) {
      canopy.set(node, 32 * (heap - 2));
      canopy.set(sib, 32 * ((heap % 2 === 0 ? heap + 1 : heap - 1) - 2));
    }
    node = keccakPathRoot(node, sib, heap % 2);
  }
  return canopy;
}

// ---------------------------------------------------------------------------------- verify

/**
 * Verify an asset proof on bytes: the leaf walked up the proof (completed from the canopy when
 * truncated) must give `root`, and `root` must be one the chain accepts when those are known.
 * Never throws for a wrong proof: the verdict says what is wrong.
 *
 * @example
 * const tree = parseTreeAccount(accountData);
 * const v = verifyAssetProof(parseAssetProof(json, id), { tree });
 * if (!v.valid) console.log(v.reason);
 */
export function verifyAssetProof(p: AssetProofBytes, opts: VerifyAssetProofOptions = {}): Verdict {
  const id = p.id;
  if (!Number.isSafeInteger(p.nodeIndex) || p.nodeIndex < 1) return bad(`node_index must be a positive integer, got ${String(p.nodeIndex)}`, id);
  const { depth, leafIndex } = splitNodeIndex(p.nodeIndex);
  const have = p.proof.length / 32;
  if (opts.tree && opts.tree.maxDepth !== depth) {
    return bad(`node_index ${p.nodeIndex} implies depth ${depth}, but the tree account has depth ${opts.tree.maxDepth}`, id);
  }
  if (have > depth) return bad(`proof has ${have} nodes but node_index ${p.nodeIndex} implies depth ${depth}`, id);
  let proof = p.proof;
  if (have < depth) {
    const canopy = opts.canopy ?? opts.tree?.canopy;
    if (!canopy || canopy.length === 0) {
      return bad(`proof is truncated to ${have} of ${depth} levels and no canopy was given (pass the canopy or the tree account)`, id, { status: 'truncated' });
    }
    const n = canopyDepthOf(canopy);
    if (have + n < depth) return bad(`proof of ${have} nodes plus the canopy's ${n} levels do not reach depth ${depth}`, id);
    proof = fillProofFromCanopy(p.proof, leafIndex, depth, canopy);
  }
  const root = keccakPathRoot(p.leaf, proof, leafIndex);
  // base58 costs more than the whole path walk: only failing verdicts carry the computed root
  if (!equalBytes(root, p.root)) {
    const computedRoot = encodeBase58(root);
    return bad(`leaf ${leafIndex} walks up to ${computedRoot}, not to the proof's root ${encodeBase58(p.root)}`, id, { computedRoot });
  }
  const accepted = opts.acceptedRoots ?? opts.tree?.roots;
  if (accepted && !accepted.some((r) => equalBytes(r, p.root))) {
    const computedRoot = encodeBase58(root);
    return bad(`root ${computedRoot} is not among the ${accepted.length} roots the tree still accepts`, id, { computedRoot, status: 'stale-root' });
  }
  return ok(id);
}

/**
 * `verifyAssetProof` over many proofs, same verdicts in the same order, faster: full-depth proofs
 * of equal depth are hashed together in one kernel call (with the native addon, four paths at a
 * time in SIMD lanes). Proofs that fail there, and truncated or inconsistent ones, go through
 * `verifyAssetProof` for their reason.
 *
 * @example
 * const verdicts = verifyAssetProofBatch(items.map((j, i) => parseAssetProof(j, ids[i])), { tree });
 */
export function verifyAssetProofBatch(items: AssetProofBytes[], opts: VerifyAssetProofOptions = {}): Verdict[] {
  const out: Verdict[] = new Array(items.length);
  const accepted = opts.acceptedRoots ?? opts.tree?.roots;
  const byDepth = new Map<number, number[]>();
  items.forEach((p, i) => {
    if (!Number.isSafeInteger(p.nodeIndex) || p.nodeIndex < 1) {
      out[i] = verifyAssetProof(p, opts);
      return;
    }
    const { depth, leafIndex } = splitNodeIndex(p.nodeIndex);
    // the batch kernel takes u32 indices and full proofs; everything else takes the single path
    if (p.proof.length === 32 * depth && leafIndex < 2 ** 32 && (!opts.tree || opts.tree.maxDepth === depth)) {
      const group = byDepth.get(depth);
      if (group) group.push(i);
      else byDepth.set(depth, [i]);
    } else {
      out[i] = verifyAssetProof(p, opts);
    }
  });
  for (const [depth, group] of byDepth) {
    const m = group.length;
    const leaves = new Uint8Array(32 * m);
    const proofs = new Uint8Array(32 * depth * m);
    const roots = new Uint8Array(32 * m);
    const indices = new Uint32Array(m);
    group.forEach((i, k) => {
      const p = items[i]!;
      leaves.set(p.leaf, 32 * k);
      proofs.set(p.proof, 32 * depth * k);
      roots.set(p.root, 32 * k);
      indices[k] = p.nodeIndex - 2 ** depth;
    });
    const verdicts = new Uint8Array(m);
    keccakVerifyBatch(leaves, proofs, indices, depth, roots, verdicts);
    group.forEach((i, k) => {
      const p = items[i]!;
      const rootOk = verdicts[k] === 1 && (!accepted || accepted.some((r) => equalBytes(r, p.root)));
      out[i] = rootOk ? ok(p.id) : verifyAssetProof(p, opts);
    });
  }
  return out;
}

/**
 * `parseAssetProof` + `verifyAssetProof`. Throws `InputError` only when the JSON is not an asset
 * proof at all (a missing or undecodable field); a wrong proof is an invalid verdict.
 *
 * @example
 * verifyAssetProofJson(await rpc.getAssetProof({ id }), { label: id }).valid;
 */
export function verifyAssetProofJson(json: unknown, opts: VerifyAssetProofOptions & { label?: string } = {}): Verdict {
  return verifyAssetProof(parseAssetProof(json, opts.label), opts);
}
