/**
 * The devnet keeps every tree on chain: each DAS tree as an spl-account-compression concurrent Merkle
 * tree account, and the Light v1 state/address trees and v2 batched trees as Light's
 * account-compression program lays them out (merkle/compressed/light-tree-account.ts), owned by the program
 * that would own them. They are rewritten after every executed transaction that changed a tree (once
 * the DAS and compression modules have applied it), so `getAccountInfo`
 * and `getMultipleAccounts` answer what the programs would hold, and an anchored verifier pointed at
 * the devnet checks roots against them exactly as against a real cluster.
 */
import { base58Bytes } from '../../solana/index.js';
import { encodeTreeAccount } from '../../merkle/internal.js';
import { encodeLightTreeAccount, type LightTreeKind, TreeType } from '../../merkle/index.js';
import { writeDevnetAccount } from '../chain/account-file.js';
import type { CompressionState } from '../compression/state.js';
import type { DasState } from '../das/state.js';
import type { DevnetChain } from '../chain/contract.js';
import type { ConcurrentMerkleTree } from './merkle.js';

/** spl-account-compression (the program Bubblegum V1 trees live in). */
export const SPL_ACCOUNT_COMPRESSION_PROGRAM = 'cmtDvXumGCrqC1Age74AVPhSRVXJMd8PJS4GnaTb2pX';
/** Light Protocol's account-compression program (owner of its state and address trees). */
export const LIGHT_ACCOUNT_COMPRESSION_PROGRAM = 'compr6CUsB5m2jS4Y3831ztGSTnDpnKJTKS95d64XVq';

export interface TreeAccountSync {
  /** Write every tree whose sequence number moved since it was last written (all of them at first). */
  sync(): void;
  /** Trees written so far, by address → the sequence number written. */
  readonly written: ReadonlyMap<string, number>;
  close(): void;
}

const LIGHT_KIND: Record<number, LightTreeKind> = {
  [TreeType.StateV1]: 'light-v1-state',
  [TreeType.AddressV1]: 'light-v1-address',
  [TreeType.StateV2]: 'light-v2-state',
  [TreeType.AddressV2]: 'light-v2-address',
};

/** The rightmost leaf's proof as spl-account-compression keeps it (the tree only ever appends here). */
function rightmost(tree: ConcurrentMerkleTree): { proof: Uint8Array; leaf: Uint8Array; index: number } {
  const size = tree.size;
  const proof = new Uint8Array(32 * tree.depth);
  if (size === 0) {
    for (let l = 0; l < tree.depth; l++) proof.set(tree.zero(l), 32 * l);
    return { proof, leaf: new Uint8Array(32), index: 0 };
  }
  tree.proof(size - 1).forEach((n, l) => proof.set(n, 32 * l));
  return { proof, leaf: tree.leaf(size - 1), index: size };
}

/** spl-account-compression bytes of a DAS tree. */
function dasTreeAccountBytes(tree: ConcurrentMerkleTree, authority: Uint8Array): Uint8Array {
  const log = tree.recentRoots();
  return encodeTreeAccount({
    maxDepth: tree.depth,
    maxBufferSize: tree.maxBufferSize,
    canopyDepth: tree.canopyDepth,
    authority,
    sequenceNumber: BigInt(tree.seq),
    roots: [...log].reverse().map((e) => e.root),
    activeIndex: tree.seq % tree.maxBufferSize,
    canopy: tree.canopy(),
    rightmostProof: rightmost(tree),
  });
}

function lightBytes(kind: LightTreeKind, tree: ConcurrentMerkleTree, rootHistory: number, queue: string, nextIndex: number): Uint8Array {
  const v1 = kind === 'light-v1-state' || kind === 'light-v1-address';
  const canopyDepth = v1 ? 10 : 0;
  return encodeLightTreeAccount({
    kind,
    height: tree.depth,
    roots: tree.recentRoots().map((e) => ({ seq: e.seq, root: e.root })),
    rootHistoryCapacity: rootHistory,
    sequenceNumber: tree.seq,
    nextIndex,
    ...(v1 ? { canopyDepth, canopy: canopyOf(tree, canopyDepth), rightmostLeaf: tree.size > 0 ? tree.leaf(tree.size - 1) : new Uint8Array(32) } : {}),
    associatedQueue: base58Bytes(queue),
  });
}

/** The top `depth` levels of `tree` in heap order without the root (what a v1 tree's canopy holds). */
function canopyOf(tree: ConcurrentMerkleTree, depth: number): Uint8Array {
  if (depth === tree.canopyDepth) return tree.canopy();
  const count = 2 ** (depth + 1) - 2;
  const out = new Uint8Array(count * 32);
  // Only the top levels are needed: each node's value from a proof of its leftmost leaf is too
  // costly for 2,046 nodes, so walk levels down from the root using proofs of the occupied range.
  const size = Math.max(tree.size, 1);
  for (let k = 2; k < count + 2; k++) {
    const h = Math.floor(Math.log2(k)); // distance from the root
    const pos = k - 2 ** h;
    const level = tree.depth - h;
    const firstLeaf = pos * 2 ** level;
    if (firstLeaf >= size) out.set(tree.zero(level), (k - 2) * 32);
    else out.set(nodeAt(tree, level, pos), (k - 2) * 32);
  }
  return out;
}

/** The node at (`level`, `pos`) of `tree`: the sibling its neighbour's proof carries. */
function nodeAt(tree: ConcurrentMerkleTree, level: number, pos: number): Uint8Array {
  const sibling = pos ^ 1;
  const leaf = sibling * 2 ** level;
  return tree.proof(leaf)[level]!;
}

/**
 * Keep the devnet's trees on chain.
 *
 * @example
 * const sync = createTreeAccountSync(chain, das, compression); // writes them all now and after each transaction
 */
export function createTreeAccountSync(chain: DevnetChain, das: DasState | null, compression: CompressionState | null): TreeAccountSync {
  const written = new Map<string, number>();
  const authority = base58Bytes(chain.authority.address);
  const write = (address: string, owner: string, data: Uint8Array): void => {
    writeDevnetAccount(chain.svm, { address, owner, data, lamports: chain.minimumBalanceForRentExemption(data.length), executable: false });
  };
  const sync = (): void => {
    for (const t of das?.treeHandles() ?? []) {
      if (written.get(t.address) === t.tree.seq) continue;
      write(t.address, SPL_ACCOUNT_COMPRESSION_PROGRAM, dasTreeAccountBytes(t.tree, authority));
      written.set(t.address, t.tree.seq);
    }
    if (!compression) return;
    const { stateTrees, addressTrees } = compression.store;
    for (const st of Object.values(stateTrees)) {
      const tree = st.merkle;
      if (written.get(st.info.tree) === tree.seq) continue;
      write(st.info.tree, LIGHT_ACCOUNT_COMPRESSION_PROGRAM, lightBytes(LIGHT_KIND[st.info.treeType]!, tree, st.info.rootHistory, st.info.queue, tree.size));
      written.set(st.info.tree, tree.seq);
    }
    for (const at of Object.values(addressTrees)) {
      const tree = at.merkle.tree;
      if (written.get(at.info.tree) === tree.seq) continue;
      write(
        at.info.tree,
        LIGHT_ACCOUNT_COMPRESSION_PROGRAM,
        lightBytes(LIGHT_KIND[at.info.treeType]!, tree, at.info.rootHistory, at.info.queue, at.merkle.length),
      );
      written.set(at.info.tree, tree.seq);
    }
  };
  sync();
  // Compression changes all go through the store's `apply` (transactions and a ledger's replay):
  // write the trees as soon as it returns, before the caller's answer can be read.
  if (compression) {
    const store = compression.store;
    const apply = store.apply.bind(store);
    store.apply = (op) => {
      const r = apply(op);
      sync();
      return r;
    };
  }
  // A mint changes its DAS tree in a reaction to the transaction's `executed` promise, queued
  // before this listener runs: a microtask queued here runs after it. The immediate is a backstop.
  let pending: NodeJS.Immediate | null = null;
  const off = chain.onTransaction(() => {
    queueMicrotask(sync);
    pending ??= setImmediate(() => {
      pending = null;
      sync();
    });
  });
  return {
    sync,
    written,
    close() {
      off();
      if (pending) clearImmediate(pending);
      pending = null;
    },
  };
}
