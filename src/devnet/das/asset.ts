/**
 * What the devnet remembers about one compressed NFT, and how it is shown: the record keeps bytes and
 * the MetadataArgs the leaf was built from; `assetJson` renders it in the DAS indexer's shape (see
 * test/vectors/das/*.json): the same fields, the same empty values, the same `compression` block.
 */
import { encodeBase58 } from '../../solana/index.js';
import type { MetadataArgsV1 } from './leaf.js';

export interface DasAssetRecord {
  id: string;
  idBytes: Uint8Array;
  tree: string;
  nonce: number;
  owner: string;
  /** null when the owner is its own delegate (as the indexer shows it). */
  delegate: string | null;
  metadata: MetadataArgsV1;
  description: string;
  attributes: { trait_type: string; value: string }[];
  imageUrl?: string;
  externalUrl?: string;
  collection?: string;
  authority: string;
  dataHash: Uint8Array;
  creatorHash: Uint8Array;
  leaf: Uint8Array;
  /** Tree sequence number after this asset's last change. */
  seq: number;
  createdSlot: number;
  updatedSlot: number;
  /** Mint order across the devnet (the `created` sort key). */
  order: number;
  signature: string;
  /**
   * Every transaction that changed this asset, oldest first, as getSignaturesForAsset lists it
   * (the devnet only mints cNFTs today; a transfer or burn would append here).
   */
  history: AssetEvent[];
}

/** One entry of an asset's history: the signature and the Bubblegum instruction, as the indexer names it. */
export interface AssetEvent {
  signature: string;
  type: string;
  slot: number;
}

export interface AssetJsonOptions {
  showUnverifiedCollections?: boolean;
  lastIndexedSlot?: number;
  /** getAssetBatch puts `last_indexed_slot` inside `content`. */
  slotInContent?: boolean;
}

const TOKEN_STANDARDS = ['NonFungible', 'FungibleAsset', 'Fungible', 'NonFungibleEdition'];

function guessMime(url: string): string {
  const ext = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(url)?.[1]?.toLowerCase();
  switch (ext) {
    case 'png':
      return 'image/png';
    case 'jpg':
    case 'jpeg':
      return 'image/jpeg';
    case 'gif':
      return 'image/gif';
    case 'svg':
      return 'image/svg+xml';
    case 'webp':
      return 'image/webp';
    default:
      return 'image/png';
  }
}

/** Render a record as the DAS `Asset` object. */
export function assetJson(r: DasAssetRecord, o: AssetJsonOptions = {}): Record<string, unknown> {
  const m = r.metadata;
  const metadata: Record<string, unknown> = {
    ...(r.attributes.length ? { attributes: r.attributes.map((a) => ({ value: a.value, trait_type: a.trait_type })) } : {}),
    description: r.description,
    name: m.name,
    symbol: m.symbol,
    token_standard: TOKEN_STANDARDS[m.tokenStandard ?? 0] ?? 'NonFungible',
  };
  const links: Record<string, unknown> = {};
  if (r.imageUrl) links.image = r.imageUrl;
  if (r.externalUrl) links.external_url = r.externalUrl;
  const content: Record<string, unknown> = {
    $schema: 'https://schema.metaplex.com/nft1.0.json',
    json_uri: m.uri,
    files: r.imageUrl ? [{ uri: r.imageUrl, cdn_uri: r.imageUrl, mime: guessMime(r.imageUrl) }] : [],
    metadata,
    links,
  };
  if (o.slotInContent && o.lastIndexedSlot !== undefined) content.last_indexed_slot = o.lastIndexedSlot;
  const grouping: Record<string, unknown>[] = [];
  if (m.collection && (m.collection.verified || o.showUnverifiedCollections)) {
    grouping.push({
      group_key: 'collection',
      group_value: encodeBase58(m.collection.key),
      ...(m.collection.verified ? {} : { verified: false }),
    });
  }
  const out: Record<string, unknown> = {
    interface: 'V1_NFT',
    id: r.id,
    content,
    authorities: [{ address: r.authority, scopes: ['full'] }],
    compression: {
      eligible: false,
      compressed: true,
      data_hash: encodeBase58(r.dataHash),
      creator_hash: encodeBase58(r.creatorHash),
      asset_hash: encodeBase58(r.leaf),
      tree: r.tree,
      seq: r.seq,
      leaf_id: r.nonce,
    },
    grouping,
    royalty: {
      royalty_model: 'creators',
      target: null,
      percent: m.sellerFeeBasisPoints / 10_000,
      basis_points: m.sellerFeeBasisPoints,
      primary_sale_happened: m.primarySaleHappened,
      locked: false,
    },
    creators: m.creators.map((c) => ({ address: encodeBase58(c.address), share: c.share, verified: c.verified })),
    ownership: {
      frozen: false,
      delegated: r.delegate !== null,
      delegate: r.delegate,
      ownership_model: 'single',
      owner: r.owner,
    },
    supply: { print_max_supply: 0, print_current_supply: 0, edition_nonce: m.editionNonce },
    mutable: m.isMutable,
    burnt: false,
  };
  if (o.lastIndexedSlot !== undefined && !o.slotInContent) out.last_indexed_slot = o.lastIndexedSlot;
  return out;
}
