/**
 * The landing benchmark: cairn's `sendMany` against helius-sdk's `sendTransactionWithSender`, kit's
 * `sendAndConfirmTransactionFactory` and web3.js' `sendAndConfirmRawTransaction`, each called as its
 * users call it, on the same transfers (same tip, CU price and limit, same concurrency) against a
 * devnet in its own process, under the faults a real cluster has: none, 20% of submissions silently
 * dropped, 10% answered 429 with Retry-After, 5% answered 503, 0–200 ms added latency, at 400 ms and
 * 100 ms slots. The devnet's ledger judges what landed; its request log counts what each peer asked.
 *
 * Writes bench/results/landing.{json,md,svg} (shape: bench/lib/landing-report.ts). Methodology:
 * bench/NOTES.md, "The landing benchmark". `npm run bench -- landing`, or `npx tsx bench/landing.ts`
 * with LANDING_N (transfers, default 200), LANDING_CONCURRENCY (50), LANDING_FAULT_SLOT_MS (100),
 * LANDING_PEERS / LANDING_SCENARIOS (comma-separated subsets).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@solana/web3.js';
import type { DevnetOrder, DevnetReply } from './lib/landing-devnet.js';
import { figures, percentile } from './lib/landing-figures.js';
import { PEERS, type PeerJob, type PeerName, type PeerResult } from './lib/landing-peer.js';
import { goalChecks, landingMarkdown, landingSvg, longRows, type LandingResults, type LandingRun, type LandingScenario } from './lib/landing-report.js';

const here = dirname(fileURLToPath(import.meta.url));
const N = Number(process.env.LANDING_N ?? 200);
const CONCURRENCY = Number(process.env.LANDING_CONCURRENCY ?? 50);
const FAULT_SLOT_MS = Number(process.env.LANDING_FAULT_SLOT_MS ?? 100);
const SEED = 24;
const TIP_LAMPORTS = 1_000_000; // 0.001 SOL: the dual-routing minimum
const CU_PRICE = 200_000;
const CU_LIMIT = 1_000;
const API_KEY = 'landing-bench';
// Every scenario's faults apply to both hosts alike: a peer meets them whichever host it talks to.
const both = (f: Record<string, number>): LandingScenario['faults'] => ({ rpc: f, fast: f });
const ALL_SCENARIOS: LandingScenario[] = [
  { id: 'clean-400', label: 'clean, 400 ms slots', slotMs: 400, faults: {} },
  { id: 'clean-100', label: 'clean, 100 ms slots', slotMs: 100, faults: {} },
  { id: 'drop-20', label: '20% of sends dropped', slotMs: FAULT_SLOT_MS, faults: both({ dropRate: 0.2 }) },
  { id: '429-10', label: '10% 429 + Retry-After', slotMs: FAULT_SLOT_MS, faults: both({ rateLimitRate: 0.1, retryAfterSeconds: 1 }) },
  { id: '503-5', label: '5% 503', slotMs: FAULT_SLOT_MS, faults: both({ serverErrorRate: 0.05, serverErrorStatus: 503 }) },
  { id: 'latency', label: '0–200 ms latency', slotMs: FAULT_SLOT_MS, faults: both({ latencyMs: 0, latencyMaxMs: 200 }) },
  // bundles of 2 through /fast sendBundle: cairn's sendBundle against helius-sdk's sendBundleWithSender (kit and web3.js have none)
  { id: 'bundle', label: 'bundles of 2, 20% dropped', slotMs: FAULT_SLOT_MS, faults: both({ dropRate: 0.2 }), bundle: true },
];
const BUNDLE_PEERS: readonly string[] = ['cairn', 'helius-sdk'];
const pick = <T extends { id?: string }>(all: readonly T[], env: string | undefined, key: (t: T) => string): T[] => {
  if (!env) return [...all];
  const want = env.split(',').map((s) => s.trim());
  const bad = want.filter((w) => !all.some((t) => key(t) === w));
  if (bad.length) throw new Error(`unknown: ${bad.join(', ')}; expected some of ${all.map(key).join(', ')}`);
  return all.filter((t) => want.includes(key(t)));
};
const scenarios = pick(ALL_SCENARIOS, process.env.LANDING_SCENARIOS, (s) => s.id);
const peers = pick(PEERS.map((p) => ({ id: p })), process.env.LANDING_PEERS, (p) => p.id).map((p) => p.id as PeerName);

const payerSeed = Buffer.alloc(32, 0x18);
const payer = Keypair.fromSeed(payerSeed).publicKey.toBase58();
const recipient = Keypair.fromSeed(Buffer.alloc(32, 0x19)).publicKey.toBase58();
// Transfer i pays 100,000 + i lamports: the amount alone finds it on the ledger.
const amounts = Array.from({ length: N }, (_, i) => String(100_000 + i));

// ------------------------------------------------------------------ the devnet's process
const tsx = ['--import', 'tsx'];
const devnetProc = fork(join(here, 'lib', 'landing-devnet.ts'), [], { execArgv: tsx, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
devnetProc.on('error', (e) => console.error(`devnet process: ${e.message}`));
let devnetQueue = Promise.resolve<unknown>(undefined);
function ask<T extends DevnetReply['op']>(order: DevnetOrder, want: T): Promise<Extract<DevnetReply, { op: T }>> {
  const p = devnetQueue.then(
    () =>
      new Promise<Extract<DevnetReply, { op: T }>>((resolve, reject) => {
        const onExit = (): void => reject(new Error('the devnet process exited'));
        devnetProc.once('exit', onExit);
        devnetProc.once('message', (m: DevnetReply) => {
          devnetProc.off('exit', onExit);
          if (m.op === want) resolve(m as Extract<DevnetReply, { op: T }>);
          else reject(new Error(`devnet: ${m.op === 'error' ? m.message : `expected ${want}, got ${m.op}`}`));
        });
        if (!devnetProc.connected) reject(new Error('the devnet process is gone'));
        else devnetProc.send(order);
      }),
  );
  devnetQueue = p.catch(() => undefined);
  return p;
}

// ------------------------------------------------------------------ one peer's process
/** Bounded by the slowest honest run: a dropped transfer is waited on until its blockhash expires (150 slots). */
const timeLimitMs = (s: LandingScenario): number => Math.max(60_000, 150 * s.slotMs * 3 + 20_000);

function runPeer(job: PeerJob): Promise<{ result: PeerResult | null; stderrTail: string }> {
  return new Promise((resolve) => {
    const child: ChildProcess = fork(join(here, 'lib', 'landing-peer.ts'), [], { execArgv: tsx, stdio: ['ignore', 'inherit', 'pipe', 'ipc'] });
    let tail = '';
    let result: PeerResult | null = null;
    child.stderr!.on('data', (c: Buffer) => {
      tail = (tail + c.toString()).slice(-2_000);
    });
    child.on('message', (m) => {
      result = m as PeerResult;
    });
    // the child stops itself at the time limit; this is for a child that cannot
    const killer = setTimeout(() => child.kill('SIGKILL'), job.timeLimitMs + 30_000);
    child.on('exit', (code) => {
      clearTimeout(killer);
      const lines = tail.trim().split('\n');
      resolve({ result, stderrTail: code === 0 && result ? '' : lines.slice(-5).join(' / ') });
    });
    child.send(job);
  });
}

function topErrors(result: PeerResult): LandingRun['errors'] {
  const counts = new Map<string, number>();
  for (const a of result.answers) {
    if (a.ok || !a.error) continue;
    // signatures, addresses and numbers vary per transfer: fold them so alike errors count together
    const key = a.error.replace(/[1-9A-HJ-NP-Za-km-z]{32,88}/g, '…').replace(/\d+/g, 'N');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([message, count]) => ({ message, count }));
}

// ------------------------------------------------------------------ the campaign
const loadBefore = loadavg()[0]!;
const started = performance.now();
const runs: LandingRun[] = [];
try {
  for (const s of scenarios) {
    for (const peer of peers) {
      if (s.bundle && !BUNDLE_PEERS.includes(peer)) continue;
      const t = performance.now();
      const { url, wsUrl } = await ask(
        { op: 'start', slotMs: s.slotMs, faults: s.faults, funded: [payer, recipient], keys: peer === 'helius-sdk' ? [API_KEY] : [], seed: SEED, primeCuPrice: CU_PRICE },
        'started',
      );
      const limit = timeLimitMs(s);
      const job: PeerJob = { peer, url, wsUrl, payerSeed: payerSeed.toString('hex'), recipient, amounts, concurrency: CONCURRENCY, tipLamports: TIP_LAMPORTS, tipAccount: '4ACfpUFoaSD9bfPdeu6DBt89gB6ENTeHBXCAi87NhDEE', cuPrice: CU_PRICE, cuLimit: CU_LIMIT, apiKey: API_KEY, timeLimitMs: limit, ...(s.bundle ? { bundle: true } : {}) };
      const { result, stderrTail } = await runPeer(job);
      const judged = await ask({ op: 'judge', payer, recipient, amounts }, 'judged');
      const r: PeerResult = result ?? { answers: [], cpuMs: 0, wallMs: limit, unhandledRejections: { count: 0 } };
      const f = figures({
        n: N,
        answers: r.answers,
        paid: judged.paid,
        requests: judged.requests,
        cpuMs: r.cpuMs,
        wallMs: r.wallMs,
        wsMessages: judged.wsMessages,
      });
      runs.push({
        peer,
        scenario: s.id,
        figures: f,
        cuPriceMedian: percentile(judged.cuPrices, 50),
        errors: topErrors(r),
        requests: judged.requests,
        unhandledRejections: r.unhandledRejections,
        ...(stderrTail ? { stderrTail } : {}),
      });
      console.log(
        `${s.label.padEnd(24)} ${peer.padEnd(10)} landed ${f.landed}/${N} double ${f.doubleLanded} falseFail ${f.falseFailures} p50 ${f.p50Ms?.toFixed(0) ?? '-'} p95 ${f.p95Ms?.toFixed(0) ?? '-'} p99 ${f.p99Ms?.toFixed(0) ?? '-'} ms, ws/confirmed ${f.wsMessagesPerConfirmed?.toFixed(1) ?? '-'}, /fast/landed ${f.fastCallsPerLanded?.toFixed(2) ?? '-'}, rpc/confirmed ${f.rpcCallsPerConfirmed?.toFixed(2) ?? '-'}, cpu ${f.cpuMsPerTx.toFixed(2)} ms/tx (${((performance.now() - t) / 1000).toFixed(1)} s)`,
      );
      if (stderrTail) console.log(`  stderr: ${stderrTail.slice(-400)}`);
      if (r.unhandledRejections.count) console.log(`  ${r.unhandledRejections.count} unhandled rejections, the first: ${r.unhandledRejections.first}`);
    }
  }
} finally {
  await ask({ op: 'stop' }, 'stopped').catch(() => undefined);
  devnetProc.kill();
}

const loadAfter = loadavg()[0]!;
const results: LandingResults = {
  when: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    node: process.version,
    loadavg1Before: loadBefore,
    loadavg1After: loadAfter,
    note: process.env.LANDING_HOST_NOTE ?? 'a shared machine: timings taken under whatever load it had',
  },
  config: {
    transfers: N,
    concurrency: CONCURRENCY,
    tipLamports: TIP_LAMPORTS,
    cuPrice: CU_PRICE,
    cuLimit: CU_LIMIT,
    seed: SEED,
    timeLimitMs: timeLimitMs(scenarios[0]!),
  },
  scenarios,
  peers,
  runs,
  rows: longRows(runs),
  goal: goalChecks(runs, 'drop-20', scenarios.map((s) => s.id)),
  wallSeconds: (performance.now() - started) / 1000,
};
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'landing.json'), JSON.stringify(results, null, 2) + '\n');
writeFileSync(join(here, 'results', 'landing.md'), landingMarkdown(results));
writeFileSync(join(here, 'results', 'landing.svg'), landingSvg(results));
console.log(`\n${results.goal.checks.map((c) => `${c.pass ? 'met' : 'NOT met'}: ${c.what} (${c.measured})`).join('\n')}`);
console.log(`wrote bench/results/landing.{json,md,svg} in ${results.wallSeconds.toFixed(0)} s`);
