/**
 * SPL Token, Memo and lookup-table instructions built by hand over cairn's own wire layer (no
 * web3.js, no spl-token package: neither is a dependency of the devnet tests), and a helper that
 * signs, sends and waits for a transaction on a devnet over plain JSON-RPC.
 */
import bs58 from 'bs58';
import { generateSigner, type Signer } from '../../src/solana/signer.js';
import { compileMessage, type InstructionInput } from '../../src/solana/index.js';
import { signMessageParts } from '../../src/solana/sign-message.js';
import { SYSTEM_PROGRAM } from '../../src/solana/instructions.js';
import { rpc } from './devnet.js';

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
const MEMO_PROGRAM = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';

const u64 = (v: bigint | number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
  return b;
};
const bytes = (...parts: (number[] | Uint8Array)[]) => Uint8Array.from(parts.flatMap((p) => [...p]));
const w = (pubkey: string, isSigner = false) => ({ pubkey, isSigner, isWritable: true });
const r = (pubkey: string, isSigner = false) => ({ pubkey, isSigner, isWritable: false });
const keyBytes = (a: string) => bs58.decode(a);

/** SystemProgram.createAccount. */
export function createAccountIx(from: string, to: string, lamports: bigint | number, space: number, owner: string): InstructionInput {
  return { programId: SYSTEM_PROGRAM, keys: [w(from, true), w(to, true)], data: bytes([0, 0, 0, 0], u64(lamports), u64(space), keyBytes(owner)) };
}

/** Token InitializeMint2 (20): decimals, mint authority, no freeze authority. */
function initializeMint2Ix(mint: string, decimals: number, authority: string, program = TOKEN_PROGRAM): InstructionInput {
  return { programId: program, keys: [w(mint)], data: bytes([20, decimals], keyBytes(authority), [0]) };
}

/** Token InitializeAccount3 (18). */
function initializeAccount3Ix(account: string, mint: string, owner: string, program = TOKEN_PROGRAM): InstructionInput {
  return { programId: program, keys: [w(account), r(mint)], data: bytes([18], keyBytes(owner)) };
}

/** Token MintTo (7). */
export function mintToIx(mint: string, to: string, authority: string, amount: bigint | number, program = TOKEN_PROGRAM): InstructionInput {
  return { programId: program, keys: [w(mint), w(to), r(authority, true)], data: bytes([7], u64(amount)) };
}

/** Token Transfer (3). */
export function transferIx(from: string, to: string, owner: string, amount: bigint | number, program = TOKEN_PROGRAM): InstructionInput {
  return { programId: program, keys: [w(from), w(to), r(owner, true)], data: bytes([3], u64(amount)) };
}

/** Token Approve (4). */
function approveIx(account: string, delegate: string, owner: string, amount: bigint | number, program = TOKEN_PROGRAM): InstructionInput {
  return { programId: program, keys: [w(account), r(delegate), r(owner, true)], data: bytes([4], u64(amount)) };
}

/** Memo v2 with the signer named. */
export function memoIx(text: string, signer: string): InstructionInput {
  return { programId: MEMO_PROGRAM, keys: [r(signer, true)], data: new TextEncoder().encode(text) };
}

/** Sign and send on a devnet, wait until the transaction is confirmed; returns its signature. */
export async function sendAndWait(
  url: string,
  payer: Signer,
  instructions: InstructionInput[],
  signers: Signer[] = [],
  extra: { version?: 'legacy' | 0; lookupTables?: { key: string; addresses: string[] }[] } = {},
): Promise<string> {
  const bh = await rpc(url, 'getLatestBlockhash', [{ commitment: 'confirmed' }]);
  const parts = compileMessage({ payer: payer.address, instructions, recentBlockhash: bh.body.result.value.blockhash, ...extra });
  const { wire, signatures } = signMessageParts(parts, [payer, ...signers]);
  const sent = await rpc(url, 'sendTransaction', [Buffer.from(wire).toString('base64'), { encoding: 'base64' }]);
  if (sent.body.error) throw new Error(`sendTransaction: ${JSON.stringify(sent.body.error)}`);
  const sig = bs58.encode(signatures[0]!);
  for (let i = 0; i < 500; i++) {
    const st = (await rpc(url, 'getSignatureStatuses', [[sig]])).body.result.value[0];
    if (st && st.confirmationStatus !== 'processed') {
      if (st.err) throw new Error(`transaction failed: ${JSON.stringify(st.err)}`);
      return sig;
    }
    await new Promise((res) => setTimeout(res, 10));
  }
  throw new Error('sendAndWait: not confirmed in time');
}

export interface TokenSetup {
  mint: Signer;
  authority: Signer;
  /** Token accounts: a is the authority's, b another owner's. */
  a: Signer;
  b: Signer;
  ownerB: Signer;
  delegate: Signer;
}

/** A 6-decimal mint, two token accounts, 1.5 tokens minted to a, 0.5 moved to b, a delegate on a. */
export async function setUpToken(url: string, payer: Signer, program = TOKEN_PROGRAM): Promise<TokenSetup> {
  const mint = generateSigner();
  const a = generateSigner();
  const b = generateSigner();
  const ownerB = generateSigner();
  const delegate = generateSigner();
  const rentMint = (await rpc(url, 'getMinimumBalanceForRentExemption', [82])).body.result;
  const rentAcc = (await rpc(url, 'getMinimumBalanceForRentExemption', [165])).body.result;
  await sendAndWait(url, payer, [
    createAccountIx(payer.address, mint.address, rentMint, 82, program),
    initializeMint2Ix(mint.address, 6, payer.address, program),
    createAccountIx(payer.address, a.address, rentAcc, 165, program),
    initializeAccount3Ix(a.address, mint.address, payer.address, program),
    createAccountIx(payer.address, b.address, rentAcc, 165, program),
    initializeAccount3Ix(b.address, mint.address, ownerB.address, program),
  ], [mint, a, b]);
  await sendAndWait(url, payer, [
    mintToIx(mint.address, a.address, payer.address, 1_500_000, program),
    transferIx(a.address, b.address, payer.address, 500_000, program),
    approveIx(a.address, delegate.address, payer.address, 250_000, program),
  ]);
  return { mint, authority: payer, a, b, ownerB, delegate };
}
