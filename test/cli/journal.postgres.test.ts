/**
 * `cairn journal status|init|gc` on a fleet's PostgreSQL journal, against a real server: init creates
 * the schema, status counts by state with leases held and stuck and the oldest unfinished intent,
 * gc drops only ended intents past the age, and the URL (which may hold a password) is never printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/journal.js';
import { openPostgresJournal } from '../../src/sender/index.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

let server: PostgresServer;
beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) } }, out, err };
}

describe('cairn journal on PostgreSQL', () => {
  it('init, status (states, leases held and stuck, oldest unfinished) and gc', { timeout: 30_000 }, async () => {
    const secretUrl = server.url.replace('postgres@', 'postgres:hunter2@');
    let t = io();
    expect(await run(['status', secretUrl, '--table', 'ops'], t.io)).toBe(1);
    expect(t.err.join('')).toMatch(/no journal table ops.*cairn journal init/);
    t = io();
    expect(await run(['init', '--postgres', secretUrl, '--table', 'ops'], t.io)).toBe(0);
    expect(t.out.join('')).toContain('PostgreSQL journal ops: ready (schema version 2)');

    const j = await openPostgresJournal({ postgres: server.url, table: 'ops', leaseMs: 1_500 });
    const created = (id: string) => ({ id, rec: { op: 'created' as const, id, at: Date.now() } });
    await j.enqueue(['a', 'b', 'c', 'd'].map(created));
    const claims = await j.claim(3);
    for (const id of ['a', 'b']) {
      await j.append({ op: 'signed', id, at: Date.now(), signature: `s-${id}`, wire: 'AA', lastValidBlockHeight: 9, attempt: 1 });
      await j.append({ op: 'confirmed', id, at: Date.now(), signature: `s-${id}`, slot: 3, commitment: 'confirmed' });
    }
    expect(claims.length).toBe(3);
    await new Promise((r) => setTimeout(r, 1_700)); // c's lease lapses under its holder: stuck

    t = io();
    expect(await run(['status', secretUrl, '--table', 'ops', '--json'], t.io)).toBe(0);
    const h = JSON.parse(t.out.join(''));
    expect(h).toMatchObject({ table: 'ops', schemaVersion: 2, intents: 4, byState: { confirmed: 2, created: 2 }, unfinished: 2, leased: 0, stuckLeases: 1 });
    expect(['c', 'd']).toContain(h.oldestUnfinished.id);

    t = io();
    expect(await run(['gc', secretUrl, '--table', 'ops', '--older-than', '1h'], t.io)).toBe(0);
    expect(t.out.join('')).toContain('removed 0 ended intents');
    t = io();
    expect(await run(['gc', secretUrl, '--table', 'ops', '--older-than', '0s', '--json'], t.io)).toBe(0);
    expect(JSON.parse(t.out.join(''))).toMatchObject({ removed: 2, records: 6 });
    t = io();
    expect(await run(['status', secretUrl, '--table', 'ops'], t.io)).toBe(0);
    expect(t.out.join('')).toMatch(/: 2 intents \(created 2\); 2 unfinished/);
    await j.close();

    t = io();
    expect(await run(['gc', secretUrl, '--older-than', 'soon'], t.io)).toBe(2);
    t = io();
    expect(await run(['gc', 'sends.jsonl'], t.io)).toBe(2);
    expect(t.err.join('')).toMatch(/gc is for a PostgreSQL journal/);
    for (const line of [...t.out, ...t.err]) expect(line).not.toContain('hunter2');
  });
});
