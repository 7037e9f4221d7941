/**
 * `npm run soak:fleet`: the fleet's chaos campaign (soak/fleet.ts) at full size — 3 processes,
 * 3,000 intents, 20 SIGKILLs, one process paused past its lease, PostgreSQL restarted mid-run —
 * then its durable-nonce phase: 300 intents each on its own nonce account, under 6 SIGKILLs, a pause
 * past the lease and a restart. Both are judged by the devnet's ledger. Prints the figures, writes
 * them as JSON, and exits non-zero when a must-be-0 figure is not 0 or a fault could not be applied.
 *
 *   npm run soak:fleet -- [--intents 3000] [--processes 3] [--kills 20] [--lease-ms 2000]
 *     [--nonce-intents 300] [--nonce-kills 6] [--seed S] [--out soak/results/fleet.json]
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
    'nonce-intents': { type: 'string' },
    'nonce-kills': { type: 'string' },
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
  return {
    lost: v.lost,
    landedTwice: v.landedTwice,
    reportedFailedButLanded: v.reportedFailedButLanded,
    okWrongSignature: v.okWrongSignature,
    failures: c.failures.length,
  };
}

/** The campaign as a few lines. */
export function formatFleet(c: FleetCampaign): string {
  const v = c.verdict;
  return [
    `fleet chaos${c.options.nonce ? ' (durable-nonce intents)' : ''}: ${c.options.processes} processes at a time, ${c.processes} started, ${v.offered} intents, ${(c.ms / 1000).toFixed(1)} s (${c.confirmedPerSecond} confirmed/s)`,
    `  faults: ${c.kills} SIGKILLs (each replaced); ${c.paused ? `${c.paused.label} SIGSTOPped ${c.paused.ms} ms (lease ${c.options.leaseMs} ms): ${c.paused.fencedRefused} fenced writes refused, ${c.paused.leasesLost} leases found lost` : 'no pause'}; PostgreSQL restarted ${c.postgresRestarts}×`,
    `  ledger: ${v.landedOnce} landed once, ${v.landedTwice} landed twice, ${v.lost} lost, ${v.provenExpired} proven expired, ${v.failed} failed, ${v.reportedFailedButLanded} reported failed but landed, ${v.executedWithError} executed with error`,
    `  table: ${Object.entries(c.tableStates).map(([s, n]) => `${s} ${n}`).join(', ')}`,
    `  fleet: ${c.fleet.claims} claims, ${c.fleet.takeovers} takeovers, ${c.fleet.renewals} renewals, ${c.fleet.leasesLost} leases lost, ${c.fleet.fencedRefused} fenced writes refused, ${c.fleet.reconnects} reconnect waits`,
    ...c.failures.map((f) => `  FAILURE: ${f}`),
    ...Object.entries(v.examples).flatMap(([k, list]) => list.map((e) => `  ${k}: ${e}`)),
  ].join('\n');
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  const seed = int(values.seed, ((Math.random() * 2 ** 31) >>> 0) || 1, 'seed');
  const common = {
    processes: int(values.processes, 3, 'processes'),
    killGapMs: [200, 700] as [number, number],
    pause: true,
    restart: true,
    leaseMs: int(values['lease-ms'], 2_000, 'lease-ms'),
    concurrency: int(values.concurrency, 32, 'concurrency'),
    seed,
    timeoutMs: 15 * 60_000,
    log: (l: string) => console.log(l),
  };
  const main = await runFleetCampaign({ ...common, intents: int(values.intents, 3_000, 'intents'), kills: int(values.kills, 20, 'kills') });
  console.log('\n' + formatFleet(main) + '\n');
  const nonce = await runFleetCampaign({ ...common, intents: int(values['nonce-intents'], 300, 'nonce-intents'), kills: int(values['nonce-kills'], 6, 'nonce-kills'), nonce: true, base: 80_000_000n });
  console.log('\n' + formatFleet(nonce));
  const zero = { main: mustBeZero(main), nonce: mustBeZero(nonce) };
  const out = resolve(values.out);
  mkdirSync(dirname(out), { recursive: true });
  const plain = (c: FleetCampaign) => ({ ...c, options: { ...c.options, base: c.options.base?.toString() } });
  writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), seed, main: plain(main), nonce: plain(nonce), mustBeZero: zero }, null, 2) + '\n');
  console.log(`figures written to ${out}`);
  process.exitCode = [...Object.values(zero.main), ...Object.values(zero.nonce)].every((n) => n === 0) ? 0 : 1;
}
