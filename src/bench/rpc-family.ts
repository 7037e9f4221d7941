/**
 * `cairn bench rpc`: the JSON-RPC latency of each read-only method from this machine to an endpoint —
 * p50/p95/p99 and errors per method, over `requests` calls each (one at a time by default, so the
 * figure is the round trip, not a queue). Only methods that read: nothing here can change state or
 * spend. A method the endpoint does not serve shows as errors with the endpoint's own message.
 * Requests go through cairn's transport (keep-alive, the key as the `api-key` parameter, no retries:
 * a benchmark counts a failure, it does not hide it).
 */
import { createTransport, type Transport } from '../rpc/index.js';
import { InputError } from '../errors/index.js';
import { latencySummary } from './percentile.js';
import { newResult, stopReason, type FamilyContext, type FamilyResult } from './types.js';

/** Read-only methods and the parameters each is called with (the DAS and compression methods take an object). */
export const RPC_METHODS: Record<string, unknown[] | Record<string, unknown>> = {
  getSlot: [],
  getBlockHeight: [],
  getLatestBlockhash: [{ commitment: 'confirmed' }],
  getHealth: [],
  getVersion: [],
  getEpochInfo: [],
  getBalance: ['SysvarC1ock11111111111111111111111111111111'],
  getAccountInfo: ['SysvarC1ock11111111111111111111111111111111', { encoding: 'base64' }],
  getMultipleAccounts: [['SysvarC1ock11111111111111111111111111111111', 'SysvarRent111111111111111111111111111111111'], { encoding: 'base64' }],
  getSignatureStatuses: [['5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW']],
  getRecentPrioritizationFees: [],
  getPriorityFeeEstimate: [{ options: { priorityLevel: 'Medium' } }],
  getAssetsByOwner: { ownerAddress: '11111111111111111111111111111111', page: 1, limit: 10 },
  getCompressedAccountsByOwner: { owner: '11111111111111111111111111111111' },
  getIndexerHealth: {},
};

export interface RpcBenchOptions {
  url: string;
  apiKey?: string;
  methods?: readonly string[];
  /** Calls per method (default 50). */
  requests?: number;
  /** Calls in flight per method (default 1). */
  concurrency?: number;
  /** Most seconds per method (default 10). */
  seconds?: number;
  /** Plain http with a key to a host that is not loopback (refused otherwise, as everywhere in cairn). */
  allowInsecureKey?: boolean;
}

export async function rpcFamily(o: RpcBenchOptions, ctx: FamilyContext): Promise<FamilyResult> {
  const methods = o.methods ?? Object.keys(RPC_METHODS);
  for (const m of methods) if (!(m in RPC_METHODS)) throw new InputError('--methods', `${JSON.stringify(m)} is not one of the read-only methods: ${Object.keys(RPC_METHODS).join(', ')}`);
  const requests = o.requests ?? 50;
  const concurrency = o.concurrency ?? 1;
  const seconds = o.seconds ?? 10;
  const url = new URL(o.url);
  const result = newResult('rpc', { url: `${url.origin}${url.pathname === '/' ? '' : url.pathname}`, requests, concurrency, seconds, methods: [...methods] });
  const transport = createTransport({
    ...(o.apiKey ? { apiKey: o.apiKey } : {}),
    ...(o.allowInsecureKey ? { allowInsecureKey: true } : {}),
    retry: { retries: 0 },
    timeoutMs: 10_000,
  });
  try {
    for (const [i, method] of methods.entries()) {
      ctx.progress('methods', i, methods.length);
      const r = await timeMethod(transport, o.url, method, RPC_METHODS[method]!, requests, concurrency, seconds, ctx.signal);
      const s = latencySummary(r.ms);
      result.rows.push({
        name: method,
        calls: r.ms.length + r.errors,
        errors: r.errors,
        p50Ms: s.p50,
        p95Ms: s.p95,
        p99Ms: s.p99,
        maxMs: s.max,
        firstError: r.firstError,
      });
      if (i === 0) result.series.push({ id: 'rpc-latency', title: `${method} latency distribution`, kind: 'bars', xLabel: 'ms', yLabel: 'calls', points: histogram(r.ms) });
      if (ctx.signal.aborted) break;
    }
    ctx.progress('methods', methods.length, methods.length);
  } finally {
    await transport.close();
  }
  if (ctx.signal.aborted) result.partial = stopReason(ctx.signal);
  result.notes.push('latency is the whole call as a client sees it: connection reuse, TLS, the server and the network; no retries');
  return result;
}

async function timeMethod(
  t: Transport,
  url: string,
  method: string,
  params: unknown[] | Record<string, unknown>,
  n: number,
  concurrency: number,
  seconds: number,
  signal: AbortSignal,
) {
  const ms: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let next = 0;
  const until = performance.now() + seconds * 1000;
  const body = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method, params });
  const worker = async (): Promise<void> => {
    while (next < n && performance.now() < until && !signal.aborted) {
      const id = next++;
      const t0 = performance.now();
      try {
        const res = await t.request({ url, method: 'POST', body: body(id), label: method, signal });
        const err = (res.body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
        if (err) {
          errors++;
          firstError ??= `${String(err.code)} ${String(err.message).slice(0, 120)}`;
        } else ms.push(performance.now() - t0);
      } catch (e) {
        if (signal.aborted) return;
        errors++;
        firstError ??= (e as Error).message.slice(0, 160);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return { ms, errors, firstError };
}

/** Up to 20 equal-width bins from the smallest to the largest value: [bin start, count]. */
export function histogram(values: readonly number[], bins = 20): [number, number][] {
  if (values.length === 0) return [];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const width = hi > lo ? (hi - lo) / bins : 1;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor((v - lo) / width))]!++;
  // bin starts rounded to what the width can tell apart
  const digits = width >= 10 ? 0 : width >= 1 ? 1 : 2;
  return counts.map((c, i) => [Number((lo + i * width).toFixed(digits)), c]);
}
