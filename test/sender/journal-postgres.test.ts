/**
 * The PostgreSQL journal against a real server started for this file (test/support/postgres-server.ts):
 * schema on first use, idempotent enqueue, claims that never overlap, leases that lapse and are taken
 * over, fenced writes refused after that, a server restart waited out, signatures owned by one
 * intent fleet-wide (and a version-1 table migrated in place to hold them), and gc of both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/errors/index.js';
import { openPostgresJournal, type PostgresJournal } from '../../src/sender/index.js';
import { gcPostgresJournal } from '../../src/sender/journal/postgres/admin.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';

let server: PostgresServer;
const open: PostgresJournal[] = [];
let n = 0;
/** A journal on a table of its own (tests do not see each other's intents). */
async function journal(table: string, leaseMs = 5_000): Promise<PostgresJournal> {
  const j = await openPostgresJournal({ postgres: server.url, table, leaseMs, poolSize: 4 });
  open.push(j);
  return j;
}
const created = (id: string) => ({ id, rec: { op: 'created' as const, id, at: Date.now() } });
const signed = (id: string, signature = `sig-${id}`) => ({ op: 'signed' as const, id, at: Date.now(), signature, wire: 'AAAA', lastValidBlockHeight: 100, attempt: 1 });

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);
afterAll(async () => {
  for (const j of open) await j.close();
  await server?.stop();
});

describe('PostgreSQL journal', () => {
  it('creates its schema once, from many processes at once, with a migration version', async () => {
    const table = `t${n++}`;
    const js = await Promise.all([journal(table), journal(table), journal(table)]);
    expect(js.map((j) => j.table)).toEqual([table, table, table]);
    const { default: pg } = await import('pg');
    const c = new pg.Client(server.url);
    await c.connect();
    try {
      expect((await c.query(`SELECT version FROM ${table}_schema`)).rows).toEqual([{ version: 2 }]);
    } finally {
      await c.end();
    }
  });

  it('a signature belongs to one intent fleet-wide: of two processes claiming it at once for two intents, one gets it', async () => {
    const table = `t${n++}`;
    const [a, b] = [await journal(table), await journal(table)];
    for (let i = 0; i < 20; i++) {
      const [ra, rb] = await Promise.all([a.claimSignature('ia', `s${i}`, 100), b.claimSignature('ib', `s${i}`, 100)]);
      expect(ra !== rb).toBe(true);
    }
    // Its owner may claim it again (a rebuild of the same intent); a burst shares one statement.
    expect(await a.claimSignature('ia', 's-own', 100)).toBe(true);
    expect(await Promise.all([b.claimSignature('ia', 's-own', 100), b.claimSignature('ib', 's-own', 100), b.claimSignature('ib', 's-new', 100)])).toEqual([true, false, true]);
  });

  it('migrates a version-1 table in place: the signatures of its intents are owned from the start', async () => {
    const table = `t${n++}`;
    const j = await journal(table);
    await j.enqueue(['live', 'done', 'fresh'].map(created));
    await j.claim(3);
    await j.append(signed('live'));
    await j.append(signed('done'));
    await j.append({ op: 'confirmed', id: 'done', at: Date.now(), signature: 'sig-done', slot: 3, commitment: 'confirmed' });
    const { default: pg } = await import('pg');
    const c = new pg.Client(server.url);
    await c.connect();
    try {
      // What cairn's version 1 left: no signatures table.
      await c.query(`DROP TABLE ${table}_signatures; DELETE FROM ${table}_schema; INSERT INTO ${table}_schema (version) VALUES (1)`);
      const k = await journal(table);
      expect((await c.query(`SELECT max(version) AS v FROM ${table}_schema`)).rows).toEqual([{ v: 2 }]);
      expect((await c.query(`SELECT signature, id FROM ${table}_signatures ORDER BY id`)).rows).toEqual([
        { signature: 'sig-done', id: 'done' },
        { signature: 'sig-live', id: 'live' },
      ]);
      expect(await k.claimSignature('fresh', 'sig-live', 100)).toBe(false);
      expect(await k.claimSignature('fresh', 'sig-fresh', 100)).toBe(true);
      // gc: the ended intent's signature goes with it; the unfinished ones' stay.
      expect(await gcPostgresJournal(server.url, 0, table)).toEqual({ intents: 1, records: 3, signatures: 1 });
      expect((await c.query(`SELECT id FROM ${table}_signatures ORDER BY id`)).rows).toEqual([{ id: 'fresh' }, { id: 'live' }]);
    } finally {
      await c.end();
    }
  });

  it('a server that cannot start fails with one line saying why (tests never skip silently)', async () => {
    await expect(startPostgres({ bin: '/nonexistent/bin' })).rejects.toThrow(/^PostgreSQL test server cannot start: no pg_ctl in \/nonexistent\/bin$/);
  });

  it('refuses a table name that is not a plain identifier', async () => {
    await expect(openPostgresJournal({ postgres: server.url, table: 'x; drop table y' })).rejects.toMatchObject({ code: ErrorCodes.INPUT_INVALID, context: { field: 'journal.table' } });
  });

  it('enqueues by id once; two processes claiming at once never get the same intent', async () => {
    const table = `t${n++}`;
    const [a, b] = [await journal(table), await journal(table)];
    const ids = Array.from({ length: 50 }, (_, i) => `i${i}`);
    expect(await a.enqueue(ids.map(created))).toBe(50);
    expect(await b.enqueue(ids.slice(0, 10).map(created))).toBe(0);
    const [ca, cb] = await Promise.all([a.claim(30), b.claim(30)]);
    const got = [...ca, ...cb].map((c) => c.view.id);
    expect(new Set(got).size).toBe(got.length);
    expect(got.length).toBe(50);
    expect([...ca, ...cb].every((c) => c.fence === 1 && !c.takeover)).toBe(true);
    expect(await a.claim(5)).toEqual([]);
  });

  it('a lapsed lease is taken over with a higher token, and the old holder can store nothing more', async () => {
    const table = `t${n++}`;
    const old = await journal(table, 1_000);
    const next = await journal(table, 5_000);
    await old.enqueue([created('x')]);
    const [c1] = await old.claim(1);
    expect(c1!.fence).toBe(1);
    await old.append(signed('x'));
    // The old holder is paused past its lease; another process takes over.
    await new Promise((r) => setTimeout(r, 1_200));
    const [c2] = await next.claim(1);
    expect(c2).toMatchObject({ fence: 2, takeover: true, view: { id: 'x', state: 'signed', signed: { signature: 'sig-x' } } });
    await expect(old.append({ op: 'landed', id: 'x', at: Date.now(), signature: 'sig-x', slot: 5 })).rejects.toMatchObject({
      code: ErrorCodes.SENDER_LEASE_LOST,
      context: { id: 'x', fence: 1, op: 'landed' },
    });
    expect(old.metrics.fencedRefused).toBe(1);
    expect(next.metrics.takeovers).toBe(1);
    await next.append({ op: 'confirmed', id: 'x', at: Date.now(), signature: 'sig-x', slot: 5, commitment: 'confirmed' });
    const s = await next.status('x');
    expect(s).toMatchObject({ state: 'confirmed', owner: null, fence: 2 });
    expect(await next.unfinished()).toBe(0);
  });

  it('a renewed lease is never taken over; a lapsed one is reported lost by renew()', async () => {
    const table = `t${n++}`;
    const a = await journal(table, 1_000);
    const b = await journal(table, 1_000);
    await a.enqueue([created('y')]);
    await a.claim(1);
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 300));
      expect(await a.renew()).toEqual([]);
      expect(await b.claim(1)).toEqual([]);
    }
    expect(a.metrics.renewals).toBe(4);
    await new Promise((r) => setTimeout(r, 1_200));
    expect(await a.renew()).toEqual(['y']);
    expect(a.metrics.leasesLost).toBe(1);
    expect(a.holds('y')).toBe(false);
  });

  it('close() hands held claims back at once: another process claims them without waiting for the lease', async () => {
    const table = `t${n++}`;
    const a = await openPostgresJournal({ postgres: server.url, table, leaseMs: 60_000, poolSize: 2 });
    const b = await journal(table);
    await a.enqueue(['p', 'q', 'r'].map(created));
    expect((await a.claim(3)).length).toBe(3);
    expect(await b.claim(3)).toEqual([]);
    await a.close();
    const claims = await b.claim(3);
    expect(claims.map((c) => [c.view.id, c.fence, c.takeover]).sort()).toEqual([
      ['p', 2, false],
      ['q', 2, false],
      ['r', 2, false],
    ]);
  });

  it('waits out a server restart: a state change in flight is stored once the server is back', async () => {
    const table = `t${n++}`;
    const j = await journal(table, 60_000);
    await j.enqueue([created('z')]);
    await j.claim(1);
    await server.halt();
    const write = j.append(signed('z'));
    await new Promise((r) => setTimeout(r, 700));
    await server.start();
    await write;
    expect(j.metrics.reconnects).toBeGreaterThan(0);
    expect((await j.status('z'))?.state).toBe('signed');
  }, 30_000);
});
