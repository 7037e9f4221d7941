/**
 * The worker's side of a packed batch: `RecordReader` reads a record's ops in the order they were
 * written and decodes them (base58 included) right before verifying.
 */
import { Buffer } from 'node:buffer';
import { InputError, PackedFieldError } from '../../errors/index.js';
import { b58Decode32Bytes } from '../../solana/index.js';
import { b58Field } from '../fields.js';
import { HEADER, TAG_NAMES, T_ARR, T_B32, T_B58_RUN, T_BIGINT, T_F64, T_FAIL, T_FALSE, T_JSON, T_NODES, T_NODES32, T_NODES8, T_NONE, T_NULL, T_OBJ, T_PROJ, T_PSTR, T_STR, T_TRUE, T_U32, T_U64, T_U8 } from './format.js';
import { keysOf, type Projection } from './projection.js';
import { utf8Decoder, utf8Slice } from './utf8.js';

/** A copy of b[x..y) (Buffer's `slice` would be a view into a batch buffer that gets reused). */
const copyOf = (b: Uint8Array, x: number, y: number): Uint8Array => {
  const out = new Uint8Array(y - x);
  out.set(b.subarray(x, y));
  return out;
};

/**
 * Reads the records of a packed batch, one op at a time, in the order they were written. A FAIL op
 * throws its `PackedFieldError`; a malformed record throws `InputError` naming what was being read.
 *
 * @example
 * const r = new RecordReader(new Uint8Array(buf));
 * for (let i = 0; i < r.count; i++) { r.select(i); const root = r.b58('root'); … }
 */
export class RecordReader {
  private readonly b: Uint8Array;
  private readonly dv: DataView;
  private pos = 0;
  private end = 0;
  /** Records in the batch. */
  readonly count: number;

  constructor(batch: ArrayBuffer | Uint8Array) {
    const u8 = batch instanceof Uint8Array ? batch : new Uint8Array(batch);
    // A Buffer view (no copy), for its fast UTF-8 slicing.
    this.b = Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
    this.dv = new DataView(this.b.buffer, this.b.byteOffset, this.b.byteLength);
    if (this.b.length < 8) throw new InputError('batch', `expected at least 8 bytes, got ${this.b.length}`);
    const n = this.dv.getUint32(0, true);
    if (HEADER(n) > this.b.length) throw new InputError('batch', `header claims ${n} records in ${this.b.length} bytes`);
    this.count = n;
  }

  /** The batch's bytes (a view, no copy): for kernels that read its records where they lie. */
  get bytes(): Uint8Array {
    return this.b;
  }

  /** Read record `i` next. */
  select(i: number): this {
    const a = this.dv.getUint32(4 + 4 * i, true);
    const z = this.dv.getUint32(8 + 4 * i, true);
    if (a < HEADER(this.count) || z < a || z > this.b.length) throw new InputError('batch', `record ${i} out of bounds`);
    this.pos = a;
    this.end = z;
    return this;
  }

  private need(k: number, what: string): void {
    if (this.pos + k > this.end) throw new InputError('record', `truncated record reading ${what}`);
  }

  private tag(want: number, what: string): void {
    this.need(1, what);
    const t = this.b[this.pos++]!;
    if (t === want) return;
    if (t === T_FAIL) {
      this.need(4, what);
      const len = this.dv.getUint32(this.pos, true);
      this.need(4 + len, what);
      throw new PackedFieldError(utf8Decoder.decode(this.b.subarray(this.pos + 4, this.pos + 4 + len)));
    }
    throw new InputError('record', `expected a ${TAG_NAMES[want]} reading ${what}, found tag ${t}`);
  }

  private len32(what: string): number {
    this.need(4, what);
    const v = this.dv.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u8(what = 'u8'): number {
    this.tag(T_U8, what);
    this.need(1, what);
    return this.b[this.pos++]!;
  }

  u32(what = 'u32'): number {
    this.tag(T_U32, what);
    return this.len32(what);
  }

  u64(what = 'u64'): bigint {
    this.tag(T_U64, what);
    this.need(8, what);
    const v = this.dv.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** The 8 bytes of a u64 as written (little-endian), without going through a bigint. */
  u64Bytes(what = 'u64'): Uint8Array {
    this.tag(T_U64, what);
    this.need(8, what);
    const v = this.b.slice(this.pos, this.pos + 8);
    this.pos += 8;
    return v;
  }

  /** Base58 field of 32 bytes, decoded here; a bad value throws the `b58Field` error naming `field`. */
  b58(field: string): Uint8Array {
    if (this.pos < this.end && this.b[this.pos] === T_B32) {
      this.pos++;
      this.need(32, field);
      this.pos += 32;
      return copyOf(this.b, this.pos - 32, this.pos);
    }
    this.tag(T_STR, field);
    const len = this.len32(field);
    this.need(len, field);
    const out = new Uint8Array(32);
    const a = this.pos;
    this.pos += len;
    if (b58Decode32Bytes(this.b, a, a + len, out, 0)) return out;
    return b58Field(utf8Decoder.decode(this.b.subarray(a, a + len)), field);
  }

  /** An optional base58 field: null when it was absent. */
  optB58(field: string): Uint8Array | null {
    if (this.pos < this.end && this.b[this.pos] === T_NONE) {
      this.pos++;
      return null;
    }
    return this.b58(field);
  }

  /**
   * A `BatchWriter.b58Run` op, decoded: fields `a` and `b` (32 bytes each) and the list (concatenated),
   * with the errors `b58` and `nodes` give, in the same order; null (nothing read) when the next op is
   * something else.
   */
  b58Run(a: string, b: string, list: string): [Uint8Array, Uint8Array, Uint8Array] | null {
    if (this.pos >= this.end || this.b[this.pos] !== T_B58_RUN) return null;
    this.pos++;
    this.need(1, a);
    const count = this.b[this.pos++]!;
    if (count < 2) throw new InputError('record', `a base58 run of ${count} fields reading ${a}`);
    this.need(count, a);
    const lens = this.pos;
    this.pos += count;
    const one = (j: number, out: Uint8Array, at: number, field: string): void => {
      const len = this.b[lens + j]!;
      this.need(len, field);
      const x = this.pos;
      this.pos += len;
      if (!b58Decode32Bytes(this.b, x, x + len, out, at)) out.set(b58Field(utf8Decoder.decode(this.b.subarray(x, x + len)), field), at);
    };
    const first = new Uint8Array(32);
    one(0, first, 0, a);
    const second = new Uint8Array(32);
    one(1, second, 0, b);
    const nodes = new Uint8Array(32 * (count - 2));
    for (let j = 2; j < count; j++) one(j, nodes, 32 * (j - 2), `${list}[${j - 2}]`);
    return [first, second, nodes];
  }

  /** A node list, decoded and concatenated (32 bytes each), as `nodesField` returns it. */
  nodes(field: string): Uint8Array {
    if (this.pos < this.end && this.b[this.pos] === T_NODES32) {
      this.pos++;
      const k = this.len32(field);
      this.need(32 * k, field);
      this.pos += 32 * k;
      return copyOf(this.b, this.pos - 32 * k, this.pos);
    }
    const short = this.pos < this.end && this.b[this.pos] === T_NODES8;
    this.tag(short ? T_NODES8 : T_NODES, field);
    const k = this.len32(field);
    const width = short ? 1 : 4;
    this.need(width * k, field);
    const lens = this.pos;
    this.pos += width * k;
    const out = new Uint8Array(32 * k);
    for (let j = 0; j < k; j++) {
      const len = short ? this.b[lens + j]! : this.dv.getUint32(lens + 4 * j, true);
      this.need(len, field);
      const a = this.pos;
      this.pos += len;
      if (!b58Decode32Bytes(this.b, a, a + len, out, 32 * j)) out.set(b58Field(utf8Decoder.decode(this.b.subarray(a, a + len)), `${field}[${j}]`), 32 * j);
    }
    // A list cut short by an element that is not a string ends in that element's FAIL op.
    if (this.pos < this.end && this.b[this.pos] === T_FAIL) this.tag(T_NODES, field);
    return out;
  }

  /** A value written by `BatchWriter.projected` with the same projection, rebuilt. */
  projected(p: Projection, what: string): unknown {
    this.tag(T_PROJ, what);
    this.need(8, what);
    const head = this.pos - 1;
    const poolAt = head + this.dv.getUint32(this.pos, true);
    const poolEnd = poolAt + this.dv.getUint32(this.pos + 4, true);
    if (poolAt < this.pos + 8 || poolEnd > this.end) throw new InputError('record', `bad string pool reading ${what}`);
    this.pos += 8;
    this.sp = poolAt;
    const end = this.end;
    this.end = poolAt; // the ops end where the pool starts
    try {
      const v = this.projectedValue(p, what, poolEnd);
      if (this.sp !== poolEnd) throw new InputError('record', `string pool not consumed reading ${what}`);
      return v;
    } finally {
      this.end = end;
      this.pos = poolEnd;
    }
  }

  /** Cursor in the string pool of the projected value being read. */
  private sp = 0;

  private projectedValue(p: Projection, what: string, poolEnd: number): unknown {
    this.need(1, what);
    const t = this.b[this.pos]!;
    switch (t) {
      case T_OBJ: {
        if (p === true || Array.isArray(p)) throw new InputError('record', `unexpected object reading ${what}`);
        this.pos++;
        const obj = p as { readonly [key: string]: Projection };
        const o: Record<string, unknown> = {};
        for (const k of keysOf(obj)) {
          const v = this.projectedValue(obj[k]!, k, poolEnd);
          if (v !== undefined) o[k] = v;
        }
        return o;
      }
      case T_ARR: {
        if (!Array.isArray(p)) throw new InputError('record', `unexpected array reading ${what}`);
        this.pos++;
        const n = this.len32(what);
        if (n > this.end - this.pos) throw new InputError('record', `truncated record reading ${what}`);
        const a: unknown[] = new Array(n);
        for (let i = 0; i < n; i++) a[i] = this.projectedValue(p[0] as Projection, what, poolEnd);
        return a;
      }
      case T_PSTR: {
        this.pos++;
        const len = this.len32(what);
        if (this.sp + len > poolEnd) throw new InputError('record', `string pool overrun reading ${what}`);
        this.sp += len;
        return utf8Slice(this.b, this.sp - len, this.sp);
      }
      case T_F64:
        this.pos++;
        this.need(8, what);
        this.pos += 8;
        return this.dv.getFloat64(this.pos - 8, true);
      case T_NULL:
      case T_TRUE:
      case T_FALSE:
      case T_NONE:
        this.pos++;
        return t === T_NULL ? null : t === T_TRUE ? true : t === T_FALSE ? false : undefined;
      case T_BIGINT: {
        this.pos++;
        const len = this.len32(what);
        this.need(len, what);
        this.pos += len;
        return BigInt(utf8Decoder.decode(this.b.subarray(this.pos - len, this.pos)));
      }
      default:
        return this.json(what); // T_JSON, or T_FAIL / a bad tag raised there
    }
  }

  json(what = 'json'): unknown {
    this.tag(T_JSON, what);
    const len = this.len32(what);
    this.need(len, what);
    const text = utf8Decoder.decode(this.b.subarray(this.pos, this.pos + len));
    this.pos += len;
    return JSON.parse(text) as unknown;
  }
}
