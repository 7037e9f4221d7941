/**
 * Slower paths taken instead of the fast one, counted per thread and never quiet. A fallback that
 * keeps the answers right but costs a multiple of the time (the Groth16 batch check replaced by one
 * check per proof, the mcl backend by the portable one) used to pass unseen: the packed package ran
 * validity proofs at a fifth of the speed of the source for weeks. Each path taken is counted here,
 * the pool gathers the workers' counts with their replies (`Verifier.slowPaths`), and the first time a
 * process meets a path it gets one `process.emitWarning` (code `CAIRN_SLOW_PATH`) saying which and why.
 */
import { isMainThread } from 'node:worker_threads';

/** The slower paths cairn can take, each with what it costs. */
export const SLOW_PATHS = {
  'groth16-portable': 'validity proofs verified with the portable BN254 backend (@noble/curves, ≈ 3–4× slower): mcl-wasm did not load on this thread',
  'groth16-batch-error': 'a batch of validity proofs was checked one proof at a time (no shared final exponentiation): the combined check threw',
  'groth16-miller-loop-vec': "mcl-wasm's raw module is not reachable: a batch's Miller loops run one by one instead of as one multi-Miller loop",
} as const;

/** The name of a slower path. */
export type SlowPath = keyof typeof SLOW_PATHS;

/** This thread's counts since the last `takeSlowPaths()` (what a worker sends with its next reply). */
const pending = new Map<SlowPath, number>();
/** This thread's counts since it started. */
const total = new Map<SlowPath, number>();
const warned = new Set<string>();

/**
 * Count `times` uses of a slower path on this thread. `detail` (the error that sent it there) goes
 * into the one-time warning when this thread is the main one.
 *
 * @example
 * noteSlowPath('groth16-batch-error', 16, e);
 */
export function noteSlowPath(path: SlowPath, times = 1, detail?: unknown): void {
  if (times <= 0) return;
  pending.set(path, (pending.get(path) ?? 0) + times);
  total.set(path, (total.get(path) ?? 0) + times);
  warnOnce(path, detail);
}

/**
 * The counts since the last call, cleared (a worker sends them with its reply); undefined when none.
 *
 * @example
 * const slow = takeSlowPaths(); // [['groth16-batch-error', 16]] or undefined
 */
export function takeSlowPaths(): Array<[SlowPath, number]> | undefined {
  if (pending.size === 0) return undefined;
  const out = [...pending];
  pending.clear();
  return out;
}

/**
 * The slower paths this thread has taken and how many times (verifying on the calling thread:
 * `verifyValidityProof`, `verifyValidityProofsSync`, a verifier with `threads: 0`). A pool's workers
 * count theirs in `Verifier.slowPaths`.
 *
 * @example
 * slowPaths(); // {} when every proof took the fast path
 */
export function slowPaths(): Partial<Record<SlowPath, number>> {
  return Object.fromEntries(total) as Partial<Record<SlowPath, number>>;
}

/**
 * The one warning per process for `path` (`detail`: why, when known). Workers do not warn: their
 * counts reach the pool, which warns on the main thread.
 *
 * @example
 * warnOnce('groth16-portable');
 */
export function warnOnce(path: string, detail?: unknown): void {
  if (warned.has(path) || !isMainThread) return;
  warned.add(path);
  const what = (SLOW_PATHS as Record<string, string>)[path] ?? path;
  const why = detail === undefined ? '' : ` (${detail instanceof Error ? detail.message : String(detail)})`;
  process.emitWarning(`cairn took a slower path: ${what}${why}`, { type: 'CairnSlowPathWarning', code: 'CAIRN_SLOW_PATH' });
}
