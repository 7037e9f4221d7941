/**
 * The compiler's reading of its input: instructions checked for shape, every address (text, bytes or
 * `PublicKey`) turned into its text and bytes once, the blockhash and the lookup tables. Both orderings
 * (compile-legacy.ts, compile-v0.ts) work on what these return.
 */
import { InputError } from '../errors/index.js';
import { addressBytes, encodeAddress, type AddressLike } from './address.js';
import type { InstructionInput, LookupTableInput } from './wire-types.js';

/** An account as the compiler collects it: its key, and the flags OR-ed over every mention. */
export interface KeyMeta {
  text: string;
  bytes: Uint8Array;
  isSigner: boolean;
  isWritable: boolean;
  isInvoked: boolean;
}

// Byte arrays and PublicKey objects get their base58 text computed once.
const textCache = new WeakMap<object, string>();

/** An address's base58 text and its 32 bytes; `field` names it in the error when it is not one. */
export function keyOf(a: AddressLike, field: string): { text: string; bytes: Uint8Array } {
  if (typeof a === 'string') return { text: a, bytes: addressBytes(a, field) };
  let text = textCache.get(a as object);
  const bytes = addressBytes(a, field);
  if (text === undefined) {
    text = encodeAddress(bytes);
    textCache.set(a as object, text);
  }
  return { text, bytes };
}

/** Throws `InputError` naming the first instruction that is not `{ programId, keys[], data: Uint8Array }`. */
export function checkInstructions(instructions: readonly InstructionInput[]): void {
  if (!Array.isArray(instructions)) throw new InputError('instructions', 'expected an array of instructions');
  for (let i = 0; i < instructions.length; i++) {
    const ix = instructions[i];
    if (!ix || typeof ix !== 'object') throw new InputError(`instructions[${i}]`, 'expected an instruction object');
    if (!Array.isArray(ix.keys)) throw new InputError(`instructions[${i}].keys`, 'expected an array of account metas');
    if (!(ix.data instanceof Uint8Array)) throw new InputError(`instructions[${i}].data`, 'expected a Uint8Array');
  }
}

/** The recent blockhash's 32 bytes. */
export function blockhashBytes(b: string | Uint8Array): Uint8Array {
  // Cached like an address: a bot signs hundreds of transactions per blockhash.
  if (typeof b === 'string') return addressBytes(b, 'recentBlockhash');
  if (b instanceof Uint8Array && b.length === 32) return b;
  throw new InputError('recentBlockhash', 'expected base58 text or 32 bytes');
}

/** Lookup table `i`'s key bytes and its addresses as text, from either accepted shape. */
export function tableOf(t: LookupTableInput, i: number): { key: Uint8Array; addresses: string[] } {
  if (!t || typeof t !== 'object') throw new InputError(`lookupTables[${i}]`, 'expected { key, addresses }');
  const list = 'addresses' in t ? t.addresses : (t as { state?: { addresses?: readonly AddressLike[] } }).state?.addresses;
  if (!Array.isArray(list)) throw new InputError(`lookupTables[${i}].addresses`, 'expected an array of addresses');
  return {
    key: keyOf(t.key, `lookupTables[${i}].key`).bytes,
    addresses: list.map((a, j) => keyOf(a, `lookupTables[${i}].addresses[${j}]`).text),
  };
}
