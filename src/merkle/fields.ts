/**
 * Field decoding at the Merkle engine's JSON edge: base58 and number fields become bytes and bigints,
 * each failure a `FieldError` naming its field. Kinds turn it into a verdict ("not valid: <field> ...")
 * for value problems, or let it escape for shape problems.
 */
import { encodeBase58, base58Bytes, b58Decode32IntoJs } from '../solana/index.js';
import { FieldError } from '../errors/index.js';
import { base58TooLong } from '../base58-bound.js';
import { loadNative } from '../addon.js';
import { MAX_NUMBER_CHARS } from '../json/index.js';

/**
 * Base58 → exactly 32 bytes, or `null` when the string is not base58 or not 32 bytes long (the
 * caller then asks bs58 for the precise complaint). Generic base58 decoders are quadratic with
 * per-digit overhead; proofs carry dozens of 32-byte nodes, so this one folds two digits at a time
 * (× 58², < 2^12) into 16-bit limbs with plain int32 arithmetic, touching only the limbs in use.
 */
export function b58Decode32(s: string): Uint8Array | null {
  const out = new Uint8Array(32);
  return b58Decode32Into(s, out, 0) ? out : null;
}

/**
 * `b58Decode32` into `out[off..off+32]` (no allocation); false when `s` is not 32 bytes of base58.
 * The native addon's decoder when it loads (native/asset_proof_json.c: ~2× faster, 510–530 against
 * 1,060–1,250 ns per value on a loaded host; most of that is the call and reading the string, the
 * decoding itself is ~0.1 µs), else `b58Decode32IntoJs`; both give the same answers.
 */
export function b58Decode32Into(s: string, out: Uint8Array, off: number): boolean {
  // Chosen on first use, so importing the field decoders does not load the addon.
  decodeInto ??= loadNative()?.b58Decode32Into ?? b58Decode32IntoJs;
  return decodeInto(s, out, off);
}
let decodeInto: ((s: string, out: Uint8Array, off: number) => boolean) | undefined;

/** Decode a base58 string of exactly `len` bytes (32 for keys, hashes, proof nodes). */
export function b58Field(value: unknown, field: string, len = 32): Uint8Array {
  if (typeof value !== 'string') throw new FieldError(field, `expected a base58 string, got ${describe(value)}`, { expected: 'base58', got: describe(value) });
  if (len === 32) {
    const fast = b58Decode32(value);
    if (fast) return fast;
  }
  // bs58's decoder is quadratic in the text's length: a text far past any encoding of `len` bytes is
  // refused unread (a short one is decoded, so its error says how many bytes it held).
  if (value.length > 1_024 && base58TooLong(value, len)) {
    throw new FieldError(field, `expected ${len} bytes of base58, got ${value.length} characters`, { expected: `${len} bytes`, got: `${value.length} characters` });
  }
  let out: Uint8Array;
  try {
    out = base58Bytes(value);
  } catch {
    throw new FieldError(field, 'not valid base58', { expected: 'base58', got: value.slice(0, 60) });
  }
  if (out.length !== len) throw new FieldError(field, `expected ${len} bytes, got ${out.length}`, { expected: `${len} bytes`, got: out.length });
  return out;
}

/** Encode 32 bytes as base58 (for ids and diagnostics only: never on the hot path). */
export function toB58(bytes: Uint8Array): string {
  return encodeBase58(bytes);
}

/** Integers beyond this are described by their width in errors, not printed. */
const WIDE = 10n ** BigInt(MAX_NUMBER_CHARS);

/** A non-negative integer below `2^bits` from a JSON number, a decimal string or a bigint. */
export function uintField(value: unknown, field: string, bits: number): bigint {
  let v: bigint;
  if (typeof value === 'bigint') v = value;
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new FieldError(field, `expected an integer, got ${value}`, { expected: 'integer', got: value });
    v = BigInt(value);
  } else if (typeof value === 'string' && value.length <= MAX_NUMBER_CHARS && /^[0-9]+$/.test(value)) v = BigInt(value);
  else throw new FieldError(field, `expected a non-negative integer, got ${describe(value)}`, { expected: 'integer', got: describe(value) });
  if (v < 0n || v >= 1n << BigInt(bits)) {
    // a caller's bigint may have any size: its digits are shown only when few (printing is quadratic)
    const got = v < -WIDE || v > WIDE ? `an integer of ${v < 0n ? '-' : ''}${(v < 0n ? -v : v).toString(16).length} hex digits` : v.toString();
    throw new FieldError(field, `expected 0 ≤ value < 2^${bits}, got ${got}`, { expected: `u${bits}`, got });
  }
  return v;
}

/** A u32 as a JS number. */
export function u32Field(value: unknown, field: string): number {
  return Number(uintField(value, field, 32));
}

/** An array of 32-byte base58 nodes concatenated into one buffer (the shape every path kernel takes). */
export function nodesField(value: unknown, field: string): Uint8Array {
  if (!Array.isArray(value)) throw new FieldError(field, `expected an array of base58 nodes, got ${describe(value)}`, { expected: 'array', got: describe(value) });
  const out = new Uint8Array(value.length * 32);
  for (let i = 0; i < value.length; i++) {
    const v: unknown = value[i];
    if (typeof v === 'string' && b58Decode32Into(v, out, i * 32)) continue;
    out.set(b58Field(v, `${field}[${i}]`), i * 32);
  }
  return out;
}

/** A value named in an error: short strings quoted, others by their type. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `"${v.length > 40 ? v.slice(0, 40) + '…' : v}"`;
  return typeof v;
}

/**
 * A u32 from a JSON value: the in-range integer fast path, else `u32Field` (same result, same errors).
 *
 * @example
 * u32Value(7, 'leafIndex'); // 7
 */
export function u32Value(value: unknown, field: string): number {
  if (typeof value === 'number' && value >= 0 && value <= 0xffffffff && Number.isInteger(value)) return value;
  return u32Field(value, field);
}

/**
 * A u64 from a JSON value: a safe non-negative integer as is, else `uintField(…, 64)` (a bigint).
 *
 * @example
 * u64Value('18446744073709551615', 'lamports'); // 18446744073709551615n
 */
export function u64Value(value: unknown, field: string): number | bigint {
  if (typeof value === 'number' && value >= 0 && Number.isSafeInteger(value)) return value;
  return uintField(value, field, 64);
}
