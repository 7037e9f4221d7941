import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { DEFAULT_TIP_ACCOUNTS } from '../../src/devnet/http/fast.js';
import { buildTx, fastParams, rpc, waitFor, LAMPORTS_PER_SOL, newAddress, newKeypair } from '../support/devnet.js';

let devnet: Devnet;
const payer = newKeypair();
beforeAll(async () => {
  devnet = await startDevnet({
    slotMs: 20,
    seed: 1,
    wsPortPlusOne: false,
    stateModules: false,
    fundedAccounts: [{ address: payer.publicKey.toBase58(), lamports: 100n * BigInt(LAMPORTS_PER_SOL) }],
  });
});
afterAll(async () => {
  await devnet?.stop();
});

const bh = () => devnet.chain.latestBlockhash().blockhash;

describe('/fast', () => {
  it('answers /ping with ok, no key needed', async () => {
    const res = await fetch(`${devnet.url}/ping`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
  });

  it('accepts a tipped, priced transaction and lands it in a later slot', async () => {
    const wire = buildTx({ payer, blockhash: bh(), cuPrice: 200_000, tip: 1_000_000 });
    const slotAtSend = devnet.chain.slot();
    const r = await rpc(devnet.url, 'sendTransaction', fastParams(wire), '/fast');
    expect(r.status).toBe(200);
    expect(r.body.result).toBe(bs58.encode(wire.subarray(1, 65)));
    const st = await waitFor(() => devnet.chain.status(r.body.result));
    expect(st.slot).toBeGreaterThan(slotAtSend);
    expect(st.err).toBeNull();
    expect(devnet.chain.balance(DEFAULT_TIP_ACCOUNTS[0]!)).toBeGreaterThanOrEqual(1_000_000n);
    // the same bytes again: answered with the signature, never executed twice
    const again = await rpc(devnet.url, 'sendTransaction', fastParams(wire), '/fast');
    expect(again.body.result).toBe(r.body.result);
  });

  it('accepts base58 encoding', async () => {
    const wire = buildTx({ payer, blockhash: bh(), cuPrice: 1, tip: 1_000_000 });
    const r = await rpc(devnet.url, 'sendTransaction', [bs58.encode(wire), { encoding: 'base58', skipPreflight: true, maxRetries: 0 }], '/fast');
    expect(r.status).toBe(200);
    expect(typeof r.body.result).toBe('string');
  });

  it('refuses a transaction without a tip: 400 / -32602 naming the tip', async () => {
    const r = await rpc(devnet.url, 'sendTransaction', fastParams(buildTx({ payer, blockhash: bh(), cuPrice: 100 })), '/fast');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.error.message).toMatch(/missing a tip/);
    expect(r.body.error.message).not.toMatch(/priority fee/);
  });

  it('refuses a transaction without setComputeUnitPrice: 400 / -32602 naming the priority fee', async () => {
    const r = await rpc(devnet.url, 'sendTransaction', fastParams(buildTx({ payer, blockhash: bh(), tip: 1_000_000 })), '/fast');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe(-32602);
    expect(r.body.error.message).toMatch(/priority fee.*setComputeUnitPrice/);
    expect(r.body.error.message).not.toMatch(/tip/);
  });

  it('names both when both are missing, and a tip below the minimum or to another account', async () => {
    const both = await rpc(devnet.url, 'sendTransaction', fastParams(buildTx({ payer, blockhash: bh() })), '/fast');
    expect(both.body.error.message).toMatch(/priority fee.*and.*tip/);
    expect(both.body.error.data).toEqual({ missing: ['computeUnitPrice', 'tip'] });
    const low = await rpc(devnet.url, 'sendTransaction', fastParams(buildTx({ payer, blockhash: bh(), cuPrice: 1, tip: 999_999 })), '/fast');
    expect(low.status).toBe(400);
    expect(low.body.error.message).toMatch(/large enough tip \(999999 lamports.*minimum 1000000/);
    const elsewhere = await rpc(
      devnet.url,
      'sendTransaction',
      fastParams(buildTx({ payer, blockhash: bh(), cuPrice: 1, tip: 5_000_000, tipTo: newAddress() })),
      '/fast',
    );
    expect(elsewhere.body.error.message).toMatch(/missing a tip/);
  });

  it('swqos_only=true lowers the minimum tip', async () => {
    const wire = buildTx({ payer, blockhash: bh(), cuPrice: 1, tip: 5_000 });
    const dual = await rpc(devnet.url, 'sendTransaction', fastParams(wire), '/fast');
    expect(dual.status).toBe(400);
    const swqos = await rpc(devnet.url, 'sendTransaction', fastParams(wire), '/fast?swqos_only=true');
    expect(swqos.status).toBe(200);
    const tooLow = await rpc(devnet.url, 'sendTransaction', fastParams(buildTx({ payer, blockhash: bh(), cuPrice: 1, tip: 4_999 })), '/fast?swqos_only=true');
    expect(tooLow.status).toBe(400);
  });

  it('requires maxRetries 0 and a known encoding, and serves sendTransaction and sendBundle only', async () => {
    const wire = buildTx({ payer, blockhash: bh(), cuPrice: 1, tip: 1_000_000 });
    const noRetries = await rpc(devnet.url, 'sendTransaction', [Buffer.from(wire).toString('base64'), { encoding: 'base64' }], '/fast');
    expect(noRetries.status).toBe(400);
    expect(noRetries.body.error.message).toMatch(/maxRetries must be 0/);
    const retries = await rpc(devnet.url, 'sendTransaction', fastParams(wire, { maxRetries: 3 }), '/fast');
    expect(retries.body.error.message).toMatch(/maxRetries must be 0 .*got 3/);
    const enc = await rpc(devnet.url, 'sendTransaction', fastParams(wire, { encoding: 'hex' }), '/fast');
    expect(enc.body.error.message).toMatch(/encoding/);
    const garbage = await rpc(devnet.url, 'sendTransaction', ['AAAA', { encoding: 'base64', maxRetries: 0 }], '/fast');
    expect(garbage.status).toBe(400);
    expect(garbage.body.error.message).toMatch(/not a transaction/);
    const other = await rpc(devnet.url, 'getSlot', [], '/fast');
    expect(other.body.error.code).toBe(-32601);
  });
});
