/**
 * `cairn journal status|compact`: counts by state without taking the lock, compaction that keeps
 * every unfinished intent, a journal in use refused with exit 1, usage errors exit 2.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/journal.js';
import { openJournal } from '../../src/sender/journal/file/journal.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-cli-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) } }, out, err };
}

function journalFile(name: string, n: number): string {
  const path = join(dir, name);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(JSON.stringify({ op: 'created', id: `c${i}`, at: 1_000 + i }));
    lines.push(JSON.stringify({ op: 'signed', id: `c${i}`, at: 1_000 + i, signature: `s${i}`, wire: 'W'.repeat(1_000), lastValidBlockHeight: 9, attempt: 1 }));
    if (i >= 3) lines.push(JSON.stringify({ op: 'confirmed', id: `c${i}`, at: 1_000 + i, signature: `s${i}`, slot: 1, commitment: 'confirmed' }));
  }
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe('cairn journal', () => {
  it('status counts intents by state and names the oldest unfinished one, without rewriting the file', async () => {
    const path = journalFile('s.jsonl', 50);
    const size = statSync(path).size;
    const t = io();
    expect(await run(['status', path, '--json'], t.io)).toBe(0);
    const r = JSON.parse(t.out.join(''));
    expect(r).toMatchObject({ intents: 50, byState: { signed: 3, confirmed: 47 }, unfinished: 3, oldestUnfinished: { id: 'c0' }, bytes: size });
    expect(statSync(path).size).toBe(size);
  });

  it('compact keeps every unfinished intent and shrinks the file', async () => {
    const path = journalFile('c.jsonl', 200);
    const size = statSync(path).size;
    const t = io();
    expect(await run(['compact', path], t.io)).toBe(0);
    expect(t.out.join('')).toMatch(/compacted \d+ → \d+ bytes/);
    expect(statSync(path).size).toBeLessThan(size / 3);
    const j = await openJournal(path);
    expect([...j.intents().values()].filter((v) => v.state === 'signed').map((v) => v.id).sort()).toEqual(['c0', 'c1', 'c2']);
    expect(j.intents().get('c1')?.signed?.wire).toBe('W'.repeat(1_000));
    await j.close();
  });

  it('compact refuses a journal a sender holds (exit 1, naming the holder); usage errors exit 2', async () => {
    const path = journalFile('l.jsonl', 5);
    const j = await openJournal(path);
    const t = io();
    expect(await run(['compact', path], t.io)).toBe(1);
    expect(t.err.join('')).toMatch(/\[SENDER_JOURNAL_LOCKED\].*pid/);
    await j.close();
    const u = io();
    expect(await run(['shrink', path], u.io)).toBe(2);
    expect(u.err.join('')).toMatch(/expected status, compact, init or gc/);
    expect(await run(['status'], io().io)).toBe(2);
    expect(await run(['status', path, '--nope'], io().io)).toBe(2);
  });
  it('a journal FILE that does not exist fails clearly (exit 1) and compact does not create it', async () => {
    const missing = join(dir, 'nope.jsonl');
    for (const cmd of ['status', 'compact']) {
      const t = io();
      expect(await run([cmd, missing], t.io)).toBe(1);
      expect(t.out.join('')).toBe('');
      expect(t.err.join('')).toMatch(/nope\.jsonl: no such file/);
      expect(existsSync(missing)).toBe(false);
    }
    const d = io();
    expect(await run(['status', dir], d.io)).toBe(1);
    expect(d.err.join('')).toMatch(/not a file/);
  });
});
