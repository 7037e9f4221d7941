/**
 * The fuzzing campaign: every verifier, every response validator of the typed client and every devnet
 * JSON-RPC method, fed arbitrary and near-miss inputs by fast-check (targets in soak/fuzz/*). Each
 * group runs in a worker thread of its own, two at a time (the reference machine has two cores), under
 * a watchdog: a case running past the time bound is reported with its input and the thread restarted
 * past it, as is a thread that crashes or runs out of memory.
 *
 * @example
 * const report = await runFuzz({ cases: 100_000 });
 * if (!report.ok) process.exitCode = 1;
 *
 * From a shell: `npx tsx soak/fuzz.ts --cases 100000 [--seed 42] [--only 'verify:'] [--timeout 2000]`
 * prints the table and exits non-zero on any failure.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DEFAULT_GROUPS, GROUP_NAMES, type GroupName } from './fuzz/groups.js';
import { caseSeed, CHECKS, emptyReport, merge, type CheckName, STATE, STATE_BYTES, type FailureReport, type FromWorker, type TargetReport, type WorkerInput } from './fuzz/protocol.js';

export type { FailureReport, TargetReport } from './fuzz/protocol.js';

export interface FuzzOptions {
  /** Cases in all, spread over the groups and their targets (default 100,000). */
  cases?: number;
  /** The run's seed (default: random); every case's input follows from it. */
  seed?: number;
  onProgress?: (p: FuzzProgress) => void;
  /** Per-input time bound in ms (default 2,000). */
  timeoutMs?: number;
  /** Groups to run (default verifiers, rpc and devnet; `selftest` checks the harness itself). */
  groups?: GroupName[];
  /** Only targets whose name matches this regular expression. */
  only?: string;
  /** Checks to leave out (see CHECKS in fuzz/protocol.ts); each use must name the open defect it waits for. */
  skip?: CheckName[];
}

export interface FuzzProgress {
  group: string;
  target: string;
  /** Cases done of this target, and its share. */
  done: number;
  of: number;
  failures: number;
}

export interface FuzzReport {
  seed: number;
  cases: number;
  ms: number;
  targets: TargetReport[];
  /** Failures over all targets, and groups that could not run at all. */
  failures: number;
  fatal: string[];
  ok: boolean;
}

/** The groups' shares of the cases: the devnet's cases cost an HTTP round trip each. */
const SHARE: Record<GroupName, number> = { verifiers: 0.45, rpc: 0.35, devnet: 0.2, selftest: 1 };
/** Threads at once (one per core of the reference machine). */
const THREADS = 2;
/** Restarts of one group's thread (hangs, crashes) before the group is given up. */
const MAX_RESTARTS = 40;
/** Hangs or crashes of one target before the rest of its cases are left out (each costs seconds). */
const MAX_STOPS_PER_TARGET = 3;
/** Heap growth (after a full collection) over a target's run that counts as a leak. */
const HEAP_LIMIT = 64 << 20;
/** How long a thread may take to exit on its own once it has closed its group. */
const EXIT_GRACE_MS = 5_000;

export async function runFuzz(options: FuzzOptions = {}): Promise<FuzzReport> {
  const cases = options.cases ?? 100_000;
  if (!Number.isSafeInteger(cases) || cases < 1) throw new RangeError(`cases: expected a positive integer, got ${cases}`);
  const seed = options.seed ?? (Math.random() * 2 ** 31) | 0;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const groups = options.groups ?? DEFAULT_GROUPS;
  for (const c of options.skip ?? []) if (!(CHECKS as readonly string[]).includes(c)) throw new RangeError(`skip: unknown check ${c}; expected one of ${CHECKS.join(', ')}`);
  const t0 = performance.now();
  const reports = new Map<string, TargetReport>();
  const fatal: string[] = [];

  const weight = groups.reduce((a, g) => a + SHARE[g], 0);
  let given = 0;
  const jobs = groups.map((g, i) => {
    const n = i === groups.length - 1 ? cases - given : Math.round((cases * SHARE[g]) / weight);
    given += n;
    return { group: g, cases: n };
  });
  // The slowest group first, so the two threads finish near together.
  const queue = [...jobs].sort((a, b) => (a.group === 'devnet' ? -1 : b.group === 'devnet' ? 1 : 0));
  const runNext = async (): Promise<void> => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      if (job.cases > 0) {
        await runGroup(job.group, job.cases, { seed, timeoutMs, only: options.only, skip: options.skip ?? [] }, reports, fatal, options.onProgress);
      }
    }
  };
  await Promise.all(Array.from({ length: THREADS }, runNext));

  const targets = [...reports.values()];
  for (const r of targets) {
    if (r.heapGrowthBytes > HEAP_LIMIT) {
      r.failureCount++;
      r.failures.push({ kind: 'heap', case: r.cases, seed, error: `the heap after GC grew ${(r.heapGrowthBytes / 2 ** 20).toFixed(1)} MB over ${r.cases} cases` });
    }
  }
  const failures = targets.reduce((a, r) => a + r.failureCount, 0);
  return {
    seed,
    cases: targets.reduce((a, r) => a + r.cases, 0),
    ms: performance.now() - t0,
    targets,
    failures,
    fatal,
    ok: failures === 0 && fatal.length === 0,
  };
}

type Settings = Pick<WorkerInput, 'seed' | 'timeoutMs' | 'only' | 'skip'>;

/** One group, in a thread restarted past every case that hangs or crashes it. */
async function runGroup(
  group: GroupName,
  cases: number,
  settings: Settings,
  reports: Map<string, TargetReport>,
  fatal: string[],
  onProgress: FuzzOptions['onProgress'],
): Promise<void> {
  let names: string[] = [];
  let shares: number[] | undefined;
  let resume: WorkerInput['resume'];
  let redraw: WorkerInput['redraw'];
  const stopsOf = new Map<string, number>();
  for (let restarts = 0; ; restarts++) {
    const state = new SharedArrayBuffer(STATE_BYTES);
    const stop = await runThread({ group, cases, ...settings, state, shares, resume, redraw }, (m) => {
      if (m.type === 'targets') {
        names = m.names;
        for (const n of names) if (!reports.has(n)) reports.set(n, emptyReport(n));
      } else if (m.type === 'shares') shares = m.shares;
      else if (m.type === 'redrawn') {
        const last = reports.get(m.target)?.failures.at(-1);
        if (last && last.input === undefined) last.input = m.input;
      } else if (m.type === 'progress') {
        const name = names[m.target]!;
        const r = reports.get(name)!;
        merge(r, m.report);
        onProgress?.({ group, target: name, done: m.next, of: shares?.[m.target] ?? 0, failures: r.failureCount });
      } else if (m.type === 'fatal') fatal.push(`${group}: ${m.error}`);
    });
    if (stop.kind === 'done') return;
    if (stop.kind === 'leak') {
      fatal.push(`${group}: ${stop.error}`);
      return;
    }
    if (stop.kind === 'fatal') return;
    if (restarts >= MAX_RESTARTS || !names.length) {
      fatal.push(`${group}: gave up after ${restarts + 1} thread(s): ${stop.error}`);
      return;
    }
    // The case that was running when the thread was stopped fails; the next thread goes on after it.
    const name = names[stop.target]!;
    const r = reports.get(name)!;
    const f: FailureReport = { kind: stop.kind, case: stop.case, seed: caseSeed(settings.seed, name, stop.case), error: stop.error };
    r.failureCount++;
    r.cases++;
    if (r.failures.length < 5) r.failures.push(f);
    redraw = { target: stop.target, case: stop.case };
    const stops = (stopsOf.get(name) ?? 0) + 1;
    stopsOf.set(name, stops);
    resume = { target: stop.target, case: stop.case + 1 };
    if (stops >= MAX_STOPS_PER_TARGET && shares) {
      // the target is broken past doubt: its remaining cases would only cost the run minutes
      const left = shares[stop.target]! - stop.case - 1;
      if (left > 0) {
        r.failureCount++;
        r.failures.push({ kind: 'abandoned', case: stop.case + 1, seed: settings.seed, error: `${stops} hangs or crashes: the target's last ${left} case(s) were not run` });
      }
      resume = { target: stop.target + 1, case: 0 };
    }
  }
}

type Stop = { kind: 'done' } | { kind: 'fatal'; error: string } | { kind: 'leak'; error: string } | { kind: 'timeout' | 'crash' | 'memory'; target: number; case: number; error: string };

const bootstrap = `
const { workerData } = require('node:worker_threads');
(async () => {
  const api = await import(workerData.tsx);
  (api.register ?? api.default?.register)();
  await import(workerData.entry);
})().catch((e) => { setImmediate(() => { throw e; }); });
`;

/** Run one thread until it is done, hangs past the bound, crashes or runs out of memory. */
function runThread(input: WorkerInput, onMessage: (m: FromWorker) => void): Promise<Stop> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const entry = new URL('./fuzz/worker.ts', import.meta.url).href;
  const ints = new Int32Array(input.state, 0, STATE.ints);
  const startedAt = new Float64Array(input.state, STATE.ints * 4, 1);
  return new Promise<Stop>((resolve) => {
    const worker = new Worker(bootstrap, {
      eval: true,
      workerData: { ...input, tsx, entry },
      resourceLimits: { maxOldGenerationSizeMb: 1536 },
      stdout: false,
      stderr: false,
    });
    let stop: Stop | null = null;
    let closed = false;
    let lastError = '';
    const running = () => ({ target: Atomics.load(ints, STATE.target), case: Atomics.load(ints, STATE.case) });
    const end = (s: Stop) => {
      stop ??= s;
      clearInterval(watchdog);
      void worker.terminate();
    };
    const watchdog = setInterval(() => {
      if (Atomics.load(ints, STATE.busy) === 1 && Date.now() - startedAt[0]! > input.timeoutMs) {
        end({ kind: 'timeout', ...running(), error: `no answer within ${input.timeoutMs} ms: the thread was stopped` });
      }
    }, 50);
    worker.on('message', (m: FromWorker) => {
      onMessage(m);
      if (m.type === 'fatal') end({ kind: 'fatal', error: m.error });
      if (m.type === 'done') {
        // Closed its group: the thread must now end on its own (nothing left running).
        closed = true;
        clearInterval(watchdog);
        const grace = setTimeout(() => end({ kind: 'leak', error: `the thread did not exit within ${EXIT_GRACE_MS} ms of closing its group: something was left running` }), EXIT_GRACE_MS);
        worker.once('exit', () => clearTimeout(grace));
      }
    });
    worker.on('error', (e: Error & { code?: string }) => {
      lastError = e.stack ?? e.message;
      if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') end({ kind: 'memory', ...running(), error: `out of memory (heap cap 1.5 GB): ${e.message}` });
    });
    worker.on('exit', (code) => {
      clearInterval(watchdog);
      // an error thrown after the last case (a timer, a callback) still killed the thread: a crash
      resolve(stop ?? (closed && !lastError ? { kind: 'done' } : null) ?? { kind: 'crash', ...running(), error: `the thread died (exit code ${code})${lastError ? `: ${lastError.slice(0, 800)}` : ''}` });
    });
  });
}

// ------------------------------------------------------------------ the command line

/** The report as a table (one row per target) and the failures with their counterexamples. */
export function formatReport(r: FuzzReport): string {
  const rows = [['target', 'cases', 'ok', 'invalid', 'typed errors', 'fail', 'max ms', 'heap Δ MB']];
  for (const t of r.targets) {
    const typed = Object.entries(t.typed)
      .map(([k, n]) => `${k}:${n}`)
      .join(' ');
    rows.push([
      t.target,
      String(t.cases),
      String(t.ok),
      String(t.invalid),
      typed,
      String(t.failureCount),
      t.maxMs.toFixed(1),
      (t.heapGrowthBytes / 2 ** 20).toFixed(1),
    ]);
  }
  const width = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const lines = rows.map((row) => row.map((cell, c) => (c === 0 || c === 4 ? cell.padEnd(width[c]!) : cell.padStart(width[c]!))).join('  '));
  lines.push('', `${r.cases} cases, ${r.targets.length} targets, seed ${r.seed}, ${(r.ms / 1000).toFixed(1)} s: ${r.ok ? 'no failure' : `${r.failures} failure(s)`}`);
  for (const t of r.targets) {
    for (const f of t.failures) {
      lines.push(`FAIL ${t.target} [${f.kind}] case ${f.case} (case seed ${f.seed}): ${f.error}`);
      if (f.at) lines.push(`  at ${f.at}`);
      if (f.input !== undefined) lines.push(`  input: ${f.input}`);
    }
  }
  for (const f of r.fatal) lines.push(`FATAL ${f}`);
  return lines.join('\n');
}

function parseArgs(argv: string[]): FuzzOptions {
  const o: FuzzOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const val = () => {
      const v = argv[++i];
      if (v === undefined) throw new RangeError(`${a} needs a value`);
      return v;
    };
    const int = () => {
      const v = val();
      const n = Number(v.replace(/_/g, ''));
      if (!Number.isSafeInteger(n)) throw new RangeError(`${a}: expected an integer, got ${v}`);
      return n;
    };
    if (a === '--cases') o.cases = int();
    else if (a === '--seed') o.seed = int();
    else if (a === '--timeout') o.timeoutMs = int();
    else if (a === '--only') o.only = val();
    else if (a === '--skip') (o.skip ??= []).push(val() as CheckName);
    else if (a === '--group') {
      const g = val();
      if (!(GROUP_NAMES as string[]).includes(g)) throw new RangeError(`--group: expected one of ${GROUP_NAMES.join(', ')}, got ${g}`);
      (o.groups ??= []).push(g as GroupName);
    } else throw new RangeError(`unknown option ${a}; options: --cases N --seed N --timeout MS --only REGEX --group NAME --skip CHECK`);
  }
  return o;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = parseArgs(process.argv.slice(2));
  let last = 0;
  const report = await runFuzz({
    ...options,
    onProgress: (p) => {
      if (Date.now() - last < 5_000) return;
      last = Date.now();
      process.stderr.write(`  ${p.target}: ${p.done}/${p.of}${p.failures ? `, ${p.failures} failure(s)` : ''}\n`);
    },
  });
  console.log(formatReport(report));
  process.exitCode = report.ok ? 0 : 1;
}
