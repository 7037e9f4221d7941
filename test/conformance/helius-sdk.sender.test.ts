/**
 * helius-sdk 3.2's `tx.sendTransactionWithSender` against the devnet, as a user calls it: no tip
 * amount (the SDK picks it: the tip-floor feed, refused here, else the tier's minimum), dual routing
 * through the global https host and swqos-only through a regional http host, 20 sends out of 20 each,
 * at the devnet's default 400 ms slots and at 100 ms slots. The SDK builds (simulation for compute
 * units, getPriorityFeeEstimate, a tip to one of its ten tip accounts), posts to `/fast` and polls
 * getSignatureStatuses and getBlockHeight until confirmed; each landed transaction is checked on
 * the devnet's ledger (no error, the tip paid exactly). `sendBundleWithSender` posts `sendBundle` to
 * the same host.
 */
import { heliusOnDevnet, type HeliusOnDevnet } from '../support/helius-sdk.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type AccountSignerMeta,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { MIN_TIP_LAMPORTS_MAX, MIN_TIP_LAMPORTS_SWQOS, SENDER_TIP_ACCOUNTS } from 'helius-sdk/transactions/types';

const SYSTEM = address('11111111111111111111111111111111');
const TIP_FLOOR_URL = 'https://bundles.jito.wtf/api/v1/bundles/tip_floor';
const RUNS = 20;

const u64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
};
/** A System transfer built by hand (@solana-program/system is the SDK's dependency, not ours). */
const transfer = (from: KeyPairSigner, to: Address, amount: bigint): Instruction => {
  const payer: AccountSignerMeta = { address: from.address, role: AccountRole.WRITABLE_SIGNER, signer: from };
  return { programAddress: SYSTEM, accounts: [payer, { address: to, role: AccountRole.WRITABLE }], data: Uint8Array.from([2, 0, 0, 0, ...u64(amount)]) };
};

/** Which tip account a landed transaction paid, and how much (its balance change). */
function tipPaid(h: HeliusOnDevnet, signature: string): { account: string; lamports: number } {
  const tx = h.devnet.control.ledger().find((t) => t.signature === signature);
  expect(tx, `${signature} is on the ledger`).toBeDefined();
  expect(tx!.err).toBeNull();
  const i = tx!.accountKeys.findIndex((k) => (SENDER_TIP_ACCOUNTS as readonly string[]).includes(k));
  expect(i, 'a tip account is in the transaction').toBeGreaterThan(0);
  expect(tx!.computeUnitPrice, 'a compute-unit price instruction is present').toBeGreaterThanOrEqual(0);
  return { account: tx!.accountKeys[i]!, lamports: tx!.postBalances[i]! - tx!.preBalances[i]! };
}

for (const slotMs of [undefined, 100] as const) {
  describe(`sendTransactionWithSender, ${slotMs ?? 'default (400)'} ms slots`, () => {
    let h: HeliusOnDevnet;
    let payer: KeyPairSigner;

    beforeAll(async () => {
      h = await heliusOnDevnet(slotMs === undefined ? {} : { slotMs });
      payer = await generateKeyPairSigner();
      await h.devnet.control.airdrop(payer.address, 100n * 10n ** 9n);
    });
    afterAll(async () => {
      await h?.stop();
    });

    for (const mode of [
      { name: 'dual routing (Default region, https)', swqosOnly: false, region: 'Default', host: 'https://sender.helius-rpc.com/fast', minTip: MIN_TIP_LAMPORTS_MAX },
      { name: 'swqos-only (US_EAST region, http)', swqosOnly: true, region: 'US_EAST', host: 'http://ewr-sender.helius-rpc.com/fast?swqos_only=true', minTip: MIN_TIP_LAMPORTS_SWQOS },
    ] as const) {
      it(`${mode.name}: ${RUNS} of ${RUNS} land and confirm with the minimum tip`, async () => {
        // a lazy namespace: never `await h.helius.tx` (the proxy answers `then` as a method)
        const tx = h.helius.tx;
        const landed: string[] = [];
        const failures: string[] = [];
        const refusedBefore = h.redirect.refused.length;
        const fastBefore = h.redirect.redirected.filter((r) => r.url === mode.host).length;
        // five sends in flight at a time, as a bot sends: the 20 still each go through the SDK's whole
        // flow (blockhash, simulation, fee, send, poll), and the test spends a quarter of the wall time
        const sendOne = async (i: number): Promise<void> => {
          const to = (await generateKeyPairSigner()).address;
          try {
            const sig = await tx.sendTransactionWithSender({
              signers: [payer],
              instructions: [transfer(payer, to, 1_000_000n + BigInt(i))],
              region: mode.region,
              swqosOnly: mode.swqosOnly,
              // the SDK's default is a 2 s poll; a user in a hurry shortens it, and 20 sends stay short
              pollIntervalMs: 200,
              pollTimeoutMs: 30_000,
            });
            landed.push(sig);
          } catch (e) {
            failures.push(`#${i}: ${(e as Error).message}`);
          }
        };
        for (let i = 0; i < RUNS; i += 5) await Promise.all([0, 1, 2, 3, 4].filter((k) => i + k < RUNS).map((k) => sendOne(i + k)));
        expect(failures).toEqual([]);
        expect(landed).toHaveLength(RUNS);
        for (const sig of landed) expect(tipPaid(h, sig).lamports).toBe(Number(mode.minTip));
        // every send went to the SDK's own sender host, redirected; the only refusal is the tip-floor feed
        expect(h.redirect.redirected.filter((r) => r.url === mode.host).length - fastBefore).toBe(RUNS);
        expect(new Set(h.redirect.refused.slice(refusedBefore))).toEqual(new Set([TIP_FLOOR_URL]));
      });
    }
  });
}

describe("sendTransactionWithSender's compute-unit estimate (an SDK shortfall the devnet reproduces)", () => {
  let h: HeliusOnDevnet;
  let payer: KeyPairSigner;
  beforeAll(async () => {
    h = await heliusOnDevnet({ slotMs: 50 });
    payer = await generateKeyPairSigner();
    await h.devnet.control.airdrop(payer.address, 10n * 10n ** 9n);
  });
  afterAll(async () => {
    await h?.stop();
  });

  // The SDK simulates a draft carrying one compute-budget instruction (kit's SetComputeUnitLimit, 150
  // CUs) and sends a transaction carrying two (price and limit): 150 CUs more than it measured. Its
  // 10% buffer (floor 1,000) covers that only below ~850 or above 1,500 measured CUs. Five transfers
  // and the tip measure 1,050 (limit 1,155) and need 1,200: the tip transfer (instruction 7) runs out, on a real
  // cluster as on LiteSVM, which charges builtins the same 150 CUs each.
  it('five transfers fail on-chain with ComputationalBudgetExceeded at the default 10% buffer, and land with 20%', async () => {
    const five = async () => Promise.all([1, 2, 3, 4, 5].map(async (i) => transfer(payer, (await generateKeyPairSigner()).address, 1_000_000n + BigInt(i))));
    const args = { signers: [payer], region: 'Default' as const, tipAmount: Number(MIN_TIP_LAMPORTS_MAX), pollIntervalMs: 200 };
    const failed = await h.helius.tx.sendTransactionWithSender({ ...args, instructions: await five() }).catch((e: Error) => e);
    expect(String(failed)).toMatch(/failed on-chain: \{"InstructionError":\["7","ComputationalBudgetExceeded"\]\}/);
    const last = h.devnet.control.ledger().at(-1)!;
    expect(last.computeUnitsConsumed).toBe(1155);
    const sig = await h.helius.tx.sendTransactionWithSender({ ...args, instructions: await five(), bufferPct: 0.2 });
    expect(tipPaid(h, sig).lamports).toBe(Number(MIN_TIP_LAMPORTS_MAX));
    expect(h.devnet.control.ledger().find((t) => t.signature === sig)!.computeUnitsConsumed).toBe(1200);
  });
});

describe('sendBundleWithSender: a Sender Max bundle on /fast', () => {
  let h: HeliusOnDevnet;
  let payer: KeyPairSigner;
  beforeAll(async () => {
    h = await heliusOnDevnet({ slotMs: 50 });
    payer = await generateKeyPairSigner();
    await h.devnet.control.airdrop(payer.address, 10n * 10n ** 9n);
  });
  afterAll(async () => {
    await h?.stop();
  });

  const COMPUTE_BUDGET = address('ComputeBudget111111111111111111111111111111');
  const cuPrice = (microLamports: bigint): Instruction => ({ programAddress: COMPUTE_BUDGET, accounts: [], data: Uint8Array.from([3, ...u64(microLamports)]) });
  const signed = async (instructions: Instruction[]) => {
    // the SDK answers the RPC's whole { context, value }
    const { value } = (await h.helius.getLatestBlockhash()) as unknown as { value: Parameters<typeof setTransactionMessageLifetimeUsingBlockhash>[0] };
    const message = appendTransactionMessageInstructions(
      instructions,
      setTransactionMessageLifetimeUsingBlockhash(value, setTransactionMessageFeePayerSigner(payer, createTransactionMessage({ version: 0 }))),
    );
    return signTransactionMessageWithSigners(message);
  };

  it('two transactions, the tip in one of them: the SDK posts sendBundle and each lands, in order', async () => {
    const a = await signed([cuPrice(1_000n), transfer(payer, (await generateKeyPairSigner()).address, 1_000_000n)]);
    const b = await signed([
      cuPrice(1_000n),
      transfer(payer, (await generateKeyPairSigner()).address, 2_000_000n),
      transfer(payer, address(SENDER_TIP_ACCOUNTS[0]!), MIN_TIP_LAMPORTS_MAX),
    ]);
    const sent = await h.helius.tx.sendBundleWithSender([a, b], { region: 'Default', pollIntervalMs: 100 });
    expect(sent).toHaveLength(2);
    const ledger = h.devnet.control.ledger();
    const at = (sent as string[]).map((sig: string) => ledger.findIndex((t) => t.signature === sig));
    expect(at.every((i: number) => i >= 0)).toBe(true);
    expect(at[0]!).toBeLessThan(at[1]!);
    expect(tipPaid(h, sent[1]!).lamports).toBe(Number(MIN_TIP_LAMPORTS_MAX));
  });
});
