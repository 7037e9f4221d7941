/**
 * The devnet's compressed-NFT (DAS) module: keccak concurrent Merkle trees holding real Bubblegum V1
 * leaves (trees.ts), minted through the deprecated `mintCompressedNft` method (mint.ts), and
 * the DAS read methods over them (methods.ts). An asset becomes visible only once its mint
 * transaction has executed, the way an indexer only sees what landed; proofs are full depth and
 * verify with the Merkle engine.
 */
import { assetJson, type DasAssetRecord } from './asset.js';
import { dasMethods } from './methods.js';
import { mintCompressedNft, type MintResult } from './mint.js';
import { createTokenAccountIndex } from './token-accounts.js';
import { createAuthorityTxSender } from '../chain/authority-tx.js';
import { createDasIndex, treeInfo, type DasTree, type DasTreeInfo } from './trees.js';
import { keccakNode } from './leaf.js';
import { createConcurrentMerkleTree } from '../trees/merkle.js';
import { InputError } from '../../errors/index.js';
import { encodeBase58, base58Bytes } from '../../solana/index.js';
import type { Chain, DevnetModule } from '../types.js';

export interface DasTreeOptions {
  /** Tree depth; 14 by default (16,384 leaves per tree; a new tree is opened when one fills). */
  depth?: number;
  canopyDepth?: number;
  maxBufferSize?: number;
}

export interface DasStateOptions {
  chain: Chain;
  tree?: DasTreeOptions;
}

export interface DasState extends DevnetModule {
  /** Every landed asset, in mint order, as `getAsset` shows it. */
  assets(): Record<string, unknown>[];
  /** The raw record of one asset (bytes, MetadataArgs), or null. */
  record(id: string): DasAssetRecord | null;
  trees(): DasTreeInfo[];
  /** The live trees (the devnet writes their on-chain accounts from them, trees/accounts.ts). */
  treeHandles(): readonly DasTree[];
  /** Mint directly (what the RPC method does), for the CLI demo and tests. */
  mintCompressedNft(params: unknown, signal?: AbortSignal): Promise<MintResult>;
  /** The state as the devnet's `--ledger` saves it: the trees' leaves and every asset record. */
  exportState(): DasSnapshot;
  /** Load an exported state into this (empty) module; a tree whose rebuilt root differs is refused. */
  importState(s: DasSnapshot): void;
}

/** What `exportState` gives: each tree's leaves in append order with its root, and the records. */
export interface DasSnapshot {
  shape: { depth: number; canopyDepth: number; maxBufferSize: number };
  trees: { address: string; nextNonce: number; root: string; leaves: Uint8Array[] }[];
  assets: DasAssetRecord[];
  nextOrder: number;
}

/**
 * Create the DAS module for a devnet chain.
 *
 * @example
 * const das = createDasState({ chain });
 * const { assetId } = await das.mintCompressedNft({ name: 'A', symbol: 'A', description: '', owner, confirmTransaction: true });
 */
export function createDasState(opts: DasStateOptions): DasState {
  const { chain } = opts;
  const ix = createDasIndex(chain, { depth: opts.tree?.depth ?? 14, canopyDepth: opts.tree?.canopyDepth ?? 0, maxBufferSize: opts.tree?.maxBufferSize ?? 64 });
  const sender = createAuthorityTxSender(chain);
  const tokenAccounts = createTokenAccountIndex(chain);
  return {
    methods: dasMethods(ix, sender, tokenAccounts),
    assets: () => ix.inOrder.map((r) => assetJson(r, {})),
    record: (id) => ix.byId.get(id) ?? null,
    trees: () => treeInfo(ix),
    treeHandles: () => ix.trees,
    mintCompressedNft: (params, signal) => mintCompressedNft(ix, sender, params, signal),
    exportState: () => ({
      shape: { depth: ix.depth, canopyDepth: ix.canopyDepth, maxBufferSize: ix.maxBufferSize },
      trees: ix.trees.map((t) => ({
        address: t.address,
        nextNonce: t.nextNonce,
        root: encodeBase58(t.tree.root()),
        leaves: Array.from({ length: t.tree.size }, (_, i) => t.tree.leaf(i)),
      })),
      assets: ix.inOrder,
      nextOrder: ix.nextOrder,
    }),
    importState(snap) {
      if (ix.trees.length > 0 || ix.inOrder.length > 0) throw new InputError('das', 'importState needs an empty DAS state');
      const { depth, canopyDepth, maxBufferSize } = snap.shape;
      if (depth !== ix.depth || canopyDepth !== ix.canopyDepth || maxBufferSize !== ix.maxBufferSize) {
        throw new InputError('das.shape', `saved trees are ${depth}/${canopyDepth}/${maxBufferSize} (depth/canopy/buffer), this devnet's ${ix.depth}/${ix.canopyDepth}/${ix.maxBufferSize}`);
      }
      for (const [i, t] of snap.trees.entries()) {
        // The devnet only appends to DAS trees (mints), so appending the leaves in order rebuilds the
        // same root and sequence number; the saved root checks that.
        const tree = createConcurrentMerkleTree({ depth, canopyDepth, maxBufferSize, hash: keccakNode });
        for (const leaf of t.leaves) tree.append(leaf);
        if (encodeBase58(tree.root()) !== t.root) throw new InputError(`das.trees[${i}].root`, `rebuilt root ${encodeBase58(tree.root())} differs from the saved ${t.root}`);
        ix.trees.push({ address: t.address, bytes: base58Bytes(t.address), tree, nextNonce: t.nextNonce });
      }
      for (const r of snap.assets) {
        ix.byId.set(r.id, r);
        ix.inOrder.push(r);
      }
      ix.nextOrder = snap.nextOrder;
    },
    close() {
      sender.close();
      tokenAccounts.close();
    },
  };
}
