/**
 * `longIntegers`: the one pass over a JSON string that cairn's lossless parser (lossless.ts, behind
 * rpc/json.ts `parseJson` and merkle/input.ts) makes before `JSON.parse`. It finds the
 * integer literals `JSON.parse` could round (16 digits or more) and holds the text to the scanners'
 * limits: a number longer than MAX_NUMBER_CHARS or nesting deeper than MAX_DEPTH throws
 * `INPUT_TOO_LARGE`, before anything turns megabytes of digits into a bigint or a reviver recurses
 * 100,000 levels deep.
 *
 * It checks no other grammar: `JSON.parse` does. It only has to agree with it on what a value is, and
 * reports integers in value position alone (after ':', '[', an array's ',' or at the start), so
 * quoting them can never make an invalid text (a number as a key, leading zeros) valid. String bodies
 * are skipped with `indexOf`. A short text (an item, a small response) is settled by one regular
 * expression; a long one costs ~0.8 ms per MB on a quiet host, a third to a half of `JSON.parse`.
 */
import { numberTooLong, tooDeep } from './limit-error.js';
import { MAX_DEPTH, MAX_NUMBER_CHARS } from './tape-format.js';

/** Digits from which an integer literal may not survive `JSON.parse` exactly. */
const LONG_DIGITS = 16;

/**
 * Where a number of 16 or more characters starts (in valid JSON a number follows ':', ',', '[' or the
 * start): no long integer and no number over the limit without it. Delimiters first, so the digits all
 * through base58 strings cost nothing (~0.7 µs on a 1.3 KB proof, a third of the full pass).
 */
const NUMBER_16 = /(?:^|[:,[])[ \t\r\n]*-?\d[0-9.eE+-]{15}/;
/** Shorter texts cannot nest deeper than MAX_DEPTH and still be JSON (two brackets per level). */
const SHALLOW = 2 * (MAX_DEPTH + 1);

/** The opening bracket of each open container, by depth (one pass at a time: the parsers are synchronous). */
const open = new Uint8Array(MAX_DEPTH + 1);

/**
 * The integer literals of 16 or more digits in value position, as [start, end) character offsets one
 * after another, or `null` when there are none (or a string is unterminated: `JSON.parse` says so).
 * Throws `INPUT_TOO_LARGE` (`limit-error.ts`) for a number or nesting over the limits.
 *
 * @example
 * longIntegers('{"a":12345678901234567890,"b":1}'); // [5, 25]
 */
export function longIntegers(text: string): number[] | null {
  const n = text.length;
  // The usual item or small response: one regular expression settles it.
  if (n < SHALLOW && !NUMBER_16.test(text)) return null;
  let found: number[] | null = null;
  let depth = 0;
  // The last character outside strings and whitespace (0: none yet): where a number may be a value.
  let prev = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: on to the next quote that an even run of backslashes precedes.
      let j = text.indexOf('"', i + 1);
      for (;;) {
        if (j < 0) return null;
        let k = j - 1;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((j - k) % 2 === 1) break;
        j = text.indexOf('"', j + 1);
      }
      i = j + 1;
      prev = c;
      continue;
    }
    if (c === 0x5b || c === 0x7b) {
      if (depth === MAX_DEPTH) throw tooDeep(i, 'character');
      open[++depth] = c;
      prev = c;
      i++;
      continue;
    }
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      const start = i;
      // Plain: digits after an optional leading minus, nothing else (no fraction, no exponent).
      let plain = true;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d >= 0x30 && d <= 0x39) i++;
        else if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) {
          plain = false;
          i++;
        } else break;
      }
      if (i - start > MAX_NUMBER_CHARS) throw numberTooLong(start, i - start, text.slice(start, start + 33), 'character');
      const first = c === 0x2d ? start + 1 : start;
      if (plain && i - first >= LONG_DIGITS && text.charCodeAt(first) !== 0x30 && isValuePosition(prev, depth)) (found ??= []).push(start, i);
      prev = 0x30;
      continue;
    }
    if (c > 0x20) {
      if (c === 0x5d || c === 0x7d) depth = depth > 0 ? depth - 1 : 0;
      prev = c;
    }
    i++;
  }
  return found;
}

/** True when a literal after `prev` (the last significant character) is a value, not a key or junk. */
function isValuePosition(prev: number, depth: number): boolean {
  return prev === 0 || prev === 0x3a || prev === 0x5b || (prev === 0x2c && open[depth] === 0x5b);
}
