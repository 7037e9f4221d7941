/**
 * A fleet worker frozen at each step of a drive while another takes the intent over (issue 29):
 * worker A claims intent X (fence 1) and freezes — mid-prepare, after the blockhash fetch, after
 * signing and before the `signed` write, after that write and before the first send, or
 * mid-confirmation — past its lease. Worker B takes X over (fence 2), signs S2 (after proving A's S1
 * expired, when A had stored one), lands it and dies before recording `confirmed`. A wakes and claims
 * X again (fence 3) before its old drive moves, then the old drive goes on. The ledger must show one
 * payment, the records the file journal's rule (a new signature only after the previous one's proven
 * expiry), and `status(X)` the transaction that paid. Before drives were bound to their claim, the new
 * claim adopted A's old drive and its records were stored under fence 3: two payments at every step.
 * Real PostgreSQL and the devnet throughout; the freeze is a gate in front of A's pool and client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender, generateSigner, transferInstruction, type FleetSender, type SendManyItem } from '../../src/sender/index.js';
import { executionsByKey } from '../../soak/ledger.js';
import { intentKey } from '../../soak/intents.js';
import { createFreezer, type Freezer, type FreezePoint } from '../support/freezer.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { setup, sleep, type Env } from '../support/sender.js';

const LEASE = 900;
let server: PostgresServer;
let env: Env;
let n = 0;
let amount = 3_000_000n;
const to = generateSigner().address;
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  // 10 ms slots: a blockhash outlives 150 blocks in 1.5 s, so B proves S1 expired quickly.
  [server, env] = await Promise.all([startPostgres(), setup(10)]);
  await env.devnet.control.airdrop(to, 10n ** 9n);
}, 60_000);
afterAll(async () => {
  for (const c of closers.reverse()) await c().catch(() => undefined);
  await env?.stop();
  await server?.stop();
});

function worker(table: string, fz: Freezer): FleetSender {
  const s = createSender({
    client: fz.client,
    journal: { postgres: fz.pool, table, leaseMs: LEASE },
    cuPrice: 200_000,
    cuLimit: 1_000,
    pollMs: 30,
    rebroadcastMs: 200,
    onExpired: 'resign',
    signers: [env.payer],
  });
  closers.push(() => fz.end(), () => s.close());
  return s;
}

const paid = (lamports: bigint) => (executionsByKey(env.devnet.control.ledger(), env.payer.address).get(intentKey(to, lamports)) ?? []).filter((e) => e.ok);

async function until(what: string, ok: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The records of `id` in order, and whether a second signature ever followed one not proven expired. */
async function trail(table: string, id: string): Promise<{ ops: string[]; broken: string[] }> {
  const rows = await server.query(`SELECT fence, rec FROM ${table}_records WHERE id = $1 ORDER BY seq`, [id]);
  const ops = rows.map((r) => `${(r.rec as { op: string }).op}${(r.rec as { signature?: string }).signature ? ` ${(r.rec as { signature: string }).signature.slice(0, 6)}` : ''} (${String(r.fence)})`);
  const broken: string[] = [];
  let live: string | undefined;
  for (const r of rows) {
    const rec = r.rec as { op: string; signature?: string };
    if (rec.op === 'signed') {
      if (live) broken.push(`signed ${rec.signature} while ${live} was not proven expired`);
      live = rec.signature;
    } else if (rec.op === 'expired' && rec.signature === live) live = undefined;
  }
  return { ops, broken };
}

/** The scenario, frozen at `point`; resolves with what the test checks. */
async function frozenTakeover(point: FreezePoint, o: { reclaim: boolean }) {
  const table = `z${n++}`;
  const lamports = amount++;
  const id = 'x';
  const fa = createFreezer(server.url, env.client, point);
  const fb = createFreezer(server.url, env.client);
  const a = worker(table, fa);
  const b = worker(table, fb);
  const signedBeforeFreeze = point === 'after-signed-write' || point === 'mid-confirmation';
  await a.enqueue([{ id, instructions: [transferInstruction(env.payer.address, to, lamports)], payer: env.payer.address }]);
  // A's S1 never lands (the network loses it) until B has proven it expired: B then signs S2.
  if (signedBeforeFreeze) env.devnet.control.setFaults('fast', { dropRate: 1 });
  const firstA = a.resume().then((items) => ({ items }), (error: unknown) => ({ error }));
  await fa.frozen;
  const s1 = signedBeforeFreeze ? ((await server.query(`SELECT view->'signed'->>'signature' AS s FROM ${table} WHERE id = $1`, [id]))[0]!.s as string) : undefined;
  if (signedBeforeFreeze) expect(s1).toBeTruthy();
  // A's renewals are frozen with it: its lease lapses.
  await sleep(LEASE + 300);
  let s2: string | undefined;
  b.on('expired', () => env.devnet.control.setFaults('fast', {}));
  b.on('sent', (e) => {
    if (e.signature === s1 || s2) return;
    // B dies once S2 is out: its `confirmed` (and its renewals) never reach the database.
    s2 = e.signature;
    fb.freeze();
  });
  const runB = b.resume().then((items) => ({ items }), (error: unknown) => ({ error }));
  await until('B to land S2', () => s2 !== undefined && paid(lamports).length === 1);
  expect(b.stats.fleet.takeovers).toBe(1);
  await sleep(LEASE + 300);
  // A wakes: its database first, so it claims X again (fence 3) before its old drive moves.
  fa.thawDb();
  let secondA: Promise<SendManyItem[]> | undefined;
  if (o.reclaim) {
    secondA = a.resume();
    await until('A to claim X again', () => a.stats.fleet.claims === 2);
  }
  fa.thaw();
  const second = await secondA;
  const first = await firstA;
  fb.thaw();
  await runB;
  // Without a new claim by A, X is left signed (B died): any worker finishes it.
  if (!o.reclaim) await a.resume();
  await env.devnet.chain.waitForSlot(env.devnet.chain.slot() + 5);
  const status = await a.status(id);
  return { table, id, lamports, s1, s2: s2!, first, second, status, a, trail: await trail(table, id), paid: paid(lamports) };
}

describe('a fleet worker frozen at each step while another takes over, then woken', () => {
  const points: FreezePoint[] = ['mid-prepare', 'after-blockhash', 'after-signing', 'after-signed-write', 'mid-confirmation'];
  for (const point of points) {
    it(`${point}: one payment, the records' rule kept, status names the transaction that paid`, { timeout: 60_000 }, async () => {
      const r = await frozenTakeover(point, { reclaim: true });
      expect(r.paid.map((e) => e.signature), `records: ${r.trail.ops.join(' → ')}`).toEqual([r.s2]);
      expect(r.trail.broken).toEqual([]);
      expect(r.status).toMatchObject({ state: 'confirmed', signature: r.s2 });
      // The new claim tracked B's S2 (it did not adopt the old drive, nor replace S2).
      expect(r.second).toEqual([expect.objectContaining({ id: r.id, ok: true, outcome: expect.objectContaining({ signature: r.s2 }) })]);
      // The old drive's records were refused by its fence (or it ended before writing any).
      expect(r.a.stats.fleet.fencedRefused).toBeGreaterThanOrEqual(point === 'after-signing' ? 1 : 0);
    });
  }

  it('a woken drive re-reads the intent before signing: it signs nothing for an intent another process has signed since', { timeout: 60_000 }, async () => {
    const r = await frozenTakeover('after-blockhash', { reclaim: false });
    expect(r.paid.map((e) => e.signature)).toEqual([r.s2]);
    // Only B's signature was ever claimed for X: A's old drive stopped before signing.
    const sigs = await server.query(`SELECT signature FROM ${r.table}_signatures WHERE id = $1`, [r.id]);
    expect(sigs.map((s) => s.signature)).toEqual([r.s2]);
    expect('items' in r.first ? r.first.items : []).toEqual([]);
    expect(r.a.stats.fleet.fencedRefused).toBeGreaterThanOrEqual(1);
    expect(r.trail.broken).toEqual([]);
  });
});
