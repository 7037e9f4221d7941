/**
 * Bundles in a fleet (issue 33 item 4) on a real PostgreSQL server and the devnet: a bundle is one
 * intent of the shared table — `sendBundle` and `enqueue([{ id, bundle }])` store it once, with every
 * plan; its signed record holds every transaction; `status(id)` and `outcomes()` name every
 * signature; the same id answers the first outcome from any process, and with other content is
 * SENDER_ID_CONFLICT. Then two worker processes share several bundles, one is SIGKILLed with a
 * bundle in flight, and the ledger must show every transfer of every bundle executed once — the
 * killed process's bundles taken over with the bytes it signed, or signed anew only after their
 * expiry was proven.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/errors/index.js';
import { createSender, generateSigner, transferInstruction, type FleetSender, type SendManyItem } from '../../src/sender/index.js';
import { executionsByKey } from '../../soak/ledger.js';
import { intentKey } from '../../soak/intents.js';
import { runUntil } from '../support/child-lines.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { setup, type Env } from '../support/sender.js';

const child = join(import.meta.dirname, '..', 'support', 'children', 'bundle-child.ts');
let server: PostgresServer;
let env: Env;
let n = 0;
let amount = 13_000_000n;
const to = generateSigner().address;
const senders: FleetSender[] = [];
const tempDirs: string[] = [];

beforeAll(async () => {
  [server, env] = await Promise.all([startPostgres(), setup(20, 35)]);
  await env.devnet.control.airdrop(to, 10n ** 9n);
}, 60_000);
afterAll(async () => {
  for (const s of senders) await s.close();
  await env?.stop();
  await server?.stop();
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

function fleetSender(table: string): FleetSender {
  const s = createSender({ client: env.client, journal: { postgres: server.url, table, leaseMs: 2_000, poolSize: 3 }, cuPrice: 200_000, cuLimit: 1_000, pollMs: 30, rebroadcastMs: 300, onExpired: 'resign', signers: [env.payer] });
  senders.push(s);
  return s;
}
const transfer = (lamports: bigint) => ({ instructions: [transferInstruction(env.payer.address, to, lamports)], payer: env.payer });
const paid = (lamports: bigint) => (executionsByKey(env.devnet.control.ledger(), env.payer.address).get(intentKey(to, lamports)) ?? []).filter((e) => e.ok);
const settle = () => env.devnet.chain.waitForSlot(env.devnet.chain.slot() + 5);

describe('a bundle in a fleet', () => {
  it('sendBundle stores one intent: status names every signature, the same id answers the first outcome from any process, other content is refused', { timeout: 60_000 }, async () => {
    const table = `fb${n++}`;
    const a = fleetSender(table);
    const b = fleetSender(table);
    const lamports = [amount++, amount++, amount++];
    const out = await a.sendBundle(lamports.map(transfer), { id: 'fb-1' });
    expect(out).toMatchObject({ id: 'fb-1', attempts: 1 });
    const st = await b.status('fb-1');
    expect(st).toMatchObject({ state: 'confirmed', signature: out.signatures[0], signatures: out.signatures, outcome: { bundle: { signatures: out.signatures, slots: out.slots } } });
    const rows = await server.query(`SELECT rec FROM ${table}_records WHERE id = $1 ORDER BY seq`, ['fb-1']);
    const signed = rows.map((r) => r.rec as { op: string; bundle?: { signature: string }[] }).filter((r) => r.op === 'signed');
    expect(signed.map((r) => r.bundle!.map((t) => t.signature))).toEqual([out.signatures]);
    expect(await b.sendBundle(lamports.map(transfer), { id: 'fb-1' })).toMatchObject({ fromJournal: true, signatures: out.signatures, slots: out.slots });
    const conflict = (field: string) => ({ code: ErrorCodes.SENDER_ID_CONFLICT, context: { id: 'fb-1', field } });
    await expect(b.sendBundle([transfer(lamports[0]!), transfer(lamports[2]!), transfer(lamports[1]!)], { id: 'fb-1' })).rejects.toMatchObject(conflict('inputs[1].instructions[0].data'));
    await expect(b.sendBundle(lamports.slice(1).map(transfer), { id: 'fb-1' })).rejects.toMatchObject(conflict('inputs'));
    await expect(b.send(transfer(lamports[0]!), { id: 'fb-1' })).rejects.toMatchObject(conflict('input'));
    await expect(b.enqueue([{ id: 'fb-1', bundle: [lamports[0]!, lamports[1]!].map((l) => ({ ...transfer(l), payer: env.payer.address })) }])).rejects.toMatchObject(conflict('inputs'));
    await settle();
    for (const l of lamports) expect(paid(l)).toHaveLength(1);
  });

  it('enqueued bundles are worked as one intent each: outcomes carry every signature, each transfer lands once', { timeout: 60_000 }, async () => {
    const table = `fb${n++}`;
    const a = fleetSender(table);
    const bundles = Array.from({ length: 3 }, (_, i) => ({ id: `q-${i}`, lamports: [amount++, amount++] }));
    const list = bundles.map((x) => ({
      id: x.id,
      bundle: x.lamports.map((l) => ({ instructions: [transferInstruction(env.payer.address, to, l)], payer: env.payer.address })),
    }));
    expect(await a.enqueue(list)).toEqual({ added: 3, known: 0 });
    expect(await a.enqueue(list)).toEqual({ added: 0, known: 3 });
    const heard: SendManyItem[] = [];
    const stop = new AbortController();
    const listening = (async () => {
      for await (const item of a.outcomes({ signal: stop.signal })) heard.push(item);
    })();
    const summary = await a.work({ concurrency: 3, drain: true });
    stop.abort();
    await listening;
    expect(summary.confirmed).toBe(3);
    expect(heard.map((h) => (h.ok ? h.outcome.bundle?.signatures.length : h.error.message)).sort()).toEqual([2, 2, 2]);
    await settle();
    for (const x of bundles) {
      const st = await a.status(x.id);
      for (const [i, l] of x.lamports.entries()) expect(paid(l).map((e) => e.signature)).toEqual([st!.signatures![i]]);
    }
  });

  it('two worker processes share several bundles; one is SIGKILLed with a bundle in flight: every transfer of every bundle lands once', { timeout: 120_000 }, async () => {
    const table = `fb${n++}`;
    const s = fleetSender(table);
    const bundles = Array.from({ length: 8 }, (_, i) => ({ id: `k-${i}`, lamports: [amount++, amount++, amount++] }));
    await s.enqueue(
      bundles.map((x) => ({
        id: x.id,
        bundle: x.lamports.map((l) => ({ instructions: [transferInstruction(env.payer.address, to, l)], payer: env.payer.address })),
      })),
    );
    const goDir = mkdtempSync(join(tmpdir(), 'cairn-fleet-bundle-'));
    tempDirs.push(goDir);
    const go = join(goDir, 'go');
    const vars = { DEVNET_URL: env.devnet.url, PAYER: Buffer.from(env.payer.secretKey()).toString('hex'), TO: to, PG: server.url, TABLE: table, LEASE_MS: '1000', ACTION: 'work', CONCURRENCY: '2', GO: go };
    // Both start working at once (GO), so they share the table; A is killed the moment its first
    // bundle is out, and B (then A's replacement) drain the table, taking A's claims over.
    let started = 0;
    const ready = (line: string): void => {
      if (line === 'start' && ++started === 2) writeFileSync(go, '');
    };
    // A never reads a status: killed at its first `sent`, it cannot have recorded any bundle's end.
    const a = runUntil(child, { ...vars, BLIND: '1' }, (line) => (ready(line), line.startsWith('sent ')));
    const b = runUntil(child, vars, (line) => (ready(line), false));
    const killed = await a;
    expect(killed.killed).toBe(true);
    const inFlight = killed.lines.find((l) => l.startsWith('sent '))!.split(' ')[1]!;
    const replacement = await runUntil(child, vars, () => false);
    const worked = await b;
    expect(replacement.killed || worked.killed).toBe(false);
    await settle();
    for (const x of bundles) {
      const st = await s.status(x.id);
      expect(st, x.id).toMatchObject({ state: 'confirmed', owner: null });
      expect(st!.signatures).toHaveLength(3);
      // every transfer once, by the transaction the journal names
      for (const [i, l] of x.lamports.entries()) expect(paid(l).map((e) => e.signature), `${x.id}[${i}]`).toEqual([st!.signatures![i]]);
    }
    // the bundle A had in flight was finished by another process, from what A had stored
    const rows = await server.query(`SELECT fence, rec FROM ${table}_records WHERE id = $1 ORDER BY seq`, [inFlight]);
    const trail = rows.map((r) => (r.rec as { op: string }).op);
    expect(trail[0]).toBe('created');
    expect(trail.at(-1)).toBe('confirmed');
    // a second signed set only ever after the first was proven expired
    let live = false;
    for (const op of trail) {
      if (op === 'signed') expect(live, trail.join(' ')).toBe(false);
      if (op === 'signed') live = true;
      if (op === 'expired') live = false;
    }
    expect([...worked.lines, ...replacement.lines]).toContain(`done ${inFlight}`);
    expect(new Set(rows.slice(1).map((r) => String(r.fence))).size).toBeGreaterThan(1);
  });
});
