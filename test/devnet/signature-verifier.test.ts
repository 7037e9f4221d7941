/**
 * The devnet's signature pre-check thread: under a burst, signatures are checked off the main thread
 * and LiteSVM skips its own check for those — and only those — the thread found valid. Results must
 * be exactly what LiteSVM alone gives: valid transfers land, a corrupted one never executes and its
 * payer is not charged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createChain } from '../../src/devnet/chain/chain.js';
import type { DevnetChain } from '../../src/devnet/chain/contract.js';
import { VERIFIER_START_QUEUE } from '../../src/devnet/chain/signature-verifier.js';
import { buildTx, LAMPORTS_PER_SOL, newKeypair, waitFor } from '../support/devnet.js';

let chain: DevnetChain | undefined;
afterEach(async () => {
  await chain?.stop();
  chain = undefined;
});

describe('signature pre-check thread', () => {
  it('a burst: valid transfers land pre-verified, a corrupted signature never executes', async () => {
    const payers = Array.from({ length: 4 }, () => newKeypair());
    chain = createChain({
      autoStart: false,
      seed: 11,
      fundedAccounts: payers.map((p) => ({ address: p.publicKey.toBase58(), lamports: 100n * BigInt(LAMPORTS_PER_SOL) })),
    });
    const { blockhash } = chain.latestBlockhash();
    const good: string[] = [];
    const n = VERIFIER_START_QUEUE + 24;
    for (let i = 0; i < n; i++) good.push(chain.submit(buildTx({ payer: payers[i % 4]!, blockhash, lamports: 1_000_000 + i })).signature);
    const victim = newKeypair();
    chain.airdrop(victim.publicKey.toBase58(), 5n * BigInt(LAMPORTS_PER_SOL));
    chain.tick(); // fund the victim first
    const before = chain.balance(victim.publicKey.toBase58());
    const forged = buildTx({ payer: victim, blockhash: chain.latestBlockhash().blockhash, lamports: 1_000_000 });
    forged[5] ^= 0x01; // one bit of the signature
    const burst: string[] = [];
    for (let i = 0; i < n; i++) {
      burst.push(chain.submit(buildTx({ payer: payers[i % 4]!, blockhash: chain.latestBlockhash().blockhash, lamports: 2_000_000 + i })).signature);
    }
    const forgedSig = chain.submit(forged).signature;
    // give the thread time to check the queued burst, then execute the slot
    await new Promise((r) => setTimeout(r, 1_500));
    chain.tick();
    for (const s of [...good, ...burst]) expect(chain.status(s)).toMatchObject({ err: null });
    expect(chain.status(forgedSig)).toBeNull();
    expect(chain.transaction(forgedSig)).toBeNull();
    expect(chain.balance(victim.publicKey.toBase58())).toBe(before);
    // the thread really took part: some transactions skipped LiteSVM's own check
    await waitFor(() => chain!.preverifiedCount() > 0, 5_000);
    expect(chain.preverifiedCount()).toBeLessThanOrEqual(2 * n);
  });

  it('with verifierThread: false nothing is pre-verified and results are the same', async () => {
    const payer = newKeypair();
    chain = createChain({
      autoStart: false,
      seed: 12,
      verifierThread: false,
      fundedAccounts: [{ address: payer.publicKey.toBase58(), lamports: 100n * BigInt(LAMPORTS_PER_SOL) }],
    });
    const { blockhash } = chain.latestBlockhash();
    const sigs = Array.from({ length: VERIFIER_START_QUEUE + 8 }, (_, i) => chain!.submit(buildTx({ payer, blockhash, lamports: 1_000_000 + i })).signature);
    chain.tick();
    for (const s of sigs) expect(chain.status(s)).toMatchObject({ err: null });
    expect(chain.preverifiedCount()).toBe(0);
    expect(() => createChain({ verifierThread: 'yes' as unknown as boolean })).toThrow(/verifierThread/);
  });
});
