/**
 * `sender.sendBundle` on the devnet's /fast `sendBundle`: the transactions land and confirm as one,
 * each with a CU price and the tip only in the last, on one blockhash; dropped bundles are resent
 * by slot until they land; bad input is named. How a journaled sender keeps a bundle to one landing
 * across crashes: bundle-journal.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TIP_ACCOUNTS } from '../../src/devnet/http/fast.js';
import { createSender, generateSigner, parseTransaction, transferInstruction } from '../../src/sender/index.js';
import { setup, type Env } from '../support/sender.js';

let env: Env;
const fast = { cuPrice: 200_000, cuLimit: 1_000 } as const;
beforeAll(async () => {
  env = await setup(50, 13);
});
afterAll(async () => {
  await env?.stop();
});

const leg = (lamports: bigint) => ({ instructions: [transferInstruction(env.payer.address, generateSigner().address, lamports)], payer: env.payer });
const tipsIn = (keys: readonly string[]): number => keys.filter((k) => DEFAULT_TIP_ACCOUNTS.includes(k)).length;

describe('sender.sendBundle', () => {
  it('three transactions land as one bundle: a CU price in each, the tip once, in the last, one blockhash', async () => {
    const sender = createSender({ client: env.client, ...fast });
    const fastBefore = env.devnet.control.requestLog().filter((e) => e.endpoint === 'fast' && e.method === 'sendBundle').length;
    const out = await sender.sendBundle([leg(1_000_000n), leg(2_000_000n), leg(3_000_000n)]);
    expect(out.signatures).toHaveLength(3);
    expect(out.bundleId).toMatch(/^[0-9a-f]{64}$/);
    expect(out.commitment).toBe('confirmed');
    const txs = out.signatures.map((s) => env.devnet.chain.transaction(s)!);
    for (const tx of txs) {
      expect(tx.err).toBeNull();
      expect(tx.computeUnitPrice).toBe(200_000);
    }
    expect(out.slots).toEqual(txs.map((t) => t.slot));
    expect(txs.map((t) => tipsIn(t.accountKeys))).toEqual([0, 0, 1]);
    expect(new Set(txs.map((t) => Buffer.from(parseTransaction(t.wire).parts.recentBlockhash).toString('hex'))).size).toBe(1);
    const fastAfter = env.devnet.control.requestLog().filter((e) => e.endpoint === 'fast' && e.method === 'sendBundle').length;
    expect(fastAfter - fastBefore).toBe(out.sends);
    await sender.close();
  });

  it('a dropped bundle is resent by slot until it lands, each transaction once', async () => {
    env.devnet.control.setFaults('fast', { dropRate: 0.6 });
    try {
      const sender = createSender({ client: env.client, ...fast, rebroadcastMs: 60_000 });
      for (let k = 0; k < 3; k++) {
        const out = await sender.sendBundle([leg(1_000_000n), leg(1_000_001n)]);
        for (const s of out.signatures) expect(env.devnet.chain.transaction(s)?.err).toBeNull();
      }
      expect(sender.stats.rebroadcasts).toBeGreaterThan(0);
      await sender.close();
    } finally {
      env.devnet.control.setFaults('fast', {});
    }
  });

  it('bad input is named', async () => {
    const sender = createSender({ client: env.client, ...fast });
    await expect(sender.sendBundle([])).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'inputs' } });
    await expect(sender.sendBundle(Array.from({ length: 6 }, () => leg(1_000_000n)))).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'inputs' } });
    await expect(sender.sendBundle([new Uint8Array(10)])).rejects.toMatchObject({ code: 'SENDER_INVALID_TRANSACTION' });
    await sender.close();
  });
});
