/**
 * How large the verifier's batches are: per kind (about 10 ms of work each), cut smaller for a
 * short list and for the last rounds of a long one, so the threads finish together.
 */
import type { KindSpec } from '../kinds/index.js';

export interface BatchPlan {
  /** Batch size for `total` items (unknown for streams). */
  sizeFor(spec: KindSpec, total?: number): number;
  /** The next chunk's size with `remaining` items left (see `batchPlan`). */
  taper(size: number, remaining: number): number;
}

/**
 * The plan for a verifier of `threads` threads; `batchSize`, when the caller fixed it, is used as it is.
 *
 * @example
 * const plan = batchPlan(2, undefined);
 * plan.sizeFor(getKind('asset-proof'), 100); // 13: about four batches per thread
 */
export function batchPlan(threads: number, batchSize: number | undefined): BatchPlan {
  return {
    sizeFor(spec, total) {
      if (batchSize !== undefined) return batchSize;
      // A short list is cut so each thread gets about four batches: the run then ends with every
      // thread finishing at nearly the same time instead of one working alone on a last big batch.
      if (total !== undefined && threads > 1) return Math.max(1, Math.min(spec.batchSize, Math.ceil(total / (threads * 4))));
      return spec.batchSize;
    },
    // `size` until the last few rounds, then shrinking, so the threads finish together instead of
    // one working alone through a last full batch while the others idle (half a batch of one
    // thread's time, ~2% of a 40,000-proof run).
    taper(size, remaining) {
      if (threads < 2 || batchSize !== undefined) return size;
      return Math.max(1, Math.min(size, Math.max(Math.ceil(size / 8), Math.ceil(remaining / (2 * threads)))));
    },
  };
}
