/**
 * The portable JSON structure scanner (the reference for native/json_scan.c, which must produce the
 * same tape and the same errors byte for byte). It validates the whole text against RFC 8259's
 * grammar — the parts of a response no worker ever parses (envelopes, keys) must be valid JSON too —
 * and records every value as a tape entry without decoding any of them. See tape-format.ts for the layout.
 *
 * Skimming (json_scan.h: an item's end found by brackets alone, for the verifier) is the native
 * scanner's alone; this one always scans in full, which is never wrong, only slower.
 *
 * UTF-8 is not validated: `JSON.parse` of text decoded from those bytes replaces bad sequences rather
 * than failing, and the bytes path must accept exactly what the object path accepts.
 */
import { ENTRY, ScanError, T_ARRAY, T_FALSE, T_KEY, T_NULL, T_NUMBER, T_OBJECT, T_STRING, T_TRUE, F_ESCAPED, MAX_DEPTH, MAX_NUMBER_CHARS, SUSPENDED, TAPE_FULL, TYPE_MASK } from './tape-format.js';

const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** Where a suspended scan goes on (`scanJsonJs` with a state; the native scanner keeps its own). */
export interface JsScanState {
  suspended: boolean;
  /** The byte offset reached. */
  i: number;
  /** Entries so far. */
  count: number;
  stack: number[];
  keyOf: number[];
  /** A number of 16+ characters was seen (it may not survive `JSON.parse` exactly); set when suspending and when done. */
  long: boolean;
}

export const newJsScanState = (): JsScanState => ({ suspended: false, i: 0, count: 0, stack: [], keyOf: [], long: false });

/**
 * Scan `b`; fill `tape` (4 u32 per entry). Returns the entry count, `TAPE_FULL` (-1) when `tape` is too
 * small, or a negative `-(2 + ScanError)` with the error's byte offset written to `tape[0]` (and for a
 * number over MAX_NUMBER_CHARS, its end to `tape[1]`).
 *
 * With a `state`, the scan suspends after the first value that ends at or past byte `stopAt` inside a
 * container and returns `SUSPENDED` (-10; `state.count` entries are on the tape, the open containers'
 * still ending at 0); called again with the same bytes, tape and state it goes on from there, always
 * making progress, and writes exactly the tape a one-shot scan writes. Native json_scan.c stops at the
 * same values.
 */
export function scanJsonJs(b: Uint8Array, tape: Uint32Array, saved?: JsScanState, stopAt = Infinity): number {
  const n = b.length;
  const cap = Math.floor(tape.length / ENTRY);
  if (!saved) stopAt = Infinity;
  const resuming = saved?.suspended === true;
  if (saved) saved.suspended = false;
  // Open containers: their tape index; an object's pending key count is not needed (grammar state
  // below says whether a key or a value is expected).
  const stack: number[] = resuming ? saved.stack : [];
  let count = resuming ? saved.count : 0;
  let i = resuming ? saved.i : 0;
  let long = resuming ? saved.long : false;

  // Grammar states: expecting a value, a key (or '}' right after '{'), ',' or closer after a value.
  const VALUE = 0;
  const KEY_OR_END = 1;
  const AFTER = 2;
  const VALUE_OR_END = 3; // right after '['
  const KEY = 4; // after ',' in an object
  let state = resuming ? AFTER : VALUE;
  /** Per open object: the tape index of the key whose value is being read (its subtree end is set after the value). */
  const keyOf: number[] = resuming ? saved.keyOf : [];

  if (!resuming) {
    // A UTF-8 byte order mark at the very start is skipped, as TextDecoder (and so JSON.parse of the
    // decoded text, fetch's .json() and .text()) drops it.
    if (n >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) i = 3;
    i = skipWs(b, i, n);
    if (i >= n) return fail(tape, ScanError.UnexpectedEnd, i);
  }
  let check = !resuming;
  for (;;) {
    // A value just ended inside a container: the one place a scan may stop (see above).
    if (state === AFTER && check && i >= stopAt && stack.length > 0) {
      Object.assign(saved!, { suspended: true, i, count, stack, keyOf, long });
      return SUSPENDED;
    }
    check = true;
    i = skipWs(b, i, n);
    if (i >= n) {
      if (stack.length === 0 && state === AFTER) {
        if (saved) saved.long = long;
        return count;
      }
      return fail(tape, ScanError.UnexpectedEnd, i);
    }
    const c = b[i]!;
    if (state === AFTER) {
      if (stack.length === 0) return fail(tape, ScanError.TrailingContent, i);
      const top = stack[stack.length - 1]!;
      const isObj = (tape[top * ENTRY]! & TYPE_MASK) === T_OBJECT;
      if (c === 0x2c) {
        i++;
        state = isObj ? KEY : VALUE;
        continue;
      }
      if ((isObj && c === 0x7d) || (!isObj && c === 0x5d)) {
        i++;
        stack.pop();
        if (isObj) keyOf.pop();
        endValue(tape, top, i, count, stack, keyOf);
        state = AFTER;
        continue;
      }
      return fail(tape, ScanError.UnexpectedCharacter, i);
    }
    if (state === KEY_OR_END || state === KEY) {
      if (c === 0x7d && state === KEY_OR_END) {
        i++;
        const top = stack.pop()!;
        keyOf.pop();
        endValue(tape, top, i, count, stack, keyOf);
        state = AFTER;
        continue;
      }
      if (c !== 0x22) return fail(tape, ScanError.UnexpectedCharacter, i);
      const start = i;
      if (count >= cap) return TAPE_FULL;
      const e = count++;
      open(tape, e, T_KEY | (stack.length << 8), start);
      const end = scanString(b, n, start, tape, e);
      if (end < 0) return end;
      i = end;
      tape[e * ENTRY + 2] = i;
      keyOf[keyOf.length - 1] = e;
      i = skipWs(b, i, n);
      if (i >= n) return fail(tape, ScanError.UnexpectedEnd, i);
      if (b[i] !== 0x3a) return fail(tape, ScanError.UnexpectedCharacter, i);
      i++;
      state = VALUE;
      continue;
    }
    // state VALUE or VALUE_OR_END
    if (c === 0x5d && state === VALUE_OR_END) {
      i++;
      const top = stack.pop()!;
      endValue(tape, top, i, count, stack, keyOf);
      state = AFTER;
      continue;
    }
    const start = i;
    if (c === 0x7b || c === 0x5b) {
      if (stack.length >= MAX_DEPTH) return fail(tape, ScanError.TooDeep, i);
      if (count >= cap) return TAPE_FULL;
      const e = count++;
      open(tape, e, (c === 0x7b ? T_OBJECT : T_ARRAY) | (stack.length << 8), start);
      stack.push(e);
      i++;
      if (c === 0x7b) {
        keyOf.push(-1);
        state = KEY_OR_END;
      } else state = VALUE_OR_END;
      continue;
    }
    if (c === 0x22) {
      if (count >= cap) return TAPE_FULL;
      const e = count++;
      open(tape, e, T_STRING | (stack.length << 8), start);
      const end = scanString(b, n, start, tape, e);
      if (end < 0) return end;
      i = end;
      endValue(tape, e, i, count, stack, keyOf);
      state = AFTER;
      continue;
    }
    if (c === 0x2d || isDigit(c)) {
      const j = scanNumber(b, n, start, tape);
      if (j < 0) return j;
      if (count >= cap) return TAPE_FULL;
      const e = count++;
      open(tape, e, T_NUMBER | (stack.length << 8), start);
      if (j - start >= 16) long = true;
      i = j;
      endValue(tape, e, i, count, stack, keyOf);
      state = AFTER;
      continue;
    }
    const lit = literal(b, i);
    if (lit === 0) return fail(tape, ScanError.UnexpectedCharacter, i);
    if (count >= cap) return TAPE_FULL;
    const e = count++;
    open(tape, e, lit | (stack.length << 8), start);
    i += lit === T_FALSE ? 5 : 4;
    endValue(tape, e, i, count, stack, keyOf);
    state = AFTER;
  }
}

function literal(b: Uint8Array, i: number): number {
  const m = (s: string): boolean => {
    for (let k = 0; k < s.length; k++) if (b[i + k] !== s.charCodeAt(k)) return false;
    return true;
  };
  if (m('true')) return T_TRUE;
  if (m('false')) return T_FALSE;
  if (m('null')) return T_NULL;
  return 0;
}

function fail(tape: Uint32Array, err: ScanError, at: number): number {
  tape[0] = at;
  return -(2 + err);
}

/** The first byte at or after `i` that is not JSON whitespace (or `n`). */
function skipWs(b: Uint8Array, i: number, n: number): number {
  while (i < n && isWs(b[i]!)) i++;
  return i;
}

/** Write entry `e` (`word`: type and depth); its end and subtree end are set when it closes. */
function open(tape: Uint32Array, e: number, word: number, start: number): void {
  const at = e * ENTRY;
  tape[at] = word;
  tape[at + 1] = start;
  tape[at + 2] = 0;
  tape[at + 3] = e + 1;
}

/**
 * Value entry `e` ended at byte `end` (`count` entries so far): set its end and subtree end, and close
 * the key it belonged to, if any (that key's subtree ends here too).
 */
function endValue(tape: Uint32Array, e: number, end: number, count: number, stack: readonly number[], keyOf: number[]): void {
  tape[e * ENTRY + 2] = end;
  tape[e * ENTRY + 3] = count;
  const k = keyOf.length > 0 ? keyOf[keyOf.length - 1]! : -1;
  const top = stack.length > 0 ? stack[stack.length - 1]! : -1;
  if (k >= 0 && top >= 0 && (tape[top * ENTRY]! & TYPE_MASK) === T_OBJECT) {
    tape[k * ENTRY + 3] = count;
    keyOf[keyOf.length - 1] = -1;
  }
}

/**
 * The string (or key) at b[start] === '"', entry `e`: its end (after the closing quote), or a negative
 * error. Marks the entry F_ESCAPED when it holds a backslash escape.
 */
function scanString(b: Uint8Array, n: number, start: number, tape: Uint32Array, e: number): number {
  let j = start + 1;
  let escaped = false;
  for (;;) {
    if (j >= n) return fail(tape, ScanError.UnterminatedString, start);
    const c = b[j]!;
    if (c === 0x22) break;
    if (c < 0x20) return fail(tape, ScanError.ControlCharacter, j);
    if (c === 0x5c) {
      escaped = true;
      const x = b[j + 1];
      if (x === undefined) return fail(tape, ScanError.UnterminatedString, start);
      if (x === 0x75) {
        for (let k = 2; k < 6; k++) {
          const h = b[j + k];
          if (h === undefined) return fail(tape, ScanError.UnterminatedString, start);
          if (!isHex(h)) return fail(tape, ScanError.BadEscape, j);
        }
        j += 6;
        continue;
      }
      if (x !== 0x22 && x !== 0x5c && x !== 0x2f && x !== 0x62 && x !== 0x66 && x !== 0x6e && x !== 0x72 && x !== 0x74) {
        return fail(tape, ScanError.BadEscape, j);
      }
      j += 2;
      continue;
    }
    j++;
  }
  if (escaped) tape[e * ENTRY] = tape[e * ENTRY]! | F_ESCAPED;
  return j + 1;
}

/**
 * The number at b[start] (a '-' or a digit): its end, or a negative error (RFC 8259's grammar; over
 * MAX_NUMBER_CHARS, its end goes to tape[1] for the error message).
 */
function scanNumber(b: Uint8Array, n: number, start: number, tape: Uint32Array): number {
  let j = start;
  if (b[j] === 0x2d) j++;
  if (j >= n || !isDigit(b[j]!)) return fail(tape, ScanError.BadNumber, start);
  if (b[j] === 0x30) j++;
  else while (j < n && isDigit(b[j]!)) j++;
  if (b[j] === 0x2e) {
    j++;
    if (j >= n || !isDigit(b[j]!)) return fail(tape, ScanError.BadNumber, start);
    while (j < n && isDigit(b[j]!)) j++;
  }
  if (b[j] === 0x65 || b[j] === 0x45) {
    j++;
    if (b[j] === 0x2b || b[j] === 0x2d) j++;
    if (j >= n || !isDigit(b[j]!)) return fail(tape, ScanError.BadNumber, start);
    while (j < n && isDigit(b[j]!)) j++;
  }
  if (j - start > MAX_NUMBER_CHARS) {
    // over the limit (tape-format.ts): the literal's end goes to tape[1] for the error message
    tape[1] = j;
    return fail(tape, ScanError.NumberTooLong, start);
  }
  return j;
}
