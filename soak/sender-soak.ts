/**
 * The sender's soak phases. Each runs sender processes (child.ts) against the faulty devnet, waits
 * until nothing more can execute, and returns figures judged from the ledger:
 * - main: N intents through one journaled process, then `resume()` in the same process;
 * - kills: K processes SIGKILLed at random moments, each resuming the journal and re-offering every
 *   id so far plus a new batch; a last process (not killed) finishes everything;
 * - full disk: the journal on a nearly full tmpfs hits ENOSPC mid-run; the space returns and a new
 *   process resumes;
 * - probes: two processes opening one journal at once, and identical inputs in one `sendMany`.
 */
import { join } from 'node:path';
import { ErrorCodes } from '../src/errors/index.js';
import { mountSmallDisk } from './full-disk.js';
import type { ChildJob } from './job.js';
import { judge, type Verdict } from './judge.js';
import { executionsByKey, settleLedger } from './ledger.js';
import { intentKey, makeIntents, PHASE_BASE, type Intent } from './intents.js';
import type { RequestCounts } from './request-counter.js';
import { LINGER_MS, runChild as spawnChild, type ChildRun, type KillPlan } from './run-child.js';
import type { SoakEnv } from './soak-env.js';

export interface PhaseFigures extends Verdict {
  phase: string;
  ms: number;
  requests: RequestCounts;
  /** `getSignatureStatuses` calls served per intent offered. */
  statusCallsPerIntent: number;
  processes: number;
  killed: number;
  /** Processes that outlived their time limit (must be 0). */
  hung: number;
  unhandledRejections: number;
  /** Resources a finished process still had after `close()` (must be none). */
  openHandles: string[];
  peakChildRssKb: number;
  /** Things that make the phase fail besides the ledger's figures (e.g. "no tmpfs rights"). */
  failures: string[];
  notes: string[];
}

/** Sender timings for every process of the campaign. */
const TIMING = { pollMs: 100, rebroadcastMs: 500 } as const;

function job(env: SoakEnv, journal: string, intents: Intent[], resume: boolean, concurrency = 100): ChildJob {
  return { url: env.devnet.url, journal, payer: Buffer.from(env.payer.secretKey()).toString('hex'), intents, resume, concurrency, ...TIMING };
}

/** Run one sender process and note the slot at which it was gone (the judge needs it). */
async function runChild(env: SoakEnv, j: ChildJob, jobPath: string, kill: KillPlan = {}, timeoutMs?: number): Promise<ChildRun> {
  const run = await spawnChild(j, jobPath, kill, timeoutMs);
  run.endSlot = env.devnet.chain.slot();
  return run;
}

/** What a process said outside its answers that is wrong on its face. */
function processFailures(run: ChildRun, label: string): string[] {
  const out: string[] = [];
  if (run.lingered) out.push(`${label}: still running ${LINGER_MS / 1000} s after its sender closed (killed)`);
  else if (run.hung) out.push(`${label}: hung (killed after its time limit)`);
  else if (!run.killed && !run.end) out.push(`${label}: ended without closing its sender`);
  for (const f of run.fatal) if (f.code !== ErrorCodes.SENDER_JOURNAL_LOCKED) out.push(`${label}: ${f.via}() threw ${f.code}: ${f.message}`);
  if (!run.killed && !run.hung && run.exit !== 0) out.push(`${label}: exited ${String(run.exit)}: ${run.stderr.slice(-500)}`);
  return out;
}

async function figures(env: SoakEnv, phase: string, intents: Intent[], runs: { run: ChildRun; label: string }[], t0: number): Promise<PhaseFigures> {
  await settleLedger(env.devnet);
  const verdict = judge(
    intents,
    runs.map((r) => r.run),
    executionsByKey(env.devnet.control.ledger(), env.payer.address),
  );
  const requests = env.counter.take();
  return {
    phase,
    ...verdict,
    ms: Math.round(performance.now() - t0),
    requests,
    statusCallsPerIntent: intents.length ? requests.statusCalls / intents.length : 0,
    processes: runs.length,
    killed: runs.filter((r) => r.run.killed).length,
    hung: runs.filter((r) => r.run.hung).length,
    unhandledRejections: runs.reduce((n, r) => n + r.run.rejections.length, 0),
    openHandles: runs.flatMap((r) => (r.run.end?.handles ?? []).map((h) => `${r.label}: ${h}`)),
    peakChildRssKb: Math.max(0, ...runs.map((r) => r.run.end?.maxRssKb ?? 0)),
    failures: runs.flatMap((r) => processFailures(r.run, r.label)),
    notes: [],
  };
}

/** Phase 1: `count` intents with a journal through the faults, in one process that ends with `resume()`. */
export async function runMainPhase(env: SoakEnv, count: number): Promise<PhaseFigures> {
  env.counter.take();
  const t0 = performance.now();
  const intents = makeIntents('main', count, PHASE_BASE.main, env.recipients);
  const journal = join(env.dir, 'main.jsonl');
  const first = await runChild(env, job(env, journal, intents, false), join(env.dir, 'main-job.json'));
  // The same journal in a new process: resume() finishes whatever the first left open, and
  // re-offering every id must answer from the journal, never pay again.
  const again = await runChild(env, job(env, journal, intents, true), join(env.dir, 'main-again.json'));
  return figures(env, 'main', intents, [{ run: first, label: 'main' }, { run: again, label: 'main (resume)' }], t0);
}

/**
 * Phase 2: `kills` cycles. Cycle k offers batches 0..k (every id so far plus `batch` new ones)
 * after resuming the journal, and is SIGKILLed either at a random time or after a random number of
 * answers. A last process, never killed, resumes and re-offers everything.
 */
export async function runKillPhase(env: SoakEnv, kills: number, batch: number): Promise<PhaseFigures> {
  env.counter.take();
  const t0 = performance.now();
  const all = makeIntents('kill', kills * batch, PHASE_BASE.kills, env.recipients);
  const journal = join(env.dir, 'kills.jsonl');
  const runs: { run: ChildRun; label: string }[] = [];
  for (let k = 0; k < kills; k++) {
    const offered = all.slice(0, (k + 1) * batch);
    const plan: KillPlan =
      env.random() < 0.5 ? { afterMs: 50 + Math.floor(env.random() * 2_500) } : { afterAnswers: 1 + Math.floor(env.random() * offered.length) };
    const run = await runChild(env, job(env, journal, offered, k > 0, 50), join(env.dir, `kill-${k}.json`), plan, 120_000);
    runs.push({ run, label: `kill ${k + 1} (${plan.afterMs !== undefined ? `${plan.afterMs} ms` : `answer ${plan.afterAnswers}`})` });
  }
  const last = await runChild(env, job(env, journal, all, true, 50), join(env.dir, 'kill-final.json'));
  runs.push({ run: last, label: 'kills (final)' });
  const f = await figures(env, 'kills', all, runs, t0);
  if (f.killed < kills) f.notes.push(`${kills - f.killed} of ${kills} processes finished before their kill point`);
  return f;
}

/**
 * Phase 3: the journal on a small tmpfs that a filler leaves nearly full: the sender hits ENOSPC
 * mid-run. Then the filler goes (space returns) and a NEW process opens the journal and resumes.
 * Where mounting is not permitted (or `injected` is asked for), the first process gets the same
 * budget through the journal's injectable file layer instead: short writes, then ENOSPC.
 */
export async function runFullDiskPhase(env: SoakEnv, count: number, layer: 'tmpfs' | 'injected' = 'tmpfs'): Promise<PhaseFigures> {
  env.counter.take();
  const t0 = performance.now();
  const intents = makeIntents('disk', count, PHASE_BASE.fullDisk, env.recipients);
  // A journal takes ~1.3 kB per intent (created + signed with its wire + landed + confirmed): room
  // for about a third of the run, so ENOSPC comes mid-run.
  const headroom = Math.max(16 << 10, Math.floor((count * 1300) / 3));
  const disk = layer === 'tmpfs' ? mountSmallDisk(join(env.dir, 'disk'), 4 << 20, headroom) : null;
  try {
    const journal = join(disk ? disk.dir : env.dir, 'disk.jsonl');
    // A few intents at a time, so the journal fills while intents are at every stage (created,
    // signed, landed), not all created at once before anything is sent.
    const fullJob = { ...job(env, journal, intents, false, 8), ...(disk ? {} : { diskBudgetBytes: headroom }) };
    const full = await runChild(env, fullJob, join(env.dir, 'disk-full.json'), {}, 120_000);
    disk?.release();
    const after = await runChild(env, job(env, journal, intents, true), join(env.dir, 'disk-after.json'), {}, 120_000);
    const f = await figures(env, 'full-disk', intents, [{ run: full, label: 'disk full' }, { run: after, label: 'space back' }], t0);
    const hit = [...full.answers, ...full.fatal].some((a) => a.causes?.includes('ENOSPC') || a.code === ErrorCodes.SENDER_JOURNAL_FAILED || a.message?.includes('ENOSPC'));
    const told = full.answers.filter((a) => !a.ok).length;
    const how = disk ? `tmpfs, ${Math.round(disk.headroom / 1024)} kB left for the journal` : `injected file layer (${layer === 'tmpfs' ? 'no tmpfs rights' : 'asked for'}), ${Math.round(headroom / 1024)} kB budget`;
    f.notes.push(`${how}; ${told} of ${count} intents answered with an error while the disk was full`);
    if (!hit && !full.stderr.includes('ENOSPC')) f.failures.push('full-disk: the journal never hit ENOSPC (the phase tested nothing)');
    return f;
  } finally {
    disk?.unmount();
  }
}

/** Probe: two processes open one journal at once and offer the same intents. */
export async function runDoubleOpenProbe(env: SoakEnv, count: number): Promise<PhaseFigures> {
  env.counter.take();
  const t0 = performance.now();
  const intents = makeIntents('twice', count, PHASE_BASE.doubleOpen, env.recipients);
  const journal = join(env.dir, 'double.jsonl');
  const [a, b] = await Promise.all([
    runChild(env, job(env, journal, intents, false), join(env.dir, 'double-a.json')),
    runChild(env, job(env, journal, intents, false), join(env.dir, 'double-b.json')),
  ]);
  return figures(env, 'double-open', intents, [{ run: a, label: 'opener A' }, { run: b, label: 'opener B' }], t0);
}

export interface IdenticalFigures {
  offered: number;
  reportedOk: number;
  /** Distinct signatures among the ok answers. */
  distinctSignatures: number;
  /** Distinct transactions that executed (and paid) for the shared input. */
  distinctLanded: number;
  /** must be 0: payments reported ok beyond those that executed. */
  phantomPayments: number;
  unhandledRejections: number;
  openHandles: string[];
  peakChildRssKb: number;
  failures: string[];
}

/** Probe: `count` identical transfers (distinct ids) in one `sendMany`. */
export async function runIdenticalProbe(env: SoakEnv, count = 20): Promise<IdenticalFigures> {
  env.counter.take();
  const to = env.recipients[0]!;
  const lamports = String(PHASE_BASE.identical);
  const intents: Intent[] = Array.from({ length: count }, (_, i) => ({ id: `same-${i}`, to, lamports }));
  const run = await runChild(env, job(env, join(env.dir, 'identical.jsonl'), intents, false), join(env.dir, 'identical.json'));
  await settleLedger(env.devnet);
  env.counter.take();
  const ok = run.answers.filter((a) => a.ok);
  const landed = (executionsByKey(env.devnet.control.ledger(), env.payer.address).get(intentKey(to, lamports)) ?? []).filter((e) => e.ok);
  return {
    offered: count,
    reportedOk: ok.length,
    distinctSignatures: new Set(ok.map((a) => a.signature)).size,
    distinctLanded: new Set(landed.map((e) => e.signature)).size,
    phantomPayments: Math.max(0, ok.length - new Set(landed.map((e) => e.signature)).size),
    unhandledRejections: run.rejections.length,
    openHandles: run.end?.handles ?? [],
    peakChildRssKb: run.end?.maxRssKb ?? 0,
    failures: processFailures(run, 'identical'),
  };
}
