/**
 * `jsonShape`: how deep a JSON text nests and how many elements its top-level array has, read from
 * the raw bytes before `JSON.parse` builds anything. The devnet refuses a too-deep body or a too-long
 * batch from this alone, so a 4 MB `[0,0,…]` never becomes two million calls and a 100k-deep id is
 * never materialised (nor echoed into a `JSON.stringify` that overflows the stack).
 *
 * It does not validate JSON: `JSON.parse` still does that afterwards. Bracket, quote and backslash
 * bytes never occur inside a UTF-8 multi-byte sequence, so scanning bytes is exact for valid UTF-8.
 */

export interface JsonShape {
  /** The text nests deeper than the depth asked for (the scan stopped there). */
  tooDeep: boolean;
  /** Elements of the top-level array; 0 when the text is not an array. */
  elements: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Index of the quote closing a string whose body starts at `from` (`bytes.length` if none). */
function stringEnd(bytes: Uint8Array, from: number): number {
  for (let at = bytes.indexOf(QUOTE, from); at >= 0; at = bytes.indexOf(QUOTE, at + 1)) {
    // escaped when an odd number of backslashes precede it
    let k = at - 1;
    while (k >= from && bytes[k] === BACKSLASH) k--;
    if ((at - 1 - k) % 2 === 0) return at;
  }
  return bytes.length;
}

/**
 * Scan `bytes` once; stops early as soon as nesting passes `maxDepth`.
 *
 * @example
 * jsonShape(Buffer.from('[0,[1],{"a":"]"}]'), 64) // { tooDeep: false, elements: 3 }
 */
export function jsonShape(bytes: Uint8Array, maxDepth: number): JsonShape {
  let depth = 0;
  let topArray: boolean | null = null;
  let commas = 0;
  let sawElement = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    topArray ??= c === OPEN_ARRAY;
    if (depth === 1 && c !== CLOSE_ARRAY && c !== COMMA) sawElement = true;
    if (c === QUOTE) i = stringEnd(bytes, i + 1);
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > maxDepth) return { tooDeep: true, elements: 0 };
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
    else if (c === COMMA && depth === 1) commas++;
  }
  return { tooDeep: false, elements: topArray && sawElement ? commas + 1 : 0 };
}
