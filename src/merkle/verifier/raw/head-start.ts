/**
 * The head start of a large raw response: it is scanned a part at a time, and batches of the items
 * found so far go out to the workers while the rest is scanned (see `scanWithHeadStart`).
 */
import { abortError } from '../../../abort.js';
import { ErrorCodes } from '../../../errors/index.js';
import type { KeyedItem } from '../../kinds/envelopes.js';
import type { KindSpec } from '../../kinds/index.js';
import { extractFromTape, scanDecodeBelow, type JsonItems } from './extract.js';
import { ItemsSoFar } from './items-so-far.js';
import { JsonScan, scanJson } from '../../../json/index.js';
import type { BatchResult } from '../../pool.js';
import type { JsonSource } from './share-response.js';

/** Responses from this size on are scanned a part at a time, the first batches sent out early. */
export const HEAD_START_FROM = 1 << 20;
/** The first part of such a scan, in bytes (enough to see the envelope and the first items). */
export const FIRST_PART = 256 * 1024;

/** Items `a … b-1` of a response, and their batch's answer once it is sent out. */
export interface Chunk {
  a: number;
  b: number;
  res?: Promise<BatchResult>;
}

/** A response scanned with a head start: its items, the batches sent out early, and the cleanup. */
export interface HeadStart {
  found: JsonItems | KeyedItem[];
  early: Chunk[];
  done: () => void;
}

/** What a head-start scan asks of the verifier running it. */
export interface HeadStartVerifier {
  readonly jsonOptions: { parseBelow?: number };
  /** Batches the pool runs at once. */
  readonly maxRunning: number;
  /** Batch size for `total` items. */
  sizeFor(spec: KindSpec, total?: number): number;
  /** Send items `a … b-1` of a scanned response out as one batch. */
  startJsonChunk(spec: KindSpec, items: Pick<JsonItems, 'tape' | 'values' | 'keys'>, response: JsonSource, a: number, b: number, signal?: AbortSignal): Promise<BatchResult>;
}

/**
 * Scan a large response a part at a time and send out batches of the items found so far (see
 * items-so-far.ts) as the workers have room for them: the workers start a few hundred
 * microseconds in instead of after the whole scan (~0.25 µs per asset proof, ~4% of a 2-thread run,
 * when nothing else could run), and are fed while the rest is scanned. Between parts the scan lets
 * the workers' answers in: scanning the rest in one go held them until it was done (answers seen
 * 2–4 ms late in a 2-thread verify of 50,000 asset proofs, and a worker left with nothing queued
 * for 8–15 ms when the scan ran slow), and the longer the response the longer the wait. The
 * finished tape is peeled as without a head start; the early batches count only if they hold the
 * same items, else they are dropped.
 */
export async function scanWithHeadStart(
  verifier: HeadStartVerifier,
  spec: KindSpec,
  bytes: Uint8Array,
  response: JsonSource,
  signal: AbortSignal | undefined,
  part: number,
): Promise<HeadStart> {
  const { jsonOptions, maxRunning, sizeFor, startJsonChunk } = verifier;
  const scan = new JsonScan(bytes, { decodeBelow: scanDecodeBelow(jsonOptions) });
  const guess = new ItemsSoFar(spec, scan.tape);
  // Early batches run under their own signal: dropped ones are taken off the queue at once. It
  // follows the caller's until the verify ends (`done`).
  const drop = new AbortController();
  const onAbort = (): void => drop.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  const done = (): void => signal?.removeEventListener('abort', onAbort);
  const early: Chunk[] = [];
  const dropAll = (): void => {
    drop.abort();
    for (const c of early) c.res!.catch(() => {});
  };
  // Early batches sent and not answered yet: at most as many as the pool runs at once.
  let running = 0;
  const answered = (): void => void running--;
  try {
    let stop = part;
    let sent = 0;
    let size = 0;
    let skimming = false;
    let sending = true;
    while (!scan.advance(stop)) {
      // Each part is copied to shared memory while it is still in the cache from the scan (a
      // response too large for the cache was read from memory twice otherwise).
      response.upTo(scan.reached);
      let have = 0;
      if (sending && scan.restarted) sending = false;
      if (sending) {
        // Only as many items as the batches the pool has room for (all of them until the batch size is known).
        have = guess.update(size === 0 ? Infinity : sent + size * Math.max(0, maxRunning - running));
        // The items' container is known and its first item looks right: the rest of its items are
        // skimmed (their ends found by brackets alone, in about a third of the time scanning them
        // takes) for a kind whose workers read every item's text with a strict packer or JSON.parse
        // anyway. The main thread's scan is the work per item that does not scale with threads.
        if (!skimming && have > 0 && spec.packJson) skimming = scan.skimChildrenOf(guess.containerEntry);
        if (guess.gaveUp && have <= sent) sending = false;
        if (have > 0 && size === 0) size = sizeFor(spec, Math.ceil((have * bytes.length) / scan.reached));
        while (sending && size > 0 && have - sent >= size && running < maxRunning) {
          const res = startJsonChunk(spec, guess, response, sent, sent + size, drop.signal);
          running++;
          res.then(answered, answered);
          early.push({ a: sent, b: sent + size, res });
          sent += size;
        }
      }
      if (early.length > 0) {
        // Let the answers in, so that the next batches go out while the rest is scanned.
        await new Promise<void>((r) => setImmediate(r));
        if (signal?.aborted) throw abortError(ErrorCodes.MERKLE_ABORTED, signal, 'verification', { terse: true });
      }
      // On to about the end of the next batch while the pool has room (a part at least, in case the
      // guess is not made yet), else a part.
      const perItem = have > 0 ? scan.reached / have : 0;
      stop = scan.reached + (sending && running < maxRunning ? Math.max(part / 4, perItem * ((size || 1) - (have - sent))) : part);
    }
    response.upTo(bytes.length);
    if (signal?.aborted) throw abortError(ErrorCodes.MERKLE_ABORTED, signal, 'verification', { terse: true });
    const found = skimming ? extractSkimmed(spec, scan, guess, jsonOptions) : extractFromTape(spec, scan.tape, jsonOptions);
    if (early.length > 0 && (scan.restarted || Array.isArray(found) || !guess.agrees(found, early[early.length - 1]!.b))) {
      dropAll();
      return { found, early: [], done };
    }
    return { found, early, done };
  } catch (e) {
    dropAll();
    done();
    throw e;
  }
}

/**
 * The items of a response whose scan skimmed the guessed container's items: trusted only when the
 * envelopes lead to that very container (its first item is the guess's). Anything else — the
 * envelopes were not what the guess took them for, or they need a skimmed object's members — is
 * found again on a plain scan, so the answer and any error are exactly those of one.
 */
function extractSkimmed(spec: KindSpec, scan: JsonScan, guess: ItemsSoFar, jsonOptions: { parseBelow?: number }): JsonItems | KeyedItem[] {
  // It started over without skimming (src/json/index.ts): a plain tape.
  if (!scan.tape.skimmed) return extractFromTape(spec, scan.tape, jsonOptions);
  try {
    const found = extractFromTape(spec, scan.tape, jsonOptions);
    if (!Array.isArray(found) && guess.agrees(found, 1)) return found;
  } catch {
    // Found again below, with the plain scan's answer or error.
  }
  scan.tape.release();
  return extractFromTape(spec, scanJson(scan.bytes, { decodeBelow: scanDecodeBelow(jsonOptions) }), jsonOptions);
}
