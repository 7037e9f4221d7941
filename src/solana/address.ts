/**
 * Addresses at the edge: base58 text in, 32 bytes out, once. A small cache keeps the handful of
 * addresses a bot repeats (payer, programs, tip accounts, recipients) from being decoded on every
 * transaction. Also accepts web3.js `PublicKey`-like objects (`toBytes()`).
 */
import bs58 from 'bs58';
import { InputError } from '../errors.js';

/** An address as cairn accepts it: base58 text, 32 raw bytes, or a `PublicKey`-like object. */
export type AddressLike = string | Uint8Array | { toBytes(): Uint8Array };

const decodeCache = new Map<string, Uint8Array>();
const CACHE_MAX = 4096;

/** Base58 text of 32 bytes. */
export function encodeAddress(bytes: Uint8Array): string {
  return bs58.encode(bytes);
}

/** Base58 text (signatures, blockhashes, addresses). */
export function encodeBase58(bytes: Uint8Array): string {
  return bs58.encode(bytes);
}

/** Decode base58 text to exactly `length` bytes, or throw an `InputError` naming `field`. */
export function decodeBase58(text: string, length: number, field: string): Uint8Array {
  let out: Uint8Array;
  try {
    out = bs58.decode(text);
  } catch (cause) {
    throw new InputError(field, `expected base58 text, got ${JSON.stringify(text.slice(0, 60))}`, { cause });
  }
  if (out.length !== length) {
    throw new InputError(field, `expected ${length} bytes of base58, got ${out.length}`, { expected: `${length} bytes`, got: out.length });
  }
  return out;
}

/** 32 bytes of an address; the returned array is shared (cached) and must not be mutated. */
export function addressBytes(a: AddressLike, field: string): Uint8Array {
  if (typeof a === 'string') {
    let hit = decodeCache.get(a);
    if (hit === undefined) {
      hit = decodeBase58(a, 32, field);
      if (decodeCache.size >= CACHE_MAX) decodeCache.clear();
      decodeCache.set(a, hit);
    }
    return hit;
  }
  if (a instanceof Uint8Array) {
    if (a.length !== 32) throw new InputError(field, `expected 32 bytes, got ${a.length}`, { expected: '32 bytes', got: a.length });
    return a;
  }
  if (a && typeof a === 'object' && typeof (a as { toBytes?: unknown }).toBytes === 'function') {
    const b = (a as { toBytes(): Uint8Array }).toBytes();
    if (b instanceof Uint8Array && b.length === 32) return b;
  }
  throw new InputError(field, 'expected a base58 address, 32 bytes, or a PublicKey', { got: typeof a });
}

/** Base58 text of an address given in any accepted form. */
export function addressText(a: AddressLike, field: string): string {
  if (typeof a === 'string') {
    addressBytes(a, field);
    return a;
  }
  return encodeAddress(addressBytes(a, field));
}
