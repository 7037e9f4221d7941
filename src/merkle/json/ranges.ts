/**
 * The two ends of a large list verified in byte ranges (verifier.ts `verifyInRanges`): the workers
 * find the items of the middle themselves (json/batch.ts `rangeRequest`), so the calling thread only
 * looks at the response's first item (`firstListItem`) and, once a worker has found the list's `]`,
 * at what follows it (`envelopesAgree`). Together with the workers' checks, every byte of the response
 * is read by someone, and the envelopes are peeled by the same code as for any other response.
 */
import type { KindSpec } from '../kinds.js';
import { extractFromTape } from './extract.js';
import { ItemsSoFar } from './items-so-far.js';
import { JsonScan, scanJson } from './tape.js';
import { T_OBJECT } from './tape-format.js';

/** Bytes scanned per step while looking for the first item (less on a small response, see below). */
const STEP = 64 * 1024;
/** Past this many bytes without a first item, the response is not a list of items worth ranges. */
const LOOK_AT_MOST = 1 << 20;

/** Where the first item of the list holding a response's items starts and ends. */
export interface FirstItem {
  start: number;
  end: number;
  /** Bytes per item (separators included) over the items scanned to find it. */
  perItem: number;
}

/**
 * The first item of the response's item list, scanned from the start only as far as needed; null when
 * the items are not a list of objects (an object keyed by id, a single item, nothing found early), or
 * when the text breaks before it (the verifier then takes the usual path, which reports why).
 *
 * @example
 * firstListItem(spec, body) // { start: 28, end: 871, perItem: 844.1 } for {"jsonrpc":"2.0","result":[{…},…],"id":1}
 */
export function firstListItem(spec: KindSpec, bytes: Uint8Array): FirstItem | null {
  const scan = new JsonScan(bytes, { decodeBelow: 0 });
  const guess = new ItemsSoFar(spec, scan.tape);
  // A step of a sixteenth at most, so the scan stops before the end of a small response too.
  const step = Math.max(1024, Math.min(STEP, bytes.length >> 4));
  try {
    for (let stop = step; stop <= LOOK_AT_MOST; stop += step) {
      if (scan.advance(stop)) break;
      if (guess.update(1) > 0 || guess.gaveUp) break;
    }
  } catch {
    // Not JSON as far as it was scanned (the failed scan gave its tape back).
    return null;
  }
  const t = scan.tape;
  const n = guess.update();
  const v = !scan.done && guess.keys === null && n > 0 ? guess.values[0]! : -1;
  let found: FirstItem | null = null;
  if (v >= 0 && t.type(v) === T_OBJECT) {
    const start = t.start(v);
    const end = t.end(v);
    found = { start, end, perItem: n > 1 ? (t.end(guess.values[n - 1]!) - start) / (n - 1) : end - start + 1 };
  }
  t.release();
  return found;
}

/**
 * True when the response's envelopes lead to the list whose first item is `first` and whose `]` is at
 * `close`: the text before the first item and after the `]`, with that one item between them, is
 * peeled exactly as a plain scan of the whole response would be (extract.ts). Only the list's other
 * items are missing, and the workers checked each of them is an item of the kind; the envelope rules
 * do not look at a list's items. False for anything else (an `error` member after `result`, a second
 * `result`, text that breaks after the list): the caller then takes the usual path, which gives the
 * answer or the error a plain scan gives.
 */
export function envelopesAgree(spec: KindSpec, bytes: Uint8Array, first: FirstItem, close: number): boolean {
  const doc = new Uint8Array(first.end + (bytes.length - close));
  doc.set(bytes.subarray(0, first.end));
  doc.set(bytes.subarray(close), first.end);
  let tape;
  try {
    tape = scanJson(doc, { decodeBelow: 0 });
    const found = extractFromTape(spec, tape, { parseBelow: 0 });
    return !Array.isArray(found) && found.keys === null && found.values.length === 1 && tape.start(found.values[0]!) === first.start;
  } catch {
    return false;
  } finally {
    tape?.release();
  }
}
