/**
 * What the fuzz runner (soak/fuzz.ts) and its worker threads (soak/fuzz/worker.ts) say to each other,
 * the shared state the watchdog reads, and the per-target figures both build.
 */

/** Int32 slots of the shared state, then one Float64: the running case's start (Date.now()). */
export const STATE = { target: 0, case: 1, busy: 2, ints: 4 } as const;
export const STATE_BYTES = STATE.ints * 4 + 8;

/**
 * Checks a run may leave out (`FuzzOptions.skip`), each while an open defect makes it fail:
 * - long-base58: the "long" mutation makes strings of up to 200,000 characters (else 2,000);
 * - bigint-in-items: the "huge" mutation puts bigints in the items `verify` packs (else numbers);
 * - sparse-arrays: arbitrary inputs to `verify` may be arrays with holes;
 * - unclosed-deep-json: raw JSON to `verify` may end with more than 32 levels left open;
 * - long-integers-scanned: the "huge" mutation puts integers of 16+ digits in raw JSON to `verify`;
 * - u64-range: a u64 field of a response must refuse a value outside 0..2^64-1.
 */
export const CHECKS = ['long-base58', 'bigint-in-items', 'sparse-arrays', 'unclosed-deep-json', 'long-integers-scanned', 'u64-range'] as const;
export type CheckName = (typeof CHECKS)[number];

export interface WorkerInput {
  group: string;
  /** The group's share of the run's cases. */
  cases: number;
  seed: number;
  timeoutMs: number;
  /** A regular expression on target names: only those run. */
  only?: string;
  /** Checks to leave out (see CHECKS). */
  skip: CheckName[];
  state: SharedArrayBuffer;
  /** A restarted thread: the cases per target the first one chose, and where to go on. */
  shares?: number[];
  resume?: { target: number; case: number };
  /** A restarted thread: the case that hung or crashed, to draw again for the report. */
  redraw?: { target: number; case: number };
}

export interface FailureReport {
  /** untyped (a plain error escaped), property (an oracle), slow / timeout (past the time bound), crash, memory, heap. */
  kind: string;
  case: number;
  /** The case's own seed: `fc.sample(arb, { seed, numRuns: 1 })` draws the input again. */
  seed: number;
  error: string;
  at?: string;
  input?: string;
}

export interface TargetReport {
  target: string;
  cases: number;
  /** Results and valid verdicts. */
  ok: number;
  invalid: number;
  /** Typed errors (`CairnError`) by code. */
  typed: Record<string, number>;
  failureCount: number;
  failures: FailureReport[];
  maxMs: number;
  /** Heap after a full collection: last sample minus the first (taken once the target warmed up). */
  heapGrowthBytes: number;
}

export type FromWorker =
  | { type: 'targets'; names: string[]; weights: number[] }
  | { type: 'shares'; shares: number[] }
  | { type: 'redrawn'; target: string; input: string }
  | { type: 'progress'; target: number; report: TargetReport; next: number }
  | { type: 'done' }
  | { type: 'fatal'; error: string };

export const emptyReport = (target: string): TargetReport => ({
  target,
  cases: 0,
  ok: 0,
  invalid: 0,
  typed: {},
  failureCount: 0,
  failures: [],
  maxMs: 0,
  heapGrowthBytes: 0,
});

/** Add a partial report (a progress message) into the running one. */
export function merge(into: TargetReport, part: TargetReport, keep = 5): void {
  into.cases += part.cases;
  into.ok += part.ok;
  into.invalid += part.invalid;
  for (const [k, n] of Object.entries(part.typed)) into.typed[k] = (into.typed[k] ?? 0) + n;
  into.failureCount += part.failureCount;
  for (const f of part.failures) if (into.failures.length < keep) into.failures.push(f);
  into.maxMs = Math.max(into.maxMs, part.maxMs);
  if (part.heapGrowthBytes !== 0) into.heapGrowthBytes = part.heapGrowthBytes;
}

/** A case's own seed: from the run's seed, the target's name and the case number (FNV-1a, then mixed). */
export function caseSeed(seed: number, target: string, i: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let k = 0; k < target.length; k++) h = Math.imul(h ^ target.charCodeAt(k), 0x01000193);
  h = Math.imul(h ^ i, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/** `total` cases over targets in proportion to their weights, at least one each when there are enough. */
export function split(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const out = weights.map((w) => Math.floor((total * w) / sum));
  if (total >= weights.length) for (let i = 0; i < out.length; i++) out[i] = Math.max(1, out[i]!);
  let left = total - out.reduce((a, b) => a + b, 0);
  for (let i = 0; left > 0; i = (i + 1) % out.length, left--) out[i]!++;
  for (let i = out.length - 1; left < 0 && i >= 0; i--) {
    const take = Math.min(-left, out[i]! - 1);
    out[i]! -= take;
    left += take;
  }
  return out;
}
