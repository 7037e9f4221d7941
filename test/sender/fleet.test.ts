/**
 * Fleet senders on a real PostgreSQL server and the devnet: intents enqueued once and worked by two
 * senders at once land exactly once (judged by the ledger), `status` / `outcomes` tell the ends,
 * `send` / `sendMany` go through the same table (an id known to it is never paid twice), two
 * senders given identical intents under different ids never sign one transaction for two of them,
 * and a sender that lost its lease stores nothing more for that intent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/errors/index.js';
import type { CairnClient } from '../../src/rpc/client/create-client.js';
import { createSender, generateSigner, transferInstruction, type FleetSender, type SendManyItem } from '../../src/sender/index.js';
import { DEFAULT_TIP_ACCOUNTS } from '../../src/tips.js';
import { executionsByKey } from '../../soak/ledger.js';
import { intentKey } from '../../soak/intents.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { setup, type Env } from '../support/sender.js';

let server: PostgresServer;
let env: Env;
let n = 0;
const senders: FleetSender[] = [];
const to = generateSigner().address;
let amount = 1_000_000n;

function fleetSender(table: string, leaseMs = 5_000, extra: { client?: CairnClient; tipAccounts?: readonly string[] } = {}): FleetSender {
  const s = createSender({
    client: env.client,
    ...extra,
    journal: { postgres: server.url, table, leaseMs, poolSize: 4 },
    cuPrice: 200_000,
    cuLimit: 1_000,
    pollMs: 50,
    rebroadcastMs: 300,
    signers: [env.payer],
  });
  senders.push(s);
  return s;
}

const intents = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `f${n}-${i}`, lamports: amount++, instructions: [] as ReturnType<typeof transferInstruction>[] })).map((x) => ({
    ...x,
    instructions: [transferInstruction(env.payer.address, to, x.lamports)],
    payer: env.payer.address,
  }));

/**
 * Two processes that read the latest blockhash in the same slot: the client's answer is shared for a
 * second (the real call, made once), so the two senders' identical intents sign identical bytes
 * unless the fleet keeps them apart — the collision made certain rather than left to timing.
 */
function sameSlot(client: CairnClient): CairnClient {
  let last: { at: number; answer: ReturnType<CairnClient['getLatestBlockhash']> } | undefined;
  return new Proxy(client, {
    get(target, prop, recv) {
      if (prop !== 'getLatestBlockhash') return Reflect.get(target, prop, recv) as unknown;
      return (...args: Parameters<CairnClient['getLatestBlockhash']>) => {
        if (!last || Date.now() - last.at > 1_000) last = { at: Date.now(), answer: target.getLatestBlockhash(...args) };
        return last.answer;
      };
    },
  });
}

function paidTimes(lamports: bigint): number {
  return (executionsByKey(env.devnet.control.ledger(), env.payer.address).get(intentKey(to, lamports)) ?? []).filter((e) => e.ok).length;
}

beforeAll(async () => {
  [server, env] = await Promise.all([startPostgres(), setup(40)]);
  await env.devnet.control.airdrop(to, 10n ** 9n);
}, 60_000);
afterAll(async () => {
  for (const s of senders) await s.close();
  await env?.stop();
  await server?.stop();
});

describe('fleet sender (PostgreSQL journal)', () => {
  it('two senders work one queue: every intent lands once, status and outcomes tell the ends', { timeout: 60_000 }, async () => {
    const table = `f${n++}`;
    const a = fleetSender(table);
    const b = fleetSender(table);
    const list = intents(40);
    expect(await a.enqueue(list)).toEqual({ added: 40, known: 0 });
    expect(await b.enqueue(list.slice(0, 5))).toEqual({ added: 0, known: 5 });
    const heard: SendManyItem[] = [];
    const stop = new AbortController();
    const listening = (async () => {
      for await (const item of a.outcomes({ signal: stop.signal })) heard.push(item);
    })();
    const [sa, sb] = await Promise.all([a.work({ concurrency: 8, drain: true }), b.work({ concurrency: 8, drain: true })]);
    stop.abort();
    await listening;
    expect(sa.confirmed + sb.confirmed).toBe(40);
    expect(heard.length).toBe(sa.ended);
    await env.devnet.chain.waitForSlot(env.devnet.chain.slot() + 3);
    for (const it of list) expect(paidTimes(it.lamports)).toBe(1);
    const st = await b.status(list[7]!.id);
    expect(st).toMatchObject({ state: 'confirmed', owner: null, outcome: { id: list[7]!.id, fromJournal: true } });
    expect(st!.signature).toBe(st!.outcome!.signature);
    expect(a.stats.fleet.claims + b.stats.fleet.claims).toBe(40);
    expect(await a.status('nope')).toBeUndefined();
  });

  it('send and sendMany go through the table: an id already paid is answered from it, never paid again', { timeout: 60_000 }, async () => {
    const table = `f${n++}`;
    const a = fleetSender(table);
    const b = fleetSender(table);
    const lamports = amount++;
    const input = { instructions: [transferInstruction(env.payer.address, to, lamports)], payer: env.payer };
    const first = await a.send(input, { id: 'once' });
    const again = await b.send(input, { id: 'once' });
    expect(again).toMatchObject({ id: 'once', signature: first.signature, fromJournal: true });
    const many = intents(10);
    const items: SendManyItem[] = [];
    for await (const r of b.sendMany(many.map((m) => ({ instructions: m.instructions, payer: env.payer })), { idOf: (_, i) => many[i]!.id })) items.push(r);
    expect(items.every((r) => r.ok)).toBe(true);
    await env.devnet.chain.waitForSlot(env.devnet.chain.slot() + 3);
    expect(paidTimes(lamports)).toBe(1);
    for (const it of many) expect(paidTimes(it.lamports)).toBe(1);
    await expect(a.retry('once')).rejects.toMatchObject({ code: ErrorCodes.INPUT_INVALID });
  });

  it('two senders given identical intents under different ids sign distinct transactions: each is its own payment', { timeout: 60_000 }, async () => {
    const table = `f${n++}`;
    // One tip account and the minimum tip: nothing random keeps identical intents apart.
    const same = { client: sameSlot(env.client), tipAccounts: [DEFAULT_TIP_ACCOUNTS[0]!] };
    const a = fleetSender(table, 5_000, same);
    const b = fleetSender(table, 5_000, same);
    const lamports = amount++;
    const input = { instructions: [transferInstruction(env.payer.address, to, lamports)], payer: env.payer };
    const ids = ['a', 'b'].flatMap((p) => [0, 1, 2, 3].map((i) => `${p}${i}`));
    const outs = await Promise.all(ids.map((id) => (id.startsWith('a') ? a : b).send(input, { id })));
    expect(outs.map((o) => o.id)).toEqual(ids);
    // Without the fleet-wide claim each process salts only against itself: a0..a3 and b0..b3 sign the
    // same four transactions, four land, and eight intents are reported paid.
    expect(new Set(outs.map((o) => o.signature)).size).toBe(ids.length);
    await env.devnet.chain.waitForSlot(env.devnet.chain.slot() + 3);
    expect(paidTimes(lamports)).toBe(ids.length);

    // Signed bytes cannot be made distinct: under a second id, in another process, they are refused.
    const { blockhash, lastValidBlockHeight } = await env.client.getLatestBlockhash();
    const { compileMessage } = await import('../../src/solana/index.js');
    const { signMessagePartsAsync } = await import('../../src/solana/inputs.js');
    const tip = transferInstruction(env.payer.address, DEFAULT_TIP_ACCOUNTS[0]!, 1_000_000n);
    const { computeUnitPriceInstruction } = await import('../../src/solana/instructions.js');
    const ixs = [computeUnitPriceInstruction(200_000n), transferInstruction(env.payer.address, to, amount++), tip];
    const parts = compileMessage({ payer: env.payer.address, instructions: ixs, recentBlockhash: blockhash, version: 'legacy', lookupTables: [] });
    const { wire } = await signMessagePartsAsync(parts, [env.payer], AbortSignal.timeout(5_000));
    const first = await a.send({ wire, lastValidBlockHeight }, { id: 'w1' });
    await expect(b.send({ wire, lastValidBlockHeight }, { id: 'w2' })).rejects.toMatchObject({ code: ErrorCodes.INPUT_INVALID, context: { field: 'input.wire' } });
    expect(await b.send({ wire, lastValidBlockHeight }, { id: 'w1' })).toMatchObject({ signature: first.signature, fromJournal: true });
  });

  it('a sender without the signer leaves an intent to one that has it (never abandons it)', { timeout: 60_000 }, async () => {
    const table = `f${n++}`;
    const keyless = createSender({ client: env.client, journal: { postgres: server.url, table, poolSize: 2 }, cuPrice: 200_000, cuLimit: 1_000, pollMs: 50 });
    senders.push(keyless);
    const [it] = intents(1);
    await keyless.enqueue([it!]);
    // 2 s of idleMs 20 would be ~100 claims of it, were it not excluded once found unsignable.
    const summary = await keyless.work({ concurrency: 4, idleMs: 20, signal: AbortSignal.timeout(2_000) });
    expect(summary).toMatchObject({ ended: 0, released: 1 });
    expect(keyless.stats.fleet.claims).toBe(1);
    expect(await keyless.status(it!.id)).toMatchObject({ state: 'created', owner: null });
    const signer = fleetSender(table);
    expect((await signer.work({ drain: true })).confirmed).toBe(1);
    await env.devnet.chain.waitForSlot(env.devnet.chain.slot() + 3);
    expect(paidTimes(it!.lamports)).toBe(1);
  });

  it('resume() takes over what a dead sender left, once its lease lapsed', { timeout: 60_000 }, async () => {
    const table = `f${n++}`;
    const dead = fleetSender(table, 1_500);
    const list = intents(6);
    await dead.enqueue(list);
    // A sender that claims and then stops renewing: its process is gone (closing would give the claims back).
    const { openPostgresJournal } = await import('../../src/sender/index.js');
    const raw = await openPostgresJournal({ postgres: server.url, table, leaseMs: 1_500 });
    expect((await raw.claim(6)).length).toBe(6);
    const heir = fleetSender(table, 5_000);
    expect(await heir.resume()).toEqual([]);
    await new Promise((r) => setTimeout(r, 1_700));
    const items = await heir.resume();
    expect(items.map((i) => i.ok)).toEqual(Array(6).fill(true));
    expect(heir.stats.fleet.takeovers).toBe(6);
    // The old holder's records are refused now.
    await expect(raw.append({ op: 'abandoned', id: list[0]!.id, at: Date.now(), reason: 'late' })).rejects.toMatchObject({ code: ErrorCodes.SENDER_LEASE_LOST });
    expect(raw.metrics.fencedRefused).toBe(1);
    await raw.close();
  });
});
