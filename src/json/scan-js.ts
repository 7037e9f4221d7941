/**
 * The portable JSON structure scanner (the reference for native/json_scan.c, which must produce the
 * same tape and the same errors byte for byte). It validates the whole text against RFC 8259's
 * grammar — the parts of a response no worker ever parses (envelopes, keys) must be valid JSON too —
 * and records every value as a tape entry without decoding any of them. See tape.ts for the layout.
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
  const fail = (err: ScanError, at: number): number => {
    tape[0] = at;
    return -(2 + err);
  };
  const skipWs = (): void => {
    while (i < n && isWs(b[i]!)) i++;
  };
  /** A string starting at b[i] === '"'; returns its end (after the quote) or a negative error. */
  const string = (): number => {
    const start = i;
    let j = i + 1;
    let escaped = 0;
    for (;;) {
      if (j >= n) return fail(ScanError.UnterminatedString, start);
      const c = b[j]!;
      if (c === 0x22) break;
      if (c < 0x20) return fail(ScanError.ControlCharacter, j);
      if (c === 0x5c) {
        escaped = F_ESCAPED;
        const e = b[j + 1];
        if (e === undefined) return fail(ScanError.UnterminatedString, start);
        if (e === 0x75) {
          for (let k = 2; k < 6; k++) {
            const h = b[j + k];
            if (h === undefined) return fail(ScanError.UnterminatedString, start);
            if (!isHex(h)) return fail(ScanError.BadEscape, j);
          }
          j += 6;
          continue;
        }
        if (e !== 0x22 && e !== 0x5c && e !== 0x2f && e !== 0x62 && e !== 0x66 && e !== 0x6e && e !== 0x72 && e !== 0x74) return fail(ScanError.BadEscape, j);
        j += 2;
        continue;
      }
      j++;
    }
    i = j + 1;
    return escaped;
  };
  const push = (type: number, start: number, end: number): number => {
    if (count >= cap) return -1;
    const at = count * ENTRY;
    tape[at] = type | (stack.length << 8);
    tape[at + 1] = start;
    tape[at + 2] = end;
    tape[at + 3] = count + 1;
    return count++;
  };
  /** After a value or key ends: set `end` and subtree end of the entry at `e`. */
  const close = (e: number, end: number): void => {
    tape[e * ENTRY + 2] = end;
    tape[e * ENTRY + 3] = count;
  };

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
    skipWs();
    if (i >= n) return fail(ScanError.UnexpectedEnd, i);
  }
  let check = !resuming;
  for (;;) {
    // A value just ended inside a container: the one place a scan may stop (see above).
    if (state === AFTER && check && i >= stopAt && stack.length > 0) {
      Object.assign(saved!, { suspended: true, i, count, stack, keyOf, long });
      return SUSPENDED;
    }
    check = true;
    skipWs();
    if (i >= n) {
      if (stack.length === 0 && state === AFTER) {
        if (saved) saved.long = long;
        return count;
      }
      return fail(ScanError.UnexpectedEnd, i);
    }
    const c = b[i]!;
    if (state === AFTER) {
      if (stack.length === 0) return fail(ScanError.TrailingContent, i);
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
        close(top, i);
        afterValue();
        continue;
      }
      return fail(ScanError.UnexpectedCharacter, i);
    }
    if (state === KEY_OR_END || state === KEY) {
      if (c === 0x7d && state === KEY_OR_END) {
        i++;
        const top = stack.pop()!;
        keyOf.pop();
        close(top, i);
        afterValue();
        continue;
      }
      if (c !== 0x22) return fail(ScanError.UnexpectedCharacter, i);
      const start = i;
      const e = push(T_KEY, start, 0);
      if (e < 0) return TAPE_FULL;
      const esc = string();
      if (esc < 0) return esc;
      tape[e * ENTRY] = tape[e * ENTRY]! | esc;
      tape[e * ENTRY + 2] = i;
      keyOf[keyOf.length - 1] = e;
      skipWs();
      if (i >= n) return fail(ScanError.UnexpectedEnd, i);
      if (b[i] !== 0x3a) return fail(ScanError.UnexpectedCharacter, i);
      i++;
      state = VALUE;
      continue;
    }
    // state VALUE or VALUE_OR_END
    if (c === 0x5d && state === VALUE_OR_END) {
      i++;
      const top = stack.pop()!;
      close(top, i);
      afterValue();
      continue;
    }
    const start = i;
    if (c === 0x7b || c === 0x5b) {
      if (stack.length >= MAX_DEPTH) return fail(ScanError.TooDeep, i);
      const e = push(c === 0x7b ? T_OBJECT : T_ARRAY, start, 0);
      if (e < 0) return TAPE_FULL;
      stack.push(e);
      i++;
      if (c === 0x7b) {
        keyOf.push(-1);
        state = KEY_OR_END;
      } else state = VALUE_OR_END;
      continue;
    }
    if (c === 0x22) {
      const e = push(T_STRING, start, 0);
      if (e < 0) return TAPE_FULL;
      const esc = string();
      if (esc < 0) return esc;
      tape[e * ENTRY] = tape[e * ENTRY]! | esc;
      close(e, i);
      afterValue();
      continue;
    }
    if (c === 0x2d || isDigit(c)) {
      let j = i;
      if (b[j] === 0x2d) j++;
      if (j >= n || !isDigit(b[j]!)) return fail(ScanError.BadNumber, start);
      if (b[j] === 0x30) j++;
      else while (j < n && isDigit(b[j]!)) j++;
      if (b[j] === 0x2e) {
        j++;
        if (j >= n || !isDigit(b[j]!)) return fail(ScanError.BadNumber, start);
        while (j < n && isDigit(b[j]!)) j++;
      }
      if (b[j] === 0x65 || b[j] === 0x45) {
        j++;
        if (b[j] === 0x2b || b[j] === 0x2d) j++;
        if (j >= n || !isDigit(b[j]!)) return fail(ScanError.BadNumber, start);
        while (j < n && isDigit(b[j]!)) j++;
      }
      if (j - start > MAX_NUMBER_CHARS) {
        // over the limit (tape-format.ts): the literal's end goes to tape[1] for the error message
        tape[1] = j;
        return fail(ScanError.NumberTooLong, start);
      }
      const e = push(T_NUMBER, start, 0);
      if (e < 0) return TAPE_FULL;
      if (j - start >= 16) long = true;
      i = j;
      close(e, i);
      afterValue();
      continue;
    }
    const lit = literal(b, i);
    if (lit === 0) return fail(ScanError.UnexpectedCharacter, i);
    const e = push(lit, start, 0);
    if (e < 0) return TAPE_FULL;
    i += lit === T_FALSE ? 5 : 4;
    close(e, i);
    afterValue();
  }

  /** A value just ended: close the key it belonged to (its subtree now ends here) and expect ',' or a closer. */
  function afterValue(): void {
    const k = keyOf.length > 0 ? keyOf[keyOf.length - 1]! : -1;
    const top = stack.length > 0 ? stack[stack.length - 1]! : -1;
    if (k >= 0 && top >= 0 && (tape[top * ENTRY]! & TYPE_MASK) === T_OBJECT) {
      tape[k * ENTRY + 3] = count;
      keyOf[keyOf.length - 1] = -1;
    }
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
