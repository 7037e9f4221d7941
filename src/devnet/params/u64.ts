/**
 * u64 parameters as Agave reads them: the devnet parses request bodies losslessly (an integer past
 * 2^53 arrives as a `bigint`, never rounded), so `minContextSlot: 2^63−1` is that exact slot and is
 * answered as Agave answers it (−32016 not reached), not refused as a rounded double. Values outside
 * 0..2^64−1, fractions and non-numbers are −32602, as serde's u64 refuses them.
 */
import { bad } from './invalid.js';

export const U64_MAX = 18446744073709551615n;

/** A param value in messages: JSON text where a bigint is written as its digits (JSON.stringify throws on one). */
export function showParam(v: unknown): string {
  if (typeof v === 'bigint') return v.toString();
  try {
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)) ?? String(v);
  } catch {
    return String(v);
  }
}

/** A u64 param as a bigint; `field` names it in the −32602. */
export function u64Param(v: unknown, field: string): bigint {
  if (typeof v === 'bigint') {
    if (v < 0n || v > U64_MAX) throw bad(`${field} must be a u64 (0..18446744073709551615), got ${v}`);
    return v;
  }
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw bad(`${field} must be a u64 (an integer ≥ 0), got ${showParam(v)}`);
  // A double past 2^53 in a JS object cannot have come from the lossless parse: it is already
  // rounded, so it is refused rather than read as some other slot.
  if (!Number.isSafeInteger(v)) throw bad(`${field} must be a u64 (an integer ≥ 0), got ${showParam(v)}`);
  return BigInt(v);
}

/** An optional u64 param: undefined or null give `undefined`. */
export function optionalU64(v: unknown, field: string): bigint | undefined {
  return v === undefined || v === null ? undefined : u64Param(v, field);
}

/** A bigint that fits a JS number exactly, as a number; else null (callers answer "past the end"). */
export function safeNumber(v: bigint): number | null {
  return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : null;
}
