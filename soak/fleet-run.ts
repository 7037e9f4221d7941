/**
 * `npm run soak:fleet`: the fleet's chaos campaign (soak/fleet.ts) at full size — 3 processes,
 * 3,000 intents, 20 SIGKILLs, one process paused past its lease, PostgreSQL restarted mid-run —
 * judged by the devnet's ledger. Prints the figures, writes them as JSON, and exits non-zero when a
 * must-be-0 figure is not 0 or a fault could not be applied.
 *
 *   npm run soak:fleet -- [--intents 3000] [--processes 3] [--kills 20] [--lease-ms 2000] [--seed S] [--out soak/results/fleet.json]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runFleetCampaign, type FleetCampaign } from './fleet.js';

const { values } = parseArgs({
  options: {
    intents: { type: 'string' },
    processes: { type: 'string' },
    kills: { type: 'string' },
    'lease-ms': { type: 'string' },
    concurrency: { type: 'string' },
    seed: { type: 'string' },
    out: { type: 'string', default: join(import.meta.dirname, 'results', 'fleet.json') },
  },
});
const int = (v: string | undefined, fallback: number, name: string): number => {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`--${name}: expected a positive integer, got ${v}`);
  return n;
};

/** The figures that must be 0, by name. */
export function mustBeZero(c: FleetCampaign): Record<string, number> {
  const v = c.verdict;
  return { lost: v.lost, landedTwice: v.landedTwice, reportedFailedButLanded: v.reportedFailedButLanded, okWrongSignature: v.okWrongSignature, failures: c.failures.length };
}

/** The campaign as a few lines. */
export function formatFleet(c: FleetCampaign): string {
  const v = c.verdict;
  return [
    `fleet chaos: ${c.options.processes} processes at a time, ${c.processes} started, ${v.offered} intents, ${(c.ms / 1000).toFixed(1)} s (${c.confirmedPerSecond} confirmed/s)`,
    `  faults: ${c.kills} SIGKILLs (each replaced); ${c.paused ? `${c.paused.label} SIGSTOPped ${c.paused.ms} ms (lease ${c.options.leaseMs} ms): ${c.paused.fencedRefused} fenced writes refused, ${c.paused.leasesLost} leases found lost` : 'no pause'}; PostgreSQL restarted ${c.postgresRestarts}×`,
    `  ledger: ${v.landedOnce} landed once, ${v.landedTwice} landed twice, ${v.lost} lost, ${v.provenExpired} proven expired, ${v.failed} failed, ${v.reportedFailedButLanded} reported failed but landed, ${v.executedWithError} executed with error`,
    `  table: ${Object.entries(c.tableStates).map(([s, n]) => `${s} ${n}`).join(', ')}`,
    `  fleet: ${c.fleet.claims} claims, ${c.fleet.takeovers} takeovers, ${c.fleet.renewals} renewals, ${c.fleet.leasesLost} leases lost, ${c.fleet.fencedRefused} fenced writes refused, ${c.fleet.reconnects} reconnect waits`,
    ...c.failures.map((f) => `  FAILURE: ${f}`),
    ...Object.entries(v.examples).flatMap(([k, list]) => list.map((e) => `  ${k}: ${e}`)),
  ].join('\n');
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  const c = await runFleetCampaign({
    processes: int(values.processes, 3, 'processes'),
    intents: int(values.intents, 3_000, 'intents'),
    kills: int(values.kills, 20, 'kills'),
    killGapMs: [200, 700],
    pause: true,
    restart: true,
    leaseMs: int(values['lease-ms'], 2_000, 'lease-ms'),
    concurrency: int(values.concurrency, 32, 'concurrency'),
    seed: int(values.seed, ((Math.random() * 2 ** 31) >>> 0) || 1, 'seed'),
    timeoutMs: 15 * 60_000,
    log: (l) => console.log(l),
  });
  console.log('\n' + formatFleet(c));
  const zero = mustBeZero(c);
  const out = resolve(values.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), ...c, mustBeZero: zero }, null, 2) + '\n');
  console.log(`figures written to ${out}`);
  process.exitCode = Object.values(zero).every((n) => n === 0) ? 0 : 1;
}
