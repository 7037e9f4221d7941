/**
 * The layout of a JSON structure tape (shared by the JS scanner, native/json_scan.c and json-tape.ts).
 * Every value, and every object key, is one entry of four u32, in document order:
 *
 *   [0] type (bits 0–3) | F_ESCAPED (bit 7: a string or key holding a backslash escape) | depth << 8
 *   [1] first byte (a string's opening quote)
 *   [2] end byte, exclusive (after a string's closing quote, a container's closing bracket)
 *   [3] the index of the entry after this value's subtree — for a key, after its value's subtree —
 *       so siblings are walked by jumping, and children of entry e are e+1 … next(e)−1.
 *
 * A key entry comes right before its value's entry, at the same depth.
 */
export const ENTRY = 4;
export const TYPE_MASK = 0x0f;
export const F_ESCAPED = 0x80;
/** An object skimmed, not scanned (json_scan.h): one entry, no children on the tape, grammar unchecked. */
export const F_SKIMMED = 0x40;
export const T_OBJECT = 1;
export const T_ARRAY = 2;
export const T_STRING = 3;
export const T_NUMBER = 4;
export const T_TRUE = 5;
export const T_FALSE = 6;
export const T_NULL = 7;
export const T_KEY = 8;
/** Containers nested deeper than this are refused (the scanner's stack is fixed). */
export const MAX_DEPTH = 1024;
/**
 * Number literals longer than this many characters (sign, fraction and exponent included) are
 * refused by every JSON reader in cairn (the scanners, and lossless.ts behind rpc `parseJson` and
 * merkle `parseJsonLossless`).
 * A u64 has 20 digits and an i64 20 characters; the shortest round-trip form of any double is at most
 * 24 characters. 40 leaves room for servers that print more digits than needed, and lets an
 * out-of-range integer such as 2^128 through to the response validators, which name its field. A
 * longer literal can only be hostile: turned into a bigint and printed, 20 MB of digits held the event
 * loop for seconds.
 */
export const MAX_NUMBER_CHARS = 40;
/** Returned when the tape is too small: the caller grows it and scans again. */
export const TAPE_FULL = -1;
/** Returned by a scan given a state when it stopped part way (see scan-js.ts); errors are -2 … -9 and -11. */
export const SUSPENDED = -10;
/** u32s of the native scanner's state (json_scan.h CAIRN_JSON_STATE_U32S). */
export const NATIVE_STATE_U32S = 6 + 3 * MAX_DEPTH;
/** Where the native state says a number of 16+ characters was seen (see `NATIVE_STATE_U32S`). */
export const NATIVE_STATE_LONG = 4;
/** Where the native state names the container whose objects are skimmed (1 + its entry; 0: none). */
export const NATIVE_STATE_SKIM = 5;

/** Why a text is not JSON; a scan returns -(2 + code) and writes the byte offset to tape[0]. */
export enum ScanError {
  UnexpectedCharacter = 0,
  UnexpectedEnd = 1,
  UnterminatedString = 2,
  ControlCharacter = 3,
  BadEscape = 4,
  BadNumber = 5,
  TrailingContent = 6,
  TooDeep = 7,
  // 9, not 8: -(2 + 8) is SUSPENDED. The scan writes the literal's end to tape[1] (its start to tape[0]).
  NumberTooLong = 9,
}

export const SCAN_ERROR_TEXT: Record<ScanError, string> = {
  [ScanError.UnexpectedCharacter]: 'unexpected character',
  [ScanError.UnexpectedEnd]: 'unexpected end of input',
  [ScanError.UnterminatedString]: 'unterminated string',
  [ScanError.ControlCharacter]: 'unescaped control character in a string',
  [ScanError.BadEscape]: 'invalid escape in a string',
  [ScanError.BadNumber]: 'invalid number',
  [ScanError.TrailingContent]: 'content after the JSON value',
  [ScanError.TooDeep]: `nested deeper than ${MAX_DEPTH} levels`,
  [ScanError.NumberTooLong]: `number longer than ${MAX_NUMBER_CHARS} characters`,
};
