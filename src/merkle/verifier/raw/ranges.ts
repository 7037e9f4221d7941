/**
 * The range path: a large raw response verified with the calling thread reading only its head. The
 * calling thread scans until it knows where the items are (their container, and its first items), then
 * cuts the rest of the text into byte ranges without reading them, and each worker finds the items
 * that start in its range (range-batch.ts, native/json_ranges.h). Scanning every item (even skimming
 * it) was the calling thread's largest cost per item, and it does not scale with threads: with it, an
 * asset proof cost the calling thread about an eighth of a worker's time, so 16 threads could not give
 * more than ×8.
 *
 * Nothing is answered unless it is exactly what scanning the whole response gives: the ranges must
 * join up (each starting where the previous one's last item was followed by the next; the first right
 * after an item scanned here), every item must be an object or null, and the text around the items —
 * the head up to the last item scanned here and everything from the container's closing bracket on —
 * must read, scanned and peeled as the whole response would be, as the same container holding those
 * same first items. Anything else, and the caller verifies the response the usual way (which then
 * names any error): `rangeAnswers` answers null.
 */
import { abortError } from '../../../abort.js';
import { ErrorCodes } from '../../../errors/index.js';
import type { KindSpec } from '../../kinds/index.js';
import { hasRememberedTape, JsonScan, scanJson } from '../../../json/index.js';
import { extractFromTape, parsedWhole, scanDecodeBelow } from './extract.js';
import { ItemsSoFar } from './items-so-far.js';
import { releaseResponse, shareResponse } from './share-response.js';
import { packJsonBatch } from './batch.js';
import { packRangeBatch, rangesAvailable, RANGE_END, RANGE_NEXT, RANGE_NONE } from './range-batch.js';
import { pipeline } from '../pipeline.js';
import type { BatchResult } from '../../pool.js';
import type { BatchAnswer } from '../batch-answer.js';
import { keepSpare, type VerifierContext } from '../context.js';

/** Bytes copied to shared memory past a range's end, for its last item to be read whole. */
const SLACK = 1 << 20;
/** Parts of the head scanned before giving the range path up (the items were not found). */
const MAX_PARTS = 32;

/** The head of a response: scanned up to `end`, just after its `have` first items. */
interface Head {
  guess: ItemsSoFar;
  have: number;
  end: number;
}

/**
 * Responses the range path answered, and those it handed back to the usual path after it had started
 * on them (a boundary mistaken, an item it does not take…): what the tests and benchmarks read to know
 * which path ran.
 */
export const rangeCounts = { answered: 0, handedBack: 0 };

/** A piece of work: items `a … b-1` found in the head, or the items that start in [from, to). */
type Piece = { a: number; b: number; from?: undefined } | { from: number; to: number; exact: boolean };

/**
 * Every batch's answer for the items of the raw response `bytes`, shaped by `shape`, found by the
 * workers in ranges of it — or null when the response is not for this path (small, no pool, not a
 * list or an object keyed by id of plain items…), or turns out not to be: then nothing was answered,
 * and the caller verifies it the usual way.
 *
 * @example
 * const parts = (await rangeAnswers(ctx, spec, body, signal, (a) => a)) ?? (await theUsualWay());
 */
export async function rangeAnswers<P>(
  ctx: VerifierContext,
  spec: KindSpec,
  bytes: Uint8Array,
  signal: AbortSignal | undefined,
  shape: (a: BatchAnswer) => P,
): Promise<P[] | null> {
  const { settings, pool, plan, maxRunning } = ctx;
  const { headStart, jsonOptions } = settings;
  if (!pool || !headStart || !spec.packJsonMany || signal?.aborted) return null;
  if (bytes.length < headStart.from || bytes.length > settings.maxBytes || parsedWhole(bytes.length, jsonOptions)) return null;
  if (hasRememberedTape(bytes) || !rangesAvailable()) return null;
  const decodeBelow = scanDecodeBelow(jsonOptions);
  const head = scanHead(spec, bytes, decodeBelow, headStart.firstPart);
  if (!head) return null;
  const { guess, have, end } = head;
  const tape = guess.tape;
  const keyed = guess.keys !== null;
  const response = shareResponse(bytes);
  response.upTo(end);
  // Sizes from the head: its bytes per item, and the items the rest of the text holds at that rate.
  const perItem = Math.max(1, (end - tape.start(keyed ? guess.keys![0]! : guess.values[0]!)) / have);
  const itemsAfter = (at: number): number => Math.max(1, Math.round((bytes.length - at) / perItem));
  let a = 0;
  let from = end;
  let closed = false;
  const next = (size: number): Piece | null => {
    if (a < have) return { a, b: (a = Math.min(have, a + size)) };
    if (closed || from >= bytes.length) return null;
    let to = Math.min(bytes.length, from + Math.ceil(plan.taper(size, itemsAfter(from)) * perItem));
    // No range of less than an item at the end.
    if (bytes.length - to < perItem) to = bytes.length;
    const piece = { from, to, exact: from === end };
    from = to;
    return piece;
  };
  // Never rejects: a batch that failed (null) sends the response the usual way, which fails it again
  // with the error it gives (or verifies it, if the failure came from a range misread).
  const run = async (piece: Piece): Promise<{ piece: Piece; res: BatchResult | null }> => {
    try {
      if (piece.from === undefined) {
        const { a: x, b: y } = piece;
        // Packed again from a copy should a worker die on it: the tape is released by then.
        const buf = packJsonBatch(guess, x, y, ctx.spare.pop());
        const copy = buf.slice(0, 8 + 16 * (y - x));
        const res = await ctx.runner.run(spec.name, buf, y - x, drop.signal, () => copy.slice(0), response);
        keepSpare(ctx, res.buf);
        return { piece, res };
      }
      const { from: f, to, exact } = piece;
      const limit = Math.min(bytes.length, to + SLACK);
      response.upTo(limit);
      const batch = (): ArrayBuffer => packRangeBatch(f, to, limit, exact, keyed);
      // Run with 0 items: the pool counts the items its worker finds.
      return { piece, res: await ctx.runner.run(spec.name, batch(), 0, drop.signal, batch, response) };
    } catch {
      return { piece, res: null };
    }
  };
  // The batches run under a signal of their own, following the caller's: handed back, the ones still
  // queued are taken off at once (the usual path's batches would wait behind them).
  const drop = new AbortController();
  const onAbort = (): void => drop.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const parts: P[] = [];
  const handBack = (): null => {
    rangeCounts.handedBack++;
    drop.abort();
    return null;
  };
  // Where the next range's first item must start (the first range starts exactly: set by it).
  let expect = -1;
  let closeAt = -1;
  try {
    for await (const { piece, res } of pipeline(next, run, plan.sizeFor(spec, have + itemsAfter(end)), 2 * maxRunning, maxRunning, signal)) {
      if (!res) {
        if (signal?.aborted) throw abortError(ErrorCodes.MERKLE_ABORTED, signal, 'verification', { terse: true });
        return handBack();
      }
      if (res.bad !== undefined) return handBack();
      if (piece.from !== undefined) {
        const r = res.range!;
        if (r.status === RANGE_NONE) {
          // No item starts in this range: right only when the next one starts past it.
          if (expect < piece.to) return handBack();
          continue;
        }
        if ((r.status !== RANGE_NEXT && r.status !== RANGE_END) || (!piece.exact && r.first !== expect)) return handBack();
        if (r.status === RANGE_END) {
          closeAt = r.next;
          closed = true;
        } else expect = r.next;
      }
      if (res.valid.length > 0) parts.push(shape({ n: res.valid.length, codes: res.valid, extras: res.extras, ...(res.idLens ? { ids: res.ids ?? '', lens: res.idLens } : {}) }));
      // Ranges past the container's end hold no items (only the text after it): not waited for.
      if (closeAt >= 0) break;
    }
    drop.abort();
    if (closeAt < 0 || !joins(spec, bytes, head, closeAt, decodeBelow)) return handBack();
  } finally {
    signal?.removeEventListener('abort', onAbort);
    tape.release();
  }
  rangeCounts.answered++;
  if (!response.callers && response.sab) releaseResponse(response.sab);
  return parts;
}

/**
 * Scan the head of `bytes` a part at a time until the items' container is known and holds complete
 * items spanning at least `decodeBelow` bytes (so the container is read lazily in the text `joins`
 * checks, as in the response); null when that does not happen early (or the head is not JSON).
 */
function scanHead(spec: KindSpec, bytes: Uint8Array, decodeBelow: number, part: number): Head | null {
  const scan = new JsonScan(bytes, { decodeBelow });
  const guess = new ItemsSoFar(spec, scan.tape);
  try {
    for (let parts = 0, stop = part; parts < MAX_PARTS; parts++, stop = scan.reached + part) {
      // Scanned to the end: there is nothing left to cut.
      if (scan.advance(stop) || guess.gaveUp) break;
      const have = guess.update();
      if (guess.gaveUp) break;
      if (have === 0) continue;
      const end = scan.tape.end(guess.values[have - 1]!);
      if (end - scan.tape.start(guess.containerEntry) >= decodeBelow) return { guess, have, end };
    }
  } catch {
    // Not JSON in the head: the usual path names the error (a failed scan gave its tape back).
    return null;
  }
  scan.tape.release();
  return null;
}

/**
 * True when the text around the items — the head up to the last item scanned there, then everything
 * from the container's closing bracket at `closeAt` on — scans, and its items are found (the same
 * envelopes peeled, extract.ts) in the same container, holding exactly the head's items. The members
 * left out are items the workers read, each an object or null (keyed: with a key no envelope test
 * reads), so the whole response is found the same way.
 */
function joins(spec: KindSpec, bytes: Uint8Array, head: Head, closeAt: number, decodeBelow: number): boolean {
  const { guess, have, end } = head;
  const text = Buffer.concat([bytes.subarray(0, end), bytes.subarray(closeAt)]);
  let tape;
  try {
    tape = scanJson(text, { decodeBelow });
  } catch {
    return false;
  }
  try {
    // Scanned, not parsed whole, as the response is.
    const found = extractFromTape(spec, tape, { parseBelow: 0 });
    if (Array.isArray(found) || found.values.length !== have || (found.keys === null) !== (guess.keys === null)) return false;
    for (let i = 0; i < have; i++) {
      if (tape.start(found.values[i]!) !== guess.tape.start(guess.values[i]!)) return false;
      if (found.keys && tape.start(found.keys[i]!) !== guess.tape.start(guess.keys![i]!)) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    tape.release();
  }
}
