/**
 * Inputs of the compression module's control functions and methods: 32-byte keys as base58 or
 * bytes, u64 amounts, and the rule that an address is a value in (0, 2^248 − 1).
 */
import { b58, describe, invalid } from '../params/indexer.js';
import { fromBytes32, HIGHEST_ADDRESS } from '../trees/merkle.js';

/** A 32-byte key as base58 text or bytes. */
export type Bytesish = string | Uint8Array;

export function bytesIn(v: Bytesish | undefined, field: string): Uint8Array {
  if (v instanceof Uint8Array) {
    if (v.length !== 32) throw invalid(field, `expected 32 bytes, got ${v.length}`);
    return v;
  }
  return b58(v, field);
}

/** A u64 (bigint or safe integer); `dflt` when absent, else required. */
export function u64In(v: bigint | number | undefined, field: string, dflt?: bigint): bigint {
  if (v === undefined) {
    if (dflt === undefined) throw invalid(field, 'is required');
    return dflt;
  }
  const x = typeof v === 'number' ? (Number.isSafeInteger(v) ? BigInt(v) : -1n) : typeof v === 'bigint' ? v : -1n;
  if (x < 0n || x >= 1n << 64n) throw invalid(field, `expected an integer 0..2^64−1, got ${describe(v)}`);
  return x;
}

export function checkAddressValue(a: Uint8Array, field: string): void {
  const v = fromBytes32(a);
  if (v === 0n || v >= HIGHEST_ADDRESS) throw invalid(field, 'an address must be a value in (0, 2^248 − 1): its first byte must be 0');
}
