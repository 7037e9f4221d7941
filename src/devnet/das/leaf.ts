/**
 * Bubblegum V1 leaves for the devnet's compressed NFTs. The byte rules (docs/hashing.md §1) live in the
 * Merkle engine (src/merkle/cnft/bubblegum/) so the devnet and the verifier cannot drift apart; this
 * module only adds the devnet's node hash and re-exports what the DAS state uses.
 */
import { keccak256 } from '../../crypto/index.js';

export { assetIdPda, creatorHash, leafHashV1, dataHashV1 } from '../../merkle/index.js';
export { TokenStandard, type Creator as MetadataCreator, type MetadataArgsV1 } from '../../merkle/internal.js';

const scratch = new Uint8Array(64);

/** keccak(left ‖ right): the node hash of the cNFT concurrent Merkle tree. */
export function keccakNode(left: Uint8Array, right: Uint8Array): Uint8Array {
  scratch.set(left, 0);
  scratch.set(right, 32);
  return keccak256(scratch);
}
