/**
 * JSON batches: where a run of items sits in the response (`packJsonBatch`, main thread), decoded and
 * verified by a worker (`verifyJsonBatch`) that reads them from the response itself — shared with the
 * workers in a SharedArrayBuffer, copied there once per verify. The worker parses
 * each item, checks it is of the kind, packs it as the object path would (kinds/verify-batch.ts `packItem`) and
 * verifies the records (`verifyBatch`) — or, for a kind with `verifyParsed`, verifies the parsed item
 * as it is — so both paths give the same verdicts. It also names the items
 * (`spec.id`), since the main thread never decoded them.
 *
 * Layout (little-endian u32): n | flags (1: keyed, 2: holds a number of 16+ digits; 4: a range batch,
 * range-batch.ts's layout instead) |
 * n × [keyStart, keyEnd, valueStart, valueEnd], byte offsets into the response; a key of an unkeyed
 * batch is [0, 0).
 */
import { BatchWriter } from '../../records/batch-writer.js';
import { parseJsonLossless } from '../../input.js';
import { collect, packItem, verifyBatch, verifyParsedItem, NO_DATA } from '../../kinds/verify-batch.js';
import { getKind, notAnItem } from '../../kinds/index.js';
import type { Verdict } from '../../verdict.js';
import type { JsonItems } from './extract.js';

export const KEYED = 1;
/** Some number has 16+ digits: parse with `parseJsonLossless` (else plain `JSON.parse`, ~2× faster). */
export const LONG_NUMBERS = 2;
/** Not a list of items but a byte range whose items the worker finds (range-batch.ts's layout). */
export const RANGE = 4;
/** An item the worker could not name (no key and no id in it). */
export const NO_ID = 0xffffffff;

/**
 * Items `a … b-1` of `found` as a JSON batch (into `reuse` when it is large enough).
 *
 * @example
 * pool.run(kind, packJsonBatch(found, 0, 512), 512, { json: true, shared });
 */
export function packJsonBatch(found: Pick<JsonItems, 'tape' | 'values' | 'keys'>, a: number, b: number, reuse?: ArrayBuffer): ArrayBuffer {
  const { tape, values, keys } = found;
  const n = b - a;
  const size = 8 + 16 * n;
  const ab = reuse && reuse.byteLength >= size ? reuse : new ArrayBuffer(size);
  const head = new Uint32Array(ab, 0, 2 + 4 * n);
  head[0] = n;
  // Asked per batch (its items' entries only), so it never waits for the end of the scan; the scanner
  // says when no number so far was long, and then nothing is looked at.
  const long = n > 0 && tape.longNumbersIn(values[a]!, tape.next(values[b - 1]!));
  head[1] = (keys ? KEYED : 0) | (long ? LONG_NUMBERS : 0);
  for (let i = 0, o = 2; i < n; i++, o += 4) {
    const v = values[a + i]!;
    if (keys) {
      const k = keys[a + i]!;
      head[o] = tape.start(k);
      head[o + 1] = tape.end(k);
    } else {
      head[o] = 0;
      head[o + 1] = 0;
    }
    head[o + 2] = tape.start(v);
    head[o + 3] = tape.end(v);
  }
  return ab;
}

/** What a worker answers for a JSON batch. */
export type JsonBatchResult =
  | {
      valid: Uint8Array;
      extras: Array<[number, Verdict]>;
      /** The items' ids, concatenated; `idLens[i]` is item i's length (`NO_ID`: none). */
      ids: string;
      idLens: Uint32Array;
    }
  /** Item `bad` of the batch is not of the kind, or not JSON: the input is unusable (the caller says why). */
  | { bad: number };

type Slicer = Buffer & { utf8Slice?: (start: number, end: number) => string; latin1Slice?: (start: number, end: number) => string };

/** A spent records buffer per thread, packed into again by the next batch. */
let scratch: ArrayBuffer | undefined;
/** The id's byte range a kind's `packJson` found, and (with `idBytes`) where its copy of the id ends. */
const idRange = new Uint32Array(3);
/**
 * Per thread: the ids of a batch's packed items, copied here by the packer one after another and
 * made into one string at the end — a string per item was most of what a worker still allocated.
 */
let idBytes: Slicer = Buffer.alloc(0);
/** The longest id a packer copies (a leaf: base58 of 32 bytes). */
const PACKED_ID_MAX = 44;
/** A key's JSON text (quotes included) → the key. */
const keyText = (raw: string): string => (raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1));

/**
 * Decode and verify one JSON batch against `response`, the bytes its offsets point into (a worker's
 * part; also the inline path).
 *
 * @example
 * const r = verifyJsonBatch('asset-proof', buf, response);
 * if ('bad' in r) throw …; else r.valid;
 */
export function verifyJsonBatch(kind: string, buf: ArrayBuffer, response: Uint8Array): JsonBatchResult {
  const spec = getKind(kind);
  const head = new Uint32Array(buf, 0, 2);
  const n = head[0]!;
  const keyed = (head[1]! & KEYED) !== 0;
  const parse = head[1]! & LONG_NUMBERS ? parseJsonLossless : JSON.parse;
  const table = new Uint32Array(buf, 8, 4 * n);
  const text = Buffer.from(response.buffer, response.byteOffset, response.byteLength) as Slicer;
  const slice = (x: number, y: number): string => (text.utf8Slice ? text.utf8Slice(x, y) : text.toString('utf8', x, y));
  const idLens = new Uint32Array(n);
  /** The ids in order: strings, and runs of `idBytes` (flushed into a string when a string comes). */
  const ids: string[] = [];
  // Kinds that verify a parsed item as it is skip packing (and the worker's unpacking) altogether,
  // and verify each item as soon as it is parsed: an item that lived until the end of its batch would
  // survive a young-generation collection and cost an old-generation one later, on the GC threads
  // that share the cores with the workers.
  const direct: Verdict[] | null = spec.verifyParsed ? new Array(n) : null;
  // A packed batch leaves its null items (nothing known for those ids) out: their verdict is known.
  // Packed, each one's reason was an error thrown and caught in the reader (~4 µs: a million nulls
  // kept two workers busy for seconds). The writer is sized for the others, so they are counted first.
  let nullCount = 0;
  if (!direct) for (let o = 0; o < 4 * n; o += 4) if (isNull(response, table[o + 2]!, table[o + 3]!)) nullCount++;
  const w = direct ? null : new BatchWriter(n - nullCount, spec.recordBytes, scratch);
  // Kinds that read an item's record straight from its text (`packJson`) parse only what it declines.
  const fast = w ? spec.packJson : null;
  // A packed item's id is copied as bytes into `idBytes`: its leaf by the packer, or (keyed) its key here.
  if (fast) idBytesFor(n);
  idRange[2] = 0;
  let run = 0;
  const flushRun = (): void => {
    if (idRange[2]! > run) ids.push(latin1(idBytes, run, idRange[2]!));
    run = idRange[2]!;
  };
  // Items named by their leaves are packed many to a call; one it declines is parsed below, and the
  // next call goes on after it.
  const many = fast && !keyed ? spec.packJsonMany : null;
  /** The null items left out of a packed batch, in order. */
  const nulls: number[] | null = nullCount > 0 ? [] : null;
  for (let i = 0, o = 0; i < n; i++, o += 4) {
    // A null item is named and left out below, as the packers would decline it anyway.
    const isNullItem = nulls !== null && isNull(response, table[o + 2]!, table[o + 3]!);
    if (isNullItem) {
      // Parsed below for its name, like an item a packer declines.
    } else if (many) {
      const k = many(response, table, i, n, w!, idRange, idBytes, idLens);
      if (k > 0) {
        i += k - 1;
        o += 4 * (k - 1);
        continue;
      }
    } else if (fast?.(response, table[o + 2]!, table[o + 3]!, w!, idRange, keyed ? undefined : idBytes)) {
      if (!keyed) idLens[i] = idRange[1]! - idRange[0]!;
      else if (copyKey(response, table[o]! + 1, table[o + 1]! - 1)) idLens[i] = table[o + 1]! - table[o]! - 2;
      else {
        // A key with an escape or a byte above 0x7f: its own string.
        const id = keyText(slice(table[o]!, table[o + 1]!));
        flushRun();
        idLens[i] = id.length;
        ids.push(id);
      }
      continue;
    }
    let item: unknown;
    try {
      item = parse(slice(table[o + 2]!, table[o + 3]!));
    } catch {
      // Not JSON: an item the main thread skimmed (json_scan.h) rather than scanned. It finds the
      // exact syntax error itself.
      return { bad: i };
    }
    if (notAnItem(spec, item, i)) return { bad: i };
    const key = keyed ? keyText(slice(table[o]!, table[o + 1]!)) : undefined;
    const id = key ?? (item === null ? undefined : spec.id(item, key));
    if (id === undefined) idLens[i] = NO_ID;
    else {
      flushRun();
      idLens[i] = id.length;
      ids.push(id);
    }
    if (direct) direct[i] = verifyParsedItem(spec, item);
    else if (isNullItem) nulls!.push(i);
    else packItem(spec, item, w!);
  }
  flushRun();
  let r: { valid: Uint8Array; extras: Array<[number, Verdict]> };
  if (direct) r = collect(spec, n, (i) => direct[i]!);
  else {
    scratch = w!.finish();
    r = verifyBatch(kind, scratch);
    if (nulls) r = withNulls(n, r, nulls);
  }
  return { valid: r.valid, extras: r.extras, ids: ids.length === 1 ? ids[0]! : ids.join(''), idLens };
}

/** True when `src[a..b)` is the literal `null`. */
const isNull = (src: Uint8Array, a: number, b: number): boolean =>
  b - a === 4 && src[a] === 0x6e && src[a + 1] === 0x75 && src[a + 2] === 0x6c && src[a + 3] === 0x6c;

/**
 * The answer for a batch of `n` items from the answer for its packed ones (`packed`, in order) and
 * the indices of the null ones (ascending), each with the verdict packing it gave: invalid, NO_DATA.
 */
function withNulls(
  n: number,
  packed: { valid: Uint8Array; extras: Array<[number, Verdict]> },
  nulls: number[],
): { valid: Uint8Array; extras: Array<[number, Verdict]> } {
  const valid = new Uint8Array(n);
  const extras: Array<[number, Verdict]> = [];
  for (let i = 0, j = 0, e = 0, k = 0; i < n; i++) {
    if (k < nulls.length && nulls[k] === i) {
      k++;
      // One object per item, as packing made them: a verdict without an id is handed out as it is.
      extras.push([i, { valid: false, reason: NO_DATA }]);
      continue;
    }
    valid[i] = packed.valid[j]!;
    if (e < packed.extras.length && packed.extras[e]![0] === j) extras.push([i, packed.extras[e++]![1]]);
    j++;
  }
  return { valid, extras };
}

/**
 * Key text `src[a..b)` (quotes excluded) appended to `idBytes` when it is plain ASCII without an
 * escape and fits; false (nothing appended) otherwise.
 */
function copyKey(src: Uint8Array, a: number, b: number): boolean {
  let p = idRange[2]!;
  if (p + (b - a) > idBytes.length) return false;
  for (let j = a; j < b; j++) {
    const c = src[j]!;
    if (c === 0x5c || c >= 0x80) return false;
    idBytes[p++] = c;
  }
  idRange[2] = p;
  return true;
}

/** Room in `idBytes` for `n` packed ids. */
function idBytesFor(n: number): void {
  if (idBytes.length < n * PACKED_ID_MAX) idBytes = Buffer.allocUnsafe(n * PACKED_ID_MAX) as Slicer;
}

const latin1 = (b: Slicer, x: number, y: number): string => (b.latin1Slice ? b.latin1Slice(x, y) : b.toString('latin1', x, y));
