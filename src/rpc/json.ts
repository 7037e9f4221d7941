/**
 * JSON in and out of the wire without losing u64 precision. `JSON.parse` turns 2^53+1 into 2^53
 * silently; compression responses carry u64 `lamports`/`amount`. `parseJson` therefore returns
 * integers beyond `Number.MAX_SAFE_INTEGER` as `bigint` and everything else as usual. One pass over the
 * text (merkle/json/long-integers.ts) finds the integers that may be large and refuses numbers and
 * nesting over the JSON limits a hostile server could stall the event loop with; a text without a
 * large integer then goes to a plain `JSON.parse`. `stringifyJson` writes bigints as bare JSON integers.
 */
import { randomBytes } from 'node:crypto';
import { longIntegers } from '../merkle/json/long-integers.js';
import { MAX_NUMBER_CHARS } from '../merkle/json/tape-format.js';

// Large integers ride through JSON.parse as strings holding this marker. Random per process, so a
// string a server (or a caller, in stringifyJson) sends can never pass for one.
const MARK_ID = randomBytes(6).toString('hex');
const BIG_MARK = `\u0000cairn-bigint-${MARK_ID}:`;
const MARKED_LIMIT = BIG_MARK.length + MAX_NUMBER_CHARS;
const MARKED_JSON = new RegExp(`"\\\\u0000cairn-bigint-${MARK_ID}:(-?\\d+)"`, 'g');

/**
 * Parse JSON, giving integers above 2^53 back as `bigint`. Throws `SyntaxError` on bad JSON, and
 * `CairnError` `INPUT_TOO_LARGE` (context: field `json`, the limit, the offset) for a number longer
 * than 40 characters or nesting deeper than 1,024 levels.
 *
 * @example
 * parseJson('{"amount":18446744073709551615}') // { amount: 18446744073709551615n }
 */
export function parseJson(text: string): unknown {
  const found = longIntegers(text);
  if (found === null) return JSON.parse(text);
  let out = '';
  let last = 0;
  for (let k = 0; k < found.length; k += 2) {
    const lit = text.slice(found[k], found[k + 1]);
    if (Number.isSafeInteger(Number(lit))) continue;
    // the marker goes in escaped: a raw U+0000 inside a JSON string literal is invalid
    out += text.slice(last, found[k]) + '"\\u0000cairn-bigint-' + MARK_ID + ':' + lit + '"';
    last = found[k + 1]!;
  }
  if (last === 0) return JSON.parse(text);
  return JSON.parse(out + text.slice(last), (_k, v) =>
    typeof v === 'string' && v.length <= MARKED_LIMIT && v.startsWith(BIG_MARK) ? BigInt(v.slice(BIG_MARK.length)) : v,
  );
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
