/**
 * JSON in and out of the wire without losing u64 precision. `JSON.parse` turns 2^53+1 into 2^53
 * silently; compression responses carry u64 `lamports`/`amount`. `parseJson` therefore returns
 * integers beyond `Number.MAX_SAFE_INTEGER` as `bigint` and everything else as usual. The fast path
 * (no 16-digit number anywhere in the text) is a plain `JSON.parse`; only bodies that might hold a
 * large integer pay for a scan that skips string literals. `stringifyJson` writes bigints as bare
 * JSON integers.
 */

const BIG_MARK = '\u0000cairn-bigint:';
// A JSON number outside a string always follows ':', ',', '[' or the start of the text (after optional
// white space). Digit runs inside strings (URIs, names) therefore never trigger the slow scan, and no
// real 16-digit number can slip past this filter.
const ANY_16_DIGITS = /\d{16}/;
const MAYBE_BIG = /(?:^|[:,[])[ \t\r\n]*-?\d{16}/;

/**
 * Parse JSON, giving integers above 2^53 back as `bigint`. Throws `SyntaxError` on bad JSON.
 *
 * @example
 * parseJson('{"amount":18446744073709551615}') // { amount: 18446744073709551615n }
 */
export function parseJson(text: string): unknown {
  // the unanchored scan is ~40% cheaper and almost always fails first
  if (!ANY_16_DIGITS.test(text) || !MAYBE_BIG.test(text)) return JSON.parse(text);
  const marked = markBigIntegers(text);
  if (marked === text) return JSON.parse(text);
  return JSON.parse(marked, (_k, v) =>
    typeof v === 'string' && v.startsWith(BIG_MARK) ? BigInt(v.slice(BIG_MARK.length)) : v,
  );
}

/** Quote unsafe integer literals (outside strings) with a marker the reviver turns into bigint. */
function markBigIntegers(text: string): string {
  let out = '';
  let last = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      // skip a string literal, honouring escapes
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 92 /* \ */) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
      continue;
    }
    if ((c >= 48 && c <= 57) || c === 45 /* - */) {
      const start = i;
      i++;
      while (i < n) {
        const d = text.charCodeAt(i);
        if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) i++;
        else break;
      }
      const lit = text.slice(start, i);
      if (lit.length >= 16 && /^-?\d+$/.test(lit) && !Number.isSafeInteger(Number(lit))) {
        // the marker goes in escaped: a raw U+0000 inside a JSON string literal is invalid
        out += text.slice(last, start) + '"\\u0000cairn-bigint:' + lit + '"';
        last = i;
      }
      continue;
    }
    i++;
  }
  return last === 0 ? text : out + text.slice(last);
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
  return sawBig ? text.replace(/"\\u0000cairn-bigint:(-?\d+)"/g, '$1') : text;
}
