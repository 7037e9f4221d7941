/**
 * prover/: the devnet's Groth16 prover, and what the devnet takes from it (it imports this file,
 * never the files beside it). Re-exports only: the prover's worker thread and its handle
 * (prover-worker.ts), where proving keys are cached by default (key-cache-dir.ts), and the circuit
 * shape a validity proof's inputs call for (circuits/).
 */
export { createProverWorker, type ProverWorker } from './prover-worker.js';
export { defaultCacheDir } from './key-cache-dir.js';
export { shapeFor, type CircuitInputs, type CircuitShape } from './circuits/index.js';
