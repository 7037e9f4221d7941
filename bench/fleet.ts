/**
 * Fleet benchmark (issue 22): confirmed intents per second for 1, 2 and 3 sender processes against
 * one devnet, with the PostgreSQL journal (a fleet sharing one table: each process enqueues its share
 * and works the table until it is empty), with a file journal (each process its own file, sendMany)
 * and with no journal (sendMany), all in one run on the same devnet. Each process boots first and
 * waits; the clock runs from "go" to the last process done, so tsx's start-up is not counted.
 * Goal: the PostgreSQL journal costs at most 25% of the no-journal rate.
 *
 * Writes bench/results/fleet.{json,md}. `npx tsx bench/fleet.ts` (BENCH_FLEET_INTENTS=3000).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const self = fileURLToPath(import.meta.url);
type Kind = 'postgres' | 'file' | 'none';
interface ChildJob {
  kind: Kind;
  url: string;
  postgres: string;
  table: string;
  journal: string;
  payer: string;
  to: string;
  /** This process's intents: ids `${prefix}-${i}` paying `base + i` lamports. */
  prefix: string;
  base: string;
  count: number;
}

if (process.argv[2] === '--child') {
  const job = JSON.parse(process.argv[3]!) as ChildJob;
  const { createSender, signerFromSecretKey, transferInstruction } = await import('../src/sender/index.js');
  const payer = signerFromSecretKey(new Uint8Array(Buffer.from(job.payer, 'hex')));
  const common = { url: job.url, cuPrice: 200_000, cuLimit: 1_000, pollMs: 100, rebroadcastMs: 1_000, signers: [payer] };
  const ids = Array.from({ length: job.count }, (_, i) => `${job.prefix}-${i}`);
  const ix = (i: number) => [transferInstruction(payer.address, job.to, BigInt(job.base) + BigInt(i))];
  let confirmed = 0;
  // Booted: wait for "go" on stdin.
  process.stdout.write('ready\n');
  await new Promise<void>((r) => process.stdin.once('data', () => r()));
  const t0 = performance.now();
  if (job.kind === 'postgres') {
    const s = createSender({ ...common, journal: { postgres: job.postgres, table: job.table } });
    await s.enqueue(ids.map((id, i) => ({ id, instructions: ix(i), payer: payer.address })));
    confirmed = (await s.work({ drain: true, idleMs: 50 })).confirmed;
    await s.close();
  } else {
    const s = createSender({ ...common, ...(job.kind === 'file' ? { journal: job.journal } : {}) });
    for await (const r of s.sendMany(ids.map((_, i) => ({ instructions: ix(i), payer })), { idOf: (_, i) => ids[i]! })) if (r.ok) confirmed++;
    await s.close();
  }
  process.stdout.write(JSON.stringify({ confirmed, ms: performance.now() - t0 }) + '\n');
  process.exit(0);
}

const { startDevnet } = await import('../src/devnet/index.js');
const { generateSigner } = await import('../src/sender/index.js');
const { startPostgres } = await import('../test/support/postgres-server.js');
const tsx = createRequire(import.meta.url).resolve('tsx/esm');
const total = Number(process.env.BENCH_FLEET_INTENTS ?? 3000);
const loadBefore = loadavg()[0]!;
const payer = generateSigner();
const to = generateSigner().address;
const devnet = await startDevnet({
  port: 0,
  host: '127.0.0.1',
  slotMs: 50,
  wsPortPlusOne: false,
  stateModules: false,
  fundedAccounts: [{ address: payer.address, lamports: 1_000_000n * 10n ** 9n }, { address: to, lamports: 10n ** 9n }],
});
const pg = await startPostgres();
const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-fleet-'));
let base = 1_000_000n;

/** Run `n` processes of one kind on `total` intents; confirmed/s from "go" to the last one done. */
async function measure(kind: Kind, n: number): Promise<{ kind: Kind; processes: number; confirmed: number; seconds: number; perSecond: number }> {
  const table = `bench_${kind}_${n}`;
  const share = Math.ceil(total / n);
  const children = Array.from({ length: n }, (_, p) => {
    const job: ChildJob = { kind, url: devnet.url, postgres: pg.url, table, journal: join(dir, `${table}-${p}.jsonl`), payer: Buffer.from(payer.secretKey()).toString('hex'), to, prefix: `${table}-${p}`, base: String(base), count: share };
    base += BigInt(share);
    const c = spawn(process.execPath, ['--import', tsx, self, '--child', JSON.stringify(job)], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const ready = new Promise<void>((r) => c.stdout.on('data', (b: Buffer) => ((out += b.toString()), out.includes('ready\n') && r())));
    const done = new Promise<{ confirmed: number; ms: number }>((resolve, reject) =>
      c.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.split('\n').filter(Boolean).at(-1)!)) : reject(new Error(`${kind} child exited ${code}`)))),
    );
    return { c, ready, done };
  });
  await Promise.all(children.map((x) => x.ready));
  const t0 = performance.now();
  for (const x of children) x.c.stdin.end('go\n');
  const results = await Promise.all(children.map((x) => x.done));
  const seconds = (performance.now() - t0) / 1000;
  const confirmed = results.reduce((a, r) => a + r.confirmed, 0);
  return { kind, processes: n, confirmed, seconds, perSecond: confirmed / seconds };
}

const rows: Awaited<ReturnType<typeof measure>>[] = [];
try {
  for (const n of [1, 2, 3]) {
    for (const kind of ['none', 'file', 'postgres'] as const) {
      const r = await measure(kind, n);
      rows.push(r);
      console.log(`${kind.padEnd(8)} ${n} process(es): ${r.confirmed} confirmed in ${r.seconds.toFixed(2)} s = ${r.perSecond.toFixed(1)}/s`);
    }
  }
} finally {
  await devnet.stop();
  await pg.stop();
  rmSync(dir, { recursive: true, force: true });
}
const rate = (kind: Kind, n: number): number => rows.find((r) => r.kind === kind && r.processes === n)!.perSecond;
const cost = [1, 2, 3].map((n) => ({ processes: n, postgresCostVsNone: 1 - rate('postgres', n) / rate('none', n), fileCostVsNone: 1 - rate('file', n) / rate('none', n) }));
const loadAfter = loadavg()[0]!;
writeFileSync(join(here, 'results', 'fleet.json'), JSON.stringify({ at: new Date().toISOString(), intents: total, rows, cost, goal: 'postgres costs ≤ 25% of the no-journal rate', loadavg: [loadBefore, loadAfter] }, null, 2) + '\n');
const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;
const md = [
  '## fleet — confirmed intents/s, 1–3 sender processes, one devnet (bench/fleet.ts)',
  '',
  `${total} intents per configuration, transfers with CU price and tip, slot 50 ms; load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} (other work on the machine makes these noisy: compare ratios within the run).`,
  '',
  '| processes | no journal | file journal | PostgreSQL journal | PostgreSQL cost vs none | file cost vs none |',
  '|---|---|---|---|---|---|',
  ...cost.map((c) => `| ${c.processes} | ${rate('none', c.processes).toFixed(0)}/s | ${rate('file', c.processes).toFixed(0)}/s | ${rate('postgres', c.processes).toFixed(0)}/s | ${pct(c.postgresCostVsNone)} | ${pct(c.fileCostVsNone)} |`),
  '',
  'Goal: the PostgreSQL journal costs at most 25% of the no-journal rate.',
  '',
].join('\n');
writeFileSync(join(here, 'results', 'fleet.md'), md);
console.log('\n' + md);
