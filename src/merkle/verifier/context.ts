/**
 * What the verifier's steps share: its settings, the pool (or none), where batches run, the batch
 * plan, and the buffers kept between batches. `createVerifier` makes one; each step (parsed-chunk,
 * raw/chunk, answers, verdict-stream) is a function of it.
 */
import { WorkerPool } from '../pool.js';
import type { InternalVerifierOptions } from './types.js';
import { batchPlan, type BatchPlan } from './batch-plan.js';
import { createBatchRunner, type BatchRunner } from './batch-runner.js';
import { verifierSettings, type VerifierSettings } from './settings.js';

export interface VerifierContext {
  readonly settings: VerifierSettings;
  /** The worker pool; null when the verifier runs on the calling thread. */
  readonly pool: WorkerPool | null;
  readonly threads: number;
  /** Batches run at once: the pool's threads × batches in flight per thread (1 inline). */
  readonly maxRunning: number;
  readonly runner: BatchRunner;
  readonly plan: BatchPlan;
  /** Packed bytes per item seen so far, per kind: the next batch buffer is sized from it. */
  readonly recordBytes: Map<string, number>;
  /** Batch buffers the workers handed back, packed into again (at most one per batch in flight). */
  readonly spare: ArrayBuffer[];
}

/**
 * The context for `options` (checked first: a bad option throws before any worker starts).
 *
 * @example
 * const ctx = createVerifierContext({ threads: 0 });
 */
export function createVerifierContext(options: InternalVerifierOptions): VerifierContext {
  const settings = verifierSettings(options);
  const pool = options.threads === 0 ? null : new WorkerPool({ threads: options.threads, depth: settings.inflightPerThread, testHooks: options.testHooks });
  const threads = pool ? pool.threads : 0;
  return {
    settings,
    pool,
    threads,
    maxRunning: Math.max(1, threads * settings.inflightPerThread),
    runner: createBatchRunner(pool),
    plan: batchPlan(threads, settings.batchSize),
    recordBytes: new Map(),
    spare: [],
  };
}

/** Keep a batch buffer a worker handed back, for the next batch to be packed into. */
export function keepSpare(ctx: VerifierContext, buf: ArrayBuffer | undefined): void {
  if (buf && ctx.spare.length < ctx.maxRunning) ctx.spare.push(buf);
}
