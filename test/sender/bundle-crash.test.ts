/**
 * A journaled bundle across crashes (issue 33 item 4): a child process sends one bundle through a
 * file journal and is SIGKILLed — after signing and before sending; after sending and before it saw
 * anything land (the bundle landing with nobody watching, or lost on the way); after signing, with
 * the blockhash expiring before the restart. A new sender on the journal resumes it, and the devnet's
 * ledger judges: every transfer of the bundle executed exactly once. The journal must show how: the
 * same signed bytes carried over the crash, and a new signed set only after the old one's expiry was
 * proven. Offered again under its id, the bundle answers the first outcome.
 * Without the signed record durable before the first send, resume() signs a second bundle: the
 * bundle that landed after the kill and the new one both pay (the second case fails).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender, generateSigner, readJournal, transferInstruction, type JournalRecord, type Sender } from '../../src/sender/index.js';
import { executionsByKey } from '../../soak/ledger.js';
import { intentKey } from '../../soak/intents.js';
import { runUntil } from '../support/child-lines.js';
import { setup, type Env } from '../support/sender.js';

const child = join(import.meta.dirname, '..', 'support', 'children', 'bundle-child.ts');
const dir = mkdtempSync(join(tmpdir(), 'cairn-bundle-crash-'));
let env: Env;
const to = generateSigner().address;
let amount = 11_000_000n;

beforeAll(async () => {
  // 20 ms slots: a blockhash outlives its 150 blocks in ~3 s.
  env = await setup(20, 34);
  await env.devnet.control.airdrop(to, 10n ** 9n);
});
afterAll(async () => {
  await env?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const paid = (lamports: bigint) => (executionsByKey(env.devnet.control.ledger(), env.payer.address).get(intentKey(to, lamports)) ?? []).filter((e) => e.ok);
const settle = () => env.devnet.chain.waitForSlot(env.devnet.chain.slot() + 5);
const signedSets = (path: string, id: string) =>
  readJournal(path)
    .filter((r): r is Extract<JournalRecord, { op: 'signed' }> => r.id === id && r.op === 'signed')
    .map((r) => ({ signatures: r.bundle!.map((t) => t.signature), lastValidBlockHeight: r.lastValidBlockHeight! }));

/** One bundle of three transfers, sent by a child until the line `killAt`, then SIGKILL. */
async function crashed(name: string, killAt: string, vars: Record<string, string> = {}) {
  const path = join(dir, `${name}.jsonl`);
  const lamports = [amount++, amount++, amount++];
  const run = await runUntil(
    child,
    { DEVNET_URL: env.devnet.url, PAYER: Buffer.from(env.payer.secretKey()).toString('hex'), TO: to, AMOUNTS: lamports.join(','), JOURNAL: path, ID: name, ACTION: 'send', ...vars },
    (line) => line.startsWith(killAt),
  );
  expect(run.killed).toBe(true);
  return { path, lamports, id: name, run };
}

/** The sender of the process that comes back: the same journal and key. */
function restarted(path: string): Sender {
  return createSender({ client: env.client, journal: path, cuPrice: 200_000, cuLimit: 1_000, pollMs: 30, rebroadcastMs: 300, onExpired: 'resign', signers: [env.payer] });
}

/** Resume, then offer the bundle again under its id: one ok item naming the bundle, and the same answer again. */
async function resumeAndOffer(path: string, id: string, lamports: bigint[]) {
  const s = restarted(path);
  const items = await s.resume();
  expect(items.map((i) => (i.ok ? i.id : `${i.id}: ${i.error.message}`))).toEqual([id]);
  const outcome = items[0]!.ok ? items[0]!.outcome : undefined;
  expect(outcome?.bundle?.signatures).toHaveLength(3);
  const again = await s.sendBundle(
    lamports.map((l) => ({ instructions: [transferInstruction(env.payer.address, to, l)], payer: env.payer })),
    { id },
  );
  expect(again).toMatchObject({ id, fromJournal: true, signatures: outcome!.bundle!.signatures, slots: outcome!.bundle!.slots });
  await s.close();
  await settle();
  return outcome!;
}

describe('a journaled bundle killed mid-flight (SIGKILL)', () => {
  it('after signing, before sending: resumed with the bytes signed before the crash, every transfer paid once', { timeout: 60_000 }, async () => {
    const { path, lamports, id } = await crashed('signed-not-sent', 'submitting', { HOLD: '1' });
    const before = signedSets(path, id);
    expect(before).toHaveLength(1);
    await settle();
    for (const l of lamports) expect(paid(l)).toHaveLength(0);
    const outcome = await resumeAndOffer(path, id, lamports);
    expect(outcome.bundle!.signatures).toEqual(before[0]!.signatures);
    expect(signedSets(path, id)).toHaveLength(1);
    for (const [i, l] of lamports.entries()) expect(paid(l).map((e) => e.signature)).toEqual([before[0]!.signatures[i]]);
  });

  it('after sending, before it was seen landing: the bundle landed with nobody watching; resume confirms it, nothing is paid twice', { timeout: 60_000 }, async () => {
    const { path, lamports, id } = await crashed('sent-landed', 'sent', { BLIND: '1' });
    const before = signedSets(path, id);
    await settle();
    // landed after the kill: the journal still holds it as signed
    for (const l of lamports) expect(paid(l)).toHaveLength(1);
    expect(readJournal(path).filter((r) => r.id === id).map((r) => r.op)).toEqual(['created', 'signed']);
    const outcome = await resumeAndOffer(path, id, lamports);
    for (const l of lamports) expect(paid(l)).toHaveLength(1);
    expect(outcome.bundle!.signatures).toEqual(before[0]!.signatures);
    for (const [i, l] of lamports.entries()) expect(paid(l).map((e) => e.signature)).toEqual([before[0]!.signatures[i]]);
  });

  it('after sending, with the bundle lost on the way: resume sends the same bytes again, every transfer paid once', { timeout: 60_000 }, async () => {
    env.devnet.control.setFaults('fast', { dropRate: 1 });
    let crash;
    try {
      crash = await crashed('sent-lost', 'sent', { BLIND: '1' });
    } finally {
      env.devnet.control.setFaults('fast', {});
    }
    const { path, lamports, id } = crash;
    await settle();
    for (const l of lamports) expect(paid(l)).toHaveLength(0);
    const before = signedSets(path, id);
    const outcome = await resumeAndOffer(path, id, lamports);
    for (const l of lamports) expect(paid(l)).toHaveLength(1);
    expect(outcome.bundle!.signatures).toEqual(before[0]!.signatures);
    expect(signedSets(path, id)).toHaveLength(1);
  });

  it('after signing, the blockhash expiring before the restart: the expiry is proven, then the bundle is signed anew and paid once', { timeout: 60_000 }, async () => {
    const { path, lamports, id } = await crashed('signed-expired', 'submitting', { HOLD: '1' });
    const [first] = signedSets(path, id);
    // wait out the signed set's window while nobody runs
    while ((await env.client.getBlockHeight()) <= first!.lastValidBlockHeight + 2) await env.devnet.chain.waitForSlot(env.devnet.chain.slot() + 10);
    const outcome = await resumeAndOffer(path, id, lamports);
    const sets = signedSets(path, id);
    expect(sets).toHaveLength(2);
    expect(outcome.bundle!.signatures).toEqual(sets[1]!.signatures);
    const recs = readJournal(path).filter((r) => r.id === id);
    const expired = recs.findIndex((r) => r.op === 'expired');
    expect((recs[expired] as Extract<JournalRecord, { op: 'expired' }>).signatures).toEqual(first!.signatures);
    expect(recs.map((r) => r.op).indexOf('signed', expired)).toBeGreaterThan(expired);
    for (const [i, l] of lamports.entries()) expect(paid(l).map((e) => e.signature)).toEqual([sets[1]!.signatures[i]]);
  });
});
