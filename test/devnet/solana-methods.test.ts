/**
 * Direct tests of src/devnet/methods/solana.ts: the handlers `createSolanaMethods` returns, called as
 * functions on a chain of their own (no server), their answers and their -32602 naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { createChain } from '../../src/devnet/chain/chain.js';
import type { DevnetChain } from '../../src/devnet/chain/contract.js';
import { createSolanaMethods } from '../../src/devnet/methods/solana.js';
import type { DevnetRpcError, RequestContext, RpcHandler } from '../../src/devnet/types.js';
import { buildTx, newAddress, newKeypair, rpcError, LAMPORTS_PER_SOL } from '../support/devnet.js';

const ctx: RequestContext = { signal: new AbortController().signal, endpoint: 'rpc' };
const funded = newKeypair();

let chain: DevnetChain;
let m: Record<string, RpcHandler>;
/** Call a method synchronously (every handler here answers synchronously). */
const call = (name: string, params: unknown): any => m[name]!(params, ctx);
/** The -32602 error a call throws. */
const invalid = (name: string, params: unknown): DevnetRpcError => {
  const e = rpcError(() => call(name, params));
  expect(e.rpcCode).toBe(-32602);
  return e;
};

beforeAll(() => {
  chain = createChain({ seed: 11, slotMs: 50, verifierThread: false, fundedAccounts: [{ address: funded.address, lamports: 5n * BigInt(LAMPORTS_PER_SOL) }] });
  m = createSolanaMethods({ chain }).methods;
});
afterAll(async () => {
  await chain?.stop();
});

describe('createSolanaMethods', () => {
  it('serves the standard method names', () => {
    for (const name of ['getHealth', 'getVersion', 'getSlot', 'getLatestBlockhash', 'getBalance', 'getAccountInfo', 'getMultipleAccounts', 'requestAirdrop', 'sendTransaction', 'simulateTransaction', 'getSignatureStatuses', 'getPriorityFeeEstimate']) {
      expect(typeof m[name]).toBe('function');
    }
  });

  it('cluster methods answer from the chain', () => {
    expect(call('getHealth', [])).toBe('ok');
    expect(call('getVersion', [])).toMatchObject({ 'solana-core': expect.any(String) });
    expect(call('getGenesisHash', [])).toBe(chain.genesisHash);
    expect(call('getSlot', [{ commitment: 'processed' }])).toBe(chain.slotAt('processed'));
    expect(call('getSlot', [])).toBe(chain.slotAt('finalized'));
    expect(call('getBlockHeight', [{ commitment: 'confirmed' }])).toBe(chain.slotAt('confirmed'));
    const info = call('getEpochInfo', [{ commitment: 'processed' }]);
    expect(info).toMatchObject({
      slotsInEpoch: 432_000,
      epoch: Math.floor(info.absoluteSlot / 432_000),
      slotIndex: info.absoluteSlot % 432_000,
      transactionCount: chain.ledger().length,
    });
    const bh = call('getLatestBlockhash', [{ commitment: 'finalized' }]);
    expect(bh.value).toEqual(chain.latestBlockhash());
    expect(bh.context.slot).toBe(chain.slot());
    expect(call('isBlockhashValid', [bh.value.blockhash]).value).toBe(true);
    expect(call('isBlockhashValid', [bs58.encode(new Uint8Array(32).fill(3))]).value).toBe(false);
  });

  it('bad commitment or config is -32602 naming it', () => {
    expect(invalid('getSlot', [{ commitment: 'bogus' }]).message).toMatch(/commitment/);
    expect(invalid('getLatestBlockhash', ['not an object']).message).toMatch(/params\[0\]/);
    expect(invalid('isBlockhashValid', [7]).message).toMatch(/params\[0\]/);
  });

  it('getBalance and getAccountInfo: a funded account, an unknown one, encodings', () => {
    expect(call('getBalance', [funded.address]).value).toBe(5 * LAMPORTS_PER_SOL);
    const unknown = newAddress();
    expect(call('getBalance', [unknown]).value).toBe(0);
    expect(call('getAccountInfo', [unknown]).value).toBeNull();
    const info = call('getAccountInfo', [funded.address, { encoding: 'base64' }]).value;
    expect(info).toMatchObject({ lamports: 5 * LAMPORTS_PER_SOL, owner: '11111111111111111111111111111111', executable: false, space: 0, data: ['', 'base64'] });
    expect(call('getAccountInfo', [funded.address, { encoding: 'base58' }]).value.data).toEqual(['', 'base58']);
    expect(invalid('getAccountInfo', [funded.address, { encoding: 'hex' }]).message).toMatch(/encoding/);
    const many = call('getMultipleAccounts', [[funded.address, unknown]]).value;
    expect(many[0].lamports).toBe(5 * LAMPORTS_PER_SOL);
    expect(many[1]).toBeNull();
  });

  it('bad addresses and counts are -32602 naming the field', () => {
    expect(invalid('getBalance', ['not-an-address']).message).toMatch(/params\[0\] \(address\)/);
    expect(invalid('getBalance', []).message).toMatch(/getBalance/);
    expect(invalid('getAccountInfo', [42]).message).toMatch(/params\[0\] \(address\)/);
    expect(invalid('getMultipleAccounts', ['x']).message).toMatch(/params\[0\]/);
    expect(invalid('getMultipleAccounts', [[funded.address, 'nope']]).message).toMatch(/params\[0\]\[1\]/);
    expect(invalid('getMultipleAccounts', [Array(101).fill(funded.address)]).message).toMatch(/at most 100/);
    expect(invalid('getMinimumBalanceForRentExemption', [-1]).message).toMatch(/data length/);
    expect(invalid('requestAirdrop', [funded.address, 0]).message).toMatch(/params\[1\] \(lamports\)/);
    expect(invalid('requestAirdrop', [funded.address, 2_000_000 * LAMPORTS_PER_SOL]).message).toMatch(/params\[1\] \(lamports\)/);
    expect(invalid('requestAirdrop', ['bad', 5]).message).toMatch(/params\[0\] \(address\)/);
  });

  it('rent exemption grows with size', () => {
    const a = call('getMinimumBalanceForRentExemption', [0]);
    const b = call('getMinimumBalanceForRentExemption', [100]);
    expect(a).toBe(Number(chain.minimumBalanceForRentExemption(0)));
    expect(b).toBeGreaterThan(a);
  });

  it('requestAirdrop, then sendTransaction and getSignatureStatuses through the chain', async () => {
    const to = newAddress();
    const sig = call('requestAirdrop', [to, 1_234_567]);
    expect(typeof sig).toBe('string');
    chain.tick();
    expect(call('getBalance', [to, { commitment: 'processed' }]).value).toBe(1_234_567);

    const dest = newAddress();
    const wire = buildTx({ payer: funded, to: dest, lamports: 1_000_000, blockhash: chain.latestBlockhash().blockhash });
    const sent = await call('sendTransaction', [wire.toString('base64'), { encoding: 'base64' }]);
    expect(typeof sent).toBe('string');
    chain.tick();
    const st = await call('getSignatureStatuses', [[sent]]);
    expect(st.value[0]).toMatchObject({ err: null });
    expect(call('getBalance', [dest]).value).toBe(1_000_000);
  });
});
