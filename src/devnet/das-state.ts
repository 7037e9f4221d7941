/**
 * The devnet's compressed-NFT (DAS) state: keccak concurrent Merkle trees holding real Bubblegum V1
 * leaves, minted through the deprecated `mintCompressedNft` method, and the DAS read methods over them
 * (`getAsset`, `getAssetBatch`, the four `getAssetsBy*` lists, `getAssetProofBatch`,
 * `getTokenAccounts`).
 *
 * A mint reserves the next nonce of the current tree, derives the asset id PDA, builds MetadataArgs and
 * the leaf, and submits a real authority-signed transaction (see das-transaction.ts). The leaf enters
 * the tree, and the asset becomes visible, only when that transaction has executed successfully, the
 * way an indexer only sees what landed. Proofs are full depth (DAS never trims for the canopy) and
 * verify with the Merkle engine.
 */
import bs58 from 'bs58';
import { sha256 } from '@noble/hashes/sha2.js';
import type { Chain, DevnetModule, RpcHandler } from './types.js';
import { DevnetRpcError } from './types.js';
import { createConcurrentMerkleTree, type ConcurrentMerkleTree } from './merkle-tree.js';
import { assetIdPda, creatorHash, dataHashV1, keccakNode, leafHashV1, TokenStandard, type MetadataArgsV1, type MetadataCreator } from './das-leaf.js';
import { assetJson, type DasAssetRecord } from './das-asset.js';
import { paginate, parseListQuery } from './das-pagination.js';
import { arr, b58, bool, int, invalid, obj, paramsObject, str, withSignal } from './das-params.js';
import { createAuthorityTxSender } from './das-transaction.js';
import { createTokenAccountIndex, type TokenAccountIndex } from './das-token-accounts.js';

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

export interface MintResult {
  signature: string;
  minted: boolean;
  assetId: string;
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

/** JSON-RPC code the DAS indexer uses for "not found" and other database-side errors. */
const NOT_FOUND = -32000;
const MAX_CREATORS = 5;

interface TreeState {
  address: string;
  bytes: Uint8Array;
  tree: ConcurrentMerkleTree;
  nextNonce: number;
}

/**
 * Create the DAS module for a devnet chain.
 *
 * @example
 * const das = createDasState({ chain });
 * server.mount(das);
 * const { assetId } = await das.mintCompressedNft({ name: 'A', symbol: 'A', description: '', owner, confirmTransaction: true });
 */
export function createDasState(opts: DasStateOptions): DasState {
  const { chain } = opts;
  const depth = opts.tree?.depth ?? 14;
  const canopyDepth = opts.tree?.canopyDepth ?? 0;
  const maxBufferSize = opts.tree?.maxBufferSize ?? 64;
  // Validate the tree options once, up front (the tree factory throws RangeErrors naming the field).
  createConcurrentMerkleTree({ depth, canopyDepth, maxBufferSize, hash: () => new Uint8Array(32) });

  const sender = createAuthorityTxSender(chain);
  const tokenAccounts: TokenAccountIndex = createTokenAccountIndex(chain);
  const trees: TreeState[] = [];
  const byId = new Map<string, DasAssetRecord>();
  const inOrder: DasAssetRecord[] = [];
  let order = 0;

  function openTree(): TreeState {
    // Deterministic tree addresses: the same devnet run mints into the same trees.
    const seed = new TextEncoder().encode(`cairn-devnet-das-tree:${chain.authority.address}:${trees.length}`);
    const bytes = sha256(seed);
    const t: TreeState = {
      address: bs58.encode(bytes),
      bytes,
      tree: createConcurrentMerkleTree({ depth, canopyDepth, maxBufferSize, hash: keccakNode }),
      nextNonce: 0,
    };
    trees.push(t);
    return t;
  }

  function currentTree(): TreeState {
    const t = trees[trees.length - 1];
    return t && t.nextNonce < 2 ** depth ? t : openTree();
  }

  function parseMint(raw: unknown) {
    const p = paramsObject(raw, 'mintCompressedNft');
    const name = str(p.name, 'name', { required: true, maxBytes: 32 })!;
    const symbol = str(p.symbol, 'symbol', { required: true, maxBytes: 10 })!;
    const description = str(p.description, 'description', { required: true })!;
    const owner = b58(p.owner, 'owner');
    const delegate = p.delegate === undefined || p.delegate === null ? undefined : b58(p.delegate, 'delegate');
    const collection = p.collection === undefined || p.collection === null ? undefined : b58(p.collection, 'collection');
    const uri = str(p.uri, 'uri', { maxBytes: 200 }) ?? '';
    const imageUrl = str(p.imageUrl, 'imageUrl');
    const externalUrl = str(p.externalUrl, 'externalUrl');
    const sellerFeeBasisPoints = int(p.sellerFeeBasisPoints, 'sellerFeeBasisPoints', 0, 10_000) ?? 0;
    const attributes: { trait_type: string; value: string }[] = [];
    if (p.attributes !== undefined && p.attributes !== null) {
      arr(p.attributes, 'attributes').forEach((a, i) => {
        const o = obj(a, `attributes[${i}]`);
        if (!o) throw invalid(`attributes[${i}]`, 'expected an object {trait_type, value}');
        attributes.push({
          trait_type: str(o.trait_type, `attributes[${i}].trait_type`, { required: true })!,
          value: str(o.value, `attributes[${i}].value`, { required: true })!,
        });
      });
    }
    const creators: MetadataCreator[] = [];
    if (p.creators !== undefined && p.creators !== null) {
      const list = arr(p.creators, 'creators', { max: MAX_CREATORS });
      let sum = 0;
      const seen = new Set<string>();
      list.forEach((c, i) => {
        const o = obj(c, `creators[${i}]`);
        if (!o) throw invalid(`creators[${i}]`, 'expected an object {address, share}');
        const address = b58(o.address, `creators[${i}].address`);
        const share = int(o.share, `creators[${i}].share`, 0, 100);
        if (share === undefined) throw invalid(`creators[${i}].share`, 'is required');
        const key = o.address as string;
        if (seen.has(key)) throw invalid(`creators[${i}].address`, `duplicate creator ${key}`);
        seen.add(key);
        sum += share;
        creators.push({ address, verified: false, share });
      });
      if (list.length > 0 && sum !== 100) throw invalid('creators', `shares must sum to 100, got ${sum}`);
    }
    const confirmTransaction = bool(p.confirmTransaction, 'confirmTransaction') ?? false;
    return { name, symbol, description, owner, delegate, collection, uri, imageUrl, externalUrl, sellerFeeBasisPoints, attributes, creators, confirmTransaction };
  }

  async function mint(raw: unknown, signal?: AbortSignal): Promise<MintResult> {
    const p = parseMint(raw);
    const t = currentTree();
    const nonce = t.nextNonce++;
    const idBytes = assetIdPda(t.bytes, BigInt(nonce));
    const id = bs58.encode(idBytes);
    const metadata: MetadataArgsV1 = {
      name: p.name,
      symbol: p.symbol,
      uri: p.uri,
      sellerFeeBasisPoints: p.sellerFeeBasisPoints,
      primarySaleHappened: false,
      isMutable: true,
      editionNonce: null,
      tokenStandard: TokenStandard.NonFungible,
      uses: null,
      tokenProgramVersion: 0,
      // The devnet authority stands in as every collection's authority, so collections are verified.
      collection: p.collection ? { verified: true, key: p.collection } : null,
      creators: p.creators,
    };
    const dataHash = dataHashV1(metadata);
    const cHash = creatorHash(p.creators);
    const delegateBytes = p.delegate ?? p.owner;
    const leaf = leafHashV1({ id: idBytes, owner: p.owner, delegate: delegateBytes, nonce: BigInt(nonce), dataHash, creatorHash: cHash });
    const ownerText = bs58.encode(p.owner);
    const delegateText = p.delegate ? bs58.encode(p.delegate) : null;
    const touched = [t.bytes, p.owner, idBytes, ...(p.collection ? [p.collection] : [])];
    const { signature, executed } = sender.send(touched);
    const applied = executed.then((tx) => {
      // A failed transaction mints nothing: its nonce stays an empty leaf (a gap), as a reserved
      // nonce cannot be handed to a later mint whose asset id was derived from another one.
      if (tx.err !== null) return tx;
      const { seq } = t.tree.set(nonce, leaf);
      const rec: DasAssetRecord = {
        id,
        idBytes,
        tree: t.address,
        nonce,
        owner: ownerText,
        delegate: delegateText === ownerText ? null : delegateText,
        metadata,
        description: p.description,
        attributes: p.attributes,
        imageUrl: p.imageUrl,
        externalUrl: p.externalUrl,
        collection: p.collection ? bs58.encode(p.collection) : undefined,
        authority: chain.authority.address,
        dataHash,
        creatorHash: cHash,
        leaf,
        seq,
        createdSlot: tx.slot,
        updatedSlot: tx.slot,
        order: order++,
        signature,
      };
      byId.set(id, rec);
      inOrder.push(rec);
      return tx;
    });
    applied.catch(() => {});
    if (p.confirmTransaction) {
      const tx = await withSignal(applied, signal);
      if (tx.err !== null) {
        throw new DevnetRpcError(-32002, `mint transaction ${signature} failed: ${JSON.stringify(tx.err)}`, 200, { signature, err: tx.err });
      }
      // "Confirmed" means a later slot has been produced on top of the one it landed in.
      await chain.waitForSlot(tx.slot + 1, signal);
    }
    return { signature, minted: true, assetId: id };
  }

  function getRecord(id: unknown, field: string): DasAssetRecord | null {
    b58(id, field);
    return byId.get(id as string) ?? null;
  }

  const list = (method: string, match: (p: Record<string, unknown>) => (r: DasAssetRecord) => boolean): RpcHandler => {
    return (raw) => {
      const p = paramsObject(raw, method);
      const filter = match(p);
      const q = parseListQuery(p);
      const { items, envelope } = paginate(inOrder.filter(filter), q);
      const slot = chain.slot();
      return {
        last_indexed_slot: slot,
        ...envelope,
        items: items.map((r) => assetJson(r, { showUnverifiedCollections: q.showUnverifiedCollections })),
      };
    };
  };

  const methods: Record<string, RpcHandler> = {
    mintCompressedNft: (raw, ctx) => mint(raw, ctx.signal),
    getAsset(raw) {
      const p = paramsObject(raw, 'getAsset');
      const r = getRecord(p.id, 'id');
      if (!r) throw new DevnetRpcError(NOT_FOUND, `Asset Not Found: ${String(p.id)}`);
      const options = obj(p.options ?? p.displayOptions, 'options') ?? {};
      const showUnverifiedCollections = bool(options.showUnverifiedCollections, 'options.showUnverifiedCollections') ?? false;
      return assetJson(r, { showUnverifiedCollections, lastIndexedSlot: chain.slot() });
    },
    getAssetBatch(raw) {
      const p = paramsObject(raw, 'getAssetBatch');
      const ids = arr(p.ids, 'ids', { max: 1000 });
      const slot = chain.slot();
      const options = obj(p.options ?? p.displayOptions, 'options') ?? {};
      const showUnverifiedCollections = bool(options.showUnverifiedCollections, 'options.showUnverifiedCollections') ?? false;
      return ids.map((id, i) => {
        const r = getRecord(id, `ids[${i}]`);
        return r ? assetJson(r, { showUnverifiedCollections, lastIndexedSlot: slot, slotInContent: true }) : null;
      });
    },
    getAssetsByOwner: list('getAssetsByOwner', (p) => {
      b58(p.ownerAddress, 'ownerAddress');
      return (r) => r.owner === p.ownerAddress;
    }),
    getAssetsByCreator: list('getAssetsByCreator', (p) => {
      const creator = b58(p.creatorAddress, 'creatorAddress');
      const onlyVerified = bool(p.onlyVerified, 'onlyVerified') ?? false;
      const key = bs58.encode(creator);
      return (r) => r.metadata.creators.some((c) => bs58.encode(c.address) === key && (!onlyVerified || c.verified));
    }),
    getAssetsByAuthority: list('getAssetsByAuthority', (p) => {
      b58(p.authorityAddress, 'authorityAddress');
      return (r) => r.authority === p.authorityAddress;
    }),
    getAssetsByGroup: list('getAssetsByGroup', (p) => {
      const key = str(p.groupKey, 'groupKey', { required: true })!;
      const value = str(p.groupValue, 'groupValue', { required: true })!;
      if (key !== 'collection') return () => false;
      return (r) => r.collection === value && r.metadata.collection?.verified === true;
    }),
    getAssetProofBatch(raw) {
      const p = paramsObject(raw, 'getAssetProofBatch');
      const ids = arr(p.ids, 'ids', { max: 1000 });
      const slot = chain.slot();
      const out: Record<string, unknown> = {};
      ids.forEach((id, i) => {
        const r = getRecord(id, `ids[${i}]`);
        out[id as string] = r ? proofJson(r, slot) : null;
      });
      return out;
    },
    getAssetProof(raw) {
      const p = paramsObject(raw, 'getAssetProof');
      const r = getRecord(p.id, 'id');
      if (!r) throw new DevnetRpcError(NOT_FOUND, `Asset Proof Not Found: ${String(p.id)}`);
      return proofJson(r, chain.slot());
    },
    getTokenAccounts: (raw) => tokenAccounts.query(paramsObject(raw, 'getTokenAccounts')),
  };

  function proofJson(r: DasAssetRecord, slot: number): Record<string, unknown> {
    const t = trees.find((x) => x.address === r.tree)!;
    return {
      last_indexed_slot: slot,
      root: bs58.encode(t.tree.root()),
      proof: t.tree.proof(r.nonce).map((n) => bs58.encode(n)),
      node_index: 2 ** depth + r.nonce,
      leaf: bs58.encode(t.tree.leaf(r.nonce)),
      tree_id: r.tree,
      burnt: false,
    };
  }

  return {
    methods,
    assets: () => inOrder.map((r) => assetJson(r, {})),
    record: (id) => byId.get(id) ?? null,
    trees: () =>
      trees.map((t) => ({
        address: t.address,
        depth,
        canopyDepth,
        maxBufferSize,
        size: t.tree.size,
        seq: t.tree.seq,
        root: bs58.encode(t.tree.root()),
        canopy: t.tree.canopy(),
      })),
    mintCompressedNft: (params, signal) => mint(params, signal),
    close() {
      sender.close();
      tokenAccounts.close();
    },
  };
}
