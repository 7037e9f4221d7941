/**
 * The devnet's compressed-NFT (DAS) module: keccak concurrent Merkle trees holding real Bubblegum V1
 * leaves (das-trees.ts), minted through the deprecated `mintCompressedNft` method (das-mint.ts), and
 * the DAS read methods over them (das-methods.ts). An asset becomes visible only once its mint
 * transaction has executed, the way an indexer only sees what landed; proofs are full depth and
 * verify with the Merkle engine.
 */
import { assetJson, type DasAssetRecord } from './das-asset.js';
import { dasMethods } from './das-methods.js';
import { mintCompressedNft, type MintResult } from './das-mint.js';
import { createTokenAccountIndex } from './das-token-accounts.js';
import { createAuthorityTxSender } from './das-transaction.js';
import { createDasIndex, treeInfo, type DasTreeInfo } from './das-trees.js';
import type { Chain, DevnetModule } from './types.js';


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
  /** Mint directly (what the RPC method does), for the CLI demo and tests. */
  mintCompressedNft(params: unknown, signal?: AbortSignal): Promise<MintResult>;
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
    mintCompressedNft: (params, signal) => mintCompressedNft(ix, sender, params, signal),
    close() {
      sender.close();
      tokenAccounts.close();
    },
  };
}
