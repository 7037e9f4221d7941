/**
 * The proxy's counters, served at `/metrics` in the Prometheus text format: requests by method, proof
 * items verified by kind, items refused by reason (status), answers passed annotated, upstream
 * failures, and the latency the proxy added (verification and anchoring, not the upstream's own time)
 * as a histogram. In-memory and per process: the proxy keeps no other state.
 */

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export interface ProxyMetrics {
  request(method: string): void;
  verified(kind: string, items: number): void;
  refused(reason: string, items: number): void;
  annotated(): void;
  upstreamError(): void;
  /** Seconds the proxy added to one answer. */
  added(seconds: number): void;
  text(): string;
}

const esc = (s: string): string => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/**
 * @example
 * const m = createProxyMetrics(); m.request('getAssetProof'); m.text(); // '# TYPE cairn_proxy_requests_total counter\n…'
 */
export function createProxyMetrics(): ProxyMetrics {
  const requests = new Map<string, number>();
  const verified = new Map<string, number>();
  const refused = new Map<string, number>();
  let annotated = 0;
  let upstreamErrors = 0;
  const buckets = new Array<number>(BUCKETS.length).fill(0);
  let sum = 0;
  let count = 0;
  const add = (m: Map<string, number>, k: string, n: number): void => void m.set(k, (m.get(k) ?? 0) + n);
  const counter = (name: string, help: string, label: string, m: Map<string, number>): string =>
    `# HELP ${name} ${help}\n# TYPE ${name} counter\n${[...m].map(([k, v]) => `${name}{${label}="${esc(k)}"} ${v}\n`).join('')}`;
  return {
    request: (method) => add(requests, method, 1),
    verified: (kind, n) => add(verified, kind, n),
    refused: (reason, n) => add(refused, reason, n),
    annotated: () => void annotated++,
    upstreamError: () => void upstreamErrors++,
    added(s) {
      sum += s;
      count++;
      BUCKETS.forEach((b, i) => {
        if (s <= b) buckets[i]!++;
      });
    },
    text: () =>
      [
        counter('cairn_proxy_requests_total', 'JSON-RPC calls received, by method.', 'method', requests),
        counter('cairn_proxy_items_verified_total', 'Proof items verified (and anchored), by kind.', 'kind', verified),
        counter('cairn_proxy_items_refused_total', 'Proof items that failed, by reason.', 'reason', refused),
        `# HELP cairn_proxy_answers_annotated_total Failing answers passed on annotated (--mode annotate).\n# TYPE cairn_proxy_answers_annotated_total counter\ncairn_proxy_answers_annotated_total ${annotated}\n`,
        `# HELP cairn_proxy_upstream_errors_total Upstream requests that failed.\n# TYPE cairn_proxy_upstream_errors_total counter\ncairn_proxy_upstream_errors_total ${upstreamErrors}\n`,
        `# HELP cairn_proxy_added_seconds Time the proxy added to an answer (verification and anchoring).\n# TYPE cairn_proxy_added_seconds histogram\n` +
          BUCKETS.map((b, i) => `cairn_proxy_added_seconds_bucket{le="${b}"} ${buckets[i]}\n`).join('') +
          `cairn_proxy_added_seconds_bucket{le="+Inf"} ${count}\ncairn_proxy_added_seconds_sum ${sum}\ncairn_proxy_added_seconds_count ${count}\n`,
      ].join(''),
  };
}
