/**
 * compact-u16 ("shortvec"), the length prefix of every list in a transaction: 7 bits per byte, low
 * bits first, the top bit set on every byte but the last; at most 3 bytes.
 */

/** Bytes the compact-u16 encoding of `n` takes. */
export function compactLen(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : 3;
}

/** Write `n` as compact-u16 into `buf` at `at`; returns the end offset. */
export function writeCompact(buf: Uint8Array, at: number, n: number): number {
  let rem = n;
  for (;;) {
    const elem = rem & 0x7f;
    rem >>= 7;
    if (rem === 0) {
      buf[at++] = elem;
      return at;
    }
    buf[at++] = elem | 0x80;
  }
}
