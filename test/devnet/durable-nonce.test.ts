/**
 * Durable nonces on the devnet as on a real validator: a nonce transaction that fails after its fee
 * was charged still lands (its status shows the error, the fee is taken) AND uses its nonce — the
 * account holds the value derived from the block's blockhash, as a successful advance would store
 * it — so the same nonce value can never land again: a second transaction signed with it is refused
 * as a stale blockhash (preflight and after a skipped preflight alike). A successful advance stores
 * the same value a failed one does; a nonce account that paid the fee itself keeps the debit. A nonce already holding the value this block's blockhash gives
 * cannot advance again (the validator's "advanceable" check).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { durableNonceAccountOf, NONCE_LAMPORTS_PER_SIGNATURE } from '../../src/devnet/runtime/durable-nonce.js';
import { encodeBase58 } from '../../src/solana/base58.js';
import { transferInstruction } from '../../src/solana/instructions.js';
import { advanceNonceInstruction, createNonceAccountInstructions, durableNonceFromBlockhash, parseNonceAccount } from '../../src/solana/nonce.js';
import { generateSigner, type Signer } from '../../src/solana/signer.js';
import { compileMessage, parseTransaction, signMessageParts, type InstructionInput } from '../../src/solana/index.js';
import { rpc } from '../support/devnet.js';

const payer = generateSigner();
let devnet: Devnet;
/** The nonce value an advance stores in each slot: from the devnet's blockhash while its batch ran. */
const nextNonceAt = new Map<number, string>();
const dropped = new Map<string, string>();

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, wsPortPlusOne: false, stateModules: false, fundedAccounts: [{ address: payer.address, lamports: 10n ** 10n }] });
  devnet.chain.onSlot((slot) => nextNonceAt.set(slot, durableNonceFromBlockhash(devnet.chain.latestBlockhash().blockhash)));
  devnet.chain.onDropped((d) => dropped.set(d.signature, d.reason));
});
afterAll(async () => {
  await devnet?.stop();
});

const send = async (wire: Uint8Array, skipPreflight: boolean) =>
  (await rpc(devnet.url, 'sendTransaction', [Buffer.from(wire).toString('base64'), { encoding: 'base64', skipPreflight }])).body;
const status = async (signature: string) =>
  (await rpc(devnet.url, 'getSignatureStatuses', [[signature]])).body.result.value[0] as { slot: number; err: unknown } | null;
const balance = async (address: string) => BigInt((await rpc(devnet.url, 'getBalance', [address])).body.result.value);
const nonceState = (account: string) => parseNonceAccount(devnet.chain.account(account)!.data);

function sign(instructions: InstructionInput[], recentBlockhash: string, signers: Signer[] = [payer], feePayer: string = payer.address) {
  const { wire, signatures } = signMessageParts(compileMessage({ payer: feePayer, instructions, recentBlockhash }), signers);
  return { wire, signature: encodeBase58(signatures[0]!) };
}

/** Poll `fn` every 10 ms until it answers something (5 s at most). */
async function poll<T>(fn: () => Promise<T | null | undefined> | T | null | undefined): Promise<T> {
  for (const end = Date.now() + 5_000; Date.now() < end; await new Promise((r) => setTimeout(r, 10))) {
    const v = await fn();
    if (v !== null && v !== undefined) return v;
  }
  throw new Error('poll: timed out');
}

/** Send with the preflight skipped and wait for the status; fails the test when it was dropped. */
async function land(tx: { wire: Uint8Array; signature: string }) {
  expect((await send(tx.wire, true)).result).toBe(tx.signature);
  return poll(async () => {
    expect(dropped.get(tx.signature)).toBeUndefined();
    return status(tx.signature);
  });
}

async function nonceAccount(key = generateSigner(), extra = 0n): Promise<string> {
  const lamports = devnet.chain.minimumBalanceForRentExemption(80) + extra;
  const ixs = createNonceAccountInstructions({ from: payer.address, nonce: key.address, authority: payer.address, lamports });
  const s = await land(sign(ixs, devnet.chain.latestBlockhash().blockhash, [payer, key]));
  expect(s.err).toBeNull();
  // A nonce holds its block's value from creation (the bank's blockhash, as on a validator since issue
  // 34), and advances at most once per slot: it is used from the next slot on.
  const created = devnet.chain.slot();
  while (devnet.chain.slot() <= created) await new Promise((r) => setTimeout(r, 5));
  return key.address;
}

describe('a durable-nonce transaction that fails', () => {
  it('lands with its error and fee, uses its nonce as a success would, and its nonce value never lands again', { timeout: 15_000 }, async () => {
    const account = await nonceAccount();
    const before = nonceState(account);
    const nonce = before.nonce!;
    const to = generateSigner().address;

    // Instruction 1 moves more lamports than the payer holds: it fails after the fee is charged.
    const paid = await balance(payer.address);
    const failing = sign([advanceNonceInstruction(account, payer.address), transferInstruction(payer.address, to, paid * 2n)], nonce);
    const s = await land(failing);
    expect(s.err).toEqual({ InstructionError: [1, { Custom: 1 }] }); // SystemError::ResultWithNegativeLamports
    const meta = await poll(async () => (await rpc(devnet.url, 'getTransaction', [failing.signature, { encoding: 'base64', commitment: 'confirmed' }])).body.result?.meta);
    expect(meta).toMatchObject({ fee: 5_000, err: s.err });
    expect(await balance(payer.address)).toBe(paid - 5_000n);
    expect(await balance(to)).toBe(0n);

    // The nonce moved to the value this slot's blockhash gives; authority and account unchanged.
    const after = nonceState(account);
    expect(after.nonce).not.toBe(nonce);
    expect(after.nonce).toBe(nextNonceAt.get(s.slot));
    expect(after).toMatchObject({ version: before.version, state: 'initialized', authority: before.authority, lamportsPerSignature: NONCE_LAMPORTS_PER_SIGNATURE });
    expect(devnet.chain.account(account)!.lamports).toBe(devnet.chain.minimumBalanceForRentExemption(80));

    // The old nonce value is dead: refused by the preflight, dropped when the preflight is skipped.
    const replay = sign([advanceNonceInstruction(account, payer.address), transferInstruction(payer.address, to, 1_000_000n)], nonce);
    const pre = await send(replay.wire, false);
    expect(pre.error).toMatchObject({ code: -32002, message: 'Transaction simulation failed: Blockhash not found', data: { err: 'BlockhashNotFound' } });
    expect((await send(replay.wire, true)).result).toBe(replay.signature);
    expect(await poll(() => dropped.get(replay.signature))).toBe('BlockhashNotFound');
    expect(await status(replay.signature)).toBeNull();
    expect(await balance(to)).toBe(0n);

    // The written account is a nonce the System program takes: the new value lands, and a successful
    // advance stores the same way (its slot's blockhash — not LiteSVM's own value, derived from the
    // transaction's blockhash, i.e. from the old nonce).
    const next = sign([advanceNonceInstruction(account, payer.address), transferInstruction(payer.address, to, 1_000_000n)], after.nonce!);
    const ok = await land(next);
    expect(ok.err).toBeNull();
    expect(await balance(to)).toBe(1_000_000n);
    expect(nonceState(account)).toMatchObject({
      nonce: nextNonceAt.get(ok.slot),
      lamportsPerSignature: NONCE_LAMPORTS_PER_SIGNATURE,
      authority: before.authority,
    });
    expect(nonceState(account).nonce).not.toBe(durableNonceFromBlockhash(after.nonce!));
  });

  it('that the nonce account itself paid for keeps the fee taken and the nonce advanced', async () => {
    const key = generateSigner();
    const account = await nonceAccount(key, 1_000_000n);
    const { nonce, authority } = nonceState(account);
    const held = await balance(account);
    // The nonce account pays the fee (2 signatures: it and the authority) and instruction 1 fails.
    const ixs = [advanceNonceInstruction(account, payer.address), transferInstruction(payer.address, generateSigner().address, 10n ** 15n)];
    const s = await land(sign(ixs, nonce!, [key, payer], account));
    expect(s.err).toEqual({ InstructionError: [1, { Custom: 1 }] });
    expect(await balance(account)).toBe(held - 10_000n);
    expect(nonceState(account)).toMatchObject({ nonce: nextNonceAt.get(s.slot), authority, lamportsPerSignature: NONCE_LAMPORTS_PER_SIGNATURE });
  });

  it('a nonce already holding the value of the block being built does not advance again', async () => {
    const account = await nonceAccount();
    const nonce = nonceState(account).nonce!;
    const { parts } = parseTransaction(sign([advanceNonceInstruction(account, payer.address)], nonce).wire);
    const read = (a: string) => devnet.chain.account(a);
    expect(durableNonceAccountOf(parts, read)).toBe(account);
    expect(durableNonceAccountOf(parts, read, durableNonceFromBlockhash(new Uint8Array(32)))).toBe(account);
    expect(durableNonceAccountOf(parts, read, nonce)).toBeNull();
  });
});

describe('simulating a durable-nonce transaction', () => {
  it('shows the nonce account advanced to the value the chain stores, and refuses a used nonce value', async () => {
    const account = await nonceAccount();
    const { nonce } = nonceState(account);
    const tx = sign([advanceNonceInstruction(account, payer.address)], nonce!);
    const simulate = async (wire: Uint8Array) =>
      (await rpc(devnet.url, 'simulateTransaction', [Buffer.from(wire).toString('base64'), { encoding: 'base64', accounts: { encoding: 'base64', addresses: [account] } }])).body.result.value;
    // Simulated in the slot it is read in: the next value is that slot's blockhash's, as when it lands.
    const slot = devnet.chain.slot();
    const sim = await simulate(tx.wire);
    expect(sim.err).toBeNull();
    const shown = parseNonceAccount(Buffer.from(sim.accounts[0].data[0], 'base64'));
    if (devnet.chain.slot() === slot) expect(shown.nonce).toBe(durableNonceFromBlockhash(devnet.chain.latestBlockhash().blockhash));
    expect(shown.nonce).not.toBe(durableNonceFromBlockhash(nonce!)); // never LiteSVM's own value, chained from the old nonce
    expect(shown.nonce).not.toBe(nonce);
    expect(nonceState(account).nonce).toBe(nonce); // a simulation commits nothing

    const s = await land(tx);
    expect(s.err).toBeNull();
    expect((await simulate(tx.wire)).err).toBe('BlockhashNotFound'); // its value is used now
  });
});
