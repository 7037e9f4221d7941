/**
 * The `asset-leaf` kind: a getAsset item's leaf rebuilt from its metadata and compared with the
 * leaf its tree holds.
 */
import { isPlainObject } from '../../assert.js';
import { ASSET_LEAF_READS, verifyAssetLeaf } from '../cnft/asset-leaf.js';
import { bundled, extractWith, str } from './extract.js';
import type { Json, KindSpec } from './spec.js';

export const assetLeafKind: KindSpec = {
  name: 'asset-leaf',
  batchSize: 512,
  recordBytes: 1400,
  looksLike: (v) => isPlainObject(v.compression) && 'id' in v,
  special: (input) => isPlainObject(input) && isPlainObject(input.getAsset),
  extract(input) {
    return bundled(input, 'getAsset') ?? extractWith(this, input);
  },
  id: (item) => str((item as Json).id),
  // 'cannot-derive' always carries a reason, so only 'matches' can travel as a code
  statuses: ['matches'],
  // cnft/asset-leaf.ts reads the getAsset JSON itself (it tries several metadata variants), so the
  // record holds the parts of the item it reads (ASSET_LEAF_READS), as typed ops rather than JSON
  // text: the main thread copies ~40 values instead of stringifying the whole asset, and the worker
  // rebuilds an object that answers every read the verifier makes exactly as the original would.
  pack: (item, w) => w.projected(item, ASSET_LEAF_READS),
  verify: (r) => verifyAssetLeaf(r.projected(ASSET_LEAF_READS, 'asset')),
  // The projection reads exactly what verifyAssetLeaf reads (asset-leaf.test.ts proves the verdicts
  // equal), so a parsed asset is verified as it is: no projection built and rebuilt in the worker.
  verifyParsed: (item) => verifyAssetLeaf(item),
};
