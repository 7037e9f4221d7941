/**
 * What the DAS module indexes: its keccak concurrent Merkle trees (opened one after another as they
 * fill, at deterministic addresses) and the landed assets by id and in mint order, with the proof
 * of an asset as `getAssetProof` answers it.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { encodeBase58 } from '../../solana/index.js';
import type { DasAssetRecord } from './asset.js';
import { keccakNode } from './leaf.js';
import { b58 } from '../params/indexer.js';
import { createConcurrentMerkleTree, type ConcurrentMerkleTree } from '../trees/merkle.js';
import type { Chain } from '../types.js';

export interface DasTree {
  address: string;
  bytes: Uint8Array;
  tree: ConcurrentMerkleTree;
  nextNonce: number;
}

export interface DasTreeInfo {
  address: string;
  depth: number;
  canopyDepth: number;
  maxBufferSize: number;
  size: number;
  seq: number;
  root: string;
  /** Canopy bytes as the tree account would carry them. */
  canopy: Uint8Array;
}

export interface DasIndex {
  readonly chain: Chain;
  readonly depth: number;
  readonly canopyDepth: number;
  readonly maxBufferSize: number;
  readonly trees: DasTree[];
  readonly byId: Map<string, DasAssetRecord>;
  readonly inOrder: DasAssetRecord[];
  /** The next asset's place in mint order. */
  nextOrder: number;
}

/** An empty index; the tree shape is checked at once (the tree factory throws RangeErrors naming the field). */
export function createDasIndex(chain: Chain, shape: { depth: number; canopyDepth: number; maxBufferSize: number }): DasIndex {
  const { depth, canopyDepth, maxBufferSize } = shape;
  createConcurrentMerkleTree({ depth, canopyDepth, maxBufferSize, hash: () => new Uint8Array(32) });
  return { chain, depth, canopyDepth, maxBufferSize, trees: [], byId: new Map(), inOrder: [], nextOrder: 0 };
}

function openTree(ix: DasIndex): DasTree {
  // Deterministic tree addresses: the same devnet run mints into the same trees.
  const seed = new TextEncoder().encode(`cairn-devnet-das-tree:${ix.chain.authority.address}:${ix.trees.length}`);
  const bytes = sha256(seed);
  const t: DasTree = {
    address: encodeBase58(bytes),
    bytes,
    tree: createConcurrentMerkleTree({ depth: ix.depth, canopyDepth: ix.canopyDepth, maxBufferSize: ix.maxBufferSize, hash: keccakNode }),
    nextNonce: 0,
  };
  ix.trees.push(t);
  return t;
}

/** The tree the next mint goes into: the last one, or a new one once it is full. */
export function currentTree(ix: DasIndex): DasTree {
  const t = ix.trees[ix.trees.length - 1];
  return t && t.nextNonce < 2 ** ix.depth ? t : openTree(ix);
}

/** The asset `id` (checked as base58 on `field`), or null when none landed. */
export function getRecord(ix: DasIndex, id: unknown, field: string): DasAssetRecord | null {
  b58(id, field);
  return ix.byId.get(id as string) ?? null;
}

/** An asset's full-depth proof (DAS never trims for the canopy), as `getAssetProof` answers it. */
export function proofJson(ix: DasIndex, r: DasAssetRecord, slot: number): Record<string, unknown> {
  const t = ix.trees.find((x) => x.address === r.tree)!;
  return {
    last_indexed_slot: slot,
    root: encodeBase58(t.tree.root()),
    proof: t.tree.proof(r.nonce).map((n) => encodeBase58(n)),
    node_index: 2 ** ix.depth + r.nonce,
    leaf: encodeBase58(t.tree.leaf(r.nonce)),
    tree_id: r.tree,
    burnt: false,
  };
}

export function treeInfo(ix: DasIndex): DasTreeInfo[] {
  return ix.trees.map((t) => ({
    address: t.address,
    depth: ix.depth,
    canopyDepth: ix.canopyDepth,
    maxBufferSize: ix.maxBufferSize,
    size: t.tree.size,
    seq: t.tree.seq,
    root: encodeBase58(t.tree.root()),
    canopy: t.tree.canopy(),
  }));
}
