/**
 * jsonParsed transactions and blocks, `transactionDetails: "accounts"`, and simulateTransaction's
 * full result (and the same in sendTransaction's preflight error data), over HTTP, answered as Agave
 * answers them (issue 34 items 2 and 3). The transactions are real: SPL Token set up by hand, an
 * Associated Token Account created (its program invokes System and Token: inner instructions).
 */
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../../src/devnet/index.js';
import { findProgramAddress } from '../../../src/merkle/cnft/bubblegum/asset-id.js';
import { SYSTEM_PROGRAM, transferInstruction } from '../../../src/solana/instructions.js';
import { signMessageParts } from '../../../src/solana/sign-message.js';
import { generateSigner } from '../../../src/solana/signer.js';
import { compileMessage, type InstructionInput } from '../../../src/solana/index.js';
import { rpc } from '../../support/devnet.js';
import { memoIx, sendAndWait, setUpToken, TOKEN_PROGRAM, transferIx, type TokenSetup } from '../../support/spl.js';

const ATA = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const payer = generateSigner();
let devnet: Devnet;
let tok: TokenSetup;
const body = async (method: string, params: unknown) => (await rpc(devnet.url, method, params)).body;

function ataCreate(wallet: string, mint: string): { ix: InstructionInput; ata: string } {
  const [pda] = findProgramAddress([bs58.decode(wallet), bs58.decode(TOKEN_PROGRAM), bs58.decode(mint)], bs58.decode(ATA));
  const ata = bs58.encode(pda);
  const w = (pubkey: string, isSigner = false) => ({ pubkey, isSigner, isWritable: true });
  const r = (pubkey: string) => ({ pubkey, isSigner: false, isWritable: false });
  return {
    ata,
    ix: { programId: ATA, keys: [w(payer.address, true), w(ata), r(wallet), r(mint), r(SYSTEM_PROGRAM), r(TOKEN_PROGRAM)], data: Uint8Array.from([1]) },
  };
}
async function signed(instructions: InstructionInput[]) {
  const bh = (await body('getLatestBlockhash', [{ commitment: 'processed' }])).result.value.blockhash;
  const { wire } = signMessageParts(compileMessage({ payer: payer.address, instructions, recentBlockhash: bh }), [payer]);
  return Buffer.from(wire).toString('base64');
}

beforeAll(async () => {
  devnet = await startDevnet({
    slotMs: 20,
    wsPortPlusOne: false,
    stateModules: false,
    fundedAccounts: [{ address: payer.address, lamports: 100n * 10n ** 9n }],
  });
  tok = await setUpToken(devnet.url, payer);
});
afterAll(async () => {
  await devnet?.stop();
});

describe('item 2: jsonParsed transactions and blocks', () => {
  it('getTransaction in jsonParsed: keys with writable/signer/source, System, Token and Memo parsed', async () => {
    const to = generateSigner().address;
    const sig = await sendAndWait(devnet.url, payer, [transferInstruction(payer.address, to, 1_000_000n), transferIx(tok.a.address, tok.b.address, payer.address, 7), memoIx('hi agave', payer.address)]);
    const r = (await body('getTransaction', [sig, { encoding: 'jsonParsed', commitment: 'confirmed' }])).result;
    const msg = r.transaction.message;
    expect(msg.accountKeys[0]).toEqual({ pubkey: payer.address, writable: true, signer: true, source: 'transaction' });
    expect(msg.accountKeys.find((k: { pubkey: string }) => k.pubkey === SYSTEM_PROGRAM)).toEqual({ pubkey: SYSTEM_PROGRAM, writable: false, signer: false, source: 'transaction' });
    expect(msg.instructions[0]).toEqual({ program: 'system', programId: SYSTEM_PROGRAM, parsed: { type: 'transfer', info: { source: payer.address, destination: to, lamports: 1_000_000 } }, stackHeight: null });
    expect(msg.instructions[1]).toEqual({ program: 'spl-token', programId: TOKEN_PROGRAM, parsed: { type: 'transfer', info: { source: tok.a.address, destination: tok.b.address, amount: '7', authority: payer.address } }, stackHeight: null });
    expect(msg.instructions[2]).toMatchObject({ program: 'spl-memo', parsed: 'hi agave', stackHeight: null });
    expect(r.meta).not.toHaveProperty('loadedAddresses');
    expect(r.meta.preTokenBalances.length).toBeGreaterThan(0);
  });

  it('inner instructions parse too (an ATA create invokes System and Token)', async () => {
    const owner = generateSigner().address;
    const { ix, ata } = ataCreate(owner, tok.mint.address);
    const sig = await sendAndWait(devnet.url, payer, [ix]);
    const r = (await body('getTransaction', [sig, { encoding: 'jsonParsed', commitment: 'confirmed' }])).result;
    expect(r.transaction.message.instructions[0]).toMatchObject({ program: 'spl-associated-token-account', parsed: { type: 'createIdempotent', info: { account: ata, wallet: owner, mint: tok.mint.address, source: payer.address } } });
    const inner = r.meta.innerInstructions[0].instructions;
    expect(inner.map((i: { parsed?: { type: string } }) => i.parsed?.type)).toEqual(expect.arrayContaining(['getAccountDataSize', 'createAccount', 'initializeImmutableOwner', 'initializeAccount3']));
    expect(inner[0].stackHeight).toBe(2);
  });

  it('getBlock in jsonParsed and with transactionDetails "accounts"', async () => {
    const sig = await sendAndWait(devnet.url, payer, [transferInstruction(payer.address, generateSigner().address, 1_000_000n)]);
    const { slot } = (await body('getTransaction', [sig, { commitment: 'confirmed' }])).result;
    const parsed = (await body('getBlock', [slot, { encoding: 'jsonParsed', commitment: 'confirmed', maxSupportedTransactionVersion: 0 }])).result;
    const t = parsed.transactions.find((x: { transaction: { signatures: string[] } }) => x.transaction.signatures[0] === sig);
    expect(t.transaction.message.instructions[0].parsed.type).toBe('transfer');
    expect(t.version).toBe('legacy');
    const accounts = (await body('getBlock', [slot, { transactionDetails: 'accounts', commitment: 'confirmed', maxSupportedTransactionVersion: 0 }])).result;
    const a = accounts.transactions.find((x: { transaction: { signatures: string[] } }) => x.transaction.signatures[0] === sig);
    expect(a.transaction.accountKeys[0]).toEqual({ pubkey: payer.address, writable: true, signer: true, source: 'transaction' });
    expect(Object.keys(a.meta).sort()).toEqual(['err', 'fee', 'postBalances', 'postTokenBalances', 'preBalances', 'preTokenBalances', 'rewards', 'status']);
  });
});

describe('item 3: simulateTransaction answers in full', () => {
  it('a success: fee, balances, loaded addresses, data size, parsed inner instructions on request', async () => {
    const owner = generateSigner().address;
    const { ix } = ataCreate(owner, tok.mint.address);
    const v = (await body('simulateTransaction', [await signed([ix]), { encoding: 'base64', innerInstructions: true }])).result.value;
    expect(Object.keys(v).sort()).toEqual(
      ['accounts', 'err', 'fee', 'innerInstructions', 'loadedAccountsDataSize', 'loadedAddresses', 'logs', 'postBalances', 'postTokenBalances', 'preBalances', 'preTokenBalances', 'replacementBlockhash', 'returnData', 'unitsConsumed'].sort(),
    );
    expect(v).toMatchObject({ err: null, accounts: null, replacementBlockhash: null, fee: 5000, loadedAddresses: { writable: [], readonly: [] } });
    expect(v.preBalances).toHaveLength(7); // six keys and the ATA program
    expect(v.postBalances[0]).toBeLessThan(v.preBalances[0]);
    expect(v.postBalances[1]).toBeGreaterThan(0);
    expect(v.loadedAccountsDataSize).toBeGreaterThan(0);
    expect(v.postTokenBalances).toEqual([expect.objectContaining({ accountIndex: 1, mint: tok.mint.address, owner, uiTokenAmount: expect.objectContaining({ amount: '0' }) })]);
    expect(v.innerInstructions[0].instructions.map((i: { program?: string }) => i.program)).toContain('system');
    expect(v.returnData).toBeNull();
    const plain = (await body('simulateTransaction', [await signed([ix]), { encoding: 'base64' }])).result.value;
    expect(plain.innerInstructions).toBeNull();
  });

  it('return data as Agave writes it ({ programId, data: [base64, "base64"] })', async () => {
    // the ATA program's getAccountDataSize call into Token sets return data; Token's own
    // GetAccountDataSize (21) sets it at the top level
    const ix: InstructionInput = {
      programId: TOKEN_PROGRAM,
      keys: [{ pubkey: tok.mint.address, isSigner: false, isWritable: false }],
      data: Uint8Array.from([21]),
    };
    const v = (await body('simulateTransaction', [await signed([ix]), { encoding: 'base64' }])).result.value;
    expect(v.err).toBeNull();
    expect(v.returnData).toEqual({ programId: TOKEN_PROGRAM, data: [Buffer.from([165, 0, 0, 0, 0, 0, 0, 0]).toString('base64'), 'base64'] });
  });

  it("sendTransaction's preflight failure carries the same result in its data", async () => {
    const tx = await signed([transferInstruction(payer.address, generateSigner().address, 10n ** 15n)]);
    const e = (await body('sendTransaction', [tx, { encoding: 'base64' }])).error;
    expect(e.code).toBe(-32002);
    expect(e.message).toBe('Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1');
    expect(e.data).toMatchObject({
      err: { InstructionError: [0, { Custom: 1 }] },
      accounts: null,
      fee: 5000,
      innerInstructions: null,
      replacementBlockhash: null,
      returnData: null,
      loadedAddresses: { writable: [], readonly: [] },
    });
    expect(e.data.preBalances).toHaveLength(3);
    expect(e.data.postBalances[0]).toBe(e.data.preBalances[0] - 5000);
  });
});
