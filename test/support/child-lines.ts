/**
 * A child process run line by line: started as `node --import tsx FILE` (not the tsx CLI, which
 * runs the script in a grandchild that SIGKILL would not reach — a surviving "killed" sender would
 * race the resumed one), its stdout read as lines, and SIGKILLed at the first line `killWhen`
 * accepts. Lines read after the kill were written before it and are kept, but never judged.
 */
import { spawn } from 'node:child_process';

export interface ChildRun {
  /** Every stdout line, in order. */
  lines: string[];
  /** True when `killWhen` fired and the child was SIGKILLed. */
  killed: boolean;
}

/**
 * Run `file` with `vars` added to the environment until `killWhen(line)` (then SIGKILL) or its exit.
 * Rejects when it exits on its own with an error (its stderr's tail in the message).
 *
 * @example
 * const run = await runUntil(child, { ID: 'b1' }, (line) => line === 'submitting');
 */
export function runUntil(file: string, vars: Record<string, string>, killWhen: (line: string) => boolean): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', file], { env: { ...process.env, ...vars }, stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    let killed = false;
    let buf = '';
    let err = '';
    p.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      let at;
      while ((at = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, at);
        buf = buf.slice(at + 1);
        lines.push(line);
        if (!killed && killWhen(line)) {
          killed = true;
          p.kill('SIGKILL');
        }
      }
    });
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.on('error', reject);
    p.on('exit', (code, signal) => {
      if (!killed && code !== 0) reject(new Error(`child exited ${code ?? signal}: ${err.slice(-2000)}`));
      else resolve({ lines, killed });
    });
  });
}
