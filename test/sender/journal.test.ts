/**
 * The journal: records survive as JSONL, group commit resolves every append, a torn last line (crash
 * mid-write) is dropped and terminated on reopen, folding yields the only live signature.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foldRecords, openJournal, readJournal, type JournalRecord } from '../../src/sender/journal/file/journal.js';

const dir = mkdtempSync(join(tmpdir(), 'cairn-journal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('journal', () => {
  it('appends one JSON line per record and resolves after the write', async () => {
    const path = join(dir, 'a.jsonl');
    const j = await openJournal(path);
    const recs: JournalRecord[] = [];
    for (let i = 0; i < 50; i++) {
      recs.push({ op: 'created', id: `i${i}`, at: i });
      recs.push({ op: 'signed', id: `i${i}`, at: i, signature: `s${i}`, wire: 'AA==', lastValidBlockHeight: 10, attempt: 1 });
    }
    await Promise.all(recs.map((r) => j.append(r)));
    await j.close();
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(100);
    expect(readJournal(path)).toEqual(recs);
    await expect(j.append({ op: 'created', id: 'late', at: 0 })).rejects.toMatchObject({ code: 'SENDER_CLOSED' });
  });

  it('drops a torn last line and terminates it before appending again', async () => {
    const path = join(dir, 'b.jsonl');
    writeFileSync(path, JSON.stringify({ op: 'created', id: 'x', at: 1 }) + '\n');
    appendFileSync(path, '{"op":"signed","id":"x","at":2,"sig'); // crash mid-write
    expect(readJournal(path)).toHaveLength(1);
    const j = await openJournal(path);
    expect(j.intents().get('x')?.state).toBe('created');
    await j.append({ op: 'abandoned', id: 'x', at: 3, reason: 'test' });
    await j.close();
    const recs = readJournal(path);
    expect(recs.map((r) => r.op)).toEqual(['created', 'abandoned']);
  });

  it('a corrupt line in the middle is an error naming the line', () => {
    const path = join(dir, 'c.jsonl');
    writeFileSync(path, '{"op":"created","id":"a","at":1}\nnot json\n{"op":"created","id":"b","at":1}\n');
    expect(() => readJournal(path)).toThrowError(/line 2/);
  });

  it('folding: the latest signed attempt is the live one; expiry then re-sign; terminal states stick', () => {
    const v = foldRecords([
      { op: 'created', id: 'a', at: 0 },
      { op: 'signed', id: 'a', at: 1, signature: 's1', wire: 'w1', lastValidBlockHeight: 10, attempt: 1 },
      { op: 'landed', id: 'b', at: 1, signature: 'q', slot: 1 },
      { op: 'expired', id: 'a', at: 2, signature: 's1', lastValidBlockHeight: 10, blockHeight: 11 },
    ]);
    expect(v.get('a')?.state).toBe('expired');
    const w = foldRecords([
      { op: 'created', id: 'a', at: 0 },
      { op: 'signed', id: 'a', at: 1, signature: 's1', wire: 'w1', lastValidBlockHeight: 10, attempt: 1 },
      { op: 'expired', id: 'a', at: 2, signature: 's1', lastValidBlockHeight: 10, blockHeight: 11 },
      { op: 'signed', id: 'a', at: 3, signature: 's2', wire: 'w2', lastValidBlockHeight: 20, attempt: 2 },
      { op: 'landed', id: 'a', at: 4, signature: 's2', slot: 9 },
    ]).get('a')!;
    expect(w.state).toBe('landed');
    expect(w.signed?.signature).toBe('s2');
    expect(w.attempts).toBe(2);
    const done = foldRecords([
      { op: 'confirmed', id: 'a', at: 1, signature: 's', slot: 3, commitment: 'confirmed' },
      { op: 'expired', id: 'a', at: 2, signature: 's', lastValidBlockHeight: 1, blockHeight: 2 },
    ]).get('a')!;
    expect(done.state).toBe('confirmed');
  });
});
