/**
 * The main thread's side of a packed batch: `BatchWriter` copies items' fields into one framed
 * `ArrayBuffer` (records of tagged ops, see format.ts) that crosses to a worker as a transferable.
 */
import { Buffer } from 'node:buffer';
import { CairnError, ErrorCodes, InputError } from '../../errors/index.js';
import { b58Field, nodesField } from '../fields.js';
import { HEADER, T_B58_RUN, T_BIGINT, T_F64, T_FALSE, T_FAIL, T_JSON, T_NODES, T_NODES8, T_NONE, T_NULL, T_OBJ, T_ARR, T_PROJ, T_PSTR, T_STR, T_TRUE, T_U32, T_U64, T_U8 } from './format.js';
import { compiledProjection, type Projection, type ProjectionPool } from './projection.js';
import { utf8Write } from './utf8.js';

/**
 * Packs `n` records straight into one framed batch (the `encodeBatch` layout), ready to transfer.
 * Call `begin()` before each record, the field ops, then `finish()` once all `n` are written.
 *
 * @example
 * const w = new BatchWriter(1);
 * w.begin(); w.b58(item.root, 'root'); w.nodes(item.proof, 'proof'); w.u32(u32Value(item.leafIndex, 'leafIndex'));
 * pool.run('account-proof', w.finish(), 1);
 */
export class BatchWriter {
  private ab: ArrayBuffer;
  private buf: Buffer;
  private pos: number;
  private i = 0;

  /**
   * @param n records the batch will hold
   * @param bytesPerItem first guess of a record's size (the buffer grows as needed)
   * @param reuse a spent batch buffer to write into when it is large enough (fresh memory costs page
   *   faults on every batch; buffers coming back from the workers do not)
   */
  constructor(
    private readonly n: number,
    bytesPerItem = 256,
    reuse?: ArrayBuffer,
  ) {
    const want = HEADER(n) + Math.max(16, n * bytesPerItem);
    this.ab = reuse && reuse.byteLength >= want ? reuse : new ArrayBuffer(want);
    this.buf = Buffer.from(this.ab);
    this.pos = HEADER(n);
  }

  /** Bytes written so far (header included). */
  get length(): number {
    return this.pos;
  }

  private ensure(k: number): void {
    if (this.pos + k <= this.ab.byteLength) return;
    const next = new ArrayBuffer(Math.max(this.ab.byteLength * 2, this.pos + k));
    new Uint8Array(next).set(new Uint8Array(this.ab, 0, this.pos));
    this.ab = next;
    this.buf = Buffer.from(next);
  }

  private put32(at: number, v: number): void {
    const b = this.buf;
    b[at] = v & 255;
    b[at + 1] = (v >>> 8) & 255;
    b[at + 2] = (v >>> 16) & 255;
    b[at + 3] = v >>> 24;
  }

  /** Start the next record. */
  begin(): void {
    if (this.i >= this.n) throw writerBug(`BatchWriter: more than ${this.n} records`);
    this.put32(4 + 4 * this.i++, this.pos);
  }

  u8(v: number): void {
    this.ensure(2);
    this.buf[this.pos] = T_U8;
    this.buf[this.pos + 1] = v;
    this.pos += 2;
  }

  u32(v: number): void {
    this.ensure(5);
    this.buf[this.pos] = T_U32;
    this.put32(this.pos + 1, v);
    this.pos += 5;
  }

  /** A u64 given as a safe integer or a bigint below 2^64. */
  u64(v: number | bigint): void {
    this.ensure(9);
    this.buf[this.pos] = T_U64;
    if (typeof v === 'number') {
      this.put32(this.pos + 1, v >>> 0);
      this.put32(this.pos + 5, Math.floor(v / 4294967296));
    } else {
      this.buf.writeBigUInt64LE(v, this.pos + 1);
    }
    this.pos += 9;
  }

  /** An absent optional field. */
  none(): void {
    this.ensure(1);
    this.buf[this.pos++] = T_NONE;
  }

  private text(tag: number, s: string): void {
    this.ensure(5 + 3 * s.length);
    this.buf[this.pos] = tag;
    const written = utf8Write(this.buf, s, this.pos + 5);
    this.put32(this.pos + 1, written);
    this.pos += 5 + written;
  }

  /** A base58 field: its string as bytes, or (not a string) the parser's error for it, thrown now. */
  b58(value: unknown, field: string): void {
    if (typeof value !== 'string') b58Field(value, field);
    this.text(T_STR, value as string);
  }

  /**
   * Base58 fields `a` and `b`, then the elements of `list`, as one run of text (`T_B58_RUN`): one
   * string write where `b58`, `b58` and `nodes` make three and a `join`. A parsed asset proof cost the
   * calling thread ~1.3 µs to pack that way, ~0.6–0.9 µs this way (`''` + each string, then one UTF-8
   * write: V8's `join` alone took ~0.7 µs for a proof's ~17 nodes). Returns false, with nothing
   * written, unless all are ASCII strings shorter than 256 characters and the list has at most 253
   * elements: the caller then writes them one by one, which names what is wrong.
   */
  b58Run(a: unknown, b: unknown, list: unknown): boolean {
    if (typeof a !== 'string' || typeof b !== 'string' || !Array.isArray(list) || list.length > 253) return false;
    const k = list.length;
    let chars = a.length + b.length;
    let longest = a.length > b.length ? a.length : b.length;
    let text = a + b;
    for (let j = 0; j < k; j++) {
      const v: unknown = list[j];
      if (typeof v !== 'string') return false;
      chars += v.length;
      if (v.length > longest) longest = v.length;
      text += v;
    }
    if (longest > 255) return false;
    // Room for the worst case (3 UTF-8 bytes per character), so that a full write always fits and
    // `written === chars` says exactly "all ASCII".
    this.ensure(2 + (k + 2) + 3 * chars);
    const buf = this.buf;
    const start = this.pos;
    buf[start] = T_B58_RUN;
    buf[start + 1] = k + 2;
    buf[start + 2] = a.length;
    buf[start + 3] = b.length;
    for (let j = 0; j < k; j++) buf[start + 4 + j] = (list[j] as string).length;
    const at = start + 4 + k;
    // Bytes past `pos` are not part of any record until it moves: a declined write leaves nothing.
    if (utf8Write(buf, text, at) !== chars) return false;
    this.pos = at + chars;
    return true;
  }

  /**
   * Room for a whole record of at most `maxBytes` that other code (a native packer) writes at
   * `length` in the returned buffer, then hands over with `commit(end)`; if it declines, nothing is
   * committed and the caller writes the record another way. (Two calls rather than one taking a
   * callback: a closure per record was a worker's largest allocation.)
   */
  reserve(maxBytes: number): Uint8Array {
    if (this.i >= this.n) throw writerBug(`BatchWriter: more than ${this.n} records`);
    this.ensure(maxBytes);
    return this.buf;
  }

  /** Records written so far. */
  get records(): number {
    return this.i;
  }

  /**
   * `count` records written into `reserve`'s room from `length` on, one after another, ending at `end`,
   * their offsets put in the header by the same code (a native packer packing many items at once).
   */
  commitMany(count: number, end: number): void {
    if (count === 0) return;
    if (this.i + count > this.n) throw writerBug(`BatchWriter: more than ${this.n} records`);
    if (end < this.pos || end > this.ab.byteLength) throw writerBug(`BatchWriter: records cannot end at ${end}`);
    this.i += count;
    this.pos = end;
  }

  /** The record written into `reserve`'s room ends at `end`. */
  commit(end: number): void {
    if (this.i >= this.n) throw writerBug(`BatchWriter: more than ${this.n} records`);
    if (end < this.pos || end > this.ab.byteLength) throw writerBug(`BatchWriter: a record cannot end at ${end}`);
    this.put32(4 + 4 * this.i++, this.pos);
    this.pos = end;
  }

  /** A list of base58 nodes (`nodesField`'s input): strings copied in one pass, decoded by the worker. */
  nodes(value: unknown, field: string): void {
    if (!Array.isArray(value)) nodesField(value, field);
    const list = value as unknown[];
    let k = 0;
    let chars = 0;
    let longest = 0;
    for (; k < list.length; k++) {
      const v = list[k];
      if (typeof v !== 'string') break;
      chars += v.length;
      if (v.length > longest) longest = v.length;
    }
    this.ensure(5 + 4 * k + 3 * chars);
    const b = this.buf;
    this.put32(this.pos + 1, k);
    const lens = this.pos + 5;
    // One join and one copy for the common case; byte length = char length only when all is ASCII.
    const short = longest < 256;
    let at = lens + (short ? k : 4 * k);
    const written = k === 0 ? 0 : utf8Write(b, k === list.length ? list.join('') : list.slice(0, k).join(''), at);
    if (written === chars && short) {
      b[this.pos] = T_NODES8;
      for (let j = 0; j < k; j++) b[lens + j] = (list[j] as string).length;
      this.pos = at + written;
    } else {
      // Non-ASCII or very long strings (invalid nodes either way): each one's own UTF-8 length.
      b[this.pos] = T_NODES;
      at = lens + 4 * k;
      let p = at;
      for (let j = 0; j < k; j++) {
        const w = utf8Write(b, list[j] as string, p);
        this.put32(lens + 4 * j, w);
        p += w;
      }
      this.pos = p;
    }
    // The first element that is not a string: the parser's error for it.
    if (k < list.length) b58Field(list[k], `${field}[${k}]`);
  }

  /**
   * The parts of `value` that `p` lists (see `Projection`), each as a typed op: numbers as doubles,
   * strings as lengths whose bytes follow all the ops in one pool. A getAsset item holds ~25 strings,
   * and one `join` + one UTF-8 write for all of them costs the main thread a fraction of 25 writes.
   */
  projected(value: unknown, p: Projection): void {
    this.ensure(9);
    const head = this.pos;
    this.buf[head] = T_PROJ;
    this.pos += 9;
    const pool = (this.pool ??= { strings: [], lenAt: [], chars: 0, text: '' });
    pool.strings.length = 0;
    pool.lenAt.length = 0;
    pool.chars = 0;
    pool.text = '';
    compiledProjection(p)(this, value, pool);
    const start = this.pos;
    this.ensure(3 * pool.chars);
    let bytes = pool.strings.length === 0 ? 0 : utf8Write(this.buf, pool.text, start);
    pool.text = '';
    if (bytes !== pool.chars) {
      // Not all ASCII: byte lengths differ from char lengths, so write them one by one.
      bytes = 0;
      for (let j = 0; j < pool.strings.length; j++) {
        const w = utf8Write(this.buf, pool.strings[j]!, start + bytes);
        this.put32(pool.lenAt[j]!, w);
        bytes += w;
      }
    }
    this.put32(head + 1, start - head);
    this.put32(head + 5, bytes);
    this.pos = start + bytes;
  }

  private pool?: ProjectionPool;

  /** @internal (compiled projections) An array of `len` projected elements follows. */
  projArr(len: number): void {
    this.ensure(5);
    this.buf[this.pos] = T_ARR;
    this.put32(this.pos + 1, len);
    this.pos += 5;
  }

  /** @internal (compiled projections) An object's projected members follow. */
  projObj(): void {
    this.ensure(1);
    this.buf[this.pos++] = T_OBJ;
  }

  /** @internal (compiled projections) A value kept whole: a string into the pool, else a typed op. */
  projLeaf(value: unknown, pool: ProjectionPool): void {
    if (typeof value === 'string') {
      this.ensure(5);
      this.buf[this.pos] = T_PSTR;
      // the char length: the byte length too when the pool turns out all ASCII, else patched
      this.put32(this.pos + 1, value.length);
      pool.lenAt.push(this.pos + 1);
      pool.strings.push(value);
      pool.text += value;
      pool.chars += value.length;
      this.pos += 5;
      return;
    }
    this.whole(value);
  }

  /** One JSON value other than a string kept whole: a typed op for a primitive, else JSON text. */
  private whole(v: unknown): void {
    switch (typeof v) {
      case 'number':
        this.ensure(9);
        this.buf[this.pos] = T_F64;
        this.buf.writeDoubleLE(v, this.pos + 1);
        this.pos += 9;
        return;
      case 'boolean':
        this.ensure(1);
        this.buf[this.pos++] = v ? T_TRUE : T_FALSE;
        return;
      case 'bigint':
        this.text(T_BIGINT, v.toString());
        return;
      case 'undefined':
      case 'function':
      case 'symbol':
        // what JSON would drop
        this.none();
        return;
    }
    if (v === null) {
      this.ensure(1);
      this.buf[this.pos++] = T_NULL;
      return;
    }
    this.text(T_JSON, jsonText(v));
  }

  /** A value as JSON text (for kinds whose verifier reads the JSON itself). */
  json(value: unknown): void {
    this.text(T_JSON, jsonText(value));
  }

  /** The item failed here with this message (see `PackedFieldError`); write nothing after it. */
  fail(message: string): void {
    this.text(T_FAIL, message);
  }

  /** The framed batch (exactly `n` records must have been begun). */
  finish(): ArrayBuffer {
    if (this.i !== this.n) throw writerBug(`BatchWriter: ${this.i} of ${this.n} records written`);
    this.put32(0, this.n);
    this.put32(4 + 4 * this.n, this.pos);
    // The whole buffer travels (a transfer costs nothing whatever its size) and comes back for reuse.
    return this.ab;
  }
}

/**
 * JSON text of a parsed value, a bigint as its decimal digits in a string: the lossless parser makes
 * one of every integer past 2^53 (a u64 leaf id), and the field readers take decimal strings.
 */
function jsonText(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  try {
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  } catch (e) {
    throw new InputError('input', `an item cannot be written as JSON (${(e as Error).message.slice(0, 80)})`, { cause: e });
  }
}

// The writer's callers size a batch before packing it: running past `n` records or the buffer is cairn's bug.
function writerBug(message: string): CairnError {
  return new CairnError(ErrorCodes.INTERNAL, message, { context: { invariant: 'BatchWriter bounds' } });
}
