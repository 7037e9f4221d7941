/**
 * The borsh writer Bubblegum's `MetadataArgs` need (little-endian, append-only, into one reusable
 * buffer), each write checking its value and naming the field it came from.
 */
import { InputError } from '../../../errors/index.js';
import { checkU64 } from './check-args.js';

const enc = new TextEncoder();

/**
 * Append-only borsh writer (little-endian), just what MetadataArgs needs. It writes into one growing
 * buffer that is reused from call to call (`reset`), so serialising metadata allocates nothing once
 * the buffer is large enough; `bytes()` is a view of it, valid until the next write.
 */
export class Borsh {
  private buf = new Uint8Array(512);
  /** Bytes written so far; setting it back (to a saved value) rewrites from there. */
  pos = 0;
  reset(): this {
    this.pos = 0;
    return this;
  }
  /** Make room for `n` more bytes (keeping what is written). */
  private reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const bigger = new Uint8Array(Math.max(2 * this.buf.length, this.pos + n));
    bigger.set(this.buf);
    this.buf = bigger;
  }
  str(s: string, field: string): this {
    if (typeof s !== 'string') throw new InputError(field, 'expected a string');
    const n = s.length;
    this.reserve(4 + 3 * n); // UTF-8 takes at most 3 bytes per UTF-16 code unit
    const at = this.pos + 4;
    const b = this.buf;
    // ASCII (names, symbols and URIs nearly always are) is copied char by char; anything else is
    // encoded by TextEncoder, which gives the same bytes (lone surrogates become U+FFFD).
    let len = 0;
    while (len < n) {
      const ch = s.charCodeAt(len);
      if (ch >= 0x80) break;
      b[at + len++] = ch;
    }
    if (len < n) len = enc.encodeInto(s, b.subarray(at)).written;
    this.u32(len);
    this.pos += len;
    return this;
  }
  u8(v: number, field = 'u8'): this {
    if (!Number.isInteger(v) || v < 0 || v > 255) throw new InputError(field, `expected 0..255, got ${String(v)}`);
    this.reserve(1);
    this.buf[this.pos++] = v;
    return this;
  }
  u16(v: number, field: string): this {
    if (!Number.isInteger(v) || v < 0 || v > 0xffff) throw new InputError(field, `expected 0..65535, got ${String(v)}`);
    this.reserve(2);
    this.buf[this.pos++] = v & 0xff;
    this.buf[this.pos++] = v >>> 8;
    return this;
  }
  /** A u32 (lengths and u64 halves: the caller knows it is one). */
  u32(v: number): this {
    this.reserve(4);
    const b = this.buf;
    b[this.pos++] = v & 0xff;
    b[this.pos++] = (v >>> 8) & 0xff;
    b[this.pos++] = (v >>> 16) & 0xff;
    b[this.pos++] = v >>> 24;
    return this;
  }
  u64(v: bigint, field: string): this {
    checkU64(v, field);
    return this.u32(Number(v & 0xffffffffn)).u32(Number(v >> 32n));
  }
  bool(v: boolean, field: string): this {
    if (typeof v !== 'boolean') throw new InputError(field, 'expected a boolean');
    return this.u8(v ? 1 : 0);
  }
  optU8(v: number | null, field: string): this {
    return v === null || v === undefined ? this.u8(0) : this.u8(1).u8(v, field);
  }
  /** `src[start..end]` as it is. */
  raw(src: Uint8Array, start = 0, end = src.length): this {
    this.reserve(end - start);
    for (let i = start; i < end; i++) this.buf[this.pos++] = src[i]!;
    return this;
  }
  /** What is written: a view of the scratch buffer, valid until the next write. */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}
