import { describe, expect, it, afterEach } from 'vitest';
import bs58 from 'bs58';
import { BLOCKHASH_VALIDITY } from '../../src/devnet/chain/blockhashes.js';
import { createChain, DEFAULT_FINALIZE_SLOTS } from '../../src/devnet/chain/chain.js';
import type { DevnetChain } from '../../src/devnet/chain/contract.js';
import { parseSubmitted } from '../../src/devnet/chain/parse-submitted.js';
import { CairnError } from '../../src/errors/index.js';
import { buildTx, LAMPORTS_PER_SOL, newAddress, newKeypair, type TestKeypair } from '../support/devnet.js';

let chain: DevnetChain | undefined;
afterEach(async () => {
  await chain?.stop();
  chain = undefined;
});

function manualChain(): { chain: DevnetChain; payer: TestKeypair } {
  const payer = newKeypair();
  chain = createChain({ autoStart: false, seed: 7, fundedAccounts: [{ address: payer.publicKey.toBase58(), lamports: 10n * BigInt(LAMPORTS_PER_SOL) }] });
  return { chain, payer };
}

describe('parseSubmitted', () => {
  it('decodes a legacy transfer and names the field on garbage', () => {
    const payer = newKeypair();
    const wire = buildTx({ payer, blockhash: bs58.encode(new Uint8Array(32).fill(1)), cuPrice: 5 });
    const d = parseSubmitted(wire);
    expect(d.parts.version).toBe('legacy');
    expect(d.signatures).toHaveLength(1);
    expect(bs58.encode(d.parts.staticKeys[0]!)).toBe(payer.publicKey.toBase58());
    expect(d.parts.instructions).toHaveLength(2);
    // What the sender's parser says of each (the devnet decodes with it), and one it takes but the
    // service does not: a message with no signature at all.
    const unsigned = Uint8Array.from([0, 0, 0, 0, 0, ...new Uint8Array(32), 0]);
    const cases: Array<[Uint8Array, RegExp]> = [
      [new Uint8Array(0), /truncated signature count at byte 0/],
      [wire.subarray(0, 70), /truncated account keys at byte 69/],
      [Uint8Array.from([...wire, 0]), new RegExp(`1 trailing bytes at byte ${wire.length}`)],
      [unsigned, /has no signatures/],
    ];
    for (const [bad, says] of cases) {
      try {
        parseSubmitted(bad);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(CairnError);
        expect((e as CairnError<'INPUT_INVALID'>).context.field).toBe('transaction');
        expect((e as Error).message).toMatch(says);
      }
    }
  });
});

describe('chain', () => {
  it('executes at the next slot boundary, moves processed → confirmed → finalized, charges real fees', () => {
    const { chain, payer } = manualChain();
    const to = newAddress();
    const wire = buildTx({ payer, to, lamports: 2_000_000, blockhash: chain.latestBlockhash().blockhash, cuPrice: 1_000_000 });
    const { signature, duplicate } = chain.submit(wire);
    expect(duplicate).toBe(false);
    expect(chain.status(signature)).toBeNull();
    chain.tick();
    const s1 = chain.status(signature)!;
    expect(s1).toMatchObject({ slot: 1, err: null, confirmationStatus: 'processed', confirmations: 0 });
    chain.tick();
    expect(chain.status(signature)!.confirmationStatus).toBe('confirmed');
    for (let i = 1; i < DEFAULT_FINALIZE_SLOTS; i++) chain.tick();
    expect(chain.status(signature)).toMatchObject({ confirmationStatus: 'finalized', confirmations: null });
    const tx = chain.transaction(signature)!;
    // 5,000 per signature + ⌈10^6 µlamports × 6,000 CU (2 builtin instructions) / 10^6⌉
    expect(tx.fee).toBe(5_000 + 6_000);
    expect(tx.computeUnitPrice).toBe(1_000_000);
    expect(tx.preBalances[0]! - tx.postBalances[0]!).toBe(2_000_000 + tx.fee);
    expect(chain.balance(to)).toBe(2_000_000n);
    expect(tx.logs.some((l) => l.includes('11111111111111111111111111111111 success'))).toBe(true);
  });

  it('never executes a duplicate signature twice', () => {
    const { chain, payer } = manualChain();
    const to = newAddress();
    const wire = buildTx({ payer, to, lamports: 1_000_000, blockhash: chain.latestBlockhash().blockhash });
    expect(chain.submit(wire).duplicate).toBe(false);
    expect(chain.submit(wire).duplicate).toBe(true);
    chain.tick();
    expect(chain.submit(wire).duplicate).toBe(true);
    chain.tick();
    expect(chain.balance(to)).toBe(1_000_000n);
    expect(chain.ledger().filter((t) => t.accountKeys.includes(to))).toHaveLength(1);
  });

  it('accepts a blockhash for 150 blocks and drops it after, without a status', () => {
    const { chain, payer } = manualChain();
    const { blockhash, lastValidBlockHeight } = chain.latestBlockhash();
    expect(lastValidBlockHeight).toBe(chain.blockHeight() + BLOCKHASH_VALIDITY);
    const dropped: string[] = [];
    chain.onDropped((d) => dropped.push(`${d.signature}:${d.reason}`));
    for (let i = 0; i < BLOCKHASH_VALIDITY - 1; i++) chain.tick();
    const ok = chain.submit(buildTx({ payer, blockhash, lamports: 1_000_000 })).signature;
    chain.tick(); // executes at height 150: still valid
    expect(chain.status(ok)?.err).toBeNull();
    expect(chain.isBlockhashValid(blockhash)).toBe(true);
    chain.tick(); // height 151: expired
    expect(chain.isBlockhashValid(blockhash)).toBe(false);
    const late = chain.submit(buildTx({ payer, blockhash, lamports: 1_100_000 })).signature;
    chain.tick();
    expect(chain.status(late)).toBeNull();
    expect(dropped).toEqual([`${late}:BlockhashNotFound`]);
  });

  it('lands a failed transaction with its error and fee; drops a bad signature without one', () => {
    const { chain, payer } = manualChain();
    const blockhash = chain.latestBlockhash().blockhash;
    // Below rent exemption to a new account: lands, fails, pays the fee.
    const rent = chain.submit(buildTx({ payer, blockhash, lamports: 10 })).signature;
    const forged = Uint8Array.from(buildTx({ payer, blockhash, lamports: 3_000_000 }));
    forged[10] ^= 0xff; // corrupt the signature
    const bad = chain.submit(forged).signature;
    const before = chain.balance(payer.publicKey.toBase58());
    chain.tick();
    expect(chain.status(rent)!.err).toEqual({ InsufficientFundsForRent: { account_index: 1 } });
    expect(chain.transaction(rent)!.fee).toBe(5_000);
    expect(chain.status(bad)).toBeNull();
    expect(before - chain.balance(payer.publicKey.toBase58())).toBe(5_000n);
  });

  it('airdrops through a real faucet transfer and waits for slots with abort', async () => {
    chain = createChain({ slotMs: 5 });
    const to = newAddress();
    const sig = chain.airdrop(to, 123_456_789n);
    await chain.waitForSlot(chain.slot() + 1);
    expect(chain.status(sig)?.err).toBeNull();
    expect(chain.balance(to)).toBe(123_456_789n);
    const ac = new AbortController();
    const p = chain.waitForSlot(chain.slot() + 1_000_000, ac.signal);
    ac.abort(new Error('stop waiting'));
    await expect(p).rejects.toThrow('stop waiting');
    expect(() => chain!.airdrop('not-an-address', 1n)).toThrow(/address/);
  });

  it('reports compute-unit prices it executed', () => {
    const { chain, payer } = manualChain();
    const blockhash = chain.latestBlockhash().blockhash;
    for (const p of [100, 200, 300]) chain.submit(buildTx({ payer, blockhash, cuPrice: p, lamports: 1_000_000 + p }));
    chain.tick();
    expect(chain.recentComputeUnitPrices(10).sort((a, b) => a - b)).toEqual([100, 200, 300]);
    expect(chain.recentComputeUnitPrices(10, [newAddress()])).toEqual([]);
  });
});
