/**
 * The longest base58 text a value of a given size can have. bs58's decoder is quadratic in the text's
 * length (50,000 characters take ~3 s), so a field that holds n bytes must refuse a longer string
 * before decoding it: otherwise one request holds the thread (the devnet's, for every client).
 */

/** log(256) / log(58): base58 characters per byte of a value. */
const CHARS_PER_BYTE = Math.log(256) / Math.log(58);

/**
 * The length of the longest base58 text of an `n`-byte value (all bytes 0xff; a zero byte is one '1').
 *
 * @example
 * maxBase58Length(32); // 44: an address or a hash
 * maxBase58Length(64); // 88: a signature
 */
export function maxBase58Length(n: number): number {
  return Math.ceil(n * CHARS_PER_BYTE);
}

/**
 * True when `text` is longer than any base58 text of `n` bytes: refuse it without decoding.
 *
 * @example
 * if (base58TooLong(v, 32)) throw new InputError(field, `expected 32 bytes of base58, got ${v.length} characters`);
 */
export function base58TooLong(text: string, n: number): boolean {
  return text.length > maxBase58Length(n);
}
