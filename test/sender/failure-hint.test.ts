/**
 * The README's first send, as a new user writes it wrong: 5,000 lamports to a new address fails with
 * `InsufficientFundsForRent`. The library's error says why and what to send (the CLI already did),
 * whether the failure is seen on chain (a fixed CU limit: the transaction lands and fails) or in the
 * simulation that sizes the CU limit; and the minimum it names is the devnet's own figure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCairnError } from '../../src/errors/index.js';
import { createClient } from '../../src/rpc/client/create-client.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { failureHint, RENT_EXEMPT_MINIMUM_NO_DATA } from '../../src/sender/intent/failure-hint.js';
import { createSender, generateSigner, transferInstruction } from '../../src/sender/index.js';

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ port: 0, slotMs: 50 });
}, 60_000);
afterAll(async () => {
  await devnet?.stop();
});

describe('a transfer below the rent-exempt minimum to a new address', () => {
  it.each([
    ['on chain (fixed CU limit)', { cuLimit: 1_000 }],
    ['in the CU simulation', {}],
  ] as const)('fails %s with a hint naming the recipient and the minimum', async (_, limit) => {
    const payer = generateSigner();
    await devnet.control.airdrop(payer.address, 10n ** 9n);
    const to = generateSigner().address;
    const sender = createSender({ url: devnet.url, cuPrice: 200_000, pollMs: 50, ...limit });
    try {
      const e = await sender.send({ instructions: [transferInstruction(payer.address, to, 5_000n)], payer }).catch((x: unknown) => x);
      expect(isCairnError(e, 'SENDER_TRANSACTION_FAILED')).toBe(true);
      const message = (e as Error).message;
      expect(message).toMatch(/InsufficientFundsForRent/);
      // the index is the account's place in the transaction (the draft that sizes the CU limit orders them differently)
      expect(message).toMatch(new RegExp(`hint: account \\d+ \\(${to}\\) would be left with fewer lamports`));
      expect(message).toContain('890,880 lamports');
    } finally {
      await sender.close();
    }
  });

  it("names the devnet's own minimum for an account with no data", async () => {
    const client = createClient({ url: devnet.url });
    try {
      expect(BigInt(await client.getMinimumBalanceForRentExemption(0))).toBe(RENT_EXEMPT_MINIMUM_NO_DATA);
    } finally {
      await client.close();
    }
  });

  it('adds nothing to other failures, or to an error it cannot read', () => {
    expect(failureHint({ InstructionError: [0, { Custom: 1 }] })).toBe('');
    expect(failureHint('AccountInUse')).toBe('');
    expect(failureHint({ InsufficientFundsForRent: { account_index: 'x' } })).toBe('');
    expect(failureHint({ InsufficientFundsForRent: { account_index: 2 } }, new Uint8Array([1, 2, 3]))).toMatch(/^; hint: account 2 would/);
  });
});
