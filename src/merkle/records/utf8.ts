/**
 * UTF-8 between strings and batch bytes through Buffer's own `utf8Write` / `utf8Slice`, the methods
 * `write` and `toString` end in, without their argument juggling (it costs more than the copy here).
 */
import { Buffer } from 'node:buffer';

export type Utf8Writable = Buffer & { utf8Write?: (s: string, offset: number, length?: number) => number };

/**
 * `buf.write(s, offset)` for UTF-8 without its argument juggling, which costs more than copying a
 * 44-character node here. `utf8Write` is the method `write` ends in (on Buffer.prototype since the
 * first Node releases); `write` stays the fallback.
 */
export function utf8Write(buf: Utf8Writable, s: string, offset: number): number {
  return buf.utf8Write ? buf.utf8Write(s, offset, buf.length - offset) : buf.write(s, offset);
}

export const utf8Decoder = new TextDecoder();

type Utf8Sliceable = Buffer & { utf8Slice?: (start: number, end: number) => string };

/** UTF-8 text of `b[a..z)`: Buffer's `utf8Slice` (what `toString` ends in) when present. */
export function utf8Slice(b: Uint8Array, a: number, z: number): string {
  const nb = (b instanceof Buffer ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength)) as Utf8Sliceable;
  return nb.utf8Slice ? nb.utf8Slice(a, z) : utf8Decoder.decode(b.subarray(a, z));
}
