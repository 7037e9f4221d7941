/**
 * The Merkle engine's public surface: offline verification of every proof the service hands out
 * (asset proofs and leaves, compressed accounts and their proofs, new-address proofs, validity
 * proofs), the hash kernels they run on (src/crypto/), and the worker-pool verifier with its kinds.
 * Only re-exports live here; internal helpers (record codecs, kernel loaders, the verifier's test
 * options) stay private.
 *
 * @example
 * import { createVerifier } from 'cairn-solana/merkle';
 * const v = createVerifier({ threads: 2 });
 * const verdicts = await v.verify('address-proof', await rpc.getMultipleNewAddressProofs(addrs));
 * await v.close();
 */
export type { Verdict } from './verdict.js';
export { VerdictTable, type IndexedVerdict } from './verifier/verdict-table.js';

// Worker pool and the verify kinds.
export { createVerifier } from './verifier/create-verifier.js';
export type { Verifier, VerifierOptions, VerifyOptions } from './verifier/types.js';
export { inspectBody, type BodyInspection } from './verifier/inspect-body.js';
export { KIND_NAMES, type KindName } from './kinds/index.js';
export { parseJsonLossless, DEFAULT_MAX_BYTES } from './input.js';
// The error base, the narrowing guard and the verifier's own errors, so code that imports only
// cairn/merkle can tell a verifier's errors apart without loading the package root (which loads every
// part, the devnet with it). Every error class comes from errors/, its one path.
export {
  CairnError,
  InputError,
  InputTooLargeError,
  isCairnError,
  WorkerCrashedError,
  PoolClosedError,
  FieldError,
  ValidityStructureError,
  type CairnErrorContext,
  type ErrorCode,
} from '../errors/index.js';

// Compressed accounts (Poseidon state trees).
export {
  TreeType,
  STATE_TREE_HEIGHT,
  STATE_V1_ROOT_HISTORY,
  hashCompressedAccount,
  hashTokenData,
  hashTokenDataV1,
  PROVE_BY_INDEX,
  verifyAccountHash,
  verifyAccountProof,
  type CompressedAccount,
  type TokenData,
  type AccountClaim,
  type AccountProof,
} from './compressed/account.js';
export { parseCompressedAccount, parseAccountProof } from './compressed/account-parse.js';

// New-address proofs (indexed trees) and address derivation.
export {
  ADDRESS_TREE_HEIGHT,
  HIGHEST_ADDRESS,
  indexedLeaf,
  verifyNewAddressProof,
  parseNewAddressProof,
  deriveAddressSeedV1,
  deriveAddressV1,
  deriveAddressSeedV2,
  deriveAddressV2,
  type NewAddressProof,
} from './compressed/address.js';

// Compressed NFTs (keccak concurrent trees).
export { emptyNode } from './cnft/empty-node.js';
export { parseAssetProof, verifyAssetProof, verifyAssetProofJson, canopyFromProof, fillProofFromCanopy, type AssetProofBytes, type VerifyAssetProofOptions } from './cnft/asset-proof.js';
export { verifyAssetLeaf } from './cnft/asset-leaf.js';
export { assetIdPda, BUBBLEGUM_PROGRAM_ID } from './cnft/bubblegum/asset-id.js';
export { creatorHash, leafHashV1, leafHashV2 } from './cnft/bubblegum/leaf-hash.js';
export { dataHashV1, dataHashV2 } from './cnft/bubblegum/metadata.js';
export { parseTreeAccount, verifyTreeAccount, type TreeAccount } from './cnft/tree-account.js';

// Hash kernels.
export { poseidon, poseidonPathRoot, poseidonBatch, poseidonVerifyPaths, poseidonBackend, setPoseidonBackend, BN254_R } from '../crypto/index.js';
export { keccak256, keccakPathRoot, hashToField, keccakBackend } from '../crypto/index.js';

// Validity proofs (Groth16 over BN254) with versioned verifying-key sets.
export { verifyValidityProof, verifyValidityProofSync, verifyValidityProofsSync, validityPublicInputs } from './groth16/validity.js';
export { KNOWN_ADDRESS_TREES } from './groth16/validity-response.js';
export type { ValidityVerdict, ValidityOptions } from './groth16/validity-types.js';
export { verifyGroth16, parseVerifyingKey, initGroth16, groth16Backend, type VerifyingKey, type Groth16Proof, type PublicInput, type Groth16Options } from './groth16/verify.js';
export { verifyGroth16Batch, type Groth16BatchItem } from './groth16/batch.js';
export { slowPaths, SLOW_PATHS, type SlowPath } from '../crypto/index.js';
export {
  SHIPPED_KEY_SETS,
  OPT_IN_KEY_SETS,
  CAIRN_DEVNET,
  LIGHT_CURRENT,
  LIGHT_2024_06,
  keySetByVersion,
  keySetByName,
  keySetNames,
  keySetFromJson,
  type KeySet,
  type KeySetSpec,
  type PackedKeySet,
} from './groth16/keys/index.js';
// Anchored verification: the chain's tree accounts (spl-account-compression, Light v1 and v2) read.
export type { AnchorOptions, AnchorRpc, AnchorCommitment } from './anchor/source.js';
export { parseLightTreeAccount, encodeLightTreeAccount, type LightTreeAccount, type LightTreeInit, type LightTreeKind } from './compressed/light-tree-account.js';
// Items of a JSON/NDJSON byte stream one by one (bounded memory), for verifyStream.
export { readItems, type StreamedItem, type ItemStreamOptions } from './verifier/item-stream.js';
