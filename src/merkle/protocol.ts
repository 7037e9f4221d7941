/**
 * The messages between the verifier pool (pool.ts) and its threads (worker.ts): what a batch request
 * carries, what a worker answers, and what it says once loaded. Both sides import them from here, so
 * neither module imports the other.
 */
import type { Verdict } from './verdict.js';
import type { RangeMeta } from './verifier/raw/range-batch.js';

/** A request from the pool. `kind: '__crash__'` exists only for the pool's crash tests. */
export interface WorkerRequest {
  id: number;
  kind: string;
  buf: ArrayBuffer;
  /** The batch holds raw JSON items (verifier/raw/batch.ts), not packed records. */
  json?: boolean;
  /** The response a shared JSON batch points into, from byte `sharedAt` (default 0). */
  shared?: SharedArrayBuffer;
  sharedAt?: number;
}

/**
 * A reply: `valid[i]` is 1 for a valid item; `extras` holds `[i, verdict]` for items with details;
 * `ms` is the time the batch took here (the pool's utilisation figure); `slow`, the slower paths it took;
 * `range`, for a range batch (verifier/raw/range-batch.ts), where its items were.
 */
export type WorkerReply = (
  | { id: number; ms: number; valid: Uint8Array; extras: Array<[number, Verdict]>; buf?: ArrayBuffer; ids?: string; idLens?: Uint32Array; range?: RangeMeta }
  | { id: number; ms: number; bad: number; buf?: ArrayBuffer; range?: RangeMeta }
  | { id: number; ms: number; error: { code: string; message: string; context: object } }
) & {
  /** Slower paths the worker took since its last reply, and how often (slow-paths.ts); absent when none. */
  slow?: Array<[string, number]>;
};

/** What a worker says once its module and kernels are loaded. */
export interface WorkerReady {
  ready: true;
  /** The hash kernels this thread chose (they are chosen per thread). */
  backends: { poseidon: string; keccak: string };
}
