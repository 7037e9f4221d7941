/**
 * The three instructions a sender writes itself: System transfer (payments and the tip), and the two
 * Compute Budget instructions (unit limit, unit price). Same bytes and account metas as web3.js's
 * `SystemProgram.transfer` and `ComputeBudgetProgram.setComputeUnit{Limit,Price}`.
 */
import { InputError } from '../errors/index.js';
import type { AddressLike } from './address.js';
import type { InstructionInput } from './wire-types.js';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';

/** Compute Budget instruction tags (first data byte). */
export const CB_SET_COMPUTE_UNIT_LIMIT = 2;
export const CB_SET_COMPUTE_UNIT_PRICE = 3;
/** System Program instruction index of Transfer (u32 LE). */
export const SYSTEM_TRANSFER = 2;

const U64_MAX = (1n << 64n) - 1n;

/** Integer amount as bigint, or an `InputError` naming `field`. */
export function toU64(v: bigint | number, field: string): bigint {
  let b: bigint;
  if (typeof v === 'bigint') b = v;
  else if (typeof v === 'number' && Number.isSafeInteger(v)) b = BigInt(v);
  else throw new InputError(field, `expected a non-negative integer (number or bigint), got ${String(v)}`, { got: v });
  if (b < 0n || b > U64_MAX) throw new InputError(field, `expected 0 ≤ value < 2^64, got ${b}`, { got: b.toString() });
  return b;
}

/**
 * A System Program transfer of `lamports` from `from` (signer) to `to`.
 *
 * @example
 * const ix = transferInstruction(payer.address, 'Dest1111…', 5000n);
 */
export function transferInstruction(from: AddressLike, to: AddressLike, lamports: bigint | number): InstructionInput {
  const data = new Uint8Array(12);
  const view = new DataView(data.buffer);
  view.setUint32(0, SYSTEM_TRANSFER, true);
  view.setBigUint64(4, toU64(lamports, 'lamports'), true);
  return {
    programId: SYSTEM_PROGRAM,
    keys: [
      { pubkey: from, isSigner: true, isWritable: true },
      { pubkey: to, isSigner: false, isWritable: true },
    ],
    data,
  };
}

/** `ComputeBudgetProgram.setComputeUnitLimit({ units })`. */
export function computeUnitLimitInstruction(units: number): InstructionInput {
  if (!Number.isInteger(units) || units < 0 || units > 0xffffffff) {
    throw new InputError('computeUnitLimit', `expected an integer 0..2^32-1, got ${units}`, { got: units });
  }
  const data = new Uint8Array(5);
  data[0] = CB_SET_COMPUTE_UNIT_LIMIT;
  new DataView(data.buffer).setUint32(1, units, true);
  return { programId: COMPUTE_BUDGET_PROGRAM, keys: [], data };
}

/** `ComputeBudgetProgram.setComputeUnitPrice({ microLamports })`. */
export function computeUnitPriceInstruction(microLamports: bigint | number): InstructionInput {
  const data = new Uint8Array(9);
  data[0] = CB_SET_COMPUTE_UNIT_PRICE;
  new DataView(data.buffer).setBigUint64(1, toU64(microLamports, 'computeUnitPrice'), true);
  return { programId: COMPUTE_BUDGET_PROGRAM, keys: [], data };
}
