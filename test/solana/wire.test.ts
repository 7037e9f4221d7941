/**
 * The fast path must produce the very bytes @solana/web3.js 1.98 produces: legacy and v0 (with lookup
 * tables), several signers, random instruction mixes (the legacy ordering uses a locale collator, so
 * mixed-case keys are exercised on purpose). Plus parse round trips and malformed-input errors.
 */
import { describe, expect, it } from 'vitest';
import {
  AddressLookupTableAccount,
  ComputeBudgetProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { compileMessage, parseTransaction, signMessageParts, encodeMessage, type InstructionInput } from '../../src/solana/index.js';
import { computeUnitLimitInstruction, computeUnitPriceInstruction, transferInstruction } from '../../src/solana/instructions.js';
import { signerFromSecretKey } from '../../src/solana/signer.js';
import type { CairnError } from '../../src/errors/index.js';
import { mulberry32 } from '../../src/devnet/chain/mulberry32.js';

// Deterministic PRNG so a failure is reproducible: the devnet's own mulberry32.
const rng = mulberry32;
function bytes(r: () => number, n: number): Uint8Array {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(r() * 256);
  return b;
}

function toWeb3(ix: InstructionInput): TransactionInstruction {
  return new TransactionInstruction({
    programId: new PublicKey(ix.programId as string),
    keys: ix.keys.map((k) => ({ pubkey: new PublicKey(k.pubkey as string), isSigner: k.isSigner, isWritable: k.isWritable })),
    data: Buffer.from(ix.data),
  });
}

function randomCase(seed: number) {
  const r = rng(seed);
  const kps = Array.from({ length: 1 + Math.floor(r() * 3) }, () => Keypair.fromSeed(bytes(r, 32)));
  const others = Array.from({ length: 2 + Math.floor(r() * 8) }, () => new PublicKey(bytes(r, 32)).toBase58());
  const programs = Array.from({ length: 1 + Math.floor(r() * 3) }, () => new PublicKey(bytes(r, 32)).toBase58());
  const payer = kps[0];
  const ixs: InstructionInput[] = [computeUnitLimitInstruction(1000 + Math.floor(r() * 100000)), computeUnitPriceInstruction(BigInt(Math.floor(r() * 1e9)))];
  const nIx = 1 + Math.floor(r() * 4);
  for (let i = 0; i < nIx; i++) {
    if (r() < 0.3) {
      ixs.push(transferInstruction(payer.publicKey.toBase58(), others[Math.floor(r() * others.length)], BigInt(Math.floor(r() * 1e12))));
      continue;
    }
    const keys = [];
    const nk = Math.floor(r() * 5);
    for (let k = 0; k < nk; k++) keys.push({ pubkey: others[Math.floor(r() * others.length)], isSigner: false, isWritable: r() < 0.5 });
    ixs.push({ programId: programs[Math.floor(r() * programs.length)], keys, data: bytes(r, Math.floor(r() * 40)) });
  }
  // every extra signer must appear as a signer in some instruction
  for (const kp of kps.slice(1)) {
    ixs.push({ programId: programs[0], keys: [{ pubkey: kp.publicKey.toBase58(), isSigner: true, isWritable: r() < 0.5 }], data: bytes(r, 3) });
  }
  const blockhash = new PublicKey(bytes(r, 32)).toBase58();
  return { r, kps, others, ixs, payer, blockhash };
}

describe('wire: byte equality with @solana/web3.js 1.98', () => {
  it('legacy transfer + compute budget + tip, one signer', () => {
    const kp = Keypair.fromSeed(new Uint8Array(32).fill(7));
    const to = Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey;
    const tip = '4ACfpUFoaSD9bfPdeu6DBt89gB6ENTeHBXCAi87NhDEE';
    const blockhash = 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N';
    const tx = new Transaction({ feePayer: kp.publicKey, blockhash, lastValidBlockHeight: 1 }).add(
      ComputeBudgetProgram.setComputeUnitLimit({ units: 1400 }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 200_000 }),
      SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: to, lamports: 5000 }),
      SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: new PublicKey(tip), lamports: 1_000_000 }),
    );
    tx.sign(kp);
    const expected = tx.serialize();

    const signer = signerFromSecretKey(kp.secretKey);
    const parts = compileMessage({
      payer: signer.address,
      recentBlockhash: blockhash,
      instructions: [
        computeUnitLimitInstruction(1400),
        computeUnitPriceInstruction(200_000),
        transferInstruction(signer.address, to.toBase58(), 5000),
        transferInstruction(signer.address, tip, 1_000_000n),
      ],
    });
    const { wire, signatures } = signMessageParts(parts, [signer]);
    expect(Buffer.from(wire).toString('hex')).toBe(expected.toString('hex'));
    expect(Buffer.from(signatures[0]).equals(tx.signature!)).toBe(true);
  });

  it('legacy, random instruction mixes and 1–3 signers (60 cases)', () => {
    for (let seed = 1; seed <= 60; seed++) {
      const { kps, ixs, payer, blockhash } = randomCase(seed);
      const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight: 1 });
      tx.add(...ixs.map(toWeb3));
      tx.sign(...kps);
      const expected = tx.serialize().toString('hex');
      const parts = compileMessage({ payer: payer.publicKey, recentBlockhash: blockhash, instructions: ixs });
      const { wire } = signMessageParts(parts, kps.map((k) => signerFromSecretKey(k.secretKey)).reverse());
      expect(Buffer.from(wire).toString('hex'), `seed ${seed}`).toBe(expected);
    }
  });

  it('v0 with address lookup tables and 1–3 signers (80 cases)', () => {
    for (let seed = 1001; seed <= 1080; seed++) {
      const { r, kps, others, ixs, payer, blockhash } = randomCase(seed);
      const tables = [0, 1].map(
        () =>
          new AddressLookupTableAccount({
            key: new PublicKey(bytes(r, 32)),
            state: {
              deactivationSlot: BigInt('18446744073709551615'),
              lastExtendedSlot: 0,
              lastExtendedSlotStartIndex: 0,
              addresses: others.filter(() => r() < 0.5).map((a) => new PublicKey(a)),
            },
          }),
      );
      const msg = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions: ixs.map(toWeb3) }).compileToV0Message(tables);
      const vtx = new VersionedTransaction(msg);
      vtx.sign(kps);
      const expected = Buffer.from(vtx.serialize()).toString('hex');
      const parts = compileMessage({
        payer: payer.publicKey.toBase58(),
        recentBlockhash: blockhash,
        instructions: ixs,
        version: 0,
        lookupTables: tables,
      });
      const { wire } = signMessageParts(parts, kps.map((k) => signerFromSecretKey(k.secretKey)));
      expect(Buffer.from(wire).toString('hex'), `seed ${seed}`).toBe(expected);
      // and it parses back to the same message
      const parsed = parseTransaction(wire);
      expect(Buffer.from(encodeMessage(parsed.parts)).equals(Buffer.from(msg.serialize()))).toBe(true);
      expect(parsed.parts.version).toBe(0);
    }
  });

  it('collator order differs from byte order and is honoured', () => {
    // 'a…' vs 'B…': byte order puts 'B' first, the en collator puts 'a' first.
    const r = rng(42);
    let lower = '';
    let upper = '';
    while (!(lower.startsWith('a') && upper.startsWith('B'))) {
      const k = new PublicKey(bytes(r, 32)).toBase58();
      if (k.startsWith('a')) lower = k;
      if (k.startsWith('B')) upper = k;
    }
    const kp = Keypair.fromSeed(new Uint8Array(32).fill(3));
    const blockhash = '11111111111111111111111111111111';
    const ix: InstructionInput = {
      programId: '11111111111111111111111111111111',
      keys: [
        { pubkey: upper, isSigner: false, isWritable: true },
        { pubkey: lower, isSigner: false, isWritable: true },
      ],
      data: new Uint8Array([1]),
    };
    const tx = new Transaction({ feePayer: kp.publicKey, blockhash, lastValidBlockHeight: 1 }).add(toWeb3(ix));
    tx.sign(kp);
    const parts = compileMessage({ payer: kp.publicKey, recentBlockhash: blockhash, instructions: [ix] });
    expect(Buffer.from(signMessageParts(parts, [signerFromSecretKey(kp.secretKey)]).wire).equals(tx.serialize())).toBe(true);
    expect(Buffer.from(parts.staticKeys[1]).equals(new PublicKey(lower).toBuffer())).toBe(true);
  });
});

describe('wire: errors name what is wrong', () => {
  const kp = signerFromSecretKey(new Uint8Array(32).fill(1));
  const base = { payer: kp.address, recentBlockhash: '11111111111111111111111111111111', instructions: [transferInstruction(kp.address, kp.address, 1)] };

  it('bad addresses and blockhash are InputErrors naming the field', () => {
    expect(() => compileMessage({ ...base, payer: 'not-base58!' })).toThrowError(/"payer"/);
    expect(() => compileMessage({ ...base, recentBlockhash: 'abc' })).toThrowError(/"recentBlockhash"/);
    expect(() => compileMessage({ ...base, instructions: [{ programId: kp.address, keys: [], data: 'x' as unknown as Uint8Array }] })).toThrowError(
      /"instructions\[0\]\.data"/,
    );
    expect(() => compileMessage({ ...base, version: 2 as unknown as 0 })).toThrowError(/"version"/);
  });

  it('missing or extra signers are refused', () => {
    const other = signerFromSecretKey(new Uint8Array(32).fill(2));
    const parts = compileMessage(base);
    expect(() => signMessageParts(parts, [])).toThrowError(/missing a signer/);
    expect(() => signMessageParts(parts, [kp, other])).toThrowError(/not a required signer/);
  });

  it('truncated, padded and oversized wire bytes give SENDER_INVALID_TRANSACTION', () => {
    const { wire } = signMessageParts(compileMessage(base), [kp]);
    for (const cut of [0, 1, 40, 65, wire.length - 1]) {
      try {
        parseTransaction(wire.subarray(0, cut));
        expect.unreachable(`cut ${cut}`);
      } catch (e) {
        expect((e as CairnError).code).toBe('SENDER_INVALID_TRANSACTION');
      }
    }
    const padded = new Uint8Array(wire.length + 1);
    padded.set(wire);
    expect(() => parseTransaction(padded)).toThrowError(/trailing bytes/);
    expect(() => parseTransaction(new Uint8Array(1300))).toThrowError(/exceeds 1232/);
  });

  it('a transaction over 1232 bytes is refused when signing', () => {
    const big = { programId: kp.address, keys: [], data: new Uint8Array(1200) };
    expect(() => signMessageParts(compileMessage({ ...base, instructions: [big] }), [kp])).toThrowError(/limit is 1232/);
  });
});
