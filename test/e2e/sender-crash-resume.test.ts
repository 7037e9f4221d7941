/**
 * Crash test (issue 5): a child process sends N journaled intents (500, as issue 5 asks; another
 * size with CAIRN_CRASH_N) and is killed with SIGKILL at
 * several moments (early, midway, at a random time); a new sender in this process calls `resume()`
 * and then offers all N intents again under the same ids. The devnet's ledger must show every
 * intent executed exactly once — no loss, no double landing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressBytes } from '../../src/solana/address.js';
import { createSender, generateSigner, transferInstruction } from '../../src/sender/index.js';
import { readJournal } from '../../src/sender/journal/file/journal.js';
import { setup, transferTo, type Env } from '../support/sender.js';

// Issue 5 asks for 500 intents per kill point. Measured on the shared 2-core box (other engineers'
// tests running): the whole file takes ~18-20 s at 500, well under its ~60 s budget.
const N = Number(process.env.CAIRN_CRASH_N ?? 500);
const child = join(import.meta.dirname, '..', 'support', 'children', 'crash-child.ts');
const dir = mkdtempSync(join(tmpdir(), 'cairn-crash-'));
let env: Env;

beforeAll(async () => {
  env = await setup(50, 11);
});
afterAll(async () => {
  await env?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Run the child until `killWhen(doneCount, msSinceStart)` says so, then SIGKILL it. */
function runAndKill(vars: Record<string, string>, killWhen: (done: number) => boolean, killAfterMs?: number): Promise<{ done: number; killed: boolean }> {
  return new Promise((resolve, reject) => {
    // `node --import tsx`, not the tsx CLI: the CLI runs the script in a grandchild that SIGKILL
    // would not reach, and a surviving "killed" sender would race the resumed one.
    const p = spawn(process.execPath, ['--import', 'tsx', child], { env: { ...process.env, ...vars }, stdio: ['ignore', 'pipe', 'pipe'] });
    let done = 0;
    let killed = false;
    let buf = '';
    let err = '';
    const kill = () => {
      if (!killed) {
        killed = true;
        p.kill('SIGKILL');
      }
    };
    let timer: NodeJS.Timeout | undefined;
    p.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      let at;
      while ((at = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, at);
        buf = buf.slice(at + 1);
        if (line === 'start' && killAfterMs !== undefined) timer = setTimeout(kill, killAfterMs);
        // Lines read after the kill were written before it (one chunk may hold many): `done` is the
        // count the kill interrupted, whatever the pipe still delivers.
        if (killed) continue;
        if (line.startsWith('done')) done++;
        if (line.startsWith('done') && killWhen(done)) kill();
      }
    });
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.on('error', reject);
    p.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (!killed && code !== 0) reject(new Error(`child exited ${code ?? signal}: ${err.slice(-2000)}`));
      else resolve({ done, killed });
    });
  });
}

describe('crash and resume (SIGKILL)', () => {
  const points: [string, (d: number) => boolean, number | undefined][] = [
    ['right after the first confirmations', (d) => d >= 5, undefined],
    ['midway', (d) => d >= N / 2, undefined],
    // a random time after start, but never later than 50 intents before the end (a fast box could
    // finish first; confirmations arrive in batches, so 20 was not always enough)
    ['at a random moment', (d) => d >= N - 50, 300 + Math.floor(Math.random() * 1200)],
  ];
  points.forEach(([label, when, afterMs], k) => {
    it(`killed ${label}: resume() finishes every intent exactly once`, async () => {
      const to = generateSigner().address;
      await env.devnet.control.airdrop(to, 10n ** 9n);
      const journal = join(dir, `journal-${k}.jsonl`);
      const base = 1_000_000n * BigInt(k + 1);
      const run = await runAndKill(
        { DEVNET_URL: env.devnet.url, JOURNAL: journal, PAYER: Buffer.from(env.payer.secretKey()).toString('hex'), N: String(N), BASE: String(base), TO: to },
        when,
        afterMs,
      );
      const before = readJournal(journal);
      // A new sender (this process) with the same journal: resume, then offer everything again.
      const sender = createSender({ client: env.client, journal, cuPrice: 200_000, cuLimit: 1_000, pollMs: 50, rebroadcastMs: 500, onExpired: 'resign', signers: [env.payer] });
      const resumed = await sender.resume();
      expect(resumed.filter((r) => !r.ok).map((r) => !r.ok && r.error.message)).toEqual([]);
      const inputs = Array.from({ length: N }, (_, i) => ({ instructions: [transferInstruction(env.payer.address, to, base + BigInt(i))], payer: env.payer }));
      let fromJournal = 0;
      for await (const r of sender.sendMany(inputs, { concurrency: 100, idOf: (_, i) => `intent-${i}` })) {
        if (!r.ok) throw r.error;
        if (r.outcome.fromJournal) fromJournal++;
      }
      await sender.close();
      // every intent executed exactly once, successfully
      const toBytes = addressBytes(to, 'to');
      const counts = new Map<bigint, number>();
      for (const tx of env.devnet.control.ledger()) {
        const l = transferTo(tx.wire, toBytes);
        if (l === undefined || l === 10n ** 9n) continue;
        expect(tx.err).toBeNull();
        counts.set(l, (counts.get(l) ?? 0) + 1);
      }
      for (let i = 0; i < N; i++) expect(counts.get(base + BigInt(i)), `intent-${i}`).toBe(1);
      expect(counts.size).toBe(N);
      // the kill really interrupted work in flight, and the journal carried it over
      expect(run.killed).toBe(true);
      expect(run.done).toBeLessThan(N);
      expect(fromJournal).toBeGreaterThanOrEqual(run.done);
      console.log(`kill ${label}: ${run.done} done before the kill, ${before.length} journal records, ${resumed.length} resumed`);
    });
  });
});
