/**
 * `@solana/kit` 6.x against the devnet, over its HTTP and websocket transports: send and confirm
 * with `sendAndConfirmTransactionFactory`, balances, an SPL token flow (instructions built by hand:
 * @solana-program/token is not a dependency), a memo, the account/logs/program notifications, and
 * the standard methods the devnet added. Everything on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressEncoder,
  getSignatureFromTransaction,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';

const SYSTEM = address('11111111111111111111111111111111');
const TOKEN = address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
const MEMO = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

let devnet: Devnet;
let rpc: ReturnType<typeof createSolanaRpc>;
let subs: ReturnType<typeof createSolanaRpcSubscriptions>;
let payer: KeyPairSigner;
let sendAndConfirm: ReturnType<typeof sendAndConfirmTransactionFactory>;
const stop = new AbortController();

const enc = getAddressEncoder();
const u64 = (v: number | bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
  return b;
};
const cat = (...parts: ArrayLike<number>[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p)));
const signerMeta = (s: KeyPairSigner, writable = true) => ({
  address: s.address,
  role: writable ? AccountRole.WRITABLE_SIGNER : AccountRole.READONLY_SIGNER,
  signer: s,
});
const transfer = (to: Address, amount: number | bigint): Instruction => ({
  programAddress: SYSTEM,
  accounts: [signerMeta(payer), { address: to, role: AccountRole.WRITABLE }],
  data: cat([2, 0, 0, 0], u64(amount)),
});
const createAccount = (account: KeyPairSigner, space: number, rent: bigint, owner: Address): Instruction => ({
  programAddress: SYSTEM,
  accounts: [signerMeta(payer), signerMeta(account)],
  data: cat([0, 0, 0, 0], u64(rent), u64(space), enc.encode(owner)),
});
const tokenIx = (accounts: Instruction['accounts'], data: Uint8Array): Instruction => ({ programAddress: TOKEN, accounts, data });

async function send(instructions: Instruction[]): Promise<string> {
  const { value: latest } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const tx = await signTransactionMessageWithSigners(message);
  await sendAndConfirm(tx as Parameters<typeof sendAndConfirm>[0], { commitment: 'confirmed' });
  return getSignatureFromTransaction(tx);
}

let mint: KeyPairSigner;
let holder: KeyPairSigner;
let holderOwner: KeyPairSigner;

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 25, wsPortPlusOne: false, stateModules: false });
  rpc = createSolanaRpc(devnet.url);
  subs = createSolanaRpcSubscriptions(devnet.wsUrl);
  sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions: subs } as Parameters<typeof sendAndConfirmTransactionFactory>[0]);
  payer = await generateKeyPairSigner();
  await devnet.control.airdrop(payer.address, 50n * 10n ** 9n);
});
afterAll(async () => {
  stop.abort();
  await devnet?.stop();
});

describe('@solana/kit against the devnet', () => {
  it('sends and confirms a transfer with sendAndConfirmTransactionFactory, and reads balances', async () => {
    const to = (await generateKeyPairSigner()).address;
    await send([transfer(to, 1_000_000_000n)]);
    expect((await rpc.getBalance(to, { commitment: 'confirmed' }).send()).value).toBe(lamports(1_000_000_000n));
  });

  it('runs an SPL token flow and reads it back with the token methods and jsonParsed', async () => {
    mint = await generateKeyPairSigner();
    holder = await generateKeyPairSigner();
    holderOwner = await generateKeyPairSigner();
    const rentMint = await rpc.getMinimumBalanceForRentExemption(82n).send();
    const rentAcc = await rpc.getMinimumBalanceForRentExemption(165n).send();
    await send([
      createAccount(mint, 82, rentMint, TOKEN),
      tokenIx([{ address: mint.address, role: AccountRole.WRITABLE }], cat([20, 9], enc.encode(payer.address), [0])),
      createAccount(holder, 165, rentAcc, TOKEN),
      tokenIx(
        [
          { address: holder.address, role: AccountRole.WRITABLE },
          { address: mint.address, role: AccountRole.READONLY },
        ],
        cat([18], enc.encode(holderOwner.address)),
      ),
      tokenIx(
        [{ address: mint.address, role: AccountRole.WRITABLE }, { address: holder.address, role: AccountRole.WRITABLE }, signerMeta(payer, false)],
        cat([7], u64(3_000_000_000n)),
      ),
    ]);
    const bal = await rpc.getTokenAccountBalance(holder.address, { commitment: 'confirmed' }).send();
    expect(bal.value).toEqual({ amount: '3000000000', decimals: 9, uiAmount: 3, uiAmountString: '3' });
    const supply = await rpc.getTokenSupply(mint.address).send();
    expect(supply.value.amount).toBe('3000000000');
    const byOwner = await rpc.getTokenAccountsByOwner(holderOwner.address, { mint: mint.address }, { encoding: 'jsonParsed' }).send();
    expect(byOwner.value[0]!.pubkey).toBe(holder.address);
    expect(byOwner.value[0]!.account.data.parsed.info.tokenAmount.uiAmountString).toBe('3');
    const info = await rpc.getAccountInfo(mint.address, { encoding: 'jsonParsed' }).send();
    expect((info.value!.data as { parsed: { type: string } }).parsed.type).toBe('mint');
    const largest = await rpc.getTokenLargestAccounts(mint.address).send();
    expect(largest.value[0]!.address).toBe(holder.address);
    const pa = await rpc
      .getProgramAccounts(TOKEN, { encoding: 'base64', filters: [{ dataSize: 165n }, { memcmp: { offset: 0n, bytes: mint.address as unknown as never, encoding: 'base58' } }] })
      .send();
    expect(pa.map((a) => a.pubkey)).toEqual([holder.address]);
  });

  it('sends a memo and reads its block', async () => {
    const sig = await send([{ programAddress: MEMO, accounts: [signerMeta(payer, false)], data: new TextEncoder().encode('gm from kit') }]);
    const tx = await rpc.getTransaction(sig as never, { commitment: 'confirmed', maxSupportedTransactionVersion: 0, encoding: 'json' }).send();
    expect(tx!.meta!.logMessages!.join('\n')).toContain('gm from kit');
    const block = await rpc.getBlock(tx!.slot, { commitment: 'confirmed', maxSupportedTransactionVersion: 0, transactionDetails: 'signatures', rewards: false }).send();
    expect(block!.signatures).toContain(sig);
    expect(await rpc.getBlockTime(tx!.slot).send()).toBe(tx!.blockTime);
  });

  it('delivers account, logs and program notifications', async () => {
    const watched = (await generateKeyPairSigner()).address;
    const accounts = await subs.accountNotifications(watched, { commitment: 'confirmed', encoding: 'base64' }).subscribe({ abortSignal: stop.signal });
    const logs = await subs.logsNotifications({ mentions: [MEMO] }, { commitment: 'confirmed' }).subscribe({ abortSignal: stop.signal });
    const program = await subs.programNotifications(TOKEN, { commitment: 'confirmed', encoding: 'base64', filters: [{ dataSize: 165n }] }).subscribe({ abortSignal: stop.signal });
    const first = async <T>(it: AsyncIterable<T>) => {
      for await (const n of it) return n;
      throw new Error('no notification');
    };
    // kit drops what arrives before an iterator's first next(): start reading before sending
    const gotAccount = first(accounts);
    const gotLogs = first(logs);
    const gotProgram = first(program);
    await send([
      transfer(watched, 3_000_000n),
      { programAddress: MEMO, accounts: [], data: new TextEncoder().encode('kit watches') },
      tokenIx(
        [{ address: mint.address, role: AccountRole.WRITABLE }, { address: holder.address, role: AccountRole.WRITABLE }, signerMeta(payer, false)],
        cat([7], u64(1)),
      ),
    ]);
    expect((await gotAccount).value.lamports).toBe(lamports(3_000_000n));
    expect((await gotLogs).value.logs!.join('\n')).toContain('kit watches');
    expect((await gotProgram).value.pubkey).toBe(holder.address);
  });

  it('answers the other standard methods', async () => {
    expect((await rpc.getEpochSchedule().send()).slotsPerEpoch).toBe(432000n);
    const { identity } = await rpc.getIdentity().send();
    expect(await rpc.getSlotLeader().send()).toBe(identity);
    expect(await rpc.getFirstAvailableBlock().send()).toBe(0n);
    expect((await rpc.getBlocksWithLimit(0n, 3).send()).length).toBe(3);
    expect((await rpc.getMultipleAccounts([payer.address, mint.address], { encoding: 'base64' }).send()).value[1]!.owner).toBe(TOKEN);
    expect((await rpc.getTokenAccountsByDelegate(payer.address, { programId: TOKEN }).send()).value).toEqual([]);
  });

  it('answers jsonParsed transactions and the one-node methods as a test validator (issue 34)', async () => {
    const sig = await send([{ programAddress: MEMO, accounts: [signerMeta(payer, false)], data: new TextEncoder().encode('parsed by kit') }]);
    const tx = await rpc.getTransaction(sig as never, { commitment: 'confirmed', maxSupportedTransactionVersion: 0, encoding: 'jsonParsed' }).send();
    expect(tx!.transaction.message.instructions[0]).toMatchObject({ program: 'spl-memo', parsed: 'parsed by kit' });
    expect(tx!.transaction.message.accountKeys[0]).toMatchObject({ pubkey: payer.address, signer: true, writable: true, source: 'transaction' });
    const { identity } = await rpc.getIdentity().send();
    const votes = await rpc.getVoteAccounts().send();
    expect(votes.current.map((v) => v.nodePubkey)).toEqual([identity]);
    const supply = (await rpc.getSupply({ excludeNonCirculatingAccountsList: true }).send()).value;
    expect(supply.total).toBe(supply.circulating);
    expect((await rpc.getInflationGovernor().send()).initial).toBe(0.08);
    expect(typeof (await rpc.getStakeMinimumDelegation().send()).value).toBe('bigint');
    const production = (await rpc.getBlockProduction().send()).value;
    expect(production.byIdentity[identity]![0]).toBe(production.byIdentity[identity]![1]);
    const [node] = await rpc.getClusterNodes().send();
    expect(node!.rpc).toBe(new URL(devnet.url).host);
  });
});
