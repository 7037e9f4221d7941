/**
 * One killable process of a fleet: a sender on the shared PostgreSQL journal that works the table
 * until no intent is unfinished (`work({ drain: true })`), printing one JSON line per outcome it
 * reaches and its fleet figures every few hundred ms (a SIGKILLed process cannot print them at the
 * end). Spawned as `node --import tsx soak/fleet-child.ts job.json` so signals reach the sender.
 */
import { readFileSync } from 'node:fs';
import { createSender, signerFromSecretKey } from '../src/sender/index.js';
import { errorFacts } from './error-facts.js';
import type { FleetMetrics } from '../src/sender/index.js';

/** What the harness tells a fleet process. */
export interface FleetChildJob {
  url: string;
  postgres: string;
  table: string;
  payer: string;
  leaseMs: number;
  concurrency: number;
  pollMs: number;
  rebroadcastMs: number;
}

export type FleetChildLine =
  | { t: 'ready' }
  | { t: 'answer'; via: 'send'; id: string; ok: boolean; signature?: string; code?: string; message?: string; causes?: string[] }
  | { t: 'metrics'; metrics: FleetMetrics }
  | { t: 'fatal'; code: string; message: string }
  | { t: 'end'; metrics: FleetMetrics; summary: unknown };

if (process.argv[2]) {
  const out = (l: FleetChildLine): void => void process.stdout.write(JSON.stringify(l) + '\n');
  const job = JSON.parse(readFileSync(process.argv[2], 'utf8')) as FleetChildJob;
  const payer = signerFromSecretKey(new Uint8Array(Buffer.from(job.payer, 'hex')));
  const sender = createSender({
    url: job.url,
    journal: { postgres: job.postgres, table: job.table, leaseMs: job.leaseMs, poolSize: 6 },
    cuPrice: 200_000,
    cuLimit: 1_000,
    pollMs: job.pollMs,
    rebroadcastMs: job.rebroadcastMs,
    onExpired: 'resign',
    signers: [payer],
  });
  const stop = new AbortController();
  const listening = (async () => {
    for await (const r of sender.outcomes({ signal: stop.signal })) {
      out(r.ok ? { t: 'answer', via: 'send', id: r.id, ok: true, signature: r.outcome.signature } : { t: 'answer', via: 'send', id: r.id, ok: false, ...errorFacts(r.error) });
    }
  })();
  const tick = setInterval(() => out({ t: 'metrics', metrics: sender.stats.fleet }), 250);
  out({ t: 'ready' });
  try {
    const summary = await sender.work({ concurrency: job.concurrency, drain: true, idleMs: 100 });
    stop.abort();
    await listening;
    clearInterval(tick);
    out({ t: 'end', metrics: sender.stats.fleet, summary });
  } catch (e) {
    out({ t: 'fatal', ...errorFacts(e) });
  } finally {
    clearInterval(tick);
    stop.abort();
    await sender.close();
  }
}
