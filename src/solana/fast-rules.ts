/**
 * What the `/fast` host reads in a transaction — its compute-unit price, its compute-unit limit and
 * its tip (the sum of System transfers to tip accounts) — written once for the three places that ask:
 * the sender's build (instructions before compiling), the sender's check of signed bytes, and the
 * devnet's `/fast` check (both on a parsed message), so they cannot disagree.
 *
 * The rule is the programs' own layout, exactly: SetComputeUnitPrice is tag 3 + u64 LE (9 bytes),
 * SetComputeUnitLimit tag 2 + u32 LE (5 bytes), a System Transfer u32 LE 2 + u64 LE lamports
 * (12 bytes) with accounts [from, to]. Any other length is not that instruction. When an instruction
 * repeats, the last one is read (the runtime refuses the duplicate anyway).
 */
import { addressBytes } from './address.js';
import { CB_SET_COMPUTE_UNIT_LIMIT, CB_SET_COMPUTE_UNIT_PRICE, COMPUTE_BUDGET_PROGRAM, SYSTEM_PROGRAM, SYSTEM_TRANSFER } from './instructions.js';
import type { CompiledInstruction, InstructionInput } from './wire-types.js';

const SYSTEM_BYTES = addressBytes(SYSTEM_PROGRAM, 'systemProgram');
const COMPUTE_BUDGET_BYTES = addressBytes(COMPUTE_BUDGET_PROGRAM, 'computeBudgetProgram');

function eq32(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== 32 || b.length !== 32) return false;
  for (let i = 0; i < 32; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function isSystemProgram(key: Uint8Array): boolean {
  return eq32(key, SYSTEM_BYTES);
}

export function isComputeBudgetProgram(key: Uint8Array): boolean {
  return eq32(key, COMPUTE_BUDGET_BYTES);
}

const view = (d: Uint8Array): DataView => new DataView(d.buffer, d.byteOffset, d.byteLength);

/** µlamports/CU of a Compute Budget instruction's data, when it is SetComputeUnitPrice. */
function computeUnitPriceOf(data: Uint8Array): bigint | undefined {
  return data.length === 9 && data[0] === CB_SET_COMPUTE_UNIT_PRICE ? view(data).getBigUint64(1, true) : undefined;
}

/** Units of a Compute Budget instruction's data, when it is SetComputeUnitLimit. */
function computeUnitLimitOf(data: Uint8Array): number | undefined {
  return data.length === 5 && data[0] === CB_SET_COMPUTE_UNIT_LIMIT ? view(data).getUint32(1, true) : undefined;
}

/** Lamports of a System instruction's data, when it is Transfer. */
export function transferLamportsOf(data: Uint8Array): bigint | undefined {
  if (data.length !== 12) return undefined;
  const v = view(data);
  return v.getUint32(0, true) === SYSTEM_TRANSFER ? v.getBigUint64(4, true) : undefined;
}

/** Tip accounts as bytes: every reading compares bytes, never text. */
export type TipAccounts = readonly Uint8Array[];

const tipCache = new WeakMap<readonly string[], TipAccounts>();

/** The bytes of base58 tip accounts (cached per list); an `InputError` names `field[i]` on a bad one. */
export function tipAccountBytes(accounts: readonly string[], field = 'tipAccounts'): TipAccounts {
  let b = tipCache.get(accounts);
  if (b === undefined) {
    b = accounts.map((a, i) => addressBytes(a, `${field}[${i}]`));
    tipCache.set(accounts, b);
  }
  return b;
}

function isTipAccount(key: Uint8Array, tips: TipAccounts): boolean {
  for (const t of tips) if (t[0] === key[0] && eq32(t, key)) return true;
  return false;
}

/** What `/fast` reads; each field absent when the transaction has none. */
export interface FastReading {
  cuPrice?: bigint;
  cuLimit?: number;
  /** The sum of the transfers to tip accounts, how many there are, and the destination of the largest. */
  tip?: { lamports: bigint; transfers: number; largestTo: Uint8Array };
}

/** Accumulates one instruction at a time; `program` and `to` come resolved from either shape. */
class Reader {
  cuPrice?: bigint;
  cuLimit?: number;
  tipSum = 0n;
  transfers = 0;
  largest = -1n;
  largestTo?: Uint8Array;

  /** Reads a Compute Budget instruction's data; true when `program` is that program. */
  budget(program: Uint8Array, data: Uint8Array): boolean {
    if (!isComputeBudgetProgram(program)) return false;
    const price = computeUnitPriceOf(data);
    if (price !== undefined) this.cuPrice = price;
    const limit = computeUnitLimitOf(data);
    if (limit !== undefined) this.cuLimit = limit;
    return true;
  }

  tip(lamports: bigint, to: Uint8Array): void {
    if (lamports > this.largest) {
      this.largest = lamports;
      this.largestTo = to;
    }
    this.tipSum += lamports;
    this.transfers++;
  }

  result(): FastReading {
    return {
      ...(this.cuPrice !== undefined ? { cuPrice: this.cuPrice } : {}),
      ...(this.cuLimit !== undefined ? { cuLimit: this.cuLimit } : {}),
      ...(this.transfers > 0 ? { tip: { lamports: this.tipSum, transfers: this.transfers, largestTo: this.largestTo! } } : {}),
    };
  }
}

/**
 * Read a compiled message (signed bytes after `parseTransaction`). A transfer whose destination sits
 * behind a lookup table cannot be resolved offline, so it is no tip.
 *
 * @example
 * readFastRules(parseTransaction(wire).parts, tipAccountBytes(DEFAULT_TIP_ACCOUNTS)).cuPrice;
 */
export function readFastRules(message: { staticKeys: readonly Uint8Array[]; instructions: readonly CompiledInstruction[] }, tips: TipAccounts): FastReading {
  const r = new Reader();
  const keys = message.staticKeys;
  for (const ix of message.instructions) {
    const program = keys[ix.programIdIndex];
    if (program === undefined || r.budget(program, ix.data) || !isSystemProgram(program) || ix.accounts.length < 2) continue;
    const lamports = transferLamportsOf(ix.data);
    if (lamports === undefined) continue;
    const to = keys[ix.accounts[1]];
    if (to !== undefined && isTipAccount(to, tips)) r.tip(lamports, to);
  }
  return r.result();
}

/**
 * Read instructions before they are compiled (the sender's build keeps what the caller put in).
 * Addresses are decoded as the compiler decodes them; a bad one is an `InputError` naming it.
 */
export function readFastRulesOfInstructions(ixs: readonly InstructionInput[], tips: TipAccounts): FastReading {
  const r = new Reader();
  for (let i = 0; i < ixs.length; i++) {
    const ix = ixs[i];
    const program = addressBytes(ix.programId, `instructions[${i}].programId`);
    if (r.budget(program, ix.data) || !isSystemProgram(program) || ix.keys.length < 2) continue;
    const lamports = transferLamportsOf(ix.data);
    if (lamports === undefined) continue;
    const to = addressBytes(ix.keys[1].pubkey, `instructions[${i}].keys[1]`);
    if (isTipAccount(to, tips)) r.tip(lamports, to);
  }
  return r.result();
}
