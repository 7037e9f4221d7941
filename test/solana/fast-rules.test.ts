/**
 * One `/fast` rule, three readers: the same transactions go to the sender's build scan (instructions
 * before compiling), its signed-bytes summary (inspect.ts) and the devnet's `/fast` check, and all
 * three must read the same CU price, CU limit and tip sum — the exact-length rule of fast-rules.ts.
 */
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { scan } from '../../src/sender/build/builder.js';
import { summarizeWire } from '../../src/sender/input/inspect.js';
import { checkFastSendTransaction, resolveFastRules } from '../../src/devnet/http/fast.js';
import { DevnetRpcError } from '../../src/devnet/types.js';
import {
  COMPUTE_BUDGET_PROGRAM,
  SYSTEM_PROGRAM,
  computeUnitLimitInstruction,
  computeUnitPriceInstruction,
  transferInstruction,
} from '../../src/solana/instructions.js';
import { generateSigner } from '../../src/solana/signer.js';
import { compileMessage, signMessageParts, type InstructionInput } from '../../src/solana/index.js';
import { DEFAULT_TIP_ACCOUNTS } from '../../src/tips.js';

const payer = generateSigner();
const other = generateSigner().address;
const [TIP_A, TIP_B] = DEFAULT_TIP_ACCOUNTS;

const cb = (bytes: number[]): InstructionInput => ({ programId: COMPUTE_BUDGET_PROGRAM, keys: [], data: Uint8Array.from(bytes) });
const system = (to: string, bytes: number[]): InstructionInput => ({
  programId: SYSTEM_PROGRAM,
  keys: [
    { pubkey: payer.address, isSigner: true, isWritable: true },
    { pubkey: to, isSigner: false, isWritable: true },
  ],
  data: Uint8Array.from(bytes),
});
const le = (v: bigint, n: number): number[] => Array.from({ length: n }, (_, i) => Number((v >> BigInt(8 * i)) & 0xffn));
const price = computeUnitPriceInstruction(7_000n);
const limit = computeUnitLimitInstruction(200_000);
const tip = (to: string, lamports: bigint): InstructionInput => transferInstruction(payer.address, to, lamports);

interface Case {
  name: string;
  ixs: InstructionInput[];
  cuPrice?: bigint;
  cuLimit?: number;
  /** The tip sum; absent when no transfer goes to a tip account. */
  tip?: bigint;
}

const cases: Case[] = [
  { name: 'price, limit and one tip', ixs: [limit, price, tip(TIP_A, 1_000_000n)], cuPrice: 7_000n, cuLimit: 200_000, tip: 1_000_000n },
  { name: 'no compute budget at all', ixs: [tip(TIP_A, 1_000_000n)], tip: 1_000_000n },
  { name: 'two tips are summed', ixs: [price, tip(TIP_A, 500_000n), tip(TIP_B, 500_000n)], cuPrice: 7_000n, tip: 1_000_000n },
  { name: 'a transfer elsewhere is no tip', ixs: [price, tip(other, 2_000_000n)], cuPrice: 7_000n },
  { name: 'the last price counts', ixs: [price, computeUnitPriceInstruction(9n), tip(TIP_A, 5n)], cuPrice: 9n, tip: 5n },
  { name: 'price data of 10 bytes is not SetComputeUnitPrice', ixs: [cb([3, ...le(7n, 8), 0]), tip(TIP_A, 1n)], tip: 1n },
  { name: 'price data of 8 bytes is not SetComputeUnitPrice', ixs: [cb([3, ...le(7n, 7)]), tip(TIP_A, 1n)], tip: 1n },
  { name: 'limit data of 6 bytes is not SetComputeUnitLimit', ixs: [price, cb([2, ...le(5n, 4), 0]), tip(TIP_A, 1n)], cuPrice: 7_000n, tip: 1n },
  { name: 'a price tag under the System program is no price', ixs: [system(other, [3, ...le(7n, 8)]), tip(TIP_A, 1n)], tip: 1n },
  { name: 'a transfer of 13 bytes is no tip', ixs: [price, system(TIP_A, [2, 0, 0, 0, ...le(9n, 8), 0])], cuPrice: 7_000n },
  { name: 'System instruction 3 of 12 bytes is no tip', ixs: [price, system(TIP_A, [3, 0, 0, 0, ...le(9n, 8)])], cuPrice: 7_000n },
  { name: 'a tag with a high byte set is no transfer', ixs: [price, system(TIP_A, [2, 1, 0, 0, ...le(9n, 8)])], cuPrice: 7_000n },
  { name: 'a zero tip is a tip of 0', ixs: [price, tip(TIP_A, 0n)], cuPrice: 7_000n, tip: 0n },
];

function wireOf(ixs: InstructionInput[]): Uint8Array {
  const parts = compileMessage({ payer: payer.address, instructions: ixs, recentBlockhash: bs58.encode(new Uint8Array(32).fill(1)) });
  return signMessageParts(parts, [payer]).wire;
}

/** What the devnet's `/fast` check says: which of price and tip it finds missing for a minimum tip. */
function devnetMissing(wire: Uint8Array, minTipLamports: bigint): string[] {
  const rules = resolveFastRules({ tipAccounts: DEFAULT_TIP_ACCOUNTS, minTipLamports });
  try {
    checkFastSendTransaction([bs58.encode(wire), { maxRetries: 0 }], { swqosOnly: false }, rules);
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(DevnetRpcError);
    return ((e as DevnetRpcError).data as { missing: string[] }).missing;
  }
}

describe('one /fast rule for the build, the signed-bytes check and the devnet', () => {
  it.each(cases)('$name', (c) => {
    const wire = wireOf(c.ixs);
    // The build's scan of the caller's instructions.
    const built = scan(c.ixs, DEFAULT_TIP_ACCOUNTS);
    expect(built.price).toBe(c.cuPrice !== undefined);
    expect(built.limit).toBe(c.cuLimit !== undefined);
    expect(built.tip).toBe(c.tip);
    // The signed-bytes summary.
    const s = summarizeWire(wire, DEFAULT_TIP_ACCOUNTS);
    expect(s.cuPrice).toBe(c.cuPrice);
    expect(s.cuLimit).toBe(c.cuLimit);
    expect(s.tip?.lamports).toBe(c.tip);
    // The devnet: the price is there or named missing; the tip sum is exactly c.tip (it passes a
    // minimum of c.tip and fails one lamport more).
    const sum = c.tip ?? 0n;
    const atSum = devnetMissing(wire, sum);
    expect(atSum.includes('computeUnitPrice')).toBe(c.cuPrice === undefined);
    expect(atSum.includes('tip')).toBe(false);
    expect(devnetMissing(wire, sum + 1n).includes('tip')).toBe(true);
  });
});
