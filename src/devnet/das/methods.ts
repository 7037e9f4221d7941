/**
 * The DAS read methods over the index (`getAsset`, `getAssetBatch`, the four `getAssetsBy*` lists,
 * `searchAssets`, `getAssetProof` / `getAssetProofBatch`, `getTokenAccounts`, `getSignaturesForAsset`,
 * `getNftEditions`) and the deprecated `mintCompressedNft`.
 */
import { encodeBase58 } from '../../solana/index.js';
import { assetJson, type DasAssetRecord } from './asset.js';
import { mintCompressedNft } from './mint.js';
import { paginate, parseListQuery } from './pagination.js';
import { arr, b58, bool, obj, paramsObject, str } from '../params/indexer.js';
import { nftEditions, searchFilter, signaturesForAsset } from './search.js';
import type { TokenAccountIndex } from './token-accounts.js';
import type { AuthorityTxSender } from '../chain/authority-tx.js';
import { getRecord, proofJson, type DasIndex } from './trees.js';
import { DevnetRpcError, type RpcHandler } from '../types.js';

/** JSON-RPC code the DAS indexer uses for "not found" and other database-side errors. */
const NOT_FOUND = -32000;

/** A `getAssetsBy*` list: `match` reads the params and answers the filter, paged in mint order. */
function list(ix: DasIndex, method: string, match: (p: Record<string, unknown>) => (r: DasAssetRecord) => boolean): RpcHandler {
  return (raw) => {
    const p = paramsObject(raw, method);
    const filter = match(p);
    const q = parseListQuery(p);
    const { items, envelope } = paginate(ix.inOrder.filter(filter), q);
    const slot = ix.chain.slot();
    return {
      last_indexed_slot: slot,
      ...envelope,
      items: items.map((r) => assetJson(r, { showUnverifiedCollections: q.showUnverifiedCollections })),
    };
  };
}

/** The DAS methods over `ix`; mints go through `sender`, token accounts through `tokenAccounts`. */
export function dasMethods(ix: DasIndex, sender: AuthorityTxSender, tokenAccounts: TokenAccountIndex): Record<string, RpcHandler> {
  const { chain } = ix;
  return {
    mintCompressedNft: (raw, ctx) => mintCompressedNft(ix, sender, raw, ctx.signal),
    getAsset(raw) {
      const p = paramsObject(raw, 'getAsset');
      const r = getRecord(ix, p.id, 'id');
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
        const r = getRecord(ix, id, `ids[${i}]`);
        return r ? assetJson(r, { showUnverifiedCollections, lastIndexedSlot: slot, slotInContent: true }) : null;
      });
    },
    getAssetsByOwner: list(ix, 'getAssetsByOwner', (p) => {
      b58(p.ownerAddress, 'ownerAddress');
      return (r) => r.owner === p.ownerAddress;
    }),
    getAssetsByCreator: list(ix, 'getAssetsByCreator', (p) => {
      const creator = b58(p.creatorAddress, 'creatorAddress');
      const onlyVerified = bool(p.onlyVerified, 'onlyVerified') ?? false;
      const key = encodeBase58(creator);
      return (r) => r.metadata.creators.some((c) => encodeBase58(c.address) === key && (!onlyVerified || c.verified));
    }),
    getAssetsByAuthority: list(ix, 'getAssetsByAuthority', (p) => {
      b58(p.authorityAddress, 'authorityAddress');
      return (r) => r.authority === p.authorityAddress;
    }),
    getAssetsByGroup: list(ix, 'getAssetsByGroup', (p) => {
      const key = str(p.groupKey, 'groupKey', { required: true })!;
      const value = str(p.groupValue, 'groupValue', { required: true })!;
      if (key !== 'collection') return () => false;
      return (r) => r.collection === value && r.metadata.collection?.verified === true;
    }),
    searchAssets: list(ix, 'searchAssets', searchFilter),
    getSignaturesForAsset: signaturesForAsset(ix),
    getNftEditions: nftEditions(ix),
    getAssetProofBatch(raw) {
      const p = paramsObject(raw, 'getAssetProofBatch');
      const ids = arr(p.ids, 'ids', { max: 1000 });
      const slot = chain.slot();
      const out: Record<string, unknown> = {};
      ids.forEach((id, i) => {
        const r = getRecord(ix, id, `ids[${i}]`);
        out[id as string] = r ? proofJson(ix, r, slot) : null;
      });
      return out;
    },
    getAssetProof(raw) {
      const p = paramsObject(raw, 'getAssetProof');
      const r = getRecord(ix, p.id, 'id');
      if (!r) throw new DevnetRpcError(NOT_FOUND, `Asset Proof Not Found: ${String(p.id)}`);
      return proofJson(ix, r, chain.slot());
    },
    getTokenAccounts: (raw) => tokenAccounts.query(paramsObject(raw, 'getTokenAccounts')),
  };
}
