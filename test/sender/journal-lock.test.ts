/**
 * The journal's lock file when a full disk left it empty (issue 29 item 7): before, a lock file
 * created but never written (the disk full right after `open(O_EXCL)`, or its writer killed between
 * the two) blocked the journal forever — "an owner whose lock file cannot be read". Now opening on a
 * full disk fails with a clear error and leaves no lock behind, and an empty lock file older than a
 * few seconds that no process holds open is stale and taken over; a younger one, or one another
 * process still holds open, is not.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/errors/index.js';
import { openJournal } from '../../src/sender/journal/file/journal.js';
import { EMPTY_STALE_MS } from '../../src/sender/journal/file/lock.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-journal-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An empty lock file, as a writer killed (or a disk filled) between creating and writing it leaves it. */
function emptyLock(path: string, ageMs: number): void {
  writeFileSync(`${path}.lock`, '');
  const t = (Date.now() - ageMs) / 1000;
  utimesSync(`${path}.lock`, t, t);
}

function canMount(): boolean {
  if (process.getuid?.() !== 0) return false;
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

describe('a lock file left empty', () => {
  it('older than a few seconds and open in no process: taken over as stale', async () => {
    const path = join(dir, 'old-empty.jsonl');
    emptyLock(path, EMPTY_STALE_MS + 5_000);
    const j = await openJournal(path);
    await j.append({ op: 'created', id: 'a', at: Date.now() });
    await j.close();
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('younger than that: refused (it may be one being written), naming the rule', async () => {
    const path = join(dir, 'young-empty.jsonl');
    emptyLock(path, 0);
    await expect(openJournal(path)).rejects.toMatchObject({ code: ErrorCodes.SENDER_JOURNAL_LOCKED, message: /empty one is taken over once 5 s old/ });
  });

  it('held open by a live process: refused however old; taken over once that process is gone', { timeout: 20_000 }, async () => {
    const path = join(dir, 'held-empty.jsonl');
    emptyLock(path, 0);
    const holder = spawn(process.execPath, ['-e', `require('fs').openSync(${JSON.stringify(`${path}.lock`)}, 'r'); process.stdout.write('open\\n'); setInterval(() => {}, 1000);`], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise<void>((r) => holder.stdout!.once('data', () => r()));
    const t = (Date.now() - EMPTY_STALE_MS - 5_000) / 1000;
    utimesSync(`${path}.lock`, t, t);
    try {
      await expect(openJournal(path)).rejects.toMatchObject({ code: ErrorCodes.SENDER_JOURNAL_LOCKED });
    } finally {
      holder.kill('SIGKILL');
      await new Promise((r) => holder.once('exit', r));
    }
    const j = await openJournal(path);
    await j.close();
  });
});

describe('a full disk when the lock is taken', () => {
  it.runIf(canMount())('opening fails with a clear error and leaves no lock behind; once space returns it opens', { timeout: 20_000 }, async () => {
    const mnt = mkdtempSync(join(tmpdir(), 'cairn-lock-tmpfs-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt]);
    try {
      const path = join(mnt, 'sends.jsonl');
      // Fill every block: files can still be created (inodes), nothing can be written.
      try {
        writeFileSync(join(mnt, 'filler'), Buffer.alloc(1 << 20));
      } catch (e) {
        expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC');
      }
      const err = await openJournal(path).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: ErrorCodes.SENDER_JOURNAL, context: { path, errno: 'ENOSPC' }, message: /disk is full/ });
      expect(existsSync(`${path}.lock`)).toBe(false);
      rmSync(join(mnt, 'filler'));
      const j = await openJournal(path);
      await j.append({ op: 'created', id: 'a', at: Date.now() });
      await j.close();
    } finally {
      execFileSync('umount', ['-l', mnt]);
      rmSync(mnt, { recursive: true, force: true });
    }
  });
});
