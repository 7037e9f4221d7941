/**
 * helius-sdk 3.2 on the devnet's Agave-shaped answers (issue 34): the one-node methods a test validator
 * serves, and jsonParsed accounts and transactions, called through the SDK as a user calls them (the
 * SDK hands standard methods to kit's RPC, which decodes u64s as bigints and checks nothing itself —
 * so a wrong shape shows up here as a wrong value, not as an error).
 */
import { heliusOnDevnet, type HeliusOnDevnet } from '../support/helius-sdk.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAddress } from '../support/devnet.js';

let h: HeliusOnDevnet;
// kit's RPC methods as the SDK exposes them: each answers a pending request with send()
type Rpc = Record<string, (...args: unknown[]) => { send(): Promise<any> } | Promise<any>>;
let rpc: Rpc;
const call = async (method: string, ...args: unknown[]): Promise<any> => {
  const r = rpc[method]!(...args);
  return typeof (r as { send?: unknown }).send === 'function' ? (r as { send(): Promise<unknown> }).send() : r;
};

beforeAll(async () => {
  h = await heliusOnDevnet({ slotMs: 50 });
  rpc = h.helius as unknown as Rpc;
});
afterAll(async () => {
  await h?.stop();
});

describe('helius-sdk: the one-node answers of a test validator', () => {
  it('supply, vote accounts, leader schedule, block production, inflation, stake minimum, cluster nodes', async () => {
    const supply = await call('getSupply');
    expect(supply.value.total).toBeTypeOf('bigint');
    expect(supply.value.total).toBeGreaterThan(0n);
    const votes = await call('getVoteAccounts');
    expect(votes.current).toHaveLength(1);
    const node = votes.current[0].nodePubkey as string;
    const schedule = await call('getLeaderSchedule');
    expect(Object.keys(schedule)).toEqual([node]);
    const production = await call('getBlockProduction');
    expect(Object.keys(production.value.byIdentity)).toEqual([node]);
    expect((await call('getInflationGovernor')).initial).toBeTypeOf('number');
    expect((await call('getStakeMinimumDelegation')).value).toBeTypeOf('bigint');
    const nodes = await call('getClusterNodes');
    expect(nodes[0]).toMatchObject({ pubkey: node, rpc: expect.stringMatching(/^127\.0\.0\.1:\d+$/) });
    expect((await call('getLargestAccounts')).value.length).toBeGreaterThan(0);
  });
});

describe('helius-sdk: jsonParsed', () => {
  it('a sysvar account and a transfer transaction come back parsed', async () => {
    const clock = await call('getAccountInfo', 'SysvarC1ock11111111111111111111111111111111', { encoding: 'jsonParsed' });
    expect(clock.value.data).toMatchObject({ program: 'sysvar', parsed: { type: 'clock', info: { slot: expect.any(BigInt) } } });
    const to = newAddress();
    const sig = await h.devnet.control.airdrop(to, 5_000_000n);
    let tx: any = null;
    for (let i = 0; i < 100 && !tx; i++) {
      tx = await call('getTransaction', sig, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0, commitment: 'confirmed' });
      if (!tx) await new Promise((r) => setTimeout(r, 50));
    }
    const ix = tx.transaction.message.instructions.find((i: { program?: string }) => i.program === 'system');
    expect(ix).toMatchObject({ program: 'system', parsed: { type: 'transfer', info: { destination: to, lamports: 5_000_000n } } });
  });
});
