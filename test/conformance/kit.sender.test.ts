/**
 * kit all the way through cairn's sender and compiler, with the real `@solana/kit` against the
 * devnet: kit instructions (`programAddress`, `accounts` with roles, `data`) mixed with web3.js-shaped
 * ones, their meta-carried signers used without being listed again; a kit transaction message (fee
 * payer signer, blockhash or durable-nonce lifetime) and a kit compiled `Transaction` in
 * `{ transaction }`; lookup metas needing their tables; and the refusals naming the field. Before,
 * each was refused with "expected a base58 address" for a field the caller never wrote. Last, what
 * cairn returns goes into kit's own calls without a cast (checked by `npm run typecheck`: the
 * `@ts-expect-error` lines prove a plain string would not do).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  setTransactionMessageLifetimeUsingDurableNonce,
  signTransactionMessageWithSigners,
  type AccountSignerMeta,
  type Address,
  type Blockhash,
  type Instruction,
  type KeyPairSigner,
  type Nonce,
  type Signature as KitSignature,
  type TransactionSigner,
} from '@solana/kit';
import { CairnError, ErrorCodes } from '../../src/errors/index.js';
import { PublicKey } from '@solana/web3.js';
import { expectTypeOf } from 'vitest';
import { asAddress, createSender, generateSigner, resolveSenderConfig, transferInstruction, type Sender } from '../../src/sender/index.js';
import { createNonceAccountInstructions, parseNonceAccount } from '../../src/solana/nonce.js';
import { encodeBase58 } from '../../src/solana/base58.js';
import { compileMessage, parseTransaction } from '../../src/solana/index.js';
import { setup, type Env } from '../support/sender.js';

const SYSTEM = address('11111111111111111111111111111111');
const MEMO = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const fast = { cuPrice: 200_000, cuLimit: 10_000, pollMs: 50, rebroadcastMs: 300 } as const;

let env: Env;
let sender: Sender;
let payer: KeyPairSigner;

const u64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
};
/** A System transfer as kit code writes it: the source meta carries its signer. */
const kitTransfer = (from: TransactionSigner, to: Address, lamports: bigint): Instruction => ({
  programAddress: SYSTEM,
  accounts: [
    { address: from.address, role: AccountRole.WRITABLE_SIGNER, signer: from } as AccountSignerMeta,
    { address: to, role: AccountRole.WRITABLE },
  ],
  data: Uint8Array.from([2, 0, 0, 0, ...u64(lamports)]),
});
const memo = (text: string, signer: Address): Instruction => ({
  programAddress: MEMO,
  accounts: [{ address: signer, role: AccountRole.READONLY_SIGNER }],
  data: new TextEncoder().encode(text),
});
const landed = (signature: string) => {
  const tx = env.devnet.chain.transaction(signature)!;
  expect(tx.err).toBeNull();
  expect(tx.computeUnitPrice).toBe(200_000);
  const { parts } = parseTransaction(tx.wire);
  return { version: parts.version, recentBlockhash: encodeBase58(parts.recentBlockhash) };
};

/** The InputError a call throws or rejects with, by the field it names. */
async function refused(f: () => unknown): Promise<CairnError<'INPUT_INVALID'>> {
  let e: unknown;
  try {
    await f();
  } catch (x) {
    e = x;
  }
  expect(e).toBeInstanceOf(CairnError);
  expect((e as CairnError).code).toBe(ErrorCodes.INPUT_INVALID);
  return e as CairnError<'INPUT_INVALID'>;
}
const fieldOf = async (f: () => unknown) => String((await refused(f)).context.field);

beforeAll(async () => {
  env = await setup(40, 13);
  for (const t of resolveSenderConfig({}).tipAccounts) await env.devnet.control.airdrop(t, 10n ** 9n);
  payer = await generateKeyPairSigner();
  await env.devnet.control.airdrop(payer.address, 100n * 10n ** 9n);
  sender = createSender({ client: env.client, ...fast });
}, 60_000);
afterAll(async () => {
  await sender?.close();
  await env?.stop();
});

describe('kit instructions', () => {
  it('land with a kit payer, mixed with web3.js-shaped ones; a signer its meta carries need not be listed', async () => {
    const other = await generateKeyPairSigner();
    await env.devnet.control.airdrop(other.address, 5n * 10n ** 9n);
    const to = (await generateKeyPairSigner()).address;
    const out = await sender.send({
      instructions: [kitTransfer(payer, to, 1_000_000_000n), kitTransfer(other, to, 2_000_000_000n), transferInstruction(payer.address, to, 3_000_000_000n), memo('kit ix', other.address)],
      payer,
    });
    landed(out.signature);
    expect(env.devnet.chain.balance(to)).toBe(6_000_000_000n);
  });

  it('compile to the same message as the web3.js-shaped instructions they stand for', () => {
    const p = generateSigner();
    const to = generateSigner().address;
    const blockhash = generateSigner().address;
    const kitIx: Instruction = {
      programAddress: SYSTEM,
      accounts: [
        { address: address(p.address), role: AccountRole.WRITABLE_SIGNER },
        { address: address(to), role: AccountRole.WRITABLE },
      ],
      data: Uint8Array.from([2, 0, 0, 0, ...u64(5n)]),
    };
    for (const version of ['legacy', 0] as const) {
      const a = compileMessage({ payer: p.address, instructions: [kitIx, { programAddress: MEMO }], recentBlockhash: blockhash, version });
      const b = compileMessage({
        payer: p.address,
        instructions: [transferInstruction(p.address, to, 5n), { programId: MEMO, keys: [], data: new Uint8Array(0) }],
        recentBlockhash: blockhash,
        version,
      });
      expect(a).toEqual(b);
    }
  });

  it('refuse a bad one naming the field, not a field the caller never wrote', async () => {
    const ok = kitTransfer(payer, payer.address, 1n);
    expect(await fieldOf(() => sender.send({ instructions: [ok, { ...ok, programAddress: 'nope' as Address }], payer }))).toBe('input.instructions[1].programAddress');
    expect(await fieldOf(() => sender.send({ instructions: [{ ...ok, accounts: [{ address: payer.address, role: 7 as AccountRole }] }], payer }))).toBe('input.instructions[0].accounts[0].role');
    expect(await fieldOf(() => sender.send({ instructions: [{ ...ok, accounts: [{ address: 'x' as Address, role: AccountRole.READONLY }] }], payer }))).toBe('input.instructions[0].accounts[0].address');
    expect(await fieldOf(() => sender.send({ instructions: [{ ...ok, data: [1, 2] as never }], payer }))).toBe('input.instructions[0].data');
  });

  it('with lookup metas need the table addresses, and compile through them', async () => {
    const table = generateSigner().address;
    const far = generateSigner().address;
    const looked: Instruction = {
      programAddress: MEMO,
      accounts: [{ address: address(far), role: AccountRole.READONLY, lookupTableAddress: address(table), addressIndex: 1 }],
      data: new Uint8Array(1),
    };
    const e = await refused(() => sender.send({ instructions: [looked], payer, version: 0 }));
    expect(e.context.field).toBe('input.lookupTables');
    expect(e.message).toContain(table);
    const p = generateSigner();
    const parts = compileMessage({
      payer: p.address,
      instructions: [looked],
      recentBlockhash: table,
      version: 0,
      lookupTables: [{ key: table, addresses: [generateSigner().address, far] }],
    });
    expect(parts.lookups).toHaveLength(1);
    expect(Array.from(parts.lookups[0]!.readonlyIndexes)).toEqual([1]);
    expect(await fieldOf(() => compileMessage({ payer: p.address, instructions: [looked], recentBlockhash: table, version: 0 }))).toBe('lookupTables');
  });
});

describe('kit transaction messages and transactions in { transaction }', () => {
  it('a message with a fee-payer signer needs no signers: cairn adds CU price and tip, a fresh blockhash, signs, lands', async () => {
    const to = (await generateKeyPairSigner()).address;
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: '11111111111111111111111111111111' as Blockhash, lastValidBlockHeight: 0n }, m),
      (m) => appendTransactionMessageInstructions([kitTransfer(payer, to, 1_500_000_000n)], m),
    );
    const out = await sender.send({ transaction: message });
    expect(landed(out.signature).version).toBe(0);
    expect(env.devnet.chain.balance(to)).toBe(1_500_000_000n);
  });

  it('a legacy message whose fee payer is an address takes the signers given', async () => {
    const to = (await generateKeyPairSigner()).address;
    const message = pipe(
      createTransactionMessage({ version: 'legacy' }),
      (m) => setTransactionMessageFeePayer(payer.address, m),
      (m) =>
        appendTransactionMessageInstructions(
          [
            {
              programAddress: SYSTEM,
              accounts: [
                { address: payer.address, role: AccountRole.WRITABLE_SIGNER },
                { address: to, role: AccountRole.WRITABLE },
              ],
              data: Uint8Array.from([2, 0, 0, 0, ...u64(7_000_000n)]),
            },
          ],
          m,
        ),
    );
    expect(await fieldOf(() => sender.send({ transaction: message }))).toBe('input.signers');
    const out = await sender.send({ transaction: message, signers: [payer] });
    expect(landed(out.signature).version).toBe('legacy');
    expect(env.devnet.chain.balance(to)).toBe(7_000_000n);
  });

  it('a kit compiled Transaction (signed by kit) is rebuilt and re-signed like a VersionedTransaction', async () => {
    const to = (await generateKeyPairSigner()).address;
    const signed = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: '11111111111111111111111111111111' as Blockhash, lastValidBlockHeight: 0n }, m),
        (m) => appendTransactionMessageInstructions([kitTransfer(payer, to, 2_500_000_000n)], m),
      ),
    );
    const out = await sender.send({ transaction: signed, signers: [payer] });
    landed(out.signature);
    expect(env.devnet.chain.balance(to)).toBe(2_500_000_000n);
  });

  it('a durable-nonce message keeps its nonce: AdvanceNonceAccount first, the nonce value as blockhash', async () => {
    const key = generateSigner();
    const lamports = env.devnet.chain.minimumBalanceForRentExemption(80);
    await sender.send({
      instructions: createNonceAccountInstructions({ from: payer.address, nonce: key.address, authority: payer.address, lamports }),
      payer,
      signers: [key],
    });
    const nonce = parseNonceAccount(env.devnet.chain.account(key.address)!.data).nonce!;
    const to = (await generateKeyPairSigner()).address;
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) =>
        setTransactionMessageLifetimeUsingDurableNonce(
          { nonce: nonce as Nonce, nonceAccountAddress: address(key.address), nonceAuthorityAddress: payer.address },
          m,
        ),
      (m) => appendTransactionMessageInstructions([kitTransfer(payer, to, 4_000_000n)], m),
    );
    const out = await sender.send({ transaction: message });
    const tx = landed(out.signature);
    expect(tx.recentBlockhash).toBe(nonce);
    expect(env.devnet.chain.balance(to)).toBe(4_000_000n);
    expect(parseNonceAccount(env.devnet.chain.account(key.address)!.data).nonce).not.toBe(nonce);
  });

  it('refuses what it cannot build, naming the field', async () => {
    const v1 = { version: 1, instructions: [] } as never;
    expect(await fieldOf(() => sender.send({ transaction: v1, signers: [payer] }))).toBe('input.transaction.version');
    expect(await fieldOf(() => sender.send({ transaction: { messageBytes: 'abc' as never, signatures: {} }, signers: [payer] }))).toBe('input.transaction.messageBytes');
    expect(await fieldOf(() => sender.send({ transaction: 42 as never, signers: [payer] }))).toBe('input.transaction');
  });
});

describe('what cairn returns, in kit calls without a cast', () => {
  it("a signer's address and an outcome's signature go into kit's rpc as they are", async () => {
    const rpc = createSolanaRpc(env.devnet.url);
    const cairnPayer = generateSigner();
    await env.devnet.control.airdrop(cairnPayer.address, 10n ** 9n);
    expect((await rpc.getBalance(cairnPayer.address, { commitment: 'processed' }).send()).value).toBe(10n ** 9n);
    const out = await sender.send({ instructions: [transferInstruction(cairnPayer.address, payer.address, 1_000n)], payer: cairnPayer });
    const [status] = (await rpc.getSignatureStatuses([out.signature]).send()).value;
    expect(status?.confirmationStatus).toMatch(/confirmed|finalized/);
    expectTypeOf(cairnPayer.address).toMatchTypeOf<Address>();
    expectTypeOf(out.signature).toMatchTypeOf<KitSignature>();
    // @ts-expect-error a plain string is not a kit Address: the brand above is what makes the calls type-check
    const plain: Address = String(cairnPayer.address);
    expect(plain).toBe(cairnPayer.address);
  });

  it('asAddress checks and brands an address of any form (an RPC answer, a PublicKey)', async () => {
    const rpc = createSolanaRpc(env.devnet.url);
    const identity: string = await env.client.getIdentity(); // an answer's text: a plain string
    expect((await rpc.getBalance(asAddress(identity)).send()).value).toBeGreaterThanOrEqual(0n);
    expect(asAddress(new PublicKey(payer.address))).toBe(payer.address);
    expect(await fieldOf(() => asAddress('not-an-address', 'owner'))).toBe('owner');
  });
});
