/**
 * The journal under the faults that broke exactly-once: a full disk (short write, then ENOSPC), a
 * second opener, a stale lock, a journal too large to read whole, and open errors that must say why.
 * The full disk is a real file under a layer that cuts writes short (full-disk.ts); where this
 * machine lets the test mount a tmpfs, the same is tried on a real full file system.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foldRecords, openJournal, readJournal, type JournalRecord } from '../../src/sender/journal/file/journal.js';
import { fullDisk } from '../support/full-disk.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-journal-dur-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fds = (): number => readdirSync('/proc/self/fd').length;
const signed = (id: string, n = 1): JournalRecord => ({ op: 'signed', id, at: Date.now(), signature: `sig-${id}-${n}`, wire: 'A'.repeat(200), lastValidBlockHeight: 100, attempt: n });

describe('a full disk', () => {
  it('an append resolves only when every byte is stored; the first short write fails the journal closed and leaves only durable records', async () => {
    const path = join(dir, 'full.jsonl');
    const disk = fullDisk(1_000); // room for a few records, then a record cut short
    const j = await openJournal(path, { file: disk.open });
    const outcomes: { rec: JournalRecord; ok: boolean; error?: unknown }[] = [];
    for (let i = 0; i < 12; i++) {
      const rec = i % 2 === 0 ? ({ op: 'created', id: `i${i >> 1}`, at: Date.now() } as JournalRecord) : signed(`i${i >> 1}`);
      try {
        await j.append(rec); // one at a time: each its own write, so the cut falls inside a record
        outcomes.push({ rec, ok: true });
      } catch (error) {
        outcomes.push({ rec, ok: false, error });
      }
    }
    const stored = outcomes.filter((o) => o.ok).map((o) => o.rec);
    const refused = outcomes.filter((o) => !o.ok);
    expect(stored.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    // the first refusal is the write error itself; every later one is refused without touching the file
    for (const o of refused) {
      expect(o.error).toMatchObject({ code: 'SENDER_JOURNAL_FAILED', context: { id: o.rec.id, op: o.rec.op, errno: 'ENOSPC' } });
    }
    // nothing after the first refusal was stored, even when it would have fitted
    const firstRefused = outcomes.findIndex((o) => !o.ok);
    expect(outcomes.slice(firstRefused).every((o) => !o.ok)).toBe(true);
    expect(j.failure).toMatchObject({ code: 'SENDER_JOURNAL_FAILED' });
    // the refused record's partial bytes were cut: the file holds exactly the stored records
    expect(readJournal(path)).toEqual(stored);
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true);
    // and the refusal says what is durable of the intent: an id whose `created` was stored is "created"
    const lastRefused = refused[0]!;
    const durable = foldRecords(stored).get(lastRefused.rec.id);
    expect((lastRefused.error as { context: { state: string } }).context.state).toBe(durable?.state ?? 'none');
    await j.close();
    expect(disk.openFiles).toBe(0);
    // space returns: a new opener reads every durable record and appends on a clean line
    disk.free(10_000);
    const k = await openJournal(path, { file: disk.open });
    expect([...k.intents().keys()].sort()).toEqual([...new Set(stored.map((r) => r.id))].sort());
    await k.append({ op: 'abandoned', id: 'i0', at: Date.now(), reason: 'test' });
    await k.close();
    expect(readJournal(path).length).toBe(stored.length + 1);
  });

  it('a batch cut short fails every record of the batch, and nothing of it is read back', async () => {
    const path = join(dir, 'batch.jsonl');
    const disk = fullDisk(2_000);
    const j = await openJournal(path, { file: disk.open });
    await j.append({ op: 'created', id: 'first', at: 1 });
    // one group commit of 20 records (~5 KB) onto ~1.9 KB of room
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => j.append(signed(`b${i}`))));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    await j.close();
    expect(readJournal(path).map((r) => r.id)).toEqual(['first']);
  });

  it.runIf(process.getuid?.() === 0 && canMount())('on a real full tmpfs: the same, and a fresh open after space returns reads a whole journal', async () => {
    const mnt = mkdtempSync(join(tmpdir(), 'cairn-tmpfs-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt]);
    try {
      const path = join(mnt, 'sends.jsonl');
      // leave ~6 KB free
      writeFileSync(join(mnt, 'filler'), Buffer.alloc(64 * 1024 - 6 * 1024));
      const j = await openJournal(path);
      const ok: JournalRecord[] = [];
      let failed = 0;
      for (let i = 0; i < 200; i++) {
        const rec = signed(`t${i}`);
        try {
          await j.append(rec);
          ok.push(rec);
        } catch (e) {
          expect(e).toMatchObject({ code: 'SENDER_JOURNAL_FAILED', context: { errno: 'ENOSPC' } });
          failed++;
        }
      }
      expect(failed).toBeGreaterThan(0);
      await j.close();
      rmSync(join(mnt, 'filler'));
      expect(readJournal(path)).toEqual(ok);
      const k = await openJournal(path);
      expect(k.intents().size).toBe(ok.length);
      await k.close();
    } finally {
      execFileSync('umount', ['-l', mnt]);
      rmSync(mnt, { recursive: true, force: true });
    }
  });
});

function canMount(): boolean {
  const probe = mkdtempSync(join(tmpdir(), 'cairn-mount-probe-'));
  try {
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=4k', 'tmpfs', probe]);
    if (r.status !== 0) return false;
    spawnSync('umount', [probe]);
    return true;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

describe('one writer per journal', () => {
  it('a second opener in the same process gets SENDER_JOURNAL_LOCKED naming the holder; after close it opens', async () => {
    const path = join(dir, 'lock-a.jsonl');
    const a = await openJournal(path);
    const before = fds();
    const err = await openJournal(path).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SENDER_JOURNAL_LOCKED', context: { path, holder: { pid: process.pid, host: hostname() } } });
    expect((err as Error).message).toContain(`pid ${process.pid}`);
    expect(fds()).toBe(before); // the refused opener left no descriptor behind
    await a.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
    const b = await openJournal(path);
    await b.close();
  });

  it('a journal held by another process is refused; once that process is gone its lock is stale and taken over', async () => {
    const path = join(dir, 'lock-b.jsonl');
    const holder = spawn(process.execPath, ['--import', 'tsx', '-e', `
      const { openJournal } = await import(${JSON.stringify(new URL('../../src/sender/journal/file/journal.ts', import.meta.url).pathname)});
      await openJournal(${JSON.stringify(path)});
      process.stdout.write('held\\n');
      setInterval(() => {}, 1000);
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.on('data', (d: Buffer) => d.toString().includes('held') && resolve());
        holder.on('exit', (c) => reject(new Error(`holder exited ${c}`)));
      });
      await expect(openJournal(path)).rejects.toMatchObject({ code: 'SENDER_JOURNAL_LOCKED', context: { holder: { pid: holder.pid } } });
    } finally {
      holder.kill('SIGKILL');
      await new Promise((r) => holder.once('exit', r));
    }
    // killed without releasing: the lock file is still there, and stale
    expect(existsSync(`${path}.lock`)).toBe(true);
    const j = await openJournal(path);
    expect(JSON.parse(readFileSync(`${path}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    await j.close();
  });

  it("another host's lock is never presumed stale", async () => {
    const path = join(dir, 'lock-c.jsonl');
    writeFileSync(`${path}.lock`, JSON.stringify({ pid: 1, host: 'elsewhere', since: '2026-01-01T00:00:00Z', token: 't' }));
    await expect(openJournal(path)).rejects.toMatchObject({ code: 'SENDER_JOURNAL_LOCKED', message: /pid 1 on elsewhere/ });
  });
});

describe('a journal of any size', () => {
  const write = (path: string, n: number, pendingEvery: number): void => {
    const lines: string[] = [];
    for (let i = 0; i < n; i++) {
      const id = `x${i}`;
      lines.push(JSON.stringify({ op: 'created', id, at: i, plan: { payer: 'P', version: 'legacy', instructions: [] } }));
      lines.push(JSON.stringify({ op: 'signed', id, at: i, signature: `s${i}`, wire: 'B'.repeat(1_600), lastValidBlockHeight: 1_000 + i, attempt: 1 }));
      if (i % pendingEvery !== 0) lines.push(JSON.stringify({ op: 'confirmed', id, at: i, signature: `s${i}`, slot: i, commitment: 'confirmed' }));
    }
    writeFileSync(path, lines.join('\n') + '\n');
  };

  it('opens as a stream, keeps the newest ended intents and every unfinished one, and compacts past its size', async () => {
    const path = join(dir, 'big.jsonl');
    write(path, 20_000, 1_000); // ~36 MB, 20 intents unfinished
    const before = statSync(path).size;
    const j = await openJournal(path, { compactAboveBytes: 1 << 20, keepEndedCount: 500 });
    const views = j.intents();
    const pending = [...views.values()].filter((v) => v.state === 'signed');
    expect(pending.map((v) => v.id).sort()).toEqual(Array.from({ length: 20 }, (_, k) => `x${k * 1_000}`).sort());
    for (const v of pending) expect(v.signed).toMatchObject({ signature: `s${v.id.slice(1)}`, wire: 'B'.repeat(1_600) });
    const ended = [...views.values()].filter((v) => v.state === 'confirmed');
    expect(ended.length).toBe(500);
    expect(ended.some((v) => v.id === 'x19999')).toBe(true); // the newest are the ones kept
    const after = statSync(path).size;
    expect(after).toBeLessThan(before / 20);
    await j.append({ op: 'created', id: 'late', at: Date.now() });
    await j.close();
    // compacted, it folds back into the same views
    const k = await openJournal(path, { keepEndedCount: 500 });
    expect(new Map([...k.intents()].map(([id, v]) => [id, v.state]))).toEqual(new Map([...views].map(([id, v]) => [id, v.state])));
    expect(k.intents().get('x0')?.signed?.wire).toBe('B'.repeat(1_600));
    await k.close();
  });

  it('compacts on its own while appending, past its size, without losing an unfinished intent', async () => {
    const path = join(dir, 'grow.jsonl');
    const j = await openJournal(path, { compactAboveBytes: 64 * 1024, keepEndedCount: 50 });
    for (let i = 0; i < 400; i++) {
      await Promise.all([j.append({ op: 'created', id: `g${i}`, at: Date.now() }), j.append(signed(`g${i}`))]);
      if (i % 10 !== 0) await j.append({ op: 'confirmed', id: `g${i}`, at: Date.now(), signature: `sig-g${i}-1`, slot: i, commitment: 'confirmed' });
    }
    await j.close();
    expect(statSync(path).size).toBeLessThan(3 * 64 * 1024);
    const views = foldRecords(readJournal(path));
    for (let i = 0; i < 400; i += 10) expect(views.get(`g${i}`)?.state).toBe('signed');
  });
});

describe('open errors say why', () => {
  it('a missing directory and a path through a file name their cause', async () => {
    await expect(openJournal(join(dir, 'no', 'such', 'dir', 'j.jsonl'))).rejects.toMatchObject({
      code: 'SENDER_JOURNAL',
      message: /directory does not exist \(ENOENT\)/,
      context: { errno: 'ENOENT' },
    });
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    await expect(openJournal(join(file, 'j.jsonl'))).rejects.toMatchObject({ code: 'SENDER_JOURNAL', context: { errno: 'ENOTDIR' }, message: /ENOTDIR/ });
  });

  it('bad journal options are refused when the sender is created, naming the field; the defaults open', async () => {
    const { createSender } = await import('../../src/sender/index.js');
    const client = { sendTransaction: async () => '', getSignatureStatuses: async () => ({ value: [] }) } as never;
    expect(() => createSender({ client, journal: { path: join(dir, 'o.jsonl'), compactAboveBytes: -1 } })).toThrowError(/"journal.compactAboveBytes"/);
    expect(() => createSender({ client, journal: { path: '' } })).toThrowError(/"journal.path"/);
    expect(() => createSender({ client, journal: { path: join(dir, 'o.jsonl'), keepEndedCount: 1.5 } })).toThrowError(/"journal.keepEndedCount"/);
    const { resolveSenderConfig } = await import('../../src/sender/index.js');
    const cfg = resolveSenderConfig({ journal: join(dir, 'o.jsonl') });
    const j = await openJournal(cfg.journal!, cfg.journalOptions);
    await j.close();
  });

  it('a damaged journal is refused, with its lock released and no descriptor left open', async () => {
    const path = join(dir, 'damaged.jsonl');
    writeFileSync(path, '{"op":"created","id":"a","at":1}\nnot json\n{"op":"created","id":"b","at":1}\n');
    const before = fds();
    await expect(openJournal(path)).rejects.toMatchObject({ code: 'SENDER_JOURNAL', message: /line 2/ });
    expect(fds()).toBe(before);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });
});
