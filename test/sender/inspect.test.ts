/**
 * Signed-wire inspection: a missing CU price, a missing tip, a tip below the minimum of the routing
 * mode, a bad signature — each refused before sending, with its own code and a message that says
 * what was found. Bytes built by web3.js are inspected too (the check is not tied to cairn's builder).
 */
import { describe, expect, it } from 'vitest';
import { ComputeBudgetProgram, Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { assertSendable, summarizeWire } from '../../src/sender/input/inspect.js';
import { DEFAULT_TIP_ACCOUNTS } from '../../src/sender/config.js';

const kp = Keypair.fromSeed(new Uint8Array(32).fill(5));
const blockhash = new PublicKey(new Uint8Array(32).fill(8)).toBase58();
const tipAccount = new PublicKey(DEFAULT_TIP_ACCOUNTS[3]);

function wire(opts: { price?: boolean; tip?: number; tipTo?: PublicKey; extraTips?: [number, PublicKey][]; corrupt?: boolean }): Uint8Array {
  const tx = new Transaction({ feePayer: kp.publicKey, blockhash, lastValidBlockHeight: 1 });
  if (opts.price) tx.add(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1234 }));
  tx.add(ComputeBudgetProgram.setComputeUnitLimit({ units: 999 }));
  tx.add(SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 10 }));
  if (opts.tip !== undefined) tx.add(SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: opts.tipTo ?? tipAccount, lamports: opts.tip }));
  for (const [lamports, to] of opts.extraTips ?? []) tx.add(SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: to, lamports }));
  tx.sign(kp);
  const w = new Uint8Array(tx.serialize());
  if (opts.corrupt) w[5] ^= 1;
  return w;
}
const rules = { tipAccounts: DEFAULT_TIP_ACCOUNTS, minTipLamports: 1_000_000n };

describe('inspect', () => {
  it('accepts a transaction with CU price and a sufficient tip, and summarises it', () => {
    const s = assertSendable(wire({ price: true, tip: 1_000_000 }), rules);
    expect(s.cuPrice).toBe(1234n);
    expect(s.cuLimit).toBe(999);
    expect(s.tip).toEqual({ lamports: 1_000_000n, account: tipAccount.toBase58(), transfers: 1 });
    expect(s.feePayer).toBe(kp.publicKey.toBase58());
    expect(s.recentBlockhash).toBe(blockhash);
  });

  it('SENDER_MISSING_CU_PRICE without setComputeUnitPrice', () => {
    expect(() => assertSendable(wire({ tip: 1_000_000 }), rules)).toThrowError(expect.objectContaining({ code: 'SENDER_MISSING_CU_PRICE' }));
  });

  it('SENDER_MISSING_TIP without a tip, with a tip to a non-tip account, and below the minimum', () => {
    expect(() => assertSendable(wire({ price: true }), rules)).toThrowError(expect.objectContaining({ code: 'SENDER_MISSING_TIP' }));
    expect(() => assertSendable(wire({ price: true, tip: 2_000_000, tipTo: Keypair.generate().publicKey }), rules)).toThrowError(
      expect.objectContaining({ code: 'SENDER_MISSING_TIP' }),
    );
    expect(() => assertSendable(wire({ price: true, tip: 999_999 }), rules)).toThrowError(/999999 lamports .* below the minimum 1000000/);
    // the same tip passes the lower swqos_only minimum
    expect(assertSendable(wire({ price: true, tip: 5_000 }), { ...rules, minTipLamports: 5_000n }).tip?.lamports).toBe(5_000n);
  });

  it('the tip is the sum of the transfers to tip accounts, as the devnet /fast counts it', () => {
    const other = new PublicKey(DEFAULT_TIP_ACCOUNTS[7]);
    // two 500,000-lamport tips (to two tip accounts, or twice to one) make the 1,000,000 minimum
    const two = assertSendable(wire({ price: true, tip: 500_000, extraTips: [[500_000, other]] }), rules);
    expect(two.tip).toEqual({ lamports: 1_000_000n, account: tipAccount.toBase58(), transfers: 2 });
    expect(assertSendable(wire({ price: true, tip: 500_000, extraTips: [[500_000, tipAccount]] }), rules).tip?.lamports).toBe(1_000_000n);
    // the account reported is the largest transfer's
    expect(assertSendable(wire({ price: true, tip: 300_000, extraTips: [[700_000, other]] }), rules).tip?.account).toBe(other.toBase58());
    // a transfer to a non-tip account does not count toward the sum
    expect(() => assertSendable(wire({ price: true, tip: 500_000, extraTips: [[500_000, Keypair.generate().publicKey]] }), rules)).toThrowError(
      /500000 lamports .* below the minimum 1000000/,
    );
    expect(() => assertSendable(wire({ price: true, tip: 400_000, extraTips: [[500_000, other]] }), rules)).toThrowError(
      /900000 lamports \(sum of 2 transfers\) .* below the minimum 1000000/,
    );
  });

  it('a signature that does not verify is refused', () => {
    expect(() => assertSendable(wire({ price: true, tip: 1_000_000, corrupt: true }), rules)).toThrowError(
      expect.objectContaining({ code: 'SENDER_INVALID_TRANSACTION' }),
    );
  });

  it('summarizeWire reports absence without throwing', () => {
    const s = summarizeWire(wire({}), DEFAULT_TIP_ACCOUNTS);
    expect(s.cuPrice).toBeUndefined();
    expect(s.tip).toBeUndefined();
  });
});
