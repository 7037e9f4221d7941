/**
 * `@solana/web3.js` 1.98 against the devnet, as a bot or mint script uses it: send and confirm,
 * balances, an SPL token flow (mint, associated token accounts, mintTo, transfer; instructions built
 * by hand, as @solana/spl-token is not installed), a memo, an address-lookup-table flow with a v0
 * transaction, the account/logs/program notifications, and each standard method the devnet added.
 * Everything on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AddressLookupTableProgram,
  ComputeBudgetProgram,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
  sendAndConfirmTransaction,
} from '@solana/web3.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { DEFAULT_TIP_ACCOUNTS } from '../../src/tips.js';

const TOKEN_PROGRAM = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
const ATA_PROGRAM = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');
const MEMO_PROGRAM = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

let devnet: Devnet;
let conn: Connection;
const payer = Keypair.generate();

const u64 = (v: number | bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(v));
  return b;
};
const TOKEN_2022_PROGRAM = new PublicKey('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
const ata = (owner: PublicKey, mint: PublicKey, program = TOKEN_PROGRAM) =>
  PublicKey.findProgramAddressSync([owner.toBuffer(), program.toBuffer(), mint.toBuffer()], ATA_PROGRAM)[0];
const createAtaIdempotent = (owner: PublicKey, mint: PublicKey, program = TOKEN_PROGRAM) =>
  new TransactionInstruction({
    programId: ATA_PROGRAM,
    keys: [
      { pubkey: payer.publicKey, isSigner: true, isWritable: true },
      { pubkey: ata(owner, mint, program), isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: program, isSigner: false, isWritable: false },
    ],
    data: Buffer.from([1]),
  });
const tokenIx = (keys: [PublicKey, boolean, boolean][], data: Buffer, programId = TOKEN_PROGRAM) =>
  new TransactionInstruction({ programId, keys: keys.map(([pubkey, isSigner, isWritable]) => ({ pubkey, isSigner, isWritable })), data });
const send = (ixs: TransactionInstruction[], signers: Keypair[] = []) => sendAndConfirmTransaction(conn, new Transaction().add(...ixs), [payer, ...signers]);

const mint = Keypair.generate();
const alice = Keypair.generate().publicKey;
const bob = Keypair.generate().publicKey;

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 25, wsPortPlusOne: false, stateModules: false });
  conn = new Connection(devnet.url, { commitment: 'confirmed', wsEndpoint: devnet.wsUrl });
  await devnet.control.airdrop(payer.publicKey.toBase58(), 100n * BigInt(LAMPORTS_PER_SOL));
});
afterAll(async () => {
  // web3.js reconnects its websocket while it has subscriptions once the server goes: close it first.
  (conn as unknown as { _rpcWebSocket: { close(): void } })._rpcWebSocket.close();
  await devnet?.stop();
});

describe('@solana/web3.js against the devnet', () => {
  it('sends and confirms a tipped transfer, and reads balances', async () => {
    const to = Keypair.generate().publicKey;
    const tip = new PublicKey(DEFAULT_TIP_ACCOUNTS[3]!);
    const before = await conn.getBalance(tip);
    await send([
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 1_000 }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: LAMPORTS_PER_SOL }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: tip, lamports: 5_000 }),
    ]);
    expect(await conn.getBalance(to)).toBe(LAMPORTS_PER_SOL);
    expect(await conn.getBalance(tip)).toBe(before + 5_000);
  });

  it('creates a mint and associated token accounts, mints and transfers, and reads them back parsed', async () => {
    const rent = await conn.getMinimumBalanceForRentExemption(82);
    await send(
      [
        SystemProgram.createAccount({ fromPubkey: payer.publicKey, newAccountPubkey: mint.publicKey, lamports: rent, space: 82, programId: TOKEN_PROGRAM }),
        tokenIx([[mint.publicKey, false, true]], Buffer.concat([Buffer.from([20, 6]), payer.publicKey.toBuffer(), Buffer.from([0])])),
        createAtaIdempotent(alice, mint.publicKey),
        createAtaIdempotent(bob, mint.publicKey),
      ],
      [mint],
    );
    await send([
      tokenIx(
        [
          [mint.publicKey, false, true],
          [ata(alice, mint.publicKey), false, true],
          [payer.publicKey, true, false],
        ],
        Buffer.concat([Buffer.from([7]), u64(2_000_000)]),
      ),
    ]);
    // alice signs her own transfer: she needs no lamports, the payer pays the fee
    const aliceKp = Keypair.generate();
    const aliceAta = ata(aliceKp.publicKey, mint.publicKey);
    await send([
      createAtaIdempotent(aliceKp.publicKey, mint.publicKey),
      tokenIx(
        [
          [mint.publicKey, false, true],
          [aliceAta, false, true],
          [payer.publicKey, true, false],
        ],
        Buffer.concat([Buffer.from([7]), u64(700_000)]),
      ),
    ]);
    await send(
      [
        tokenIx(
          [
            [aliceAta, false, true],
            [ata(bob, mint.publicKey), false, true],
            [aliceKp.publicKey, true, false],
          ],
          Buffer.concat([Buffer.from([3]), u64(200_000)]),
        ),
      ],
      [aliceKp],
    );

    expect((await conn.getTokenAccountBalance(aliceAta)).value).toEqual({ amount: '500000', decimals: 6, uiAmount: 0.5, uiAmountString: '0.5' });
    expect((await conn.getTokenSupply(mint.publicKey)).value.uiAmountString).toBe('2.7');
    const largest = await conn.getTokenLargestAccounts(mint.publicKey);
    expect(largest.value.map((a) => a.address.toBase58())).toEqual([ata(alice, mint.publicKey), aliceAta, ata(bob, mint.publicKey)].map((p) => p.toBase58()));
    const parsed = await conn.getParsedTokenAccountsByOwner(bob, { mint: mint.publicKey });
    expect(parsed.value[0]!.pubkey.equals(ata(bob, mint.publicKey))).toBe(true);
    expect(parsed.value[0]!.account.data.parsed.info.tokenAmount.uiAmountString).toBe('0.2');
    const raw = await conn.getTokenAccountsByOwner(aliceKp.publicKey, { programId: TOKEN_PROGRAM });
    expect(raw.value[0]!.account.data.length).toBe(165);
    const mintInfo = await conn.getParsedAccountInfo(mint.publicKey);
    expect((mintInfo.value!.data as { parsed: { info: { supply: string } } }).parsed.info.supply).toBe('2700000');
    const holders = await conn.getProgramAccounts(TOKEN_PROGRAM, { filters: [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: mint.publicKey.toBase58() } }] });
    expect(holders).toHaveLength(3);
    const parsedHolders = await conn.getParsedProgramAccounts(TOKEN_PROGRAM, {
      filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: bob.toBase58() } }],
    });
    expect((parsedHolders[0]!.account.data as { parsed: { type: string } }).parsed.type).toBe('account');
  });

  it('runs a Token-2022 flow: its ATA carries immutableOwner, shown in jsonParsed', async () => {
    const mint22 = Keypair.generate();
    const owner = Keypair.generate().publicKey;
    const rent = await conn.getMinimumBalanceForRentExemption(82);
    await send(
      [
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: mint22.publicKey,
          lamports: rent,
          space: 82,
          programId: TOKEN_2022_PROGRAM,
        }),
        tokenIx([[mint22.publicKey, false, true]], Buffer.concat([Buffer.from([20, 2]), payer.publicKey.toBuffer(), Buffer.from([0])]), TOKEN_2022_PROGRAM),
        createAtaIdempotent(owner, mint22.publicKey, TOKEN_2022_PROGRAM),
        tokenIx(
          [
            [mint22.publicKey, false, true],
            [ata(owner, mint22.publicKey, TOKEN_2022_PROGRAM), false, true],
            [payer.publicKey, true, false],
          ],
          Buffer.concat([Buffer.from([7]), u64(1234)]),
          TOKEN_2022_PROGRAM,
        ),
      ],
      [mint22],
    );
    const parsed = await conn.getParsedTokenAccountsByOwner(owner, { programId: TOKEN_2022_PROGRAM });
    expect(parsed.value).toHaveLength(1);
    const data = parsed.value[0]!.account.data;
    expect(data.program).toBe('spl-token-2022');
    expect(data.parsed.info.tokenAmount.uiAmountString).toBe('12.34');
    expect(data.parsed.info.extensions).toEqual([{ extension: 'immutableOwner' }]);
    expect((await conn.getTokenAccountBalance(ata(owner, mint22.publicKey, TOKEN_2022_PROGRAM))).value.amount).toBe('1234');
  });

  it('sends a memo and finds it in the logs, the block and the signature list', async () => {
    const signature = await send([new TransactionInstruction({ programId: MEMO_PROGRAM, keys: [{ pubkey: payer.publicKey, isSigner: true, isWritable: false }], data: Buffer.from('gm from web3.js') })]);
    const tx = await conn.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    expect(tx!.meta!.logMessages!.join('\n')).toContain('gm from web3.js');
    const block = await conn.getBlock(tx!.slot, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    expect(block!.transactions.some((t) => t.transaction.signatures[0] === signature)).toBe(true);
    expect(await conn.getBlockTime(tx!.slot)).toBe(tx!.blockTime);
    const sigs = await conn.getBlockSignatures(tx!.slot, 'confirmed');
    expect(sigs.signatures).toContain(signature);
    expect(await conn.getBlocks(tx!.slot - 1, tx!.slot, 'confirmed')).toEqual([tx!.slot - 1, tx!.slot]);
  });

  it('creates and extends a lookup table, then sends a v0 transaction through it', async () => {
    const recentSlot = await conn.getSlot('finalized');
    const [create, table] = AddressLookupTableProgram.createLookupTable({ authority: payer.publicKey, payer: payer.publicKey, recentSlot });
    const targets = [Keypair.generate().publicKey, Keypair.generate().publicKey];
    const extend = AddressLookupTableProgram.extendLookupTable({ lookupTable: table, authority: payer.publicKey, payer: payer.publicKey, addresses: targets });
    await send([create, extend]);
    // Addresses added in a slot are usable from the next one.
    await devnet.chain.waitForSlot(devnet.chain.slot() + 2);
    const lut = (await conn.getAddressLookupTable(table)).value!;
    expect(lut.state.addresses.map((a) => a.toBase58())).toEqual(targets.map((a) => a.toBase58()));
    const { blockhash, lastValidBlockHeight } = await conn.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: targets.map((t) => SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: t, lamports: 1_000_000 })),
    }).compileToV0Message([lut]);
    expect(message.addressTableLookups).toHaveLength(1);
    const vtx = new VersionedTransaction(message);
    vtx.sign([payer]);
    const signature = await conn.sendTransaction(vtx);
    const conf = await conn.confirmTransaction({ signature, blockhash, lastValidBlockHeight });
    expect(conf.value.err).toBeNull();
    expect(await conn.getBalance(targets[1]!)).toBe(1_000_000);
  });

  it('delivers onAccountChange, onLogs and onProgramAccountChange', async () => {
    const watched = Keypair.generate().publicKey;
    const account = new Promise<number>((resolve) => {
      const id = conn.onAccountChange(watched, (info) => {
        void conn.removeAccountChangeListener(id);
        resolve(info.lamports);
      }, { commitment: 'confirmed' });
    });
    const logs = new Promise<string[]>((resolve) => {
      const id = conn.onLogs(MEMO_PROGRAM, (l) => {
        if (l.logs.join('\n').includes('watch me')) {
          void conn.removeOnLogsListener(id);
          resolve(l.logs);
        }
      }, 'confirmed');
    });
    const programChange = new Promise<string>((resolve) => {
      const id = conn.onProgramAccountChange(TOKEN_PROGRAM, (k) => {
        void conn.removeProgramAccountChangeListener(id);
        resolve(k.accountId.toBase58());
      }, { commitment: 'confirmed', filters: [{ dataSize: 165 }, { memcmp: { offset: 32, bytes: bob.toBase58() } }] });
    });
    // let the three subscriptions reach the devnet before anything happens
    await new Promise((r) => setTimeout(r, 300));
    await send([
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: watched, lamports: 2_000_000 }),
      new TransactionInstruction({ programId: MEMO_PROGRAM, keys: [], data: Buffer.from('watch me') }),
      tokenIx(
        [
          [mint.publicKey, false, true],
          [ata(bob, mint.publicKey), false, true],
          [payer.publicKey, true, false],
        ],
        Buffer.concat([Buffer.from([7]), u64(1)]),
      ),
    ]);
    expect(await account).toBe(2_000_000);
    expect((await logs).join('\n')).toContain('watch me');
    expect(await programChange).toBe(ata(bob, mint.publicKey).toBase58());
  });

  it('answers the other standard methods web3.js calls', async () => {
    expect((await conn.getEpochSchedule()).slotsPerEpoch).toBe(432000);
    const identity = await conn.getSlotLeader();
    expect(identity).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect((await conn.getClusterNodes())[0]!.pubkey).toBe(identity);
    expect(await conn.getFirstAvailableBlock()).toBe(0);
    expect(await conn.getMinimumLedgerSlot()).toBe(0);
    expect((await conn.getVoteAccounts()).current.map((v) => v.nodePubkey)).toEqual([identity]);
    // as Agave: epoch 0's rewards live in epoch 1's first block, not made yet (-32004)
    await expect(conn.getInflationReward([payer.publicKey])).rejects.toThrow(/Block not available for slot 432000/);
    expect(await conn.getTransactionCount()).toBeGreaterThan(0);
    expect((await conn.getBlocks(0, 2)).slice(0, 3)).toEqual([0, 1, 2]);
    const many = await conn.getMultipleAccountsInfo([payer.publicKey, mint.publicKey]);
    expect(many[1]!.owner.equals(TOKEN_PROGRAM)).toBe(true);
    const { blockhash } = await conn.getLatestBlockhash();
    const msg = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash })
      .add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: alice, lamports: 1 }))
      .compileMessage();
    expect((await conn.getFeeForMessage(msg)).value).toBe(5_000);
    // the one-node answers of a test validator (issue 34 item 6)
    const supply = (await conn.getSupply()).value;
    expect(supply.total).toBe(supply.circulating);
    expect(supply.total).toBeGreaterThan(0);
    expect((await conn.getLargestAccounts()).value.length).toBeGreaterThan(0);
    expect((await conn.getInflationGovernor()).initial).toBe(0.08);
    expect((await conn.getInflationRate()).epoch).toBe(0);
    expect(typeof (await conn.getStakeMinimumDelegation()).value).toBe('number');
    expect(await conn.getRecentPerformanceSamples(5)).toEqual([]);
    const production = (await conn.getBlockProduction()).value;
    expect(production.byIdentity[identity]![0]).toBe(production.byIdentity[identity]![1]);
    expect((await conn.getLeaderSchedule())[identity]).toHaveLength(432000);
  });

  it('getParsedTransaction, getParsedBlock and simulateTransaction answer as Agave (issue 34)', async () => {
    const to = Keypair.generate().publicKey;
    const sig = await send([SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 2_000_000 })]);
    const parsed = await conn.getParsedTransaction(sig, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    const ix = parsed!.transaction.message.instructions[0] as { program: string; parsed: { type: string; info: { lamports: number } } };
    expect(ix).toMatchObject({ program: 'system', parsed: { type: 'transfer', info: { lamports: 2_000_000, destination: to.toBase58() } } });
    expect(parsed!.transaction.message.accountKeys[0]).toMatchObject({ signer: true, writable: true, source: 'transaction' });
    const block = await conn.getParsedBlock(parsed!.slot, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    expect(block.transactions.some((t) => t.transaction.signatures[0] === sig)).toBe(true);
    const { blockhash } = await conn.getLatestBlockhash();
    const msg = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 1 })],
    }).compileToV0Message();
    const tx = new VersionedTransaction(msg);
    tx.sign([payer]);
    const sim = (await conn.simulateTransaction(tx, { commitment: 'confirmed' })).value as unknown as Record<string, unknown>;
    expect(sim).toMatchObject({ err: null, fee: 5000, innerInstructions: null, replacementBlockhash: null, returnData: null });
    expect(sim.preBalances).toHaveLength(3);
  });
});
