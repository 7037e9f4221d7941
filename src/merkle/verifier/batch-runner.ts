/**
 * Where one framed batch runs: on the worker pool, or on the calling thread when the verifier has
 * no threads (`threads: 0`). Both answer the same `BatchResult`, so nothing above knows which.
 */
import { abortError } from '../../abort.js';
import { ErrorCodes, PoolClosedError } from '../../errors/index.js';
import { verifyBatch } from '../kinds/verify-batch.js';
import { isKindName, kinds } from '../kinds/index.js';
import { verifyJsonBatch, type JsonBatchResult } from './raw/batch.js';
import { isRangeBatch, verifyRangeBatch, type RangeMeta } from './raw/range-batch.js';
import type { BatchResult, WorkerPool } from '../pool.js';
import type { JsonSource } from './raw/share-response.js';
import { takeSlowPaths } from '../../crypto/index.js';

export interface BatchRunner {
  /**
   * Run `buf` (`items` records of `kind`); `repack` makes the batch again should a worker die on it,
   * `json` is the response a JSON batch's offsets point into.
   */
  run(kind: string, buf: ArrayBuffer, items: number, signal: AbortSignal | undefined, repack: () => ArrayBuffer, json?: JsonSource): Promise<BatchResult>;
  /** Items verified so far. */
  readonly completed: number;
  /** Slower paths taken and how often (slow-paths.ts): the workers', or this thread's inline. */
  readonly slowPaths: Record<string, number>;
  /** Refuse batches from now on, and stop the pool's workers. */
  close(): Promise<void>;
}

/**
 * A runner over `pool`, or over the calling thread when `pool` is null.
 *
 * @example
 * const runner = createBatchRunner(null);
 * const res = await runner.run('asset-proof', buf, n, signal, () => buf);
 */
export function createBatchRunner(pool: WorkerPool | null): BatchRunner {
  let inlineClosed = false;
  let inlineCompleted = 0;
  const inlineSlow = new Map<string, number>();
  const countSlow = (): void => {
    for (const [path, n] of takeSlowPaths() ?? []) inlineSlow.set(path, (inlineSlow.get(path) ?? 0) + n);
  };

  async function runInline(kind: string, buf: ArrayBuffer, items: number, signal: AbortSignal | undefined, json?: JsonSource): Promise<BatchResult> {
    if (inlineClosed) throw new PoolClosedError(kind);
    if (signal?.aborted) throw abortError(ErrorCodes.MERKLE_ABORTED, signal, 'verification', { terse: true });
    // Yield between batches so a long inline run still lets timers and aborts through.
    await new Promise<void>((r) => setImmediate(r));
    // A kind that loads its code on first use (validity proofs: the pairing code) loads it here.
    if (isKindName(kind)) await kinds[kind].prepare?.();
    if (signal?.aborted) throw abortError(ErrorCodes.MERKLE_ABORTED, signal, 'verification', { terse: true });
    try {
      if (json) {
        const r: JsonBatchResult & { range?: RangeMeta } = isRangeBatch(buf) ? verifyRangeBatch(kind, buf, json.view) : verifyJsonBatch(kind, buf, json.view);
        if ('bad' in r) return { valid: new Uint8Array(0), extras: [], bad: r.bad, buf, ...(r.range ? { range: r.range } : {}) };
        inlineCompleted += r.range ? r.valid.length : items;
        return { ...r, buf };
      }
      const r = verifyBatch(kind, buf);
      inlineCompleted += items;
      return { ...r, buf };
    } finally {
      countSlow();
    }
  }

  return {
    run(kind, buf, items, signal, repack, json) {
      if (pool) {
        return pool.run(kind, buf, items, { ...(signal ? { signal } : {}), repack, ...(json ? { json: true, shared: json.sab!, sharedAt: json.at } : {}) });
      }
      return runInline(kind, buf, items, signal, json);
    },
    get completed() {
      return pool ? pool.completedItems : inlineCompleted;
    },
    get slowPaths() {
      return pool ? pool.slowPaths : Object.fromEntries(inlineSlow);
    },
    async close() {
      inlineClosed = true;
      if (pool) await pool.close();
    },
  };
}
