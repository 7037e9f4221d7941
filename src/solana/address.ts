/**
 * Addresses at the edge: base58 text in, 32 bytes out, once. A small cache keeps the handful of
 * addresses a bot repeats (payer, programs, tip accounts, recipients) from being decoded on every
 * transaction. Also accepts web3.js `PublicKey`-like objects (`toBytes()`).
 */
import { InputError } from '../errors/index.js';
import { decodeBase58, encodeBase58 } from './base58.js';

/** An address as cairn accepts it: base58 text, 32 raw bytes, or a `PublicKey`-like object. */
export type AddressLike = string | Uint8Array | { toBytes(): Uint8Array };

const decodeCache = new Map<string, Uint8Array>();
const CACHE_MAX = 4096;

/** Base58 text of 32 bytes. */
export function encodeAddress(bytes: Uint8Array): string {
  return encodeBase58(bytes);
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
