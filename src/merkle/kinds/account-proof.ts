/**
 * The `account-proof` kind: compressed-account Merkle proofs (getMultipleCompressedAccountProofs),
 * verified against their state tree's root.
 */
import { verifyAccountProof } from '../account.js';
import { looksLikeAccountProof } from '../account-parse.js';
import { packAccountProof, unpackAccountProof } from '../account-records.js';
import { extractWith, str } from './extract.js';
import type { Json, KindSpec } from './kind-spec.js';

export const accountProofKind: KindSpec = {
  name: 'account-proof',
  batchSize: 20,
  recordBytes: 1400,
  looksLike: looksLikeAccountProof,
  extract(input) {
    return extractWith(this, input);
  },
  id: (item) => str((item as Json).hash),
  pack: packAccountProof,
  verify: (r) => verifyAccountProof(unpackAccountProof(r)),
};
