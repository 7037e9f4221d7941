/**
 * A bundle is ONE intent in the file journal (issue 33 item 4), tried in one process against the
 * devnet, whose ledger is the judge (every transfer of a bundle executed once, or not at all):
 * - its signed record holds every transaction's bytes and is durable before `/fast` first sees them;
 * - the same id offered again answers the first outcome — this sender, and a new one on the journal —
 *   and sends nothing; the id with other content (an amount, the order, a transaction fewer, a single
 *   transaction) is SENDER_ID_CONFLICT naming the part;
 * - one transaction failing on chain ends it failed (never signed again, not retryable);
 * - some transactions landing and the others never (the devnet runs a bundle one transaction at a
 *   time; a real bundle cannot) is SENDER_BUNDLE_PARTIAL, reported, never signed again;
 * - none landing is proven expired first, and only then is the whole bundle signed anew.
 * The crash points (a process killed between signing, sending and landing) are bundle-crash.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/errors/index.js';
import type { CairnClient } from '../../src/rpc/client/create-client.js';
import { createSender, generateSigner, parseTransaction, readJournal, transferInstruction, type JournalRecord, type Sender } from '../../src/sender/index.js';
import { encodeBase58 } from '../../src/solana/base58.js';
import { executionsByKey } from '../../soak/ledger.js';
import { intentKey } from '../../soak/intents.js';
import { setup, type Env } from '../support/sender.js';

let env: Env;
const dir = mkdtempSync(join(tmpdir(), 'cairn-bundle-journal-'));
const to = generateSigner().address;
let amount = 7_000_000n;
const senders: Sender[] = [];
const fast = { cuPrice: 200_000, cuLimit: 1_000, pollMs: 30, rebroadcastMs: 300 } as const;

beforeAll(async () => {
  // 20 ms slots: a blockhash outlives its 150 blocks in ~3 s, so expiry is proven quickly.
  env = await setup(20, 33);
  await env.devnet.control.airdrop(to, 10n ** 9n);
});
afterAll(async () => {
  for (const s of senders) await s.close();
  await env?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const sender = (journal: string, extra: { client?: CairnClient; onExpired?: 'fail' | 'resign' } = {}): Sender => {
  const s = createSender({ client: env.client, ...fast, journal, signers: [env.payer], ...extra });
  senders.push(s);
  return s;
};
const leg = (lamports: bigint, payer = env.payer) => ({ instructions: [transferInstruction(payer.address, to, lamports)], payer });
const amounts = (n: number): bigint[] => Array.from({ length: n }, () => amount++);
/** Successful executions of the transfer of `lamports` (from the payer, to `to`). */
const paid = (lamports: bigint, payer = env.payer.address) =>
  (executionsByKey(env.devnet.control.ledger(), payer).get(intentKey(to, lamports)) ?? []).filter((e) => e.ok).length;
const bundleCalls = () => env.devnet.control.requestLog().filter((e) => e.endpoint === 'fast' && e.method === 'sendBundle').length;
const recordsOf = (path: string, id: string): JournalRecord[] => readJournal(path).filter((r) => r.id === id);
const settle = () => env.devnet.chain.waitForSlot(env.devnet.chain.slot() + 5);

/** The client with `sendBundle` reading the journal as it is called: what is durable when the bytes leave. */
function watching(path: string, id: string): { client: CairnClient; seen: { sent: string[]; durable: string[] }[] } {
  const seen: { sent: string[]; durable: string[] }[] = [];
  const client = new Proxy(env.client, {
    get(target, prop, recv) {
      if (prop !== 'sendBundle') return Reflect.get(target, prop, recv) as unknown;
      return async (wires: Uint8Array[], o?: { signal?: AbortSignal }) => {
        const signed = recordsOf(path, id).filter((r): r is Extract<JournalRecord, { op: 'signed' }> => r.op === 'signed').at(-1);
        const sent = await target.sendBundle(wires, o);
        seen.push({ sent: wires.map((w) => signatureOf(w)), durable: signed?.bundle?.map((t) => t.signature) ?? [] });
        return sent;
      };
    },
  });
  return { client, seen };
}
const signatureOf = (wire: Uint8Array): string => encodeBase58(parseTransaction(wire).signatures[0]!);

describe('a bundle in the file journal', () => {
  it('is one intent: every transaction signed and durable before the first send, confirmed naming every signature; the same id answers the first outcome, nothing sent again', async () => {
    const path = join(dir, 'one.jsonl');
    const lamports = amounts(3);
    const { client, seen } = watching(path, 'b1');
    const a = sender(path, { client });
    const out = await a.sendBundle(lamports.map((l) => leg(l)), { id: 'b1' });
    expect(out).toMatchObject({ id: 'b1', attempts: 1, commitment: 'confirmed' });
    expect(out.signatures).toHaveLength(3);
    // every submission carried exactly the bytes the journal already held
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) expect(s.durable).toEqual(s.sent);
    expect(seen[0]!.sent).toEqual(out.signatures);
    const recs = recordsOf(path, 'b1');
    expect(recs.map((r) => r.op).filter((op) => op !== 'landed')).toEqual(['created', 'signed', 'confirmed']);
    const created = recs[0] as Extract<JournalRecord, { op: 'created' }>;
    expect(created.plans).toHaveLength(3);
    expect(created.key?.bundle).toHaveLength(3);
    const confirmed = recs.at(-1) as Extract<JournalRecord, { op: 'confirmed' }>;
    expect(confirmed.bundle).toEqual({ bundleId: out.bundleId, signatures: out.signatures, slots: out.slots });
    const calls = bundleCalls();
    // the same id, the same content: the first outcome, from this sender and from a new one
    expect((await a.sendBundle(lamports.map((l) => leg(l)), { id: 'b1' })).signatures).toEqual(out.signatures);
    await a.close();
    const b = sender(path);
    const again = await b.sendBundle(lamports.map((l) => leg(l)), { id: 'b1' });
    expect(again).toMatchObject({ id: 'b1', fromJournal: true, signatures: out.signatures, slots: out.slots });
    expect(await b.resume()).toEqual([]);
    expect(bundleCalls()).toBe(calls);
    await settle();
    for (const l of lamports) expect(paid(l)).toBe(1);
  });

  it('the same id with other content is refused, naming the part, and nothing of it is sent', async () => {
    const path = join(dir, 'conflict.jsonl');
    const [x, y] = amounts(2);
    const s = sender(path);
    await s.sendBundle([leg(x!), leg(y!)], { id: 'b2' });
    const one = await s.send(leg(amount++), { id: 's2' });
    const calls = bundleCalls();
    const conflict = (field: string) => ({ code: ErrorCodes.SENDER_ID_CONFLICT, context: { id: 'b2', field } });
    await expect(s.sendBundle([leg(x!), leg(y! + 500_000n)], { id: 'b2' })).rejects.toMatchObject(conflict('inputs[1].instructions[0].data'));
    await expect(s.sendBundle([leg(y!), leg(x!)], { id: 'b2' })).rejects.toMatchObject(conflict('inputs[0].instructions[0].data'));
    await expect(s.sendBundle([leg(x!)], { id: 'b2' })).rejects.toMatchObject(conflict('inputs'));
    await expect(s.sendBundle([leg(x!), leg(y!, generateSigner())], { id: 'b2' })).rejects.toMatchObject(conflict('inputs[1].payer'));
    await expect(s.send(leg(x!), { id: 'b2' })).rejects.toMatchObject(conflict('input'));
    // and a single intent's id is not a bundle's
    await expect(s.sendBundle([leg(x!)], { id: 's2' })).rejects.toMatchObject({ code: ErrorCodes.SENDER_ID_CONFLICT, context: { id: 's2', field: 'inputs' } });
    expect(bundleCalls()).toBe(calls);
    await settle();
    expect([paid(x!), paid(y!), paid(y! + 500_000n)]).toEqual([1, 1, 0]);
    expect(one.bundle).toBeUndefined();
  });

  it('a transaction failing on chain ends the bundle failed, naming it; it is never signed again and retry(id) refuses it', async () => {
    const path = join(dir, 'failed.jsonl');
    const [x] = amounts(1);
    const s = sender(path, { onExpired: 'resign' });
    const err = await s.sendBundle([leg(x!), leg(10n ** 15n)], { id: 'b3' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: ErrorCodes.SENDER_TRANSACTION_FAILED, context: { index: 1 } });
    const signatures = (err as { context: { signatures: string[] } }).context.signatures;
    expect(signatures).toHaveLength(2);
    await expect(s.retry('b3')).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'id' } });
    await expect(s.sendBundle([leg(x!), leg(10n ** 15n)], { id: 'b3' })).rejects.toMatchObject({ code: ErrorCodes.SENDER_TRANSACTION_FAILED, context: { id: 'b3', fromJournal: true, signatures } });
    expect(recordsOf(path, 'b3').filter((r) => r.op === 'signed')).toHaveLength(1);
    await settle();
    // the devnet runs a bundle's transactions one by one: the first paid, once
    expect(paid(x!)).toBe(1);
  });

  it('some transactions landing and the others never is SENDER_BUNDLE_PARTIAL: reported as it is, never signed again, not retryable', async () => {
    const path = join(dir, 'partial.jsonl');
    const [x, y] = amounts(2);
    // The second transaction's payer holds nothing: no fee can be charged, the devnet drops it (as a leader would).
    const broke = generateSigner();
    const s = createSender({ client: env.client, ...fast, journal: path, signers: [env.payer, broke], onExpired: 'resign' });
    senders.push(s);
    const err = await s.sendBundle([leg(x!), leg(y!, broke)], { id: 'b4' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ code: ErrorCodes.SENDER_BUNDLE_PARTIAL, context: { id: 'b4' } });
    const c = (err as { context: { signatures: string[]; landed: string[]; missing: string[]; slots: number[] } }).context;
    expect(c.landed).toEqual([c.signatures[0]]);
    expect(c.missing).toEqual([c.signatures[1]]);
    expect(c.slots).toHaveLength(1);
    // the journal ends it there: one signed set, no expiry that would allow another
    const ops = recordsOf(path, 'b4').map((r) => r.op);
    expect(ops.filter((op) => op === 'signed')).toHaveLength(1);
    expect(ops).not.toContain('expired');
    expect(ops.at(-1)).toBe('failed');
    await expect(s.retry('b4')).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'id' } });
    await expect(s.sendBundle([leg(x!), leg(y!, broke)], { id: 'b4' })).rejects.toMatchObject({ code: ErrorCodes.SENDER_BUNDLE_PARTIAL, context: { fromJournal: true, landed: c.landed } });
    await settle();
    expect(paid(x!)).toBe(1);
    expect(paid(y!, broke.address)).toBe(0);
  });

  it('none of it landing is proven expired before anything is signed again; then the whole bundle is signed anew and lands once', async () => {
    const path = join(dir, 'expired.jsonl');
    const lamports = amounts(2);
    const s = sender(path, { onExpired: 'resign' });
    env.devnet.control.setFaults('fast', { dropRate: 1 });
    const off = s.on('expired', () => env.devnet.control.setFaults('fast', {}));
    let out;
    try {
      out = await s.sendBundle(lamports.map((l) => leg(l)), { id: 'b5' });
    } finally {
      off();
      env.devnet.control.setFaults('fast', {});
    }
    expect(out.attempts).toBe(2);
    const recs = recordsOf(path, 'b5');
    const signed = recs.filter((r): r is Extract<JournalRecord, { op: 'signed' }> => r.op === 'signed');
    expect(signed).toHaveLength(2);
    const expired = recs.find((r): r is Extract<JournalRecord, { op: 'expired' }> => r.op === 'expired')!;
    // the expiry names every signature of the first set, and comes between the two sets
    expect(expired.signatures).toEqual(signed[0]!.bundle!.map((t) => t.signature));
    expect(recs.indexOf(expired)).toBeGreaterThan(recs.indexOf(signed[0]!));
    expect(recs.indexOf(expired)).toBeLessThan(recs.indexOf(signed[1]!));
    expect(signed[1]!.bundle!.map((t) => t.signature)).toEqual(out.signatures);
    await settle();
    for (const l of lamports) expect(paid(l)).toBe(1);
  });
});
