/**
 * A transport that counts what goes out through it: HTTP requests (retries included, from each
 * answer's `attempts`) by host role — the JSON-RPC host or the /fast host — and by label (the
 * JSON-RPC method). The landing benchmark reports calls per landed transfer from these counts; they
 * are the client's own, so they hold against any endpoint, not only a devnet that logs requests.
 */
import type { Transport, TransportRequest, TransportResponse } from '../rpc/index.js';

export interface RequestCounts {
  rpc: number;
  fast: number;
  other: number;
  byLabel: Record<string, number>;
}

export interface CountingTransport extends Transport {
  readonly counts: RequestCounts;
}

/** Wrap `inner`: a request to `senderUrl`'s /fast or /ping counts as /fast, to `rpcUrl`'s as JSON-RPC. */
export function countingTransport(inner: Transport, rpcUrl: string, senderUrl: string): CountingTransport {
  const rpcOrigin = new URL(rpcUrl).origin;
  const fastOrigin = new URL(senderUrl).origin;
  const counts: RequestCounts = { rpc: 0, fast: 0, other: 0, byLabel: {} };
  const count = (req: TransportRequest, attempts: number): void => {
    const u = new URL(req.url);
    // one host may serve both (the devnet): /fast and /ping are told apart by their path
    const isFast = u.origin === fastOrigin && (fastOrigin !== rpcOrigin || /\/(fast|ping)$/.test(u.pathname));
    if (isFast) counts.fast += attempts;
    else if (u.origin === rpcOrigin) counts.rpc += attempts;
    else counts.other += attempts;
    const label = req.label ?? req.method;
    counts.byLabel[label] = (counts.byLabel[label] ?? 0) + attempts;
  };
  return {
    counts,
    async request(req: TransportRequest): Promise<TransportResponse> {
      try {
        const res = await inner.request(req);
        count(req, res.attempts);
        return res;
      } catch (e) {
        const attempts = (e as { context?: { attempts?: unknown } }).context?.attempts;
        count(req, typeof attempts === 'number' ? attempts : 1);
        throw e;
      }
    },
    close: () => inner.close(),
  };
}
