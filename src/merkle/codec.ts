/**
 * The JSON edge of the Merkle engine. Everything the service returns is parsed here once, on the main
 * thread: response envelopes are unwrapped into a flat list of items, base58/hex/number fields become
 * bytes and bigints (each failure names its field), and per-item records are framed into one compact
 * binary batch that crosses to a worker as a transferable `ArrayBuffer`. Nothing downstream of this
 * module touches a string.
 */
import bs58 from 'bs58';
import { InputError } from '../errors.js';

// ---------------------------------------------------------------------------------------------
// Field decoding. Each helper throws `FieldError` naming the field; kinds turn it into a verdict
// ("not valid: <field> ...") for value problems, or let it escape for shape problems.

/**
 * A value problem in one field of one item: the item is invalid, the input as a whole is still usable.
 *
 * @example
 * b58Field('abc', 'root'); // throws FieldError: "root": expected 32 bytes, got 2
 */
export class FieldError extends InputError {}

const B58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B58_MAP = (() => {
  const m = new Int8Array(128).fill(-1);
  for (let i = 0; i < 58; i++) m[B58_ALPHABET.charCodeAt(i)] = i;
  return m;
})();

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

const limbs = new Int32Array(17);

/** `b58Decode32` into `out[off..off+32]` (no allocation); false when `s` is not 32 bytes of base58. */
export function b58Decode32Into(s: string, out: Uint8Array, off: number): boolean {
  const n = s.length;
  if (n < 32 || n > 44) return false;
  let ones = 0;
  while (ones < n && s.charCodeAt(ones) === 49) ones++;
  // limbs[0] is the least significant 16 bits; limb 16 catches overflow past 256 bits.
  limbs.fill(0);
  let used = 1;
  let i = ones;
  while (i < n) {
    const c0 = s.charCodeAt(i++);
    const d0 = c0 < 128 ? B58_MAP[c0]! : -1;
    if (d0 < 0) return false;
    let chunk = d0;
    let mul = 58;
    if (i < n) {
      const c1 = s.charCodeAt(i++);
      const d1 = c1 < 128 ? B58_MAP[c1]! : -1;
      if (d1 < 0) return false;
      chunk = chunk * 58 + d1;
      mul = 3364;
    }
    let carry = chunk;
    for (let j = 0; j < used; j++) {
      const v = limbs[j]! * mul + carry;
      limbs[j] = v & 0xffff;
      carry = v >>> 16;
    }
    while (carry !== 0) {
      if (used === 17) return false;
      limbs[used++] = carry & 0xffff;
      carry >>>= 16;
    }
  }
  if (used > 16) return false;
  for (let j = 0; j < 16; j++) {
    out[off + 31 - 2 * j] = limbs[j]! & 0xff;
    out[off + 30 - 2 * j] = limbs[j]! >>> 8;
  }
  // bs58 semantics: each leading '1' is one leading zero byte, and the number fills the rest exactly.
  let lead = 0;
  while (lead < 32 && out[off + lead] === 0) lead++;
  return lead === ones;
}

/** Decode a base58 string of exactly `len` bytes (32 for keys, hashes, proof nodes). */
export function b58Field(value: unknown, field: string, len = 32): Uint8Array {
  if (typeof value !== 'string') throw new FieldError(field, `expected a base58 string, got ${describe(value)}`, { expected: 'base58', got: describe(value) });
  if (len === 32) {
    const fast = b58Decode32(value);
    if (fast) return fast;
  }
  let out: Uint8Array;
  try {
    out = bs58.decode(value);
  } catch {
    throw new FieldError(field, 'not valid base58', { expected: 'base58', got: value.slice(0, 60) });
  }
  if (out.length !== len) throw new FieldError(field, `expected ${len} bytes, got ${out.length}`, { expected: `${len} bytes`, got: out.length });
  return out;
}

/** Encode 32 bytes as base58 (for ids and diagnostics only: never on the hot path). */
export function toB58(bytes: Uint8Array): string {
  return bs58.encode(bytes);
}

/** A non-negative integer below `2^bits` from a JSON number, a decimal string or a bigint. */
export function uintField(value: unknown, field: string, bits: number): bigint {
  let v: bigint;
  if (typeof value === 'bigint') v = value;
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new FieldError(field, `expected an integer, got ${value}`, { expected: 'integer', got: value });
    v = BigInt(value);
  } else if (typeof value === 'string' && /^[0-9]{1,80}$/.test(value)) v = BigInt(value);
  else throw new FieldError(field, `expected a non-negative integer, got ${describe(value)}`, { expected: 'integer', got: describe(value) });
  if (v < 0n || v >= 1n << BigInt(bits)) throw new FieldError(field, `expected 0 ≤ value < 2^${bits}, got ${v}`, { expected: `u${bits}`, got: v.toString() });
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

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `"${v.length > 40 ? v.slice(0, 40) + '…' : v}"`;
  return typeof v;
}

/** Big-endian bytes → bigint (diagnostics and range checks off the hot path). */
export function beToBigint(b: Uint8Array): bigint {
  let v = 0n;
  for (let i = 0; i < b.length; i++) v = (v << 8n) | BigInt(b[i]!);
  return v;
}

/** bigint → `len` big-endian bytes. */
export function bigintToBe(v: bigint, len = 32): Uint8Array {
  const out = new Uint8Array(len);
  for (let i = len - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Lexicographic comparison of equal-length big-endian byte strings: -1, 0 or 1. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Lossless JSON. Compression numbers (`lamports`, `amount`) are u64 and may exceed 2^53; JSON.parse
// would round them silently. Long integer literals outside strings are quoted before parsing, and
// the field decoders above accept decimal strings.

/**
 * Parse JSON text, keeping integers of 16 or more digits exact (as decimal strings).
 *
 * @example
 * parseJsonLossless('{"lamports":18446744073709551615}') // { lamports: '18446744073709551615' }
 */
export function parseJsonLossless(text: string): unknown {
  const quoted = text.replace(/"(?:[^"\\]|\\.)*"|(-?\d{16,})(?![.eE\d])/g, (m, big: string | undefined) => (big === undefined ? m : `"${big}"`));
  return JSON.parse(quoted) as unknown;
}

// ---------------------------------------------------------------------------------------------
// Envelope unwrapping.

/** An item and the id it was keyed by (for objects keyed by id, as getAssetProofBatch returns). */
export interface KeyedItem {
  item: unknown;
  key?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Flatten anything the service returns into a list of items: a whole JSON-RPC response, a bare
 * `result`, `{context, value}`, a paged list (`items`), an array, an object keyed by id, or a single
 * item. `looksLikeItem` tells a single item apart from an object keyed by id.
 *
 * @example
 * unwrapItems({ jsonrpc: '2.0', id: 1, result: { context: { slot: 1 }, value: [p1, p2] } }, isProof)
 * // [{ item: p1 }, { item: p2 }]
 */
export function unwrapItems(input: unknown, looksLikeItem: (v: Record<string, unknown>) => boolean): KeyedItem[] {
  let v = input;
  // Peel envelopes, outermost first. Bounded: each step strictly descends.
  for (let depth = 0; depth < 8; depth++) {
    if (!isObject(v)) break;
    if ('jsonrpc' in v && ('result' in v || 'error' in v)) {
      if (v.error !== undefined && v.error !== null) {
        const e = v.error as { code?: unknown; message?: unknown };
        throw new InputError('error', `the input is a JSON-RPC error response (${String(e.code)}: ${String(e.message)}), not proofs`, { got: e });
      }
      v = v.result;
      continue;
    }
    if (looksLikeItem(v)) break;
    if ('value' in v && ('context' in v || Object.keys(v).length === 1)) {
      v = v.value;
      continue;
    }
    if (Array.isArray(v.items)) {
      v = v.items;
      continue;
    }
    break;
  }
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) return v.map((item) => ({ item }));
  if (!isObject(v)) throw new InputError('input', `expected an object or an array, got ${describe(v)}`);
  if (looksLikeItem(v)) return [{ item: v }];
  const entries = Object.entries(v);
  if (entries.length > 0 && entries.every(([, x]) => isObject(x) && looksLikeItem(x))) {
    return entries.map(([key, item]) => ({ item, key }));
  }
  throw new InputError('input', `found no item of this kind (keys: ${Object.keys(v).slice(0, 8).join(', ') || 'none'})`);
}

// ---------------------------------------------------------------------------------------------
// Batch framing. Layout (little-endian): u32 count, u32 offsets[count + 1], then the records. An
// empty record marks an item already decided on the main thread (its verdict never travels).

/** Frame records into one transferable buffer. */
export function encodeBatch(records: readonly Uint8Array[]): ArrayBuffer {
  const n = records.length;
  let size = 4 + 4 * (n + 1);
  for (const r of records) size += r.length;
  const buf = new ArrayBuffer(size);
  const dv = new DataView(buf);
  const bytes = new Uint8Array(buf);
  dv.setUint32(0, n, true);
  let off = 4 + 4 * (n + 1);
  for (let i = 0; i < n; i++) {
    dv.setUint32(4 + 4 * i, off, true);
    bytes.set(records[i]!, off);
    off += records[i]!.length;
  }
  dv.setUint32(4 + 4 * n, off, true);
  return buf;
}

/** Views (no copies) of the records in a framed batch. Throws on a malformed frame. */
export function decodeBatch(buf: ArrayBuffer): Uint8Array[] {
  if (buf.byteLength < 8) throw new InputError('batch', `expected at least 8 bytes, got ${buf.byteLength}`);
  const dv = new DataView(buf);
  const n = dv.getUint32(0, true);
  if (4 + 4 * (n + 1) > buf.byteLength) throw new InputError('batch', `header claims ${n} records in ${buf.byteLength} bytes`);
  const out: Uint8Array[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = dv.getUint32(4 + 4 * i, true);
    const b = dv.getUint32(8 + 4 * i, true);
    if (b < a || b > buf.byteLength) throw new InputError('batch', `record ${i} out of bounds`);
    out[i] = new Uint8Array(buf, a, b - a);
  }
  return out;
}

/** A growable little-endian byte writer for building one record. */
export class ByteWriter {
  private buf: Uint8Array;
  private dv: DataView;
  length = 0;
  constructor(capacity = 256) {
    this.buf = new Uint8Array(capacity);
    this.dv = new DataView(this.buf.buffer);
  }
  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.dv = new DataView(next.buffer);
  }
  u8(v: number): this {
    this.ensure(1);
    this.buf[this.length++] = v;
    return this;
  }
  u32(v: number): this {
    this.ensure(4);
    this.dv.setUint32(this.length, v, true);
    this.length += 4;
    return this;
  }
  u64(v: bigint): this {
    this.ensure(8);
    this.dv.setBigUint64(this.length, v, true);
    this.length += 8;
    return this;
  }
  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

/** The matching reader; every read is bounds-checked so a corrupt record fails as a typed error. */
export class ByteReader {
  private off = 0;
  private readonly dv: DataView;
  constructor(private readonly b: Uint8Array) {
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  private need(n: number, what: string): void {
    if (this.off + n > this.b.length) throw new InputError('record', `truncated record reading ${what}`);
  }
  u8(what = 'u8'): number {
    this.need(1, what);
    return this.b[this.off++]!;
  }
  u32(what = 'u32'): number {
    this.need(4, what);
    const v = this.dv.getUint32(this.off, true);
    this.off += 4;
    return v;
  }
  u64(what = 'u64'): bigint {
    this.need(8, what);
    const v = this.dv.getBigUint64(this.off, true);
    this.off += 8;
    return v;
  }
  bytes(n: number, what = 'bytes'): Uint8Array {
    this.need(n, what);
    const v = this.b.subarray(this.off, this.off + n);
    this.off += n;
    return v;
  }
  get remaining(): number {
    return this.b.length - this.off;
  }
}

// ---------------------------------------------------------------------------------------------
// Field bounds, checked on bytes (no bigint on the hot path).

/** The BN254 scalar field modulus r, 32 big-endian bytes: every Poseidon input must be below it. */
export const BN254_R = bigintToBe(21888242871839275222246405745257275088548364400416034343698204186575808495617n);

/** True when the 32 big-endian bytes are < r. */
export function inField(b: Uint8Array): boolean {
  return compareBytes(b, BN254_R) < 0;
}

/** True when the 32 big-endian bytes are < 2^248 (addresses: the first byte is zero). */
export function below248(b: Uint8Array): boolean {
  return b.length === 32 && b[0] === 0;
}
