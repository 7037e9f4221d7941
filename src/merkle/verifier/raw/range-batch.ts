/**
 * Range batches: a byte range of a response whose items a worker finds itself (native/json_ranges.h),
 * instead of a list of items the calling thread found. The calling thread cuts the response into
 * ranges without reading them (ranges.ts); the worker turns its range into an ordinary JSON batch
 * (batch.ts's layout) and says where its items started and what followed them, for the calling thread
 * to check that the ranges join up.
 *
 * Layout (little-endian u32): 0 | flags (RANGE, KEYED) | from | to | limit | exact. The worker reads no
 * byte of the response at or past `limit` (the calling thread has copied the response that far).
 */
import { loadNative } from '../../../addon.js';
import { jsonScanBackend } from '../../../json/index.js';
import { KEYED, LONG_NUMBERS, RANGE, verifyJsonBatch, type JsonBatchResult } from './batch.js';

/** How a range ended (json_ranges.h). */
export const RANGE_NEXT = 0;
export const RANGE_END = 1;
export const RANGE_NONE = 2;
const RANGE_MISFIT = 3;
const RANGE_FULL = 4;

/** What a worker says about its range beside the verdicts (json_ranges.h `meta`). */
export interface RangeMeta {
  /** RANGE_NEXT, RANGE_END, RANGE_NONE or RANGE_MISFIT. */
  status: number;
  /** Where its first item starts (the comma's item, when it found a boundary). */
  first: number;
  /** RANGE_NEXT: where the item after its last one starts; RANGE_END: the container's closing bracket. */
  next: number;
}

/**
 * True when workers can find their items in ranges here: the addon has `jsonItemsInRange` and the
 * scan is the native one (`CAIRN_JSON_SCAN=js` turns skimming off, and ranges with it).
 */
export function rangesAvailable(): boolean {
  return jsonScanBackend() === 'native' && typeof loadNative()?.jsonItemsInRange === 'function';
}

/**
 * A range batch: the items that start in [from, to) of the container (keyed by id or a list); `exact`
 * when `from` is right after one of its children.
 *
 * @example
 * pool.run('asset-proof', packRangeBatch(4096, 1 << 20, (1 << 20) + 65536, true, false), 0, { json: true, shared });
 */
export function packRangeBatch(from: number, to: number, limit: number, exact: boolean, keyed: boolean, reuse?: ArrayBuffer): ArrayBuffer {
  const ab = reuse && reuse.byteLength >= 24 ? reuse : new ArrayBuffer(24);
  const h = new Uint32Array(ab, 0, 6);
  h[0] = 0;
  h[1] = RANGE | (keyed ? KEYED : 0);
  h[2] = from;
  h[3] = to;
  h[4] = limit;
  h[5] = exact ? 1 : 0;
  return ab;
}

/** Per thread: the JSON batch a range becomes (grown as needed), and the native call's meta. */
let table: ArrayBuffer = new ArrayBuffer(8 + 16 * 4096);
const meta = new Uint32Array(4);

/**
 * The items of the range batch `buf` in `response`, as a JSON batch (batch.ts's layout, every number
 * counted as possibly long: the items were not scanned) — or null when the range holds none to verify
 * — and what the range says.
 */
function itemsOfRange(buf: ArrayBuffer, response: Uint8Array): { batch: ArrayBuffer | null; range: RangeMeta } {
  const h = new Uint32Array(buf, 0, 6);
  const keyed = (h[1]! & KEYED) !== 0;
  const find = loadNative()?.jsonItemsInRange;
  // A range batch only goes to a worker that can read it (rangesAvailable): without it, a misfit.
  if (!find) return { batch: null, range: { status: RANGE_MISFIT, first: 0, next: 0 } };
  const limit = Math.min(h[4]!, response.length);
  for (;;) {
    const status = find(response, limit, h[2]!, h[3]!, h[5] === 1, keyed, new Uint32Array(table, 8), meta);
    if (status === RANGE_FULL) {
      table = new ArrayBuffer(8 + 2 * (table.byteLength - 8));
      continue;
    }
    const range = { status, first: meta[1]!, next: meta[2]! };
    if ((status !== RANGE_NEXT && status !== RANGE_END) || meta[3] === 0) return { batch: null, range };
    const head = new Uint32Array(table, 0, 2);
    head[0] = meta[3]!;
    head[1] = (keyed ? KEYED : 0) | LONG_NUMBERS;
    return { batch: table, range };
  }
}

/** True when `buf` is a range batch (this file's layout), not a list of items. */
export const isRangeBatch = (buf: ArrayBuffer): boolean => buf.byteLength >= 8 && (new Uint32Array(buf, 0, 2)[1]! & RANGE) !== 0;

/**
 * The worker's side of a range batch: its items found in `response` and verified as a JSON batch of
 * them (`verifyJsonBatch`), with what the range says beside the answer.
 *
 * @example
 * const r = verifyRangeBatch('asset-proof', buf, new Uint8Array(shared));
 * if (r.range.status === RANGE_MISFIT) …;
 */
export function verifyRangeBatch(kind: string, buf: ArrayBuffer, response: Uint8Array): JsonBatchResult & { range: RangeMeta } {
  const { batch, range } = itemsOfRange(buf, response);
  if (!batch) return { valid: new Uint8Array(0), extras: [], ids: '', idLens: new Uint32Array(0), range };
  return { ...verifyJsonBatch(kind, batch, response), range };
}
