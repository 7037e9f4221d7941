/**
 * The `asset-proof` kind: compressed-NFT proofs (getAssetProof / getAssetProofBatch) hashed up their
 * keccak concurrent tree, packed in C where the addon is built and verified in batches.
 */
import { isPlainObject } from '../../assert.js';
import type { Verdict } from '../verdict.js';
import type { RecordReader } from '../records/record-reader.js';
import { verifyAssetProof, verifyAssetProofBatch, type AssetProofBytes } from '../cnft/asset-proof.js';
import { nativeAssetProofManyPacker, nativeAssetProofPacker, nativeAssetProofRecords } from '../cnft/asset-proof-packer.js';
import { bundled, extractWith, str } from './extract.js';
import type { Json, KindSpec } from './spec.js';
import { FieldError } from '../../errors/index.js';

export const assetProofKind: KindSpec = {
  name: 'asset-proof',
  // A few µs per proof on a worker once packed in C and verified in place: 2,048 make a batch of a
  // few ms (1,024 gave the calling thread ~15% more to do per proof, measured at 2 threads; 4,096 and
  // 8,192 were within the noise of 2,048, interleaved on a loaded host).
  batchSize: 2048,
  recordBytes: 1400,
  looksLike: (v) => Array.isArray(v.proof) && 'leaf' in v && 'node_index' in v && 'root' in v,
  special: (input) => isPlainObject(input) && isPlainObject(input.getAssetProof),
  extract(input) {
    return bundled(input, 'getAssetProof') ?? extractWith(this, input);
  },
  // getAssetProof does not echo the asset id; the batch key (or the leaf) names the item.
  id: (item, key) => key ?? str((item as Json).leaf),
  // cnft/asset-proof.ts's parseAssetProof rules, in its order: 32-byte root, leaf and nodes, at most 64 nodes,
  // a positive node_index. The worker decodes with the fast base58 path and runs verifyAssetProof.
  pack(item, w) {
    const j = item as Json;
    const proof = j.proof;
    // The usual proof as one run of text; anything else field by field, which names what is wrong.
    if (!(Array.isArray(proof) && proof.length <= 64 && w.b58Run(j.root, j.leaf, proof))) {
      w.b58(j.root, 'root');
      w.b58(j.leaf, 'leaf');
      if (Array.isArray(proof) && proof.length > 64) throw new FieldError('proof', `expected at most 64 nodes, got ${proof.length}`);
      w.nodes(proof, 'proof');
    }
    const ni = j.node_index;
    if (typeof ni !== 'number' || !Number.isSafeInteger(ni) || ni < 1) throw new FieldError('node_index', `expected a positive integer, got ${String(ni)}`);
    w.u64(ni);
  },
  get packJson() {
    return nativeAssetProofPacker();
  },
  get packJsonMany() {
    return nativeAssetProofManyPacker();
  },
  verify(r) {
    return verifyAssetProof(decodeAssetProof(r));
  },
  // Equal-depth full proofs of a batch are hashed together (verifyAssetProofBatch: 4 paths per
  // kernel pass), ~2× less keccak time per level than one path at a time.
  verifyMany(r, n, decode) {
    const out: Verdict[] = new Array(n);
    const good: AssetProofBytes[] = [];
    const at: number[] = [];
    // Records are hashed where they lie (base58 text decoded in C), with no object per proof; the rest
    // (and any that does not match, for its reason) go the way below.
    const inPlace = nativeAssetProofRecords();
    const codes = inPlace ? new Uint8Array(n) : null;
    const answered = inPlace ? inPlace(r.bytes, codes!) : false;
    for (let i = 0; i < n; i++) {
      if (answered && codes![i] === 1) {
        out[i] = VALID;
        continue;
      }
      const p = decode(() => decodeAssetProof(r.select(i)));
      if ('valid' in p) out[i] = p;
      else {
        good.push(p);
        at.push(i);
      }
    }
    const verdicts = verifyAssetProofBatch(good);
    for (let k = 0; k < at.length; k++) out[at[k]!] = verdicts[k]!;
    return out;
  },
};

/** The verdict of every proof verified in place: it carries nothing else (`collect` makes it a code byte). */
const VALID: Verdict = Object.freeze({ valid: true });

function decodeAssetProof(r: RecordReader): AssetProofBytes {
  const [root, leaf, proof] = r.b58Run('root', 'leaf', 'proof') ?? [r.b58('root'), r.b58('leaf'), r.nodes('proof')];
  const nodeIndex = Number(r.u64('node_index'));
  return { nodeIndex, root, leaf, proof };
}
