/**
 * Run one sender process (child.ts) on a job and collect what it said; optionally SIGKILL it after a
 * delay or after its n-th answer. A process that outlives `timeoutMs` is killed too and reported
 * as hung: a sender that never answers must fail the campaign, not stall it.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildAnswer, ChildJob, ChildLine } from './job.js';

const CHILD = join(import.meta.dirname, 'child.ts');
const ROOT = join(import.meta.dirname, '..');
/** How long a process may take to exit after its sender closed. */
export const LINGER_MS = 5_000;

export interface KillPlan {
  afterMs?: number;
  afterAnswers?: number;
}

export interface ChildRun {
  answers: ChildAnswer[];
  fatal: Extract<ChildLine, { t: 'fatal' }>[];
  rejections: string[];
  end?: Extract<ChildLine, { t: 'end' }>;
  /** Killed by plan (SIGKILL at a chosen moment). */
  killed: boolean;
  /** Killed because it outlived its time limit. */
  hung: boolean;
  /** Printed its end (sender closed) but did not exit on its own within `LINGER_MS`: something kept it alive. */
  lingered: boolean;
  exit: number | string | null;
  /** The devnet's slot when the process was gone (set by the phase that ran it). */
  endSlot?: number;
  stderr: string;
  ms: number;
}

/**
 * @example
 * const run = await runChild(job, `${dir}/job-3.json`, { afterMs: 700 });
 */
export function runChild(job: ChildJob, jobPath: string, kill: KillPlan = {}, timeoutMs = 300_000): Promise<ChildRun> {
  writeFileSync(jobPath, JSON.stringify(job));
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    // `node --import tsx`, not the tsx CLI: the CLI runs the script in a grandchild that SIGKILL
    // would miss, and a surviving "killed" sender would race the next one.
    const p = spawn(process.execPath, ['--import', 'tsx', CHILD, jobPath], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const run: ChildRun = { answers: [], fatal: [], rejections: [], killed: false, hung: false, lingered: false, exit: null, stderr: '', ms: 0 };
    let buf = '';
    const timers: NodeJS.Timeout[] = [];
    const killNow = (hung: boolean) => {
      if (run.killed || run.hung || p.exitCode !== null) return;
      if (hung) run.hung = true;
      else run.killed = true;
      p.kill('SIGKILL');
    };
    timers.push(setTimeout(() => killNow(true), timeoutMs));
    p.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      let at;
      while ((at = buf.indexOf('\n')) >= 0) {
        const text = buf.slice(0, at);
        buf = buf.slice(at + 1);
        let line: ChildLine;
        try {
          line = JSON.parse(text) as ChildLine;
        } catch {
          run.stderr += `stdout: ${text}\n`;
          continue;
        }
        // Lines read after the kill were written before it: they are answers a caller really got.
        if (line.t === 'start' && kill.afterMs !== undefined) timers.push(setTimeout(() => killNow(false), kill.afterMs));
        else if (line.t === 'answer') {
          run.answers.push(line);
          if (kill.afterAnswers !== undefined && run.answers.length >= kill.afterAnswers) killNow(false);
        } else if (line.t === 'fatal') run.fatal.push(line);
        else if (line.t === 'rejection') run.rejections.push(line.message);
        else if (line.t === 'end') {
          run.end = line;
          timers.push(
            setTimeout(() => {
              run.lingered = true;
              killNow(true);
            }, LINGER_MS),
          );
        }
      }
    });
    p.stderr.on('data', (c: Buffer) => {
      if (run.stderr.length < 20_000) run.stderr += c.toString();
    });
    p.on('error', reject);
    p.on('close', (code, signal) => {
      for (const t of timers) clearTimeout(t);
      run.exit = code ?? signal;
      run.ms = performance.now() - t0;
      resolve(run);
    });
  });
}
