/**
 * Counts the devnet's requests by draining its request log (the log keeps the last 50,000 entries;
 * a 5,000-intent phase makes more than that). Reading and clearing happen in one synchronous step
 * in the devnet's own process, so no entry is counted twice or missed.
 */
import type { Devnet } from '../src/devnet/index.js';

export interface RequestCounts {
  /** `getSignatureStatuses` calls the devnet served (429/5xx answers are counted under `faulted`). */
  statusCalls: number;
  /** Signatures asked about across those calls. */
  statusSignatures: number;
  /** `sendTransaction` calls on `/fast` that were served. */
  fastSends: number;
  /** Requests answered with an injected 429 or 5xx. */
  faulted: number;
  total: number;
}

export interface RequestCounter {
  /** Counts since the last `take()` (or the start), then starts over. */
  take(): RequestCounts;
  stop(): void;
}

const zero = (): RequestCounts => ({ statusCalls: 0, statusSignatures: 0, fastSends: 0, faulted: 0, total: 0 });

export function countRequests(devnet: Devnet, everyMs = 250): RequestCounter {
  let counts = zero();
  const drain = (): void => {
    const log = devnet.control.requestLog();
    devnet.control.clearRequestLog();
    for (const e of log) {
      counts.total++;
      if (e.status === 429 || e.status >= 500) counts.faulted++;
      else if (e.method === 'getSignatureStatuses') {
        counts.statusCalls++;
        counts.statusSignatures += e.items ?? 0;
      } else if (e.endpoint === 'fast' && e.method === 'sendTransaction') counts.fastSends++;
    }
  };
  const timer = setInterval(drain, everyMs);
  timer.unref();
  return {
    take() {
      drain();
      const c = counts;
      counts = zero();
      return c;
    },
    stop() {
      clearInterval(timer);
    },
  };
}
