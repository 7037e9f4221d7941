/**
 * JSON in and out without losing u64 precision: `JSON.parse` turns 2^53+1 into 2^53 silently, and
 * compression responses carry u64 `lamports`/`amount`. One parser, two ways to give a long integer
 * back: as a `bigint` (the rpc client's `parseJson`) or as its decimal string (the Merkle engine's
 * `parseJsonLossless`, whose field decoders take decimal strings). Both make the one pass of
 * long-integers.ts first, which also refuses numbers and nesting over the JSON limits; a text without a
 * long integer then goes to a plain `JSON.parse`. `stringifyJson` writes bigints as bare JSON integers.
 */
import { randomBytes } from 'node:crypto';
import { longIntegers } from './long-integers.js';
import { MAX_NUMBER_CHARS } from './tape-format.js';

/**
 * How an integer literal of 16 or more digits comes back:
 * - `'bigint'`: as a `bigint` when `Number` would round it (above 2^53), else as the usual number;
 * - `'string'`: always as its decimal string, rounding or not (the literal quoted in place).
 */
export type LongIntegers = 'bigint' | 'string';

// Large integers ride through JSON.parse as strings holding this marker. Random per process, so a
// string a server (or a caller, in stringifyJson) sends can never pass for one.
const MARK_ID = randomBytes(6).toString('hex');
const BIG_MARK = `\u0000cairn-bigint-${MARK_ID}:`;
const MARKED_LIMIT = BIG_MARK.length + MAX_NUMBER_CHARS;
const MARKED_JSON = new RegExp(`"\\\\u0000cairn-bigint-${MARK_ID}:(-?\\d+)"`, 'g');

/**
 * Parse JSON, keeping every integer exact: long ones come back as `as` says. Throws `SyntaxError` on
 * bad JSON, and `CairnError` `INPUT_TOO_LARGE` (context: field `json`, the limit, the offset) for a
 * number longer than 40 characters or nesting deeper than 1,024 levels.
 *
 * @example
 * parseLossless('{"amount":18446744073709551615}', 'bigint') // { amount: 18446744073709551615n }
 * parseLossless('{"amount":18446744073709551615}', 'string') // { amount: '18446744073709551615' }
 */
export function parseLossless(text: string, as: LongIntegers): unknown {
  const found = longIntegers(text);
  // No 16-digit number (the usual case): nothing can be lost.
  if (found === null) return JSON.parse(text) as unknown;
  return as === 'string' ? parseQuoted(text, found) : parseMarked(text, found);
}

/** Every long literal quoted: the string decoders downstream take it as it was written. */
function parseQuoted(text: string, found: number[]): unknown {
  let out = '';
  let last = 0;
  for (let k = 0; k < found.length; k += 2) {
    out += text.slice(last, found[k]) + '"' + text.slice(found[k], found[k + 1]) + '"';
    last = found[k + 1]!;
  }
  return JSON.parse(out + text.slice(last)) as unknown;
}

/**
 * Only the literals `Number` would round become marked strings, turned into bigints by the reviver: a
 * 16-digit integer below 2^53 stays a number, and a string the server sent stays a string.
 */
function parseMarked(text: string, found: number[]): unknown {
  let out = '';
  let last = 0;
  for (let k = 0; k < found.length; k += 2) {
    const lit = text.slice(found[k], found[k + 1]);
    if (Number.isSafeInteger(Number(lit))) continue;
    // the marker goes in escaped: a raw U+0000 inside a JSON string literal is invalid
    out += text.slice(last, found[k]) + '"\\u0000cairn-bigint-' + MARK_ID + ':' + lit + '"';
    last = found[k + 1]!;
  }
  if (last === 0) return JSON.parse(text) as unknown;
  return JSON.parse(out + text.slice(last), (_k, v) =>
    (typeof v === 'string' && v.length <= MARKED_LIMIT && v.startsWith(BIG_MARK) ? BigInt(v.slice(BIG_MARK.length)) : v),
  ) as unknown;
}

/**
 * `JSON.stringify` that writes `bigint` as a JSON integer instead of throwing, and `Uint8Array`
 * as a plain array of numbers.
 *
 * @example
 * stringifyJson({ lamports: 2n ** 64n - 1n }) // '{"lamports":18446744073709551615}'
 */
export function stringifyJson(value: unknown): string {
  let sawBig = false;
  const text = JSON.stringify(value, (_k, v) => {
    if (typeof v === 'bigint') {
      sawBig = true;
      return BIG_MARK + v.toString();
    }
    if (v instanceof Uint8Array) return Array.from(v);
    return v;
  });
  if (text === undefined) return 'null';
  return sawBig ? text.replace(MARKED_JSON, '$1') : text;
}
