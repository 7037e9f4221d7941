/**
 * The nonce instructions and account reader against @solana/web3.js 1.98: the same data bytes and
 * account metas as `SystemProgram.createNonceAccount`/`nonceInitialize`/`nonceAdvance`/
 * `nonceAuthorize`/`nonceWithdraw`, and the same reading of 80 account bytes as
 * `NonceAccount.fromAccountData` (account bytes made with web3.js's own layout), over seeded random keys.
 */
import { describe, expect, it } from 'vitest';
import { NonceAccount, PublicKey, SystemProgram, NONCE_ACCOUNT_LENGTH as WEB3_NONCE_LENGTH, type TransactionInstruction } from '@solana/web3.js';
import { createHash } from 'node:crypto';
import {
  advanceNonceInstruction,
  advancedNonceOf,
  authorizeNonceInstruction,
  createNonceAccountInstructions,
  durableNonceFromBlockhash,
  initializeNonceInstruction,
  NONCE_ACCOUNT_LENGTH,
  parseNonceAccount,
  withdrawNonceInstruction,
} from '../../src/solana/nonce.js';
import { addressText } from '../../src/solana/address.js';
import { encodeBase58 } from '../../src/solana/base58.js';
import { compileMessage } from '../../src/solana/index.js';
import { transferInstruction } from '../../src/solana/instructions.js';
import type { InstructionInput } from '../../src/solana/index.js';
import { CairnError } from '../../src/errors/index.js';
import { mulberry32 } from '../../src/devnet/chain/mulberry32.js';

const rand = mulberry32(22);
const key = (): PublicKey => new PublicKey(Uint8Array.from({ length: 32 }, () => Math.floor(rand() * 256)));

/** An instruction as comparable data: program, metas (address, signer, writable) and data bytes. */
const shape = (ix: InstructionInput | TransactionInstruction) => ({
  program: addressText(ix.programId, 'programId'),
  keys: ix.keys.map((k) => [addressText(k.pubkey, 'pubkey'), k.isSigner, k.isWritable]),
  data: Buffer.from(ix.data).toString('hex'),
});

describe('nonce instructions: web3.js bytes', () => {
  it('the length is web3.js NONCE_ACCOUNT_LENGTH', () => {
    expect(NONCE_ACCOUNT_LENGTH).toBe(WEB3_NONCE_LENGTH);
  });

  for (let i = 0; i < 8; i++) {
    const [from, nonce, authority, other] = [key(), key(), key(), key()];
    const lamports = i === 0 ? 0 : i === 1 ? Number.MAX_SAFE_INTEGER : Math.floor(rand() * 1e12);
    it(`case ${i}: create + initialize, advance, authorize, withdraw`, () => {
      const web3Create = SystemProgram.createNonceAccount({ fromPubkey: from, noncePubkey: nonce, authorizedPubkey: authority, lamports }).instructions;
      expect(createNonceAccountInstructions({ from: from.toBase58(), nonce: nonce.toBase58(), authority: authority.toBase58(), lamports }).map(shape)).toEqual(
        web3Create.map(shape),
      );
      expect(shape(initializeNonceInstruction(nonce.toBytes(), authority))).toEqual(
        shape(SystemProgram.nonceInitialize({ noncePubkey: nonce, authorizedPubkey: authority })),
      );
      expect(shape(advanceNonceInstruction(nonce, authority.toBase58()))).toEqual(
        shape(SystemProgram.nonceAdvance({ noncePubkey: nonce, authorizedPubkey: authority })),
      );
      expect(shape(authorizeNonceInstruction(nonce, authority, other))).toEqual(
        shape(SystemProgram.nonceAuthorize({ noncePubkey: nonce, authorizedPubkey: authority, newAuthorizedPubkey: other })),
      );
      expect(shape(withdrawNonceInstruction(nonce, authority, other, lamports))).toEqual(
        shape(SystemProgram.nonceWithdraw({ noncePubkey: nonce, authorizedPubkey: authority, toPubkey: other, lamports })),
      );
    });
  }

  it('a bad amount or address is an InputError naming it', () => {
    expect(() => createNonceAccountInstructions({ from: key().toBase58(), nonce: key().toBase58(), authority: key().toBase58(), lamports: -1 })).toThrow(/"lamports"/);
    expect(() => authorizeNonceInstruction(key(), key(), 'not an address')).toThrow(CairnError);
  });
});

/** 80 account bytes as web3.js lays them out (NonceAccountLayout: u32 version, u32 state, authority, nonce, u64 lamportsPerSignature). */
function web3NonceBytes(version: number, state: number, authority: PublicKey, nonce: PublicKey, lamportsPerSignature: bigint): Uint8Array {
  const b = Buffer.alloc(WEB3_NONCE_LENGTH);
  b.writeUInt32LE(version, 0);
  b.writeUInt32LE(state, 4);
  authority.toBuffer().copy(b, 8);
  nonce.toBuffer().copy(b, 40);
  b.writeBigUInt64LE(lamportsPerSignature, 72);
  return new Uint8Array(b);
}

describe('parseNonceAccount: as NonceAccount.fromAccountData', () => {
  for (let i = 0; i < 8; i++) {
    const authority = key();
    const nonce = key();
    const lps = i === 0 ? 0n : i === 1 ? (1n << 64n) - 1n : BigInt(Math.floor(rand() * 1e9));
    it(`case ${i}`, () => {
      const bytes = web3NonceBytes(i % 2, 1, authority, nonce, lps);
      const w = NonceAccount.fromAccountData(Buffer.from(bytes));
      const s = parseNonceAccount(bytes);
      expect(s).toEqual({ version: i % 2, state: 'initialized', authority: w.authorizedPubkey.toBase58(), nonce: w.nonce, lamportsPerSignature: lps });
      // web3.js reads the fee calculator as a JS number: equal while it fits.
      if (lps <= BigInt(Number.MAX_SAFE_INTEGER)) expect(Number(s.lamportsPerSignature)).toBe(w.feeCalculator.lamportsPerSignature);
    });
  }

  it('an uninitialized account has no nonce; a wrong size or tag is an InputError naming the field', () => {
    expect(parseNonceAccount(new Uint8Array(80))).toEqual({ version: 0, state: 'uninitialized' });
    expect(() => parseNonceAccount(new Uint8Array(79), 'account.data')).toThrow(/"account\.data": expected 80 bytes of a nonce account, got 79/);
    const bad = new Uint8Array(80);
    bad[4] = 2;
    expect(() => parseNonceAccount(bad)).toThrow(/state 0 \(uninitialized\) or 1 \(initialized\), got 2/);
    bad[4] = 1;
    bad[0] = 7;
    expect(() => parseNonceAccount(bad)).toThrow(/version 0 or 1, got 7/);
  });
});

describe('durableNonceFromBlockhash and advancedNonceOf', () => {
  it('is SHA-256("DURABLE_NONCE" ‖ blockhash), never the blockhash itself', () => {
    const bh = key();
    const want = encodeBase58(createHash('sha256').update(Buffer.concat([Buffer.from('DURABLE_NONCE'), bh.toBuffer()])).digest());
    expect(durableNonceFromBlockhash(bh.toBase58())).toBe(want);
    expect(durableNonceFromBlockhash(bh.toBytes())).toBe(want);
    expect(want).not.toBe(bh.toBase58());
  });

  it('finds the advanced account only in a first AdvanceNonceAccount instruction', () => {
    const [payer, nonce, to] = [key(), key(), key()];
    const advance = advanceNonceInstruction(nonce, payer);
    const transfer = transferInstruction(payer, to, 1n);
    const at = (ixs: InstructionInput[]) => {
      const m = compileMessage({ payer: payer.toBase58(), instructions: ixs, recentBlockhash: key().toBase58() });
      const found = advancedNonceOf(m.instructions, m.staticKeys);
      return (
        found && {
          nonce: encodeBase58(m.staticKeys[found.nonceIndex]!),
          authority: found.authorityIndex === undefined ? undefined : encodeBase58(m.staticKeys[found.authorityIndex]!),
        }
      );
    };
    expect(at([advance, transfer])).toEqual({ nonce: nonce.toBase58(), authority: payer.toBase58() });
    expect(at([transfer, advance])).toBeUndefined();
    expect(at([transfer])).toBeUndefined();
  });
});
