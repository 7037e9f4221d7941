/**
 * crypto/: the hashing and the field and curve maths, and what the verifier (merkle/), the prover,
 * the devnet and the benchmarks take from it (they import this file, never the files beside it).
 * Re-exports only, one algorithm family per file as noble-hashes lays them out: Keccak-256 (paths and
 * batches), Poseidon over BN254 (its backend, the Grain-derived parameters and the BigInt reference),
 * the PDA search, the BN254 point codecs (portable over noble, fast over mcl-wasm, and mcl's raw heap
 * for the prover's bulk arithmetic), big-endian bytes and their field bounds, and the slow-path
 * counter. The `_` files (the kernels, the wasm loader, the backend choice) are never re-exported.
 */
export { keccak256, keccak256Into, keccakPathRoot, keccakVerifyBatch, hashToField, keccakBackend } from './keccak.js';
export { poseidon, poseidonPathRoot, poseidonBatch, poseidonVerifyPaths, poseidonBackend, setPoseidonBackend, BN254_R } from './poseidon.js';
export { FULL_ROUNDS, poseidonParams } from './poseidon-params.js';
export { poseidonBigInt } from './poseidon-js.js';
export { findPdaInto } from './pda.js';
export { equalBytes, compareBytes, inField, below248 } from './bytes.js';
export { beToBig, isScalar } from './bn254-encoding.js';
export {
  g1FromBytes,
  g2FromBytes,
  g1ToCompressed,
  g2ToCompressed,
  g1ToUncompressed,
  g2ToUncompressed,
  negateG1Bytes,
  type G1Point,
  type G2Point,
} from './bn254.js';
export { bn254WasmIfLoaded, loadBn254Wasm, type Bn254Wasm, type MclFr, type MclG1, type MclG2 } from './bn254-wasm.js';
export { FR_SIZE, G1_SIZE, G2_SIZE, loadHeap, scalarsLe, type Heap, type Group } from './mcl-heap.js';
export { noteSlowPath, slowPaths, takeSlowPaths, warnOnce, SLOW_PATHS, type SlowPath } from './slow-paths.js';
