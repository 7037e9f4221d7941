/**
 * The devnet's genesis against what a real cluster holds: every `/fast` tip account exists
 * rent-exempt (so the documented swqos_only minimum tip of 5,000 lamports lands instead of failing
 * with InsufficientFundsForRent), the native mints, the sysvars and the programs a bot touches, and
 * the epoch schedule the devnet answers with.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createChainGenesis } from '../../src/devnet/chain/genesis.js';
import { DEFAULT_MIN_TIP_LAMPORTS, DEFAULT_TIP_ACCOUNTS } from '../../src/tips.js';
import { buildTx, fastParams, newKeypair, rpc } from '../support/devnet.js';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from '../support/spl.js';

const payer = newKeypair();
let devnet: Devnet;
const result = async (method: string, params: unknown) => {
  const b = (await rpc(devnet.url, method, params)).body;
  if (b.error) throw new Error(`${method}: ${JSON.stringify(b.error)}`);
  return b.result;
};

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, wsPortPlusOne: false, stateModules: false, fundedAccounts: [{ address: payer.address, lamports: 10n ** 10n }] });
});
afterAll(async () => {
  await devnet?.stop();
});

describe('genesis', () => {
  it('lands the swqos_only minimum tip to every tip account through /fast', async () => {
    const sigs: string[] = [];
    for (const tipTo of DEFAULT_TIP_ACCOUNTS) {
      const { blockhash } = (await result('getLatestBlockhash', [])).value;
      const wire = buildTx({ payer, blockhash, cuPrice: 1, tip: Number(DEFAULT_MIN_TIP_LAMPORTS.swqosOnly), tipTo });
      const r = await rpc(devnet.url, 'sendTransaction', fastParams(wire), '/fast?swqos_only=true');
      expect(r.body.error, JSON.stringify(r.body)).toBeUndefined();
      sigs.push(r.body.result);
    }
    let statuses: { err: unknown }[] = [];
    for (let i = 0; i < 500 && !(statuses.length && statuses.every((s) => s !== null)); i++) {
      await new Promise((r) => setTimeout(r, 10));
      statuses = (await result('getSignatureStatuses', [sigs])).value;
    }
    for (const s of statuses) expect(s.err).toBeNull();
  });

  it('holds every tip account rent-exempt, the native mints, the sysvars and the programs a bot touches', async () => {
    const rent = await result('getMinimumBalanceForRentExemption', [0]);
    const tips = await result('getMultipleAccounts', [DEFAULT_TIP_ACCOUNTS]);
    tips.value.forEach((a: { lamports: number } | null, i: number) => {
      expect(a, DEFAULT_TIP_ACCOUNTS[i]).not.toBeNull();
      expect(a!.lamports).toBeGreaterThanOrEqual(rent);
    });
    const programs = ['11111111111111111111111111111111', 'ComputeBudget111111111111111111111111111111', TOKEN_PROGRAM, TOKEN_2022_PROGRAM, 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL', 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'AddressLookupTab1e1111111111111111111111111'];
    // base64: Agave's default (base58) refuses data over 128 bytes, as a program's is
    for (const a of (await result('getMultipleAccounts', [programs, { encoding: 'base64' }])).value) expect(a?.executable).toBe(true);
    const mints = await result('getMultipleAccounts', [['So11111111111111111111111111111111111111112', '9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP'], { encoding: 'jsonParsed' }]);
    expect(mints.value.map((m: { data: { program: string; parsed: { info: { decimals: number } } } }) => [m.data.program, m.data.parsed.info.decimals])).toEqual([['spl-token', 9], ['spl-token-2022', 9]]);
    const sysvars = ['SysvarC1ock11111111111111111111111111111111', 'SysvarRent111111111111111111111111111111111', 'SysvarEpochSchedu1e111111111111111111111111', 'SysvarS1otHashes111111111111111111111111111', 'SysvarRecentB1ockHashes11111111111111111111'];
    for (const a of (await result('getMultipleAccounts', [sysvars, { encoding: 'base64' }])).value) expect(a?.owner).toBe('Sysvar1111111111111111111111111111111111111');
  });

  it('sets the EpochSchedule sysvar to the schedule getEpochSchedule answers (no warm-up)', async () => {
    const g = createChainGenesis({ seed: 1 });
    const s = g.svm.getEpochSchedule();
    expect([s.slotsPerEpoch, s.leaderScheduleSlotOffset, s.warmup, s.firstNormalEpoch, s.firstNormalSlot]).toEqual([432000n, 432000n, false, 0n, 0n]);
    expect(await result('getEpochSchedule', [])).toEqual({ slotsPerEpoch: 432000, leaderScheduleSlotOffset: 432000, warmup: false, firstNormalEpoch: 0, firstNormalSlot: 0 });
  });

  it('creates caller-chosen tip accounts too, and keeps one already funded above the minimum', () => {
    const mine = newKeypair().address;
    const rich = newKeypair().address;
    const g = createChainGenesis({ seed: 2, tipAccounts: [mine, rich], fundedAccounts: [{ address: rich, lamports: 10n ** 9n }] });
    expect(g.svm.getBalance(mine as never)).toBe(890_880n);
    expect(g.svm.getBalance(rich as never)).toBe(10n ** 9n);
  });
});
