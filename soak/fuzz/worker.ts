/**
 * The thread that runs one group's targets (see soak/fuzz.ts). Each case's input is drawn from its
 * own seed (the run's seed, the target's name and the case number), so any case can be drawn again
 * alone: after a hang the main thread kills this thread and a fresh one redraws the input that hung
 * for the report. While a case runs, its target, number and start time sit in shared memory, where
 * the main thread's watchdog reads them.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import fc from 'fast-check';
import { GROUPS, type GroupName } from './groups.js';
import { caseSeed, emptyReport, split, STATE, type FromWorker, type TargetReport, type WorkerInput } from './protocol.js';
import { Broken, preview, typedCode, type Target } from './target.js';

const input = workerData as WorkerInput;
const state = new Int32Array(input.state, 0, STATE.ints);
const startedAt = new Float64Array(input.state, STATE.ints * 4, 1);
const post = (m: FromWorker) => parentPort!.postMessage(m);

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapAfterGc = (): number => {
  gc();
  return getHeapStatistics().used_heap_size;
};

/** Failures kept per target with their counterexample (all are counted). */
const KEEP = 5;
/** Cases between progress messages (what a stopped thread loses at most) and between heap samples. */
const PROGRESS_EVERY = 25;
const HEAP_EVERY = 2_000;

const draw = (t: Target, seed: number, i: number): unknown => fc.sample(t.arb, { seed: caseSeed(seed, t.name, i), numRuns: 1 })[0];
const shown = (t: Target, x: unknown): string => preview(t.describe ? t.describe(x) : x);

async function main(): Promise<void> {
  const group = await GROUPS[input.group as GroupName]({ timeoutMs: input.timeoutMs, skip: input.skip });
  try {
    const targets = group.targets.filter((t) => !input.only || new RegExp(input.only).test(t.name));
    post({ type: 'targets', names: targets.map((t) => t.name), weights: targets.map((t) => t.weight ?? 1) });
    // A fresh thread after a hang or a crash: draw the case that was running, for the report.
    if (input.redraw) {
      const t = targets[input.redraw.target]!;
      post({ type: 'redrawn', target: t.name, input: shown(t, draw(t, input.seed, input.redraw.case)) });
    }
    const shares = input.shares ?? split(input.cases, targets.map((t) => t.weight ?? 1));
    if (!input.shares) post({ type: 'shares', shares });
    for (let ti = input.resume?.target ?? 0; ti < targets.length; ti++) {
      const from = ti === input.resume?.target ? input.resume.case : 0;
      await runTarget(ti, targets[ti]!, from, shares[ti]!);
    }
  } finally {
    await group.close();
  }
  post({ type: 'done' });
}

async function runTarget(ti: number, t: Target, from: number, n: number): Promise<void> {
  const r: TargetReport = emptyReport(t.name);
  let heapFirst = -1;
  for (let i = from; i < n; i++) {
    const x = draw(t, input.seed, i);
    Atomics.store(state, STATE.target, ti);
    Atomics.store(state, STATE.case, i);
    startedAt[0] = Date.now();
    Atomics.store(state, STATE.busy, 1);
    const t0 = performance.now();
    try {
      const outcome = await t.run(x);
      if (outcome === 'ok') r.ok++;
      else r.invalid++;
    } catch (e) {
      const code = e instanceof Broken ? null : typedCode(e);
      if (code) r.typed[code] = (r.typed[code] ?? 0) + 1;
      else fail(r, t, i, x, e instanceof Broken ? 'property' : 'untyped', e);
    }
    const ms = performance.now() - t0;
    Atomics.store(state, STATE.busy, 0);
    r.cases++;
    if (ms > r.maxMs) r.maxMs = ms;
    if (ms > input.timeoutMs) fail(r, t, i, x, 'slow', new Error(`took ${ms.toFixed(0)} ms (bound ${input.timeoutMs} ms)`));
    // The heap after a full collection, first once the target has warmed up (lazy tables, caches).
    const done = i + 1 - from;
    if (done === Math.min(50, n - from) || (done % HEAP_EVERY === 0 && heapFirst >= 0) || i + 1 === n) {
      const h = heapAfterGc();
      if (heapFirst < 0) heapFirst = h;
      else r.heapGrowthBytes = h - heapFirst;
    }
    if (done % PROGRESS_EVERY === 0 || i + 1 === n) {
      post({ type: 'progress', target: ti, report: r, next: i + 1 });
      Object.assign(r, emptyReport(t.name));
    }
  }
}

function fail(r: TargetReport, t: Target, i: number, x: unknown, kind: string, e: unknown): void {
  r.failureCount++;
  if (r.failures.length >= KEEP) return;
  const err = e instanceof Error ? `${e.name}: ${e.message}`.slice(0, 500) : String(e).slice(0, 500);
  const where = e instanceof Error && !(e instanceof Broken) ? (e.stack ?? '').split('\n').slice(1, 4).map((l) => l.trim()).join(' < ') : '';
  r.failures.push({ kind, case: i, seed: caseSeed(input.seed, t.name, i), error: err, ...(where ? { at: where } : {}), input: shown(t, x) });
}

main().catch((e: unknown) => {
  // set-up failed (a vector missing, the devnet not starting): the main thread reports the group
  post({ type: 'fatal', error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
});
