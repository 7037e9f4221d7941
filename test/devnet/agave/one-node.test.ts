/**
 * The one-node answers of a test validator (issue 34 item 6), over HTTP: leader schedule, block
 * production, supply, largest accounts, inflation governor/rate, the stake program's minimum
 * delegation, the node's own vote account, performance samples and contact info.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../../src/devnet/index.js';
import { generateSigner } from '../../../src/solana/signer.js';
import { rpc } from '../../support/devnet.js';

const payer = generateSigner();
let devnet: Devnet;
const body = async (method: string, params: unknown = []) => (await rpc(devnet.url, method, params)).body;
const result = async (method: string, params: unknown = []) => {
  const b = await body(method, params);
  if (b.error) throw new Error(`${method}: ${JSON.stringify(b.error)}`);
  return b.result;
};

beforeAll(async () => {
  devnet = await startDevnet({
    slotMs: 20,
    wsPortPlusOne: false,
    stateModules: false,
    fundedAccounts: [{ address: payer.address, lamports: 1_000_000n * 10n ** 9n }],
  });
});
afterAll(async () => {
  await devnet?.stop();
});

describe('one-node answers', () => {
  it('getLeaderSchedule: every slot of the epoch is the identity\'s; past the known epochs, null', async () => {
    const { identity } = await result('getIdentity');
    const s = await result('getLeaderSchedule');
    expect(Object.keys(s)).toEqual([identity]);
    expect(s[identity]).toHaveLength(432000);
    expect(s[identity].slice(0, 3)).toEqual([0, 1, 2]);
    expect(await result('getLeaderSchedule', [null, { identity: payer.address }])).toEqual({});
    expect(await result('getLeaderSchedule', [432000 * 5])).toBeNull();
  });

  it('getBlockProduction: the identity led and made every slot of the range', async () => {
    const { identity } = await result('getIdentity');
    const r = await result('getBlockProduction', [{ commitment: 'processed' }]);
    const [led, made] = r.value.byIdentity[identity];
    expect(led).toBe(made);
    expect(r.value.range).toEqual({ firstSlot: 0, lastSlot: r.context.slot });
    expect(led).toBe(r.context.slot + 1);
    // the range is read at finalized (three slots behind processed): wait until slot 3 is finalized there
    while ((await result('getSlot', [{ commitment: 'finalized' }])) < 3) await new Promise((r) => setTimeout(r, 20));
    const ranged = await result('getBlockProduction', [{ range: { firstSlot: 1, lastSlot: 3 } }]);
    expect(ranged.value).toEqual({ byIdentity: { [identity]: [3, 3] }, range: { firstSlot: 1, lastSlot: 3 } });
    expect((await body('getBlockProduction', [{ range: { firstSlot: 5, lastSlot: 3 } }])).error).toEqual({ code: -32602, message: 'lastSlot, 3, cannot be less than firstSlot, 5' });
  });

  it('getSupply and getLargestAccounts count what the devnet holds', async () => {
    const supply = (await result('getSupply')).value;
    expect(supply.total).toBeGreaterThanOrEqual(1_000_000 * 1e9);
    expect(supply).toMatchObject({ circulating: supply.total, nonCirculating: 0, nonCirculatingAccounts: [] });
    const largest = (await result('getLargestAccounts')).value;
    expect(largest.length).toBeLessThanOrEqual(20);
    expect(largest.some((a: { address: string; lamports: number }) => a.address === payer.address && a.lamports === 1_000_000 * 1e9)).toBe(true);
    expect((await result('getLargestAccounts', [{ filter: 'nonCirculating' }])).value).toEqual([]);
  });

  it('inflation governor and rate are the genesis defaults; stake minimum delegation from the stake program', async () => {
    expect(await result('getInflationGovernor')).toEqual({ initial: 0.08, terminal: 0.015, taper: 0.15, foundation: 0.05, foundationTerm: 7 });
    const rate = await result('getInflationRate');
    expect(rate).toEqual({ total: 0.08, validator: 0.08 - 0.08 * 0.05, foundation: 0.08 * 0.05, epoch: 0 });
    const min = await result('getStakeMinimumDelegation');
    expect(min.context.slot).toBeGreaterThan(0);
    expect(typeof min.value).toBe('number');
  });

  it("getVoteAccounts lists the node's own vote account, which exists on chain", async () => {
    const { identity } = await result('getIdentity');
    const v = await result('getVoteAccounts');
    expect(v.delinquent).toEqual([]);
    expect(v.current).toHaveLength(1);
    const [mine] = v.current;
    expect(mine).toMatchObject({ nodePubkey: identity, activatedStake: 0, commission: 100, epochVoteAccount: false, epochCredits: [] });
    expect(mine.lastVote).toBeGreaterThan(0);
    const acct = (await result('getAccountInfo', [mine.votePubkey, { encoding: 'jsonParsed' }])).value;
    expect(acct.owner).toBe('Vote111111111111111111111111111111111111111');
    expect(acct.data.parsed.info).toMatchObject({ nodePubkey: identity, authorizedWithdrawer: identity, commission: 100 });
  });

  it('getRecentPerformanceSamples: none in the first minute; a limit over 720 is refused', async () => {
    expect(await result('getRecentPerformanceSamples', [5])).toEqual([]);
    expect((await body('getRecentPerformanceSamples', [721])).error).toEqual({ code: -32602, message: 'Invalid limit; max 720' });
  });

  it("getClusterNodes has Agave's fields, rpc and pubsub the devnet's own", async () => {
    const [node] = await result('getClusterNodes');
    expect(Object.keys(node).sort()).toEqual(['featureSet', 'gossip', 'pubkey', 'pubsub', 'rpc', 'serveRepair', 'shredVersion', 'tpu', 'tpuForwards', 'tpuForwardsQuic', 'tpuQuic', 'tpuVote', 'tvu', 'version'].sort());
    expect(node.rpc).toBe(new URL(devnet.url).host);
    expect(node.pubsub).toBe(new URL(devnet.wsUrl).host);
  });
});
