/**
 * Terminal intents read back from the journal (a later process asks for an id that already ended):
 * the error comes back as the class and code it had — `TransactionFailedError` with the on-chain
 * `err` and logs, `BlockhashExpiredError` with both heights, `SENDER_REJECTED` with the host's
 * message — from the `code` and `context` stored in the record, not guessed from its message.
 * Records written before those fields existed are still read.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockhashExpiredError, CairnError, TransactionFailedError } from '../../src/errors/index.js';
import { createSender, generateSigner, transferInstruction, type SendInput } from '../../src/sender/index.js';
import { errorFromJournal } from '../../src/sender/journal/error.js';
import { readJournal } from '../../src/sender/journal/file/journal.js';
import { setup, type Env } from '../support/sender.js';

let env: Env;
const dir = mkdtempSync(join(tmpdir(), 'cairn-replay-'));
const fast = { cuPrice: 200_000, cuLimit: 1_000, pollMs: 50, rebroadcastMs: 300 } as const;

beforeAll(async () => {
  env = await setup(50, 13);
});
afterAll(async () => {
  await env?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Send `input` once with a journal, then ask a NEW sender on the same journal for the same id and content (an id names one content). */
async function replay(
  journal: string,
  id: string,
  input: SendInput,
  first: (input: SendInput) => Promise<unknown>,
  extra: object = {},
): Promise<{ original: unknown; replayed: unknown }> {
  const original = await first(input).catch((e: unknown) => e);
  const again = createSender({ client: env.client, ...fast, journal, ...extra });
  env.devnet.control.clearRequestLog();
  const replayed = await again.send(input, { id }).catch((e: unknown) => e);
  // read back, not sent again
  expect(env.devnet.control.requestLog().filter((e) => e.endpoint === 'fast')).toHaveLength(0);
  await again.close();
  return { original, replayed };
}

describe('journal replay of ended intents', () => {
  it('an on-chain failure comes back as TransactionFailedError with its err and logs', async () => {
    const journal = join(dir, 'failed.jsonl');
    const sender = createSender({ client: env.client, ...fast, journal });
    const poor = generateSigner();
    await env.devnet.control.airdrop(poor.address, 50_000_000n);
    const { original, replayed } = await replay(journal, 'poor-1', { instructions: [transferInstruction(poor.address, generateSigner().address, 10n ** 12n)], payer: poor }, async (input) => {
      try {
        return await sender.send(input, { id: 'poor-1' });
      } finally {
        await sender.close();
      }
    });
    expect(original).toBeInstanceOf(TransactionFailedError);
    expect(replayed).toBeInstanceOf(TransactionFailedError);
    const o = original as TransactionFailedError;
    const r = replayed as TransactionFailedError;
    expect(r.code).toBe('SENDER_TRANSACTION_FAILED');
    expect(r.message).toBe(o.message);
    expect(r.context.signature).toBe(o.context.signature);
    expect(r.context.err).toEqual(o.context.err);
    expect(r.context.slot).toBe(o.context.slot);
    expect(r.context.logs).toEqual(o.context.logs);
    expect(r.context).toMatchObject({ id: 'poor-1', fromJournal: true });
  });

  it('a proven expiry comes back as BlockhashExpiredError with both heights', async () => {
    const journal = join(dir, 'expired.jsonl');
    const sender = createSender({ client: env.client, ...fast, journal });
    env.devnet.chain.setSlotMs(5);
    env.devnet.control.setFaults('fast', { dropRate: 1 });
    let result;
    try {
      result = await replay(journal, 'exp-1', { instructions: [transferInstruction(env.payer.address, generateSigner().address, 1_000_000n)], payer: env.payer }, async (input) => {
        try {
          return await sender.send(input, { id: 'exp-1' });
        } finally {
          env.devnet.control.setFaults('fast', {});
          env.devnet.chain.setSlotMs(50);
          await sender.close();
        }
      });
    } finally {
      env.devnet.control.setFaults('fast', {});
      env.devnet.chain.setSlotMs(50);
    }
    const { original, replayed } = result;
    expect(original).toBeInstanceOf(BlockhashExpiredError);
    expect(replayed).toBeInstanceOf(BlockhashExpiredError);
    const o = (original as BlockhashExpiredError).context;
    const r = (replayed as BlockhashExpiredError).context;
    expect(r.signature).toBe(o.signature);
    expect(r.lastValidBlockHeight).toBe(o.lastValidBlockHeight);
    expect(r.blockHeight).toBe(o.blockHeight);
    expect(r.blockHeight).toBeGreaterThan(r.lastValidBlockHeight);
  });

  it('a /fast refusal comes back as SENDER_REJECTED with the host message', async () => {
    const journal = join(dir, 'rejected.jsonl');
    const low = { minTipLamports: { dual: 1_000 }, tip: 1_000 } as const;
    const sender = createSender({ client: env.client, ...fast, ...low, journal });
    const { original, replayed } = await replay(journal, 'rej-1', { instructions: [transferInstruction(env.payer.address, generateSigner().address, 1_000_000n)], payer: env.payer }, async (input) => {
      try {
        return await sender.send(input, { id: 'rej-1' });
      } finally {
        await sender.close();
      }
    });
    expect(original).toMatchObject({ code: 'SENDER_REJECTED' });
    expect(replayed).toBeInstanceOf(CairnError);
    expect(replayed).toMatchObject({ code: 'SENDER_REJECTED', message: (original as Error).message });
    expect((replayed as CairnError).context).toMatchObject({ host: (original as CairnError<'SENDER_REJECTED'>).context.host, fromJournal: true });
    // the record carries the code and context
    const rec = readJournal(journal).find((r) => r.op === 'failed');
    expect(rec).toMatchObject({ code: 'SENDER_REJECTED', context: { host: expect.stringMatching(/tip/i) } });
  });

  it('records written before code/context existed are still read', async () => {
    const journal = join(dir, 'old.jsonl');
    const old = [
      { op: 'created', id: 'o1', at: 1 },
      { op: 'signed', id: 'o1', at: 2, signature: 'S1', wire: 'AA==', lastValidBlockHeight: 10, attempt: 1 },
      { op: 'failed', id: 'o1', at: 3, signature: 'S1', error: 'transaction S1 expired: block height 12 passed its last valid block height 10' },
      { op: 'created', id: 'o2', at: 4 },
      { op: 'failed', id: 'o2', at: 5, signature: 'S2', slot: 4, error: 'transaction S2 failed on chain in slot 4' },
      { op: 'created', id: 'o3', at: 6 },
      { op: 'abandoned', id: 'o3', at: 7, reason: 'no plan to build from (never sent)' },
    ];
    writeFileSync(journal, old.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const sender = createSender({ client: env.client, ...fast, journal });
    const ask = (id: string) =>
      sender.send({ instructions: [transferInstruction(env.payer.address, generateSigner().address, 1)], payer: env.payer }, { id }).catch((e: unknown) => e);
    expect(await ask('o1')).toMatchObject({ code: 'SENDER_BLOCKHASH_EXPIRED', context: { signature: 'S1', fromJournal: true } });
    expect(await ask('o2')).toMatchObject({ code: 'SENDER_TRANSACTION_FAILED', context: { signature: 'S2' } });
    expect(await ask('o3')).toMatchObject({ code: 'SENDER_JOURNAL', message: /never sent/ });
    await sender.close();
  });

  it('errorFromJournal rebuilds an input error with its field, and an unknown code like an old record', () => {
    const e = errorFromJournal({ op: 'failed', id: 'x', at: 1, error: '"input.payer": expected a signer', code: 'INPUT_INVALID', context: { field: 'input.payer' } }, 'x');
    expect(e.code).toBe('INPUT_INVALID');
    expect(e.message).toBe('"input.payer": expected a signer');
    expect(e.context).toMatchObject({ field: 'input.payer', id: 'x', fromJournal: true });
    const u = errorFromJournal({ op: 'failed', id: 'y', at: 1, error: 'boom', code: 'NOT_A_CODE' }, 'y');
    expect(u.code).toBe('SENDER_TRANSACTION_FAILED');
  });
});
