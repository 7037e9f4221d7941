/**
 * The `account-proof` kind: compressed-account Merkle proofs (getMultipleCompressedAccountProofs),
 * verified against their state tree's root.
 */
import { verifyAccountProof } from '../compressed/account.js';
import { looksLikeAccountProof } from '../compressed/account-parse.js';
import { packAccountProof, unpackAccountProof } from '../compressed/account-records.js';
import { extractWith, str } from './extract.js';
import type { Json, KindSpec } from './spec.js';

export const accountProofKind: KindSpec = {
  name: 'account-proof',
  // ~0.4 ms per proof (26 Poseidon hashes): 80 make a batch of ~30 ms. At 20 the calling thread's
  // per-message cost (posting, the worker's wake-up, the reply) was ~30 µs per item by thread CPU,
  // capping 16 threads at ~×9–12 (bench/scaling.ts); at 80 it is ~15–30 µs, ×13–16. Short lists are
  // still cut so every thread gets several batches (verifier/batch-plan.ts).
  batchSize: 80,
  recordBytes: 1400,
  looksLike: looksLikeAccountProof,
  extract(input) {
    return extractWith(this, input);
  },
  id: (item) => str((item as Json).hash),
  pack: packAccountProof,
  verify: (r) => verifyAccountProof(unpackAccountProof(r)),
};
