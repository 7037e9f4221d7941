/**
 * jsonParsed account data for the programs Agave parses beyond SPL token accounts and mints (issue
 * 34 item 2): nonce, sysvars, address lookup tables, SPL Token multisig, stake and vote accounts,
 * upgradeable-loader buffers — each account made on the devnet by a real transaction of its
 * program (LiteSVM runs them), then read back over HTTP.
 */
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../../src/devnet/index.js';
import { findProgramAddress } from '../../../src/merkle/cnft/bubblegum/asset-id.js';
import { createNonceAccountInstructions } from '../../../src/solana/nonce.js';
import { generateSigner } from '../../../src/solana/signer.js';
import type { InstructionInput } from '../../../src/solana/index.js';
import { rpc } from '../../support/devnet.js';
import { createAccountIx, sendAndWait, TOKEN_PROGRAM } from '../../support/spl.js';

const payer = generateSigner();
let devnet: Devnet;
const parsedOf = async (address: string) => (await rpc(devnet.url, 'getAccountInfo', [address, { encoding: 'jsonParsed', commitment: 'confirmed' }])).body.result.value.data;
const rent = async (n: number) => BigInt((await rpc(devnet.url, 'getMinimumBalanceForRentExemption', [n])).body.result);
const u64 = (v: bigint | number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
  return b;
};
const cat = (...parts: (number[] | Uint8Array)[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const key = (a: string) => bs58.decode(a);
const w = (pubkey: string, isSigner = false) => ({ pubkey, isSigner, isWritable: true });
const r = (pubkey: string, isSigner = false) => ({ pubkey, isSigner, isWritable: false });

beforeAll(async () => {
  devnet = await startDevnet({
    slotMs: 20,
    wsPortPlusOne: false,
    stateModules: false,
    fundedAccounts: [{ address: payer.address, lamports: 100n * 10n ** 9n }],
  });
});
afterAll(async () => {
  await devnet?.stop();
});

describe('jsonParsed accounts', () => {
  it('a nonce account', async () => {
    const nonce = generateSigner();
    await sendAndWait(
      devnet.url,
      payer,
      createNonceAccountInstructions({ from: payer.address, nonce: nonce.address, authority: payer.address, lamports: await rent(80) }),
      [nonce],
    );
    const d = await parsedOf(nonce.address);
    expect(d).toEqual({ program: 'nonce', parsed: { type: 'initialized', info: { authority: payer.address, blockhash: expect.any(String), feeCalculator: { lamportsPerSignature: '5000' } } }, space: 80 });
  });

  it('sysvars: clock, rent, epoch schedule, slot hashes', async () => {
    const clock = await parsedOf('SysvarC1ock11111111111111111111111111111111');
    expect(clock).toMatchObject({ program: 'sysvar', parsed: { type: 'clock', info: { slot: expect.any(Number), epoch: 0, leaderScheduleEpoch: expect.any(Number) } }, space: 40 });
    // LiteSVM's rent: SIMD-0194's 6,960 lamports per byte-year at a threshold of 1 year
    expect(await parsedOf('SysvarRent111111111111111111111111111111111')).toEqual({ program: 'sysvar', parsed: { type: 'rent', info: { lamportsPerByteYear: '6960', exemptionThreshold: 1, burnPercent: 50 } }, space: 17 });
    expect((await parsedOf('SysvarEpochSchedu1e111111111111111111111111')).parsed.type).toBe('epochSchedule');
    const hashes = await parsedOf('SysvarS1otHashes111111111111111111111111111');
    expect(hashes.parsed.type).toBe('slotHashes');
    expect(hashes.parsed.info[0]).toEqual({ slot: expect.any(Number), hash: expect.any(String) });
  });

  it('an address lookup table', async () => {
    const ALT = 'AddressLookupTab1e1111111111111111111111111';
    const slot = (await rpc(devnet.url, 'getSlot', [{ commitment: 'confirmed' }])).body.result - 1;
    const [pda, bump] = findProgramAddress([key(payer.address), u64(slot)], key(ALT));
    const table = bs58.encode(pda);
    const entry = generateSigner().address;
    const create: InstructionInput = { programId: ALT, keys: [w(table), r(payer.address, true), w(payer.address, true), r('11111111111111111111111111111111')], data: cat([0, 0, 0, 0], u64(slot), [bump]) };
    const extend: InstructionInput = { programId: ALT, keys: [w(table), r(payer.address, true), w(payer.address, true), r('11111111111111111111111111111111')], data: cat([2, 0, 0, 0], u64(1), key(entry)) };
    await sendAndWait(devnet.url, payer, [create, extend]);
    const d = await parsedOf(table);
    expect(d).toEqual({
      program: 'address-lookup-table',
      parsed: { type: 'lookupTable', info: { deactivationSlot: '18446744073709551615', lastExtendedSlot: expect.any(String), lastExtendedSlotStartIndex: 0, authority: payer.address, addresses: [entry] } },
      space: 88,
    });
  });

  it('an SPL Token multisig', async () => {
    const ms = generateSigner();
    const [s1, s2] = [generateSigner().address, generateSigner().address];
    await sendAndWait(
      devnet.url,
      payer,
      [
        createAccountIx(payer.address, ms.address, await rent(355), 355, TOKEN_PROGRAM),
        { programId: TOKEN_PROGRAM, keys: [w(ms.address), r(s1), r(s2)], data: Uint8Array.from([19, 2]) },
      ],
      [ms],
    );
    expect(await parsedOf(ms.address)).toEqual({ program: 'spl-token', parsed: { type: 'multisig', info: { numRequiredSigners: 2, numValidSigners: 2, isInitialized: true, signers: [s1, s2] } }, space: 355 });
  });

  it('a vote account and a stake account', async () => {
    const VOTE = 'Vote111111111111111111111111111111111111111';
    const STAKE = 'Stake11111111111111111111111111111111111111';
    const vote = generateSigner();
    const node = generateSigner();
    const init: InstructionInput = {
      programId: VOTE,
      keys: [w(vote.address), r('SysvarRent111111111111111111111111111111111'), r('SysvarC1ock11111111111111111111111111111111'), r(node.address, true)],
      data: cat([0, 0, 0, 0], key(node.address), key(payer.address), key(payer.address), [7]),
    };
    await sendAndWait(devnet.url, payer, [createAccountIx(payer.address, vote.address, await rent(3762), 3762, VOTE), init], [vote, node]);
    const v = await parsedOf(vote.address);
    expect(v).toEqual({
      program: 'vote',
      parsed: {
        type: 'vote',
        info: {
          nodePubkey: node.address,
          authorizedWithdrawer: payer.address,
          commission: 7,
          votes: [],
          rootSlot: null,
          authorizedVoters: [{ epoch: 0, authorizedVoter: payer.address }],
          priorVoters: [], epochCredits: [], lastTimestamp: { slot: 0, timestamp: 0 },
          inflationRewardsCollector: vote.address, blockRevenueCollector: node.address, inflationRewardsCommissionBps: 700, blockRevenueCommissionBps: 10000, pendingDelegatorRewards: '0', blsPubkeyCompressed: null,
        },
      },
      space: 3762,
    });

    const stake = generateSigner();
    const custodian = generateSigner().address;
    const initStake: InstructionInput = { programId: STAKE, keys: [w(stake.address), r('SysvarRent111111111111111111111111111111111')], data: cat([0, 0, 0, 0], key(payer.address), key(payer.address), u64(0), u64(0), key(custodian)) };
    await sendAndWait(devnet.url, payer, [createAccountIx(payer.address, stake.address, (await rent(200)) + 10n ** 9n, 200, STAKE), initStake], [stake]);
    expect(await parsedOf(stake.address)).toEqual({
      program: 'stake',
      parsed: { type: 'initialized', info: { meta: { rentExemptReserve: String(await rent(200)), authorized: { staker: payer.address, withdrawer: payer.address }, lockup: { unixTimestamp: 0, epoch: 0, custodian } } } },
      space: 200,
    });
  });

  it('an upgradeable-loader buffer', async () => {
    const LOADER = 'BPFLoaderUpgradeab1e11111111111111111111111';
    const buffer = generateSigner();
    await sendAndWait(
      devnet.url,
      payer,
      [
        createAccountIx(payer.address, buffer.address, await rent(37 + 4), 37 + 4, LOADER),
        { programId: LOADER, keys: [w(buffer.address), r(payer.address)], data: Uint8Array.from([0, 0, 0, 0]) },
      ],
      [buffer],
    );
    expect(await parsedOf(buffer.address)).toEqual({ program: 'bpf-upgradeable-loader', parsed: { type: 'buffer', info: { authority: payer.address, data: ['AAAAAA==', 'base64'] } }, space: 41 });
  });
});
