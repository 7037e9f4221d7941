/**
 * The sender's money-safety promises, each tried where it broke (issue 18), against the real devnet:
 * - identical inputs are separate payments: each signs its own transaction and each lands;
 * - what the caller is told and what the journal says agree: an intent reported failed never lands
 *   later through resume(), and retry(id) is the explicit way to try a transient failure again;
 * - a full disk never lands an intent twice and never reports "failed" for what may still land;
 * - two senders cannot share one journal.
 * Truth is the devnet's ledger (what executed), never what the sender says.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CairnError } from '../../src/errors/index.js';
import { addressBytes } from '../../src/solana/address.js';
import { createSender, generateSigner, resolveSenderConfig, transferInstruction, type SendManyItem } from '../../src/sender/index.js';
import { createClient } from '../../src/rpc/client/create-client.js';
import { fullDisk } from '../support/full-disk.js';
import { recording, setup, sleep, transferTo, type Env } from '../support/sender.js';

let env: Env;
const dir = mkdtempSync(join(tmpdir(), 'cairn-money-'));
const fast = { cuPrice: 200_000, cuLimit: 1_000, pollMs: 50, rebroadcastMs: 300 } as const;

beforeAll(async () => {
  env = await setup(50, 18);
  for (const t of resolveSenderConfig({}).tipAccounts) await env.devnet.control.airdrop(t, 10n ** 9n);
});
afterAll(async () => {
  await env?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Executed transfers to `to`: signature and lamports, from the ledger. */
function landedTo(to: string): { signature: string; lamports: bigint }[] {
  const bytes = addressBytes(to, 'to');
  return env.devnet.control
    .ledger()
    .map((tx) => ({ signature: tx.signature, lamports: transferTo(tx.wire, bytes) }))
    .filter((x): x is { signature: string; lamports: bigint } => x.lamports !== undefined);
}

async function collect(it: AsyncIterable<SendManyItem>): Promise<SendManyItem[]> {
  const out: SendManyItem[] = [];
  for await (const r of it) out.push(r);
  return out.sort((a, b) => a.index - b.index);
}

describe('identical inputs are separate payments', () => {
  for (const concurrency of [256, 1]) {
    it(`20 identical transfers through sendMany at concurrency ${concurrency}: 20 ok, 20 distinct signatures, 20 landed`, async () => {
      const sender = createSender({ client: env.client, ...fast });
      const to = generateSigner().address;
      const input = { instructions: [transferInstruction(env.payer.address, to, 1_000_000n)], payer: env.payer };
      const items = await collect(sender.sendMany(Array.from({ length: 20 }, () => input), { concurrency }));
      await sender.close();
      expect(items.filter((r) => r.ok)).toHaveLength(20);
      const sigs = new Set(items.map((r) => (r.ok ? r.outcome.signature : '')));
      expect(sigs.size).toBe(20);
      const landed = landedTo(to);
      expect(landed).toHaveLength(20);
      expect(new Set(landed.map((l) => l.signature))).toEqual(sigs);
      expect(env.devnet.chain.balance(to)).toBe(20_000_000n);
    });
  }

  it('identical transfers sent one after another within one blockhash are distinct too, and an explicit shared id is one intent', async () => {
    const sender = createSender({ client: env.client, ...fast, blockhashTtlMs: 60_000 });
    const to = generateSigner().address;
    const input = { instructions: [transferInstruction(env.payer.address, to, 2_000_000n)], payer: env.payer };
    const a = await sender.send(input);
    const b = await sender.send(input);
    expect(a.signature).not.toBe(b.signature);
    const same = await collect(sender.sendMany([input, input, input], { idOf: () => 'one-intent' }));
    await sender.close();
    expect(same.every((r) => r.ok && r.id === 'one-intent')).toBe(true);
    expect(new Set(same.map((r) => (r.ok ? r.outcome.signature : '')))).toHaveProperty('size', 1);
    expect(landedTo(to)).toHaveLength(3);
    expect(env.devnet.chain.balance(to)).toBe(6_000_000n);
  });
});

describe('the caller and the journal agree', () => {
  it('intents whose blockhash fetch failed are failed in the journal: resume() lands none of them; retry(id) lands one once', async () => {
    const journal = join(dir, 'transient.jsonl');
    const client = createClient({ url: env.devnet.url, retry: { retries: 0 } });
    const sender = createSender({ client, ...fast, journal, signers: [env.payer] });
    const to = generateSigner().address;
    env.devnet.control.setFaults('rpc', { serverErrorRate: 1 });
    let items: SendManyItem[];
    try {
      items = await collect(
        sender.sendMany(
          Array.from({ length: 12 }, (_, i) => ({ instructions: [transferInstruction(env.payer.address, to, 1_000_000n + BigInt(i))], payer: env.payer })),
          { idOf: (_, i) => `t-${i}` },
        ),
      );
    } finally {
      env.devnet.control.setFaults('rpc', {});
    }
    expect(items.every((r) => !r.ok && (r.error as CairnError).code === 'RPC_SERVER')).toBe(true);
    const resumed = await sender.resume();
    expect(resumed).toEqual([]);
    // asking again under the same id (and content: an id names one content) answers the same failure, without sending
    await expect(sender.send({ instructions: [transferInstruction(env.payer.address, to, 1_000_000n)], payer: env.payer }, { id: 't-0' })).rejects.toMatchObject({ code: 'RPC_SERVER' });
    await new Promise((r) => setTimeout(r, 1_000)); // anything that was going to land has landed
    expect(landedTo(to)).toHaveLength(0);
    const again = await sender.retry('t-3');
    expect(again.signature).toBeTruthy();
    await expect(sender.retry('t-3')).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'id' } }); // landed: a retry would pay twice
    await sender.close();
    // a new process (a new sender on the journal) finds nothing to resume either
    const later = createSender({ client: env.client, ...fast, journal, signers: [env.payer] });
    expect(await later.resume()).toEqual([]);
    await later.close();
    await client.close();
    expect(landedTo(to).map((l) => l.lamports)).toEqual([1_000_003n]);
  });
});

describe('a full disk under the journal', () => {
  it('never lands an intent twice, never says "failed" for one that lands, and resume() after space returns ends every pending intent', async () => {
    const journal = join(dir, 'full.jsonl');
    const disk = fullDisk(24_000); // room for roughly ten intents' records
    const to = generateSigner().address;
    const amount = (i: number): bigint => 1_000_000n + BigInt(i);
    const sender = createSender({ client: env.client, ...fast, journal: { path: journal, file: disk.open }, signers: [env.payer] });
    const items = await collect(
      sender.sendMany(
        Array.from({ length: 40 }, (_, i) => ({ instructions: [transferInstruction(env.payer.address, to, amount(i))], payer: env.payer })),
        { idOf: (_, i) => `f-${i}`, concurrency: 8 },
      ),
    );
    await sender.close();
    expect(disk.openFiles).toBe(0);
    const ok = items.filter((r) => r.ok);
    const failed = items.filter((r) => !r.ok);
    expect(ok.length).toBeGreaterThan(0);
    expect(failed.length).toBeGreaterThan(0);
    for (const r of failed) {
      // every error names the intent and what is true of it: settled (JOURNAL_FAILED) or not yet (PENDING)
      expect(['SENDER_JOURNAL_FAILED', 'SENDER_PENDING']).toContain((r.error as CairnError).code);
      expect(r.error).toMatchObject({ context: { id: r.id } });
      const c = (r.error as CairnError<'SENDER_JOURNAL_FAILED' | 'SENDER_PENDING'>).context;
      if ((r.error as CairnError).code === 'SENDER_PENDING') expect(['none', 'confirmed', 'failed', 'abandoned']).not.toContain(c.journalState);
      expect(typeof c.state).toBe('string');
      expect(typeof c.journalState).toBe('string');
      if (c.state === 'confirmed') expect(c.signature).toBeTruthy();
    }
    await new Promise((r) => setTimeout(r, 800));
    // space returns; a new sender (as after a restart) resumes what the journal holds
    disk.free(10_000_000);
    const next = createSender({ client: env.client, ...fast, journal: { path: journal, file: disk.open }, signers: [env.payer] });
    await next.resume();
    await next.close();
    await new Promise((r) => setTimeout(r, 500));
    const landed = landedTo(to);
    const count = new Map<bigint, number>();
    for (const l of landed) count.set(l.lamports, (count.get(l.lamports) ?? 0) + 1);
    for (const [, n] of count) expect(n).toBe(1); // never twice
    for (let i = 0; i < 40; i++) {
      const r = items[i]!;
      const n = count.get(amount(i)) ?? 0;
      if (r.ok) expect(n).toBe(1);
      else {
        const c = (r.error as CairnError<'SENDER_JOURNAL_FAILED' | 'SENDER_PENDING'>).context;
        // nothing durable means nothing was sent and nothing resumes it; a pending one may land, once
        if (c.journalState === 'none') expect(n).toBe(0);
        if (c.state === 'confirmed') expect(n).toBe(1);
        if ((r.error as CairnError).code === 'SENDER_JOURNAL_FAILED' && c.state !== 'confirmed') expect(n).toBe(0);
      }
    }
    expect(disk.openFiles).toBe(0);
  });
});

describe('one sender per journal', () => {
  it('a second sender on the same journal is refused with SENDER_JOURNAL_LOCKED, and works once the first is closed', async () => {
    const journal = join(dir, 'two.jsonl');
    const a = createSender({ client: env.client, ...fast, journal });
    const b = createSender({ client: env.client, ...fast, journal });
    const to = generateSigner().address;
    const input = { instructions: [transferInstruction(env.payer.address, to, 3_000_000n)], payer: env.payer };
    await a.send(input, { id: 'same' });
    await expect(b.send(input, { id: 'same' })).rejects.toMatchObject({ code: 'SENDER_JOURNAL_LOCKED', context: { holder: { pid: process.pid } } });
    await b.close();
    await a.close();
    const c = createSender({ client: env.client, ...fast, journal });
    expect(await c.send(input, { id: 'same' })).toMatchObject({ fromJournal: true });
    await c.close();
    expect(landedTo(to)).toHaveLength(1);
  });
});

describe('nothing outlives its intent', () => {
  it('a rebroadcast waiting out a Retry-After is cut when its intent confirms: nothing is sent after close()', async () => {
    const { rpc, calls } = recording(env.client);
    const sender = createSender({ client: rpc, ...fast, rebroadcastMs: 150 });
    const fastHits = (): number => env.devnet.control.requestLog().filter((e) => e.endpoint === 'fast').length;
    env.devnet.control.setFaults('fast', { dropRate: 1 });
    try {
      const sent = new Promise<void>((r) => sender.on('sent', () => r()));
      const p = sender.send({ instructions: [transferInstruction(env.payer.address, generateSigner().address, 4_000_000n)], payer: env.payer });
      await sent;
      // every rebroadcast from now on is told to come back in 2 s
      env.devnet.control.clearRequestLog();
      env.devnet.control.setFaults('fast', { rateLimitRate: 1, retryAfterSeconds: 2 });
      for (let i = 0; i < 40 && !env.devnet.control.requestLog().some((e) => e.endpoint === 'fast' && e.status === 429); i++) await sleep(50);
      expect(env.devnet.control.requestLog().some((e) => e.endpoint === 'fast' && e.status === 429)).toBe(true);
      // the transaction lands by another path (the RPC host), so the intent confirms meanwhile
      const wire = calls.find((c) => c.method === 'sendTransaction')!.args[0] as Uint8Array;
      const res = await fetch(env.devnet.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [Buffer.from(wire).toString('base64'), { encoding: 'base64' }] }),
      });
      expect(res.status).toBe(200);
      await p;
    } finally {
      env.devnet.control.setFaults('fast', {});
    }
    await sender.close();
    const after = fastHits();
    await sleep(2_500); // past the Retry-After: a rebroadcast still waiting would submit now
    expect(fastHits()).toBe(after);
  });
});
