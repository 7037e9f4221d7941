/**
 * getTransaction and getBlock tell what the transaction did, as the real RPC does, read through
 * web3.js: token balances before and after (SPL Token), the inner instructions of a CPI (the ATA
 * program calling System and Token), and for a v0 transaction through a lookup table, the table in
 * the message and the addresses it loaded — with balances and token balances indexed past the
 * static keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AddressLookupTableProgram,
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
import bs58 from 'bs58';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';

const TOKEN_PROGRAM = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
const ATA_PROGRAM = new PublicKey('ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL');

let devnet: Devnet;
let conn: Connection;
const payer = Keypair.generate();
const mint = Keypair.generate();
const alice = Keypair.generate();
const bob = Keypair.generate().publicKey;

const u64 = (v: number | bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(v));
  return b;
};
const ata = (owner: PublicKey) => PublicKey.findProgramAddressSync([owner.toBuffer(), TOKEN_PROGRAM.toBuffer(), mint.publicKey.toBuffer()], ATA_PROGRAM)[0];
const createAta = (owner: PublicKey) =>
  new TransactionInstruction({
    programId: ATA_PROGRAM,
    keys: [
      { pubkey: payer.publicKey, isSigner: true, isWritable: true },
      { pubkey: ata(owner), isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint.publicKey, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: TOKEN_PROGRAM, isSigner: false, isWritable: false },
    ],
    data: Buffer.from([1]),
  });
const transfer = (from: PublicKey, to: PublicKey, owner: PublicKey, amount: number) =>
  new TransactionInstruction({
    programId: TOKEN_PROGRAM,
    keys: [
      { pubkey: from, isSigner: false, isWritable: true },
      { pubkey: to, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
    data: Buffer.concat([Buffer.from([3]), u64(amount)]),
  });
const send = (ixs: TransactionInstruction[], signers: Keypair[] = []) => sendAndConfirmTransaction(conn, new Transaction().add(...ixs), [payer, ...signers], { commitment: 'confirmed' });
const getTx = (signature: string) => conn.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
const amount = (raw: number) => ({ amount: String(raw), decimals: 6, uiAmount: raw / 1e6, uiAmountString: String(raw / 1e6) });

let createBobAta = '';
let splTransfer = '';

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 40, wsPortPlusOne: false, stateModules: false });
  conn = new Connection(devnet.url, { wsEndpoint: devnet.wsUrl, commitment: 'confirmed' });
  await devnet.control.airdrop(payer.publicKey.toBase58(), BigInt(10 * LAMPORTS_PER_SOL));
  const rent = await conn.getMinimumBalanceForRentExemption(82);
  await send(
    [
      SystemProgram.createAccount({ fromPubkey: payer.publicKey, newAccountPubkey: mint.publicKey, lamports: rent, space: 82, programId: TOKEN_PROGRAM }),
      new TransactionInstruction({
        programId: TOKEN_PROGRAM,
        keys: [{ pubkey: mint.publicKey, isSigner: false, isWritable: true }],
        data: Buffer.concat([Buffer.from([20, 6]), payer.publicKey.toBuffer(), Buffer.from([0])]),
      }),
      createAta(alice.publicKey),
      new TransactionInstruction({
        programId: TOKEN_PROGRAM,
        keys: [
          { pubkey: mint.publicKey, isSigner: false, isWritable: true },
          { pubkey: ata(alice.publicKey), isSigner: false, isWritable: true },
          { pubkey: payer.publicKey, isSigner: true, isWritable: false },
        ],
        data: Buffer.concat([Buffer.from([7]), u64(1_500_000)]),
      }),
    ],
    [mint],
  );
  createBobAta = await send([createAta(bob)]);
  splTransfer = await send([transfer(ata(alice.publicKey), ata(bob), alice.publicKey, 500_000)], [alice]);
}, 60_000);
afterAll(async () => {
  await devnet?.stop();
});

describe('getTransaction: an SPL transfer', () => {
  it('has the token balances of both accounts before and after, indexed into the account keys', async () => {
    const tx = (await getTx(splTransfer))!;
    const keys = tx.transaction.message.staticAccountKeys.map((k) => k.toBase58());
    const entry = (account: PublicKey, owner: PublicKey, raw: number) => ({
      accountIndex: keys.indexOf(account.toBase58()),
      mint: mint.publicKey.toBase58(),
      owner: owner.toBase58(),
      programId: TOKEN_PROGRAM.toBase58(),
      uiTokenAmount: amount(raw),
    });
    const byIndex = (a: { accountIndex: number }, b: { accountIndex: number }) => a.accountIndex - b.accountIndex;
    expect(tx.meta!.preTokenBalances!.slice().sort(byIndex)).toEqual(
      [entry(ata(alice.publicKey), alice.publicKey, 1_500_000), entry(ata(bob), bob, 0)].sort(byIndex),
    );
    expect(tx.meta!.postTokenBalances!.slice().sort(byIndex)).toEqual(
      [entry(ata(alice.publicKey), alice.publicKey, 1_000_000), entry(ata(bob), bob, 500_000)].sort(byIndex),
    );
    // A plain Token transfer invokes nothing.
    expect(tx.meta!.innerInstructions).toEqual([]);
    expect(tx.meta!.loadedAddresses).toEqual({ writable: [], readonly: [] });
  });

  it('getBlock shows the same meta for it', async () => {
    const tx = (await getTx(splTransfer))!;
    const block = (await conn.getBlock(tx.slot, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }))!;
    const inBlock = block.transactions.find((t) => t.transaction.signatures[0] === splTransfer)!;
    expect(inBlock.meta!.preTokenBalances).toEqual(tx.meta!.preTokenBalances);
    expect(inBlock.meta!.postTokenBalances).toEqual(tx.meta!.postTokenBalances);
  });

  it('a transaction that touches no token program has no token balances', async () => {
    const signature = await send([SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: bob, lamports: 1_000_000 })]);
    const tx = (await getTx(signature))!;
    expect(tx.meta!.preTokenBalances).toEqual([]);
    expect(tx.meta!.postTokenBalances).toEqual([]);
    expect(tx.meta!.innerInstructions).toEqual([]);
  });
});

describe('getTransaction: inner instructions of a CPI', () => {
  it('the ATA program calling System and Token shows as inner instructions of instruction 0', async () => {
    const tx = (await getTx(createBobAta))!;
    const keys = tx.transaction.message.staticAccountKeys.map((k) => k.toBase58());
    const inner = tx.meta!.innerInstructions!;
    expect(inner).toHaveLength(1);
    expect(inner[0]!.index).toBe(0);
    const programs = inner[0]!.instructions.map((ix) => keys[ix.programIdIndex]);
    expect(new Set(programs)).toEqual(new Set([TOKEN_PROGRAM.toBase58(), SystemProgram.programId.toBase58()]));
    for (const ix of inner[0]!.instructions) {
      expect((ix as { stackHeight?: number }).stackHeight).toBe(2);
      expect(() => bs58.decode(ix.data)).not.toThrow();
      for (const a of ix.accounts) expect(a).toBeLessThan(keys.length);
    }
    // The created account: no token balance before, a zero one after.
    expect(tx.meta!.preTokenBalances).toEqual([]);
    expect(tx.meta!.postTokenBalances).toEqual([
      {
        accountIndex: keys.indexOf(ata(bob).toBase58()),
        mint: mint.publicKey.toBase58(),
        owner: bob.toBase58(),
        programId: TOKEN_PROGRAM.toBase58(),
        uiTokenAmount: amount(0),
      },
    ]);
  });

  it('raw json over the wire: data in base58 and the stack height', async () => {
    const res = await fetch(devnet.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTransaction', params: [createBobAta, { commitment: 'confirmed', encoding: 'base64' }] }),
    });
    const { result } = (await res.json()) as {
      result: { meta: { innerInstructions: { index: number; instructions: { data: string; stackHeight: number }[] }[] } };
    };
    expect(result.meta.innerInstructions[0]!.instructions.every((ix) => typeof ix.data === 'string' && ix.stackHeight === 2)).toBe(true);
  });
});

describe('getTransaction: a v0 transaction through a lookup table', () => {
  it('names the table in the message and the loaded addresses in meta, balances past the static keys', async () => {
    const recentSlot = await conn.getSlot('finalized');
    const [create, table] = AddressLookupTableProgram.createLookupTable({ authority: payer.publicKey, payer: payer.publicKey, recentSlot });
    const extend = AddressLookupTableProgram.extendLookupTable({
      lookupTable: table,
      authority: payer.publicKey,
      payer: payer.publicKey,
      addresses: [ata(alice.publicKey), ata(bob)],
    });
    await send([create, extend]);
    await devnet.chain.waitForSlot(devnet.chain.slot() + 2);
    const lut = (await conn.getAddressLookupTable(table)).value!;
    const { blockhash } = await conn.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [transfer(ata(alice.publicKey), ata(bob), alice.publicKey, 250_000)],
    }).compileToV0Message([lut]);
    expect(message.addressTableLookups).toHaveLength(1);
    const vtx = new VersionedTransaction(message);
    vtx.sign([payer, alice]);
    const signature = await conn.sendTransaction(vtx);
    await conn.confirmTransaction({ signature, blockhash, lastValidBlockHeight: (await conn.getLatestBlockhash()).lastValidBlockHeight }, 'confirmed');

    const tx = (await getTx(signature))!;
    expect(tx.version).toBe(0);
    const lookups = tx.transaction.message.addressTableLookups;
    expect(lookups.map((l) => ({ accountKey: l.accountKey.toBase58(), writableIndexes: l.writableIndexes, readonlyIndexes: l.readonlyIndexes }))).toEqual(
      message.addressTableLookups.map((l) => ({ accountKey: l.accountKey.toBase58(), writableIndexes: l.writableIndexes, readonlyIndexes: l.readonlyIndexes })),
    );
    const staticKeys = tx.transaction.message.staticAccountKeys.map((k) => k.toBase58());
    const loadedWritable = message.addressTableLookups[0]!.writableIndexes.map((i) => lut.state.addresses[i]!.toBase58());
    expect(tx.meta!.loadedAddresses!.writable.map((k) => k.toBase58())).toEqual(loadedWritable);
    expect(tx.meta!.loadedAddresses!.readonly).toEqual([]);
    const all = staticKeys.concat(loadedWritable);
    expect(tx.meta!.preBalances).toHaveLength(all.length);
    expect(tx.meta!.postBalances).toHaveLength(all.length);
    const rentOfToken = await conn.getMinimumBalanceForRentExemption(165);
    for (const k of loadedWritable) expect(tx.meta!.postBalances[all.indexOf(k)]).toBe(rentOfToken);
    const post = Object.fromEntries(tx.meta!.postTokenBalances!.map((b) => [all[b.accountIndex], b.uiTokenAmount.amount]));
    expect(post).toEqual({ [ata(alice.publicKey).toBase58()]: '750000', [ata(bob).toBase58()]: '750000' });
    const pre = Object.fromEntries(tx.meta!.preTokenBalances!.map((b) => [all[b.accountIndex], b.uiTokenAmount.amount]));
    expect(pre).toEqual({ [ata(alice.publicKey).toBase58()]: '1000000', [ata(bob).toBase58()]: '500000' });
  });
});
