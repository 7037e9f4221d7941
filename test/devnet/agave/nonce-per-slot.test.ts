/**
 * A durable nonce made in one slot advances in a later one (issue 34 item 8), as on a test
 * validator: by a plain AdvanceNonceAccount under a recent blockhash — the same one the creation was
 * signed with, still valid, which LiteSVM alone would refuse (Custom 7: it derives the value from
 * the message's blockhash, not the bank's) — and by a durable-nonce transaction signed with the
 * stored nonce.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../../src/devnet/index.js';
import { encodeBase58 } from '../../../src/solana/base58.js';
import { advanceNonceInstruction, createNonceAccountInstructions, parseNonceAccount } from '../../../src/solana/nonce.js';
import { generateSigner, type Signer } from '../../../src/solana/signer.js';
import { compileMessage, signMessageParts, type InstructionInput } from '../../../src/solana/index.js';
import { rpc } from '../../support/devnet.js';

const payer = generateSigner();
let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 100, wsPortPlusOne: false, stateModules: false, fundedAccounts: [{ address: payer.address, lamports: 10n ** 10n }] });
});
afterAll(async () => {
  await devnet?.stop();
});

const blockhash = async () => ((await rpc(devnet.url, 'getLatestBlockhash', [{ commitment: 'processed' }])).body.result as { value: { blockhash: string } }).value.blockhash;
function sign(instructions: InstructionInput[], recentBlockhash: string, signers: Signer[] = [payer]) {
  const { wire, signatures } = signMessageParts(compileMessage({ payer: payer.address, instructions, recentBlockhash }), signers);
  return { wire: Buffer.from(wire).toString('base64'), signature: encodeBase58(signatures[0]!) };
}
async function landed(tx: { wire: string; signature: string }) {
  const sent = (await rpc(devnet.url, 'sendTransaction', [tx.wire, { encoding: 'base64', preflightCommitment: 'processed' }])).body;
  expect(sent.error, JSON.stringify(sent.error)).toBeUndefined();
  for (let i = 0; i < 100; i++) {
    const st = (await rpc(devnet.url, 'getSignatureStatuses', [[tx.signature]])).body.result.value[0];
    if (st) return st as { err: unknown };
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('not landed');
}
const nonceOf = (a: string) => parseNonceAccount(devnet.chain.account(a)!.data).nonce!;

describe('a nonce made in one slot', () => {
  it('advances in a later slot, by a plain advance and by a durable-nonce transaction', { timeout: 20_000 }, async () => {
    const key = generateSigner();
    const lamports = devnet.chain.minimumBalanceForRentExemption(80);
    const recent = await blockhash();
    const made = await landed(
      sign(createNonceAccountInstructions({ from: payer.address, nonce: key.address, authority: payer.address, lamports }), recent, [payer, key]),
    );
    expect(made.err).toBeNull();
    const first = nonceOf(key.address);
    await new Promise((r) => setTimeout(r, 500));

    // the creation's blockhash, slots later: the value compared is this block's, not the message's
    const plain = await landed(sign([advanceNonceInstruction(key.address, payer.address)], recent));
    expect(plain.err).toBeNull();
    const second = nonceOf(key.address);
    expect(second).not.toBe(first);
    await new Promise((r) => setTimeout(r, 500));

    const durable = await landed(sign([advanceNonceInstruction(key.address, payer.address)], second));
    expect(durable.err).toBeNull();
    expect(nonceOf(key.address)).not.toBe(second);
  });
});
