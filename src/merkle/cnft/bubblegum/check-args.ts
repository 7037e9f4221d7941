/**
 * The argument checks the Bubblegum builders share: 32-byte keys and hashes, u64 nonces and counts,
 * each refused with an `InputError` naming the argument.
 */
import { InputError } from '../../../errors/index.js';

/** Throws unless `v` is a bigint in 0..2^64. */
export function checkU64(v: bigint, field: string): void {
  if (typeof v !== 'bigint' || v < 0n || v >= 1n << 64n) throw new InputError(field, `expected a u64 bigint, got ${String(v)}`, { expected: 'u64', got: String(v) });
}

/** `v` as 32 bytes, or an `InputError` naming `field`. */
export function bytes32(v: unknown, field: string): Uint8Array {
  if (!(v instanceof Uint8Array) || v.length !== 32) {
    throw new InputError(field, `expected 32 bytes, got ${v instanceof Uint8Array ? v.length : typeof v}`, { expected: '32 bytes' });
  }
  return v;
}
