/**
 * The one normaliser of addresses and signers (src/solana/inputs.ts) and the sender's client adapter
 * detection (src/sender/client/adapters.ts): real web3.js and kit objects in, cairn's forms out, and typed
 * `INPUT_INVALID` errors naming the field for everything else. No network.
 */
import { Keypair, PublicKey } from '@solana/web3.js';
import { address, createSolanaRpc, generateKeyPairSigner } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { CairnError, ErrorCodes } from '../../src/errors/index.js';
import { toSenderRpc } from '../../src/sender/client/adapters.js';
import { generateSigner, verifySignature } from '../../src/solana/signer.js';
import { isAsyncSigner, signMessagePartsAsync, toAddress, signerFromInput as toSigner } from '../../src/solana/inputs.js';
import { compileMessage } from '../../src/solana/index.js';
import { transferInstruction } from '../../src/solana/instructions.js';

const KEY = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';

function invalid(f: () => unknown, field: string): CairnError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(CairnError);
    expect((e as CairnError).code).toBe(ErrorCodes.INPUT_INVALID);
    expect((e as CairnError<'INPUT_INVALID'>).context.field).toBe(field);
    return e as CairnError;
  }
  throw new Error('expected an InputError');
}

describe('toAddress', () => {
  it('takes base58 text, a kit Address and a web3.js PublicKey, all as the same text', () => {
    expect(toAddress(KEY, 'a')).toBe(KEY);
    expect(toAddress(address(KEY), 'a')).toBe(KEY);
    expect(toAddress(new PublicKey(KEY), 'a')).toBe(KEY);
  });

  it('refuses anything else, naming the field and the forms it takes', () => {
    for (const bad of [undefined, null, 42, '', 'not-base58-0OIl', 'x'.repeat(50), {}, { toBase58: () => KEY }, new Uint8Array(32)]) {
      const e = invalid(() => toAddress(bad, 'params.owner'), 'params.owner');
      expect(e.message).toMatch(/PublicKey/);
    }
    // base58 of 31 bytes is not an address
    invalid(() => toAddress('1111111111111111111111111111111', 'x'), 'x');
  });
});

describe('toSigner', () => {
  it("takes cairn's signer as it is, a 64-byte secret key and a web3.js Keypair", () => {
    const s = generateSigner();
    expect(toSigner(s, 'payer')).toBe(s);
    expect(toSigner(s.secretKey(), 'payer').address).toBe(s.address);
    const kp = Keypair.generate();
    const fromKp = toSigner(kp, 'payer');
    expect(fromKp.address).toBe(kp.publicKey.toBase58());
    const msg = new Uint8Array([1, 2, 3]);
    expect(verifySignature(kp.publicKey.toBytes(), msg, fromKp.sign(msg))).toBe(true);
  });

  it('refuses a Keypair whose publicKey is not its secret key', () => {
    const a = Keypair.generate();
    const b = Keypair.generate();
    invalid(() => toSigner({ publicKey: b.publicKey, secretKey: a.secretKey }, 'payer'), 'payer.publicKey');
  });

  it('bridges a kit KeyPairSigner: an async signer whose signatures verify', async () => {
    const kit = await generateKeyPairSigner();
    const s = toSigner(kit, 'payer');
    expect(isAsyncSigner(s)).toBe(true);
    expect(s.address).toBe(kit.address);
    const msg = new Uint8Array([9, 8, 7]);
    invalid(() => s.sign(msg), 'payer');
    if (!isAsyncSigner(s)) throw new Error('unreachable');
    expect(verifySignature(s.publicKey, msg, await s.signAsync(msg))).toBe(true);
  });

  it('bridges a TransactionPartialSigner with no keyPair through signTransactions', async () => {
    const kit = await generateKeyPairSigner();
    const partial = { address: kit.address, signTransactions: kit.signTransactions.bind(kit) };
    const s = toSigner(partial, 'signers[0]');
    if (!isAsyncSigner(s)) throw new Error('expected an async signer');
    const msg = new Uint8Array([4, 5, 6]);
    expect(verifySignature(s.publicKey, msg, await s.signAsync(msg))).toBe(true);
  });

  it('signs a message with in-line and kit signers together, each in its slot', async () => {
    const payer = generateSigner();
    const kit = toSigner(await generateKeyPairSigner(), 'signers[0]');
    const ix = transferInstruction(kit.address, payer.address, 1n);
    const parts = compileMessage({ payer: payer.address, instructions: [ix], recentBlockhash: KEY });
    const { message, signatures } = await signMessagePartsAsync(parts, [payer, kit]);
    expect(signatures).toHaveLength(2);
    expect(verifySignature(payer.publicKey, message, signatures[0])).toBe(true);
    expect(verifySignature(kit.publicKey, message, signatures[1])).toBe(true);
  });

  it('refuses anything else, naming the field', () => {
    for (const bad of [undefined, null, 'key', new Uint8Array(10), {}, { address: KEY }]) invalid(() => toSigner(bad, 'input.payer'), 'input.payer');
  });
});

describe('toSenderRpc', () => {
  it('refuses an object without the methods, naming client and what is missing', () => {
    const e = invalid(() => toSenderRpc({ sendTransaction: () => undefined }, 'client'), 'client');
    expect(e.message).toMatch(/getLatestBlockhash/);
    expect(e.message).not.toMatch(/lacks .*sendTransaction/);
  });

  it('adapts a kit Rpc (every call is a pending request) instead of refusing it', () => {
    const rpc = toSenderRpc(createSolanaRpc('http://127.0.0.1:1'), 'client');
    expect(typeof rpc.getLatestBlockhash).toBe('function');
    expect(typeof rpc.sendTransaction).toBe('function');
  });
});
