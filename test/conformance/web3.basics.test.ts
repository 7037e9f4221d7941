import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ComputeBudgetProgram,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  SystemProgram,
  Transaction,
  sendAndConfirmTransaction,
} from '@solana/web3.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { buildTx, newKeypair, rpc } from '../support/devnet.js';

let devnet: Devnet;
let conn: Connection;
beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 25, wsPortPlusOne: false, stateModules: false });
  conn = new Connection(devnet.url, { commitment: 'confirmed', wsEndpoint: devnet.wsUrl });
});
afterAll(async () => {
  // web3.js reconnects its websocket forever once the server goes: close it first.
  (conn as unknown as { _rpcWebSocket: { close(): void } })._rpcWebSocket.close();
  await devnet?.stop();
});

describe('@solana/web3.js Connection against the devnet', () => {
  it('airdrops, sends and confirms a transfer, then reads it back', async () => {
    const payer = Keypair.generate();
    const to = Keypair.generate().publicKey;
    const airdrop = await conn.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL);
    const latest = await conn.getLatestBlockhash();
    await conn.confirmTransaction({ signature: airdrop, ...latest });
    expect(await conn.getBalance(payer.publicKey)).toBe(2 * LAMPORTS_PER_SOL);

    const tx = new Transaction()
      .add(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 5_000 }))
      .add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL / 4 }));
    const signature = await sendAndConfirmTransaction(conn, tx, [payer]);
    expect(await conn.getBalance(to)).toBe(LAMPORTS_PER_SOL / 4);

    const [status] = (await conn.getSignatureStatuses([signature], { searchTransactionHistory: true })).value;
    expect(status?.err).toBeNull();
    expect(['confirmed', 'finalized']).toContain(status?.confirmationStatus);

    const got = await conn.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    expect(got?.meta?.err).toBeNull();
    // 5,000 per signature + ⌈5,000 µlamports × 6,000 CU (two builtin instructions) / 10^6⌉
    expect(got?.meta?.fee).toBe(5_000 + 30);
  });

  it('simulates with units consumed and refuses a failing preflight', async () => {
    const payer = Keypair.generate();
    await devnet.control.airdrop(payer.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL));
    const { blockhash } = await conn.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 }),
    );
    const sim = await conn.simulateTransaction(tx, [payer]);
    expect(sim.value.err).toBeNull();
    expect(sim.value.unitsConsumed).toBeGreaterThan(0);
    expect(sim.value.logs?.length).toBeGreaterThan(0);

    const tooMuch = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 5 * LAMPORTS_PER_SOL }),
    );
    await expect(sendAndConfirmTransaction(conn, tooMuch, [payer])).rejects.toThrow(/simulation failed/i);
  });

  it('serves the everyday read methods', async () => {
    expect(await conn.getMinimumBalanceForRentExemption(0)).toBe(890_880);
    expect(typeof (await conn.getGenesisHash())).toBe('string');
    expect((await conn.getVersion())['solana-core']).toBeTruthy();
    const info = await conn.getEpochInfo();
    expect(info.absoluteSlot).toBeGreaterThanOrEqual(0);
    const before = devnet.chain.blockHeight();
    const height = await conn.getBlockHeight('processed');
    expect(height).toBeGreaterThanOrEqual(before);
    expect(height).toBeLessThanOrEqual(devnet.chain.blockHeight());
    expect(await conn.getBlockHeight('finalized')).toBeLessThan(devnet.chain.blockHeight());
    const payer = Keypair.generate();
    await devnet.control.airdrop(payer.publicKey.toBase58(), 10_000_000n);
    const acc = await conn.getAccountInfo(payer.publicKey);
    expect(acc?.lamports).toBe(10_000_000);
    expect(acc?.owner.toBase58()).toBe('11111111111111111111111111111111');
    const { blockhash } = await conn.getLatestBlockhash();
    const msg = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash })
      .add(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000_000 }))
      .add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: payer.publicKey, lamports: 1 }))
      .compileMessage();
    expect((await conn.getFeeForMessage(msg)).value).toBe(5_000 + 6_000);
  });

  it('getSignatureStatuses takes at most 256 signatures', async () => {
    const sigs = Array.from({ length: 257 }, () => '1111111111111111111111111111111111111111111111111111111111111111');
    const r = await rpc(devnet.url, 'getSignatureStatuses', [sigs]);
    expect(r.body.error.code).toBe(-32602);
    const ok = await rpc(devnet.url, 'getSignatureStatuses', [sigs.slice(0, 256)]);
    expect(ok.body.result.value).toHaveLength(256);
  });

  it('estimates priority fees from the prices it executed', async () => {
    const payer = newKeypair();
    await devnet.control.airdrop(payer.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL));
    const blockhash = devnet.chain.latestBlockhash().blockhash;
    const prices = [10, 20, 30, 40, 1_000];
    for (const p of prices) devnet.chain.submit(buildTx({ payer, blockhash, cuPrice: p, lamports: 1_000_000 + p }));
    await devnet.chain.waitForSlot(devnet.chain.slot() + 1);
    const r = await rpc(devnet.url, 'getPriorityFeeEstimate', [
      { accountKeys: [payer.publicKey.toBase58()], options: { includeAllPriorityFeeLevels: true } },
    ]);
    // The payer's own transactions: the airdrop (price 0) and the five above.
    expect(r.body.result.priorityFeeLevels).toEqual({ min: 0, low: 10, medium: 20, high: 40, veryHigh: 1_000, unsafeMax: 1_000 });
    const high = await rpc(devnet.url, 'getPriorityFeeEstimate', [{ accountKeys: [payer.publicKey.toBase58()], options: { priorityLevel: 'High' } }]);
    expect(high.body.result).toEqual({ priorityFeeEstimate: 40 });
    const bad = await rpc(devnet.url, 'getPriorityFeeEstimate', [{ options: { priorityLevel: 'Huge' } }]);
    expect(bad.body.error.code).toBe(-32602);
    expect(bad.body.error.message).toMatch(/priorityLevel/);
  });
});
