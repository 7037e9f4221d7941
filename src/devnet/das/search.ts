/**
 * The DAS methods beyond the `getAssetsBy*` lists that helius-sdk users call: `searchAssets` (the
 * common filters over the devnet's assets, every other filter refused by name rather than ignored),
 * `getSignaturesForAsset` (from the history each asset record keeps) and `getNftEditions` (the devnet
 * mints only compressed NFTs, which have no master edition: an empty edition list).
 */
import { encodeBase58 } from '../../solana/index.js';
import type { DasAssetRecord } from './asset.js';
import { arr, b58, bool, int, invalid, obj, optB58, paramsObject, str } from '../params/indexer.js';
import { MAX_LIMIT } from './pagination.js';
import { getRecord, type DasIndex } from './trees.js';
import type { RpcHandler } from '../types.js';

/** The pagination, sort and display keys every list takes (pagination.ts reads them). */
const LIST_KEYS = ['page', 'limit', 'cursor', 'before', 'after', 'sortBy', 'options', 'displayOptions'];
/** The filters the devnet applies. */
const FILTER_KEYS = [
  'ownerAddress',
  'ownerType',
  'creatorAddress',
  'creatorVerified',
  'authorityAddress',
  'grouping',
  'delegate',
  'tree',
  'jsonUri',
  'burnt',
  'compressed',
  'compressible',
  'frozen',
  'interface',
  'tokenType',
  'royaltyTargetType',
];
/** Filters the provider takes that the devnet does not apply; refused by name (see docs/service.md). */
const UNSUPPORTED = ['supply', 'supplyMint', 'royaltyTarget', 'royaltyAmount', 'negate', 'conditionType', 'name', 'specificationVersion', 'specificationAssetClass'];
const TOKEN_TYPES = ['fungible', 'nonFungible', 'regularNft', 'compressedNft', 'all'];
const INTERFACES = ['V1_NFT', 'V1_PRINT', 'LEGACY_NFT', 'V2_NFT', 'FungibleAsset', 'FungibleToken', 'Custom', 'Identity', 'Executable', 'ProgrammableNFT', 'MplCoreAsset', 'MplCoreCollection'];

/**
 * The `searchAssets` filter: every asset on the devnet is a compressed V1 NFT, single-owner, with
 * creator royalties, never burnt, frozen or compressible; a filter asking otherwise matches nothing.
 */
export function searchFilter(p: Record<string, unknown>): (r: DasAssetRecord) => boolean {
  const unsupported = Object.keys(p).filter((k) => UNSUPPORTED.includes(k));
  if (unsupported.length) throw invalid(unsupported[0]!, `the devnet does not apply the searchAssets filter(s) ${unsupported.join(', ')}`);
  const unknown = Object.keys(p).filter((k) => !FILTER_KEYS.includes(k) && !LIST_KEYS.includes(k));
  if (unknown.length) throw invalid(unknown[0]!, `unknown searchAssets parameter(s) ${unknown.join(', ')}`);
  const tests: ((r: DasAssetRecord) => boolean)[] = [];
  const never = () => false;
  const owner = optB58(p.ownerAddress, 'ownerAddress');
  if (owner) tests.push((r) => r.owner === p.ownerAddress);
  const ownerType = str(p.ownerType, 'ownerType');
  if (ownerType !== undefined) {
    if (ownerType !== 'single' && ownerType !== 'token') throw invalid('ownerType', `expected "single" or "token", got ${JSON.stringify(ownerType)}`);
    if (ownerType !== 'single') tests.push(never);
  }
  const creator = optB58(p.creatorAddress, 'creatorAddress');
  const creatorVerified = bool(p.creatorVerified, 'creatorVerified');
  if (creator) {
    const key = encodeBase58(creator);
    tests.push((r) => r.metadata.creators.some((c) => encodeBase58(c.address) === key && (creatorVerified === undefined || c.verified === creatorVerified)));
  } else if (creatorVerified !== undefined) {
    tests.push((r) => r.metadata.creators.some((c) => c.verified === creatorVerified));
  }
  if (optB58(p.authorityAddress, 'authorityAddress')) tests.push((r) => r.authority === p.authorityAddress);
  if (p.grouping !== undefined && p.grouping !== null) {
    const g = arr(p.grouping, 'grouping', { min: 2, max: 2 });
    const key = str(g[0], 'grouping[0]', { required: true })!;
    const value = str(g[1], 'grouping[1]', { required: true })!;
    // as getAssetsByGroup: only a verified collection groups an asset
    tests.push(key === 'collection' ? (r) => r.collection === value && r.metadata.collection?.verified === true : never);
  }
  if (optB58(p.delegate, 'delegate')) tests.push((r) => (r.delegate ?? r.owner) === p.delegate);
  if (optB58(p.tree, 'tree')) tests.push((r) => r.tree === p.tree);
  const jsonUri = str(p.jsonUri, 'jsonUri');
  if (jsonUri !== undefined) tests.push((r) => r.metadata.uri === jsonUri);
  for (const [k, actual] of [['burnt', false], ['compressed', true], ['compressible', false], ['frozen', false]] as const) {
    const want = bool(p[k], k);
    if (want !== undefined && want !== actual) tests.push(never);
  }
  const iface = str(p.interface, 'interface');
  if (iface !== undefined) {
    if (!INTERFACES.includes(iface)) throw invalid('interface', `expected one of ${INTERFACES.join(', ')}, got ${JSON.stringify(iface)}`);
    if (iface !== 'V1_NFT') tests.push(never);
  }
  const tokenType = str(p.tokenType, 'tokenType');
  if (tokenType !== undefined) {
    if (!TOKEN_TYPES.includes(tokenType)) throw invalid('tokenType', `expected one of ${TOKEN_TYPES.join(', ')}, got ${JSON.stringify(tokenType)}`);
    if (tokenType === 'fungible' || tokenType === 'regularNft') tests.push(never);
  }
  const royaltyTargetType = str(p.royaltyTargetType, 'royaltyTargetType');
  if (royaltyTargetType !== undefined) {
    if (!['creators', 'fanout', 'single'].includes(royaltyTargetType)) throw invalid('royaltyTargetType', `expected creators, fanout or single, got ${JSON.stringify(royaltyTargetType)}`);
    if (royaltyTargetType !== 'creators') tests.push(never);
  }
  return (r) => tests.every((t) => t(r));
}

/** `getSignaturesForAsset`: an asset's history, newest first, paged by page/limit or before/after a signature. */
export function signaturesForAsset(ix: DasIndex): RpcHandler {
  return (raw) => {
    const p = paramsObject(raw, 'getSignaturesForAsset');
    let r: DasAssetRecord | null;
    if (p.id !== undefined && p.id !== null) {
      r = getRecord(ix, p.id, 'id');
    } else {
      // the Metaplex form: the tree and the leaf's index instead of the id
      const tree = b58(p.tree, 'tree');
      const leafIndex = int(p.leafIndex, 'leafIndex', 0, 2 ** 32 - 1);
      if (leafIndex === undefined) throw invalid('leafIndex', 'is required with tree (or give id)');
      const t = encodeBase58(tree);
      r = ix.inOrder.find((x) => x.tree === t && x.nonce === leafIndex) ?? null;
    }
    const limit = int(p.limit, 'limit', 1, MAX_LIMIT) ?? MAX_LIMIT;
    const page = int(p.page, 'page', 1, 1_000_000_000);
    const before = str(p.before, 'before');
    const after = str(p.after, 'after');
    if (page !== undefined && (before !== undefined || after !== undefined)) throw invalid('page', 'page-based and cursor-based (before/after) pagination cannot be mixed');
    const dir = str(p.sortDirection, 'sortDirection') ?? 'desc';
    if (dir !== 'asc' && dir !== 'desc') throw invalid('sortDirection', `expected "asc" or "desc", got ${JSON.stringify(dir)}`);
    let list = [...(r?.history ?? [])];
    if (dir === 'desc') list.reverse();
    const at = (sig: string, field: string) => {
      const i = list.findIndex((e) => e.signature === sig);
      if (i < 0) throw invalid(field, `signature ${sig} is not in this asset's history`);
      return i;
    };
    // before/after name positions in the listed order: before X lists what comes after X
    const lo = before !== undefined ? at(before, 'before') + 1 : 0;
    const hi = after !== undefined ? at(after, 'after') : list.length;
    list = list.slice(lo, Math.max(lo, hi));
    const pg = page ?? 1;
    const items = before !== undefined || after !== undefined ? list.slice(0, limit) : list.slice((pg - 1) * limit, pg * limit);
    return {
      last_indexed_slot: ix.chain.slot(),
      total: items.length,
      limit,
      ...(before === undefined && after === undefined ? { page: pg } : {}),
      ...(before !== undefined ? { before } : {}),
      ...(after !== undefined ? { after } : {}),
      items: items.map((e) => [e.signature, e.type]),
    };
  };
}

/**
 * `getNftEditions`: the devnet has no Token Metadata program and no master editions (a compressed
 * NFT cannot be one), so every mint answers an empty edition list in the provider's shape.
 */
export function nftEditions(ix: DasIndex): RpcHandler {
  return (raw) => {
    const p = paramsObject(raw, 'getNftEditions');
    const mint = p.mint ?? p.mintAddress;
    b58(mint, p.mint !== undefined ? 'mint' : 'mintAddress');
    const page = int(p.page, 'page', 1, 1_000_000_000) ?? 1;
    const limit = int(p.limit, 'limit', 1, MAX_LIMIT) ?? MAX_LIMIT;
    const sortBy = obj(p.sortBy, 'sortBy');
    if (sortBy) str(sortBy.sortBy, 'sortBy.sortBy');
    return { last_indexed_slot: ix.chain.slot(), total: 0, limit, page, supply: 0, max_supply: 0, editions: [] };
  };
}
