/**
 * The `address-proof` kind: new-address (non-inclusion) proofs of indexed address trees
 * (getMultipleNewAddressProofs).
 */
import { looksLikeNewAddressProof, packNewAddressProof, unpackNewAddressProof, verifyNewAddressProof } from '../address.js';
import { extractWith, str } from './extract.js';
import type { Json, KindSpec } from './kind-spec.js';

export const addressProofKind: KindSpec = {
  name: 'address-proof',
  batchSize: 20,
  recordBytes: 1600,
  looksLike: looksLikeNewAddressProof,
  extract(input) {
    return extractWith(this, input);
  },
  id: (item) => str((item as Json).address),
  pack: packNewAddressProof,
  verify: (r) => verifyNewAddressProof(unpackNewAddressProof(r)),
};
