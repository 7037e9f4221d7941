/**
 * The fleet's processes as the chaos harness sees them: spawn one (fleet-child.ts), read its lines
 * (answers, its latest fleet figures), SIGKILL it, SIGSTOP / SIGCONT it, and wait for it to exit.
 * Each process is kept as a `ChildRun` too, so soak/judge.ts judges the fleet's answers as it
 * judges the single-process soak's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FleetMetrics } from '../src/sender/index.js';
import type { FleetChildJob, FleetChildLine } from './fleet-child.js';
import type { ChildRun } from './run-child.js';

const CHILD = join(import.meta.dirname, 'fleet-child.ts');
const ROOT = join(import.meta.dirname, '..');

export interface FleetProcess {
  label: string;
  /** Its process id (the middle of its journal `owner`, host:pid:random). */
  pid: number;
  run: ChildRun;
  /** The latest figures it printed (a killed process keeps those of its last quarter second). */
  metrics: FleetMetrics | undefined;
  ready: boolean;
  stopped: boolean;
  exited: Promise<void>;
  kill(): void;
  stop(): void;
  cont(): void;
  alive(): boolean;
}

/**
 * @example
 * const p = spawnFleetProcess(job, `${dir}/p1.json`, 'p1', () => devnet.chain.slot());
 * p.kill(); await p.exited;
 */
export function spawnFleetProcess(job: FleetChildJob, jobPath: string, label: string, slotNow: () => number): FleetProcess {
  writeFileSync(jobPath, JSON.stringify(job));
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD, jobPath], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const run: ChildRun = { answers: [], fatal: [], rejections: [], killed: false, hung: false, lingered: false, exit: null, stderr: '', ms: 0 };
  const p: FleetProcess = {
    label,
    pid: child.pid ?? -1,
    run,
    metrics: undefined,
    ready: false,
    stopped: false,
    exited: new Promise<void>((resolve) => {
      child.on('close', (code, signal) => {
        run.exit = code ?? signal;
        run.ms = performance.now() - t0;
        run.endSlot = slotNow();
        resolve();
      });
    }),
    kill() {
      if (!p.alive()) return;
      run.killed = true;
      child.kill('SIGKILL');
    },
    stop() {
      if (!p.alive()) return;
      p.stopped = true;
      child.kill('SIGSTOP');
    },
    cont() {
      if (!p.alive()) return;
      p.stopped = false;
      child.kill('SIGCONT');
    },
    alive: () => child.exitCode === null && child.signalCode === null,
  };
  let buf = '';
  child.stdout!.on('data', (c: Buffer) => {
    buf += c.toString();
    let at;
    while ((at = buf.indexOf('\n')) >= 0) {
      const text = buf.slice(0, at);
      buf = buf.slice(at + 1);
      let line: FleetChildLine;
      try {
        line = JSON.parse(text) as FleetChildLine;
      } catch {
        run.stderr += `stdout: ${text}\n`;
        continue;
      }
      if (line.t === 'ready') p.ready = true;
      else if (line.t === 'answer') run.answers.push({ ...line });
      else if (line.t === 'metrics') p.metrics = line.metrics;
      else if (line.t === 'end') {
        p.metrics = line.metrics;
        run.end = { t: 'end', rejections: 0, handles: [], maxRssKb: 0 };
      } else if (line.t === 'fatal') run.fatal.push({ t: 'fatal', via: 'send', code: line.code, message: line.message, causes: [] });
    }
  });
  child.stderr!.on('data', (c: Buffer) => {
    if (run.stderr.length < 20_000) run.stderr += c.toString();
  });
  return p;
}
