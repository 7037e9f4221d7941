/**
 * What the verifier's steps share: its settings, the pool (or none), where batches run, the batch
 * plan, and the buffers kept between batches. `createVerifier` makes one; each step (parsed-chunk,
 * raw/chunk, answers, verdict-stream) is a function of it.
 */
import { WorkerPool } from '../pool.js';
import type { InternalVerifierOptions } from './types.js';
import type { KindName } from '../kinds/index.js';
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
  /** The same verifier on the calling thread, for the inputs `inlineUpTo` keeps off the pool (null: none). */
  readonly inline: VerifierContext | null;
  readonly inlineUpTo: Partial<Record<KindName, number>>;
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
  const recordBytes = new Map<string, number>();
  const inlineUpTo = options.inlineUpTo ?? {};
  const inline: VerifierContext | null =
    pool && Object.keys(inlineUpTo).length > 0
      ? {
          settings,
          pool: null,
          threads: 0,
          maxRunning: 1,
          runner: createBatchRunner(null),
          plan: batchPlan(0, settings.batchSize),
          recordBytes,
          spare: [],
          inline: null,
          inlineUpTo: {},
        }
      : null;
  return {
    settings,
    pool,
    threads,
    maxRunning: Math.max(1, threads * settings.inflightPerThread),
    runner: createBatchRunner(pool),
    plan: batchPlan(threads, settings.batchSize),
    recordBytes,
    spare: [],
    inline,
    inlineUpTo,
  };
}

/** The context to verify `items` items of `kind` in: the calling thread's when `inlineUpTo` says so. */
export function contextFor(ctx: VerifierContext, kind: KindName, items: number): VerifierContext {
  return ctx.inline && items <= (ctx.inlineUpTo[kind] ?? -1) ? ctx.inline : ctx;
}

/** Keep a batch buffer a worker handed back, for the next batch to be packed into. */
export function keepSpare(ctx: VerifierContext, buf: ArrayBuffer | undefined): void {
  if (buf && ctx.spare.length < ctx.maxRunning) ctx.spare.push(buf);
}
