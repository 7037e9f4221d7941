/**
 * An intent id is an idempotency key (issue 29 item 4): the same id offered again with other content
 * — other instructions, payer, amount, or other signed bytes — is refused with SENDER_ID_CONFLICT
 * naming the id and the differing part, through `send`, `sendMany` and `enqueue`, in the file journal
 * and the fleet (a real PostgreSQL server), while it runs and after it ended, and after a reopen.
 * The same id with the same content keeps its old answer: one intent, one payment. Before, the second
 * caller was answered "ok" with the first caller's payment.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../src/errors/index.js';
import { createSender, generateSigner, transferInstruction, type SendManyItem, type Sender } from '../../src/sender/index.js';
import { computeUnitPriceInstruction } from '../../src/solana/instructions.js';
import { signMessagePartsAsync } from '../../src/solana/inputs.js';
import { compileMessage } from '../../src/solana/index.js';
import { DEFAULT_TIP_ACCOUNTS } from '../../src/tips.js';
import { executionsByKey } from '../../soak/ledger.js';
import { intentKey } from '../../soak/intents.js';
import { startPostgres, type PostgresServer } from '../support/postgres-server.js';
import { setup, type Env } from '../support/sender.js';

let env: Env;
let server: PostgresServer;
let dir: string;
const to = generateSigner().address;
const other = generateSigner();
let amount = 5_000_000n;
const senders: Sender[] = [];
const fast = { cuPrice: 200_000, cuLimit: 1_000, pollMs: 50, rebroadcastMs: 300 } as const;

beforeAll(async () => {
  [server, env] = await Promise.all([startPostgres(), setup(40)]);
  await env.devnet.control.airdrop(to, 10n ** 9n);
  await env.devnet.control.airdrop(other.address, 10n ** 9n);
  dir = mkdtempSync(join(tmpdir(), 'cairn-idc-'));
}, 60_000);
afterAll(async () => {
  for (const s of senders) await s.close();
  await env?.stop();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const transfer = (lamports: bigint, payer = env.payer) => ({ instructions: [transferInstruction(payer.address, to, lamports)], payer });
const paid = (lamports: bigint, payer = env.payer.address) =>
  (executionsByKey(env.devnet.control.ledger(), payer).get(intentKey(to, lamports)) ?? []).filter((e) => e.ok).length;
const conflict = (id: string, field: string) => ({ code: ErrorCodes.SENDER_ID_CONFLICT, context: { id, field } });

/** Signed bytes of a transfer, as a caller who signs them herself hands them over. */
async function signedTransfer(lamports: bigint): Promise<{ wire: Uint8Array; lastValidBlockHeight: number }> {
  const { blockhash, lastValidBlockHeight } = await env.client.getLatestBlockhash();
  const ixs = [
    computeUnitPriceInstruction(200_000n),
    transferInstruction(env.payer.address, to, lamports),
    transferInstruction(env.payer.address, DEFAULT_TIP_ACCOUNTS[0]!, 1_000_000n),
  ];
  const parts = compileMessage({ payer: env.payer.address, instructions: ixs, recentBlockhash: blockhash, version: 'legacy', lookupTables: [] });
  const { wire } = await signMessagePartsAsync(parts, [env.payer], AbortSignal.timeout(5_000));
  return { wire, lastValidBlockHeight };
}

async function collect(it: AsyncIterable<SendManyItem>): Promise<SendManyItem[]> {
  const out: SendManyItem[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The checks both journals must pass, on senders `make()` creates over one journal. */
async function idempotencyChecks(make: () => Sender): Promise<void> {
  const s = make();
  const a = amount++;
  const b = amount++;
  const first = await s.send(transfer(a), { id: 'k1' });
  // Same content: the same answer, from the journal.
  await expect(s.send(transfer(a), { id: 'k1' })).resolves.toMatchObject({ signature: first.signature });
  // Other amount, other payer: refused, naming the part.
  await expect(s.send(transfer(b), { id: 'k1' })).rejects.toMatchObject(conflict('k1', 'instructions[0].data'));
  await expect(s.send(transfer(a, other), { id: 'k1' })).rejects.toMatchObject(conflict('k1', 'payer'));
  await expect(s.send({ instructions: [...transfer(a).instructions, transferInstruction(env.payer.address, to, 1n)], payer: env.payer }, { id: 'k1' })).rejects.toMatchObject(
    conflict('k1', 'instructions'),
  );
  // While the first caller's intent still runs: refused too, never joined.
  const c = amount++;
  const [x, y] = await Promise.allSettled([s.send(transfer(c), { id: 'k2' }), s.send(transfer(amount++), { id: 'k2' })]);
  expect(x.status).toBe('fulfilled');
  expect(y).toMatchObject({ status: 'rejected', reason: conflict('k2', 'instructions[0].data') });
  // sendMany: the conflicting item is refused, the others go on.
  const d = amount++;
  const items = await collect(s.sendMany([transfer(b), transfer(d)], { idOf: (_, i) => (i === 0 ? 'k1' : 'k3') }));
  items.sort((p, q) => p.index - q.index);
  expect(items[0]).toMatchObject({ ok: false, id: 'k1', error: conflict('k1', 'instructions[0].data') });
  expect(items[1]).toMatchObject({ ok: true, id: 'k3' });
  // Signed bytes: other bytes under a known id are refused; the same bytes answer as before.
  const w1 = await signedTransfer(amount++);
  const w2 = await signedTransfer(amount++);
  const sw = await s.send(w1, { id: 'w1' });
  await expect(s.send(w2, { id: 'w1' })).rejects.toMatchObject(conflict('w1', 'input.wire'));
  await expect(s.send(transfer(b), { id: 'w1' })).rejects.toMatchObject(conflict('w1', 'input'));
  await expect(s.send(w1, { id: 'w1' })).resolves.toMatchObject({ signature: sw.signature });
  await s.close();
  // A sender opened later on the same journal keeps the rule.
  const s2 = make();
  await expect(s2.send(transfer(b), { id: 'k1' })).rejects.toMatchObject(conflict('k1', 'instructions[0].data'));
  await expect(s2.send(transfer(a), { id: 'k1' })).resolves.toMatchObject({ signature: first.signature });
  await env.devnet.chain.waitForSlot(env.devnet.chain.slot() + 3);
  expect([paid(a), paid(b), paid(c), paid(d), paid(a, other.address)]).toEqual([1, 0, 1, 1, 0]);
}

describe('an intent id is an idempotency key: other content under a known id is refused', () => {
  it('file journal: send and sendMany', { timeout: 60_000 }, async () => {
    const path = join(dir, 'sends.jsonl');
    await idempotencyChecks(() => {
      const s = createSender({ client: env.client, ...fast, journal: path });
      senders.push(s);
      return s;
    });
  });

  it('without a journal: a second caller of a running id with other content is refused, never joined', { timeout: 30_000 }, async () => {
    const s = createSender({ client: env.client, ...fast });
    senders.push(s);
    const a = amount++;
    const [x, y] = await Promise.allSettled([s.send(transfer(a), { id: 'n1' }), s.send(transfer(amount++), { id: 'n1' })]);
    expect(x.status).toBe('fulfilled');
    expect(y).toMatchObject({ status: 'rejected', reason: conflict('n1', 'instructions[0].data') });
  });

  it('fleet (PostgreSQL): send, sendMany and enqueue', { timeout: 90_000 }, async () => {
    const journal = { postgres: server.url, table: 'idc', poolSize: 3 };
    const make = () => {
      const s = createSender({ client: env.client, ...fast, journal, signers: [env.payer] });
      senders.push(s);
      return s;
    };
    await idempotencyChecks(make);
    const f = make();
    const e1 = amount++;
    const e2 = amount++;
    const item = (id: string, lamports: bigint) => ({ id, instructions: transfer(lamports).instructions, payer: env.payer.address });
    expect(await f.enqueue([item('e1', e1)])).toEqual({ added: 1, known: 0 });
    expect(await f.enqueue([item('e1', e1)])).toEqual({ added: 0, known: 1 });
    // A conflict refuses the whole call: e2 is not added.
    await expect(f.enqueue([item('e2', e2), item('e1', amount++)])).rejects.toMatchObject(conflict('e1', 'instructions[0].data'));
    expect(await f.status('e2')).toBeUndefined();
    // An id enqueued is known to send: other content refused, the same content driven.
    await expect(f.send(transfer(amount++), { id: 'e1' })).rejects.toMatchObject(conflict('e1', 'instructions[0].data'));
    await expect(f.send(transfer(e1), { id: 'e1' })).resolves.toMatchObject({ id: 'e1' });
    // An id paid through send: enqueue with other content is refused.
    await expect(f.enqueue([item('k1', amount++)])).rejects.toMatchObject(conflict('k1', 'instructions[0].data'));
    await env.devnet.chain.waitForSlot(env.devnet.chain.slot() + 3);
    expect(paid(e1)).toBe(1);
  });
});
