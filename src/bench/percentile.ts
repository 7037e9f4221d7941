/**
 * Nearest-rank percentiles and the latency summary every user benchmark reports (p50/p95/p99). One
 * definition for the shipped benchmarks and the repository's (bench/lib/landing-figures.ts re-exports
 * it), so a p95 means the same thing in both.
 */

/** The nearest-rank `p`th percentile of `values` (any order, not changed); null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (!(p > 0 && p <= 100)) throw new RangeError(`"p": expected a percentage in (0, 100], got ${p}`);
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1]!;
}

export interface LatencySummary {
  n: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  min: number | null;
  max: number | null;
}

/** The summary of a list of durations (ms), rounded to 0.01 ms. */
export function latencySummary(ms: readonly number[]): LatencySummary {
  const r = (v: number | null): number | null => (v === null ? null : Math.round(v * 100) / 100);
  return {
    n: ms.length,
    p50: r(percentile(ms, 50)),
    p95: r(percentile(ms, 95)),
    p99: r(percentile(ms, 99)),
    min: r(ms.length ? Math.min(...ms) : null),
    max: r(ms.length ? Math.max(...ms) : null),
  };
}
