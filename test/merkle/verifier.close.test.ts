/**
 * `close()` settles, whatever came before it: a failed verify, an abort, a close in the middle of a
 * run, a worker crash, two calls at once. Seen in a process of its own (close-child.ts), where
 * nothing but the verifier keeps the event loop alive: an idle worker is `unref()`ed, and a close
 * that waited on it there ended the process with the close still pending (and `cairn verify` then
 * exited 0 after printing an error).
 */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';

function child(scenario: string, rounds: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'test/support/children/close-child.ts', scenario, String(rounds)], { timeout: 60_000 }, (e, out) =>
      resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, out }),
    );
  });
}

describe('close() always settles', () => {
  it('after a failed verify, an abort, a close mid-run, a worker crash, and twice at once', async () => {
    // The failed verify hung about one run in two: two rounds of it.
    const r = await child('failed,aborted,midRun,crashed,twice', 2);
    const lines = r.out.trim().split('\n');
    for (const [name, outcome] of [
      ['failed', 'INPUT_INVALID'],
      ['aborted', 'MERKLE_ABORTED'],
      ['midRun', 'MERKLE_POOL_CLOSED'],
      ['crashed', 'MERKLE_WORKER_CRASHED'],
      ['twice', 'all exited'],
    ]) {
      expect(lines.filter((l) => l === `${name} ${outcome}`), name).toHaveLength(2);
      expect(lines.filter((l) => l === `${name} closed`), name).toHaveLength(2);
    }
    expect(r.code).toBe(0);
  });
});
