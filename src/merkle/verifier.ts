/**
 * `createVerifier`: the public face of the worker pool. Items are found in the JSON on the main thread
 * (kinds/) and packed as they are into batches (records/batch-writer.ts: a cheap copy, no
 * decoding), decoded and verified in workers (worker.ts), and the verdicts come back in input order.
 * The main thread is the part that does not scale with threads, so it does as little per item as it
 * can. `verifyStream` keeps at most `threads × inflightPerThread` batches in flight and pulls from its
 * source only as the consumer reads, so memory stays bounded whatever the input size.
 */
import { abortError } from '../abort.js';
import { ErrorCodes, InputError } from '../errors.js';
import { BatchWriter } from './records/batch-writer.js';
import { noItemOfKind, type KeyedItem } from './envelopes.js';
import { getKind, notAnItem, type KindSpec } from './kinds/index.js';
import { packItem, verifyBatch } from './kinds/verify-batch.js';
import { extractJson, type JsonItems } from './json/extract.js';
import { packJsonBatch, verifyJsonBatch } from './json/batch.js';
import { hasRememberedTape, scanJson } from '../json/tape.js';
import { PoolClosedError, WorkerPool, type BatchResult } from './pool.js';
import type { Verdict } from './verdict.js';
import { joinVerdicts, verdictsOf, type BatchAnswer } from './batch-answer.js';
import { VerdictTable } from './verdict-table.js';
import { DEFAULT_MAX_BYTES, InputTooLargeError } from './input-too-large.js';
import { inPlace, releaseResponse, shareResponse, type JsonSource } from './shared-response.js';
import { pipeline } from './pipeline.js';
import { FIRST_PART, HEAD_START_FROM, scanWithHeadStart, type Chunk, type HeadStart, type HeadStartVerifier } from './head-start.js';
import type { Verifier, VerifierOptions } from './verifier-types.js';

/** The largest `maxBytes`: the batches' offsets into a response are 32-bit. */
const MAX_BYTES_CAP = 0xffffffff;

/**
 * Create a verifier backed by `threads` worker threads.
 *
 * @example
 * const v = createVerifier({ threads: 2 });
 * try {
 *   const verdicts = await v.verify('account-proof', json);
 *   console.log(verdicts.filter((x) => !x.valid));
 * } finally {
 *   await v.close();
 * }
 */
export function createVerifier(options: VerifierOptions = {}): Verifier {
  if (options.batchSize !== undefined && (!Number.isInteger(options.batchSize) || options.batchSize < 1)) {
    throw new InputError('batchSize', `expected a positive integer, got ${String(options.batchSize)}`);
  }
  const inflightPerThread = options.inflightPerThread ?? 2;
  if (!Number.isInteger(inflightPerThread) || inflightPerThread < 1 || inflightPerThread > 64) {
    throw new InputError('inflightPerThread', `expected an integer 1–64, got ${String(inflightPerThread)}`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > MAX_BYTES_CAP) {
    throw new InputError('maxBytes', `expected an integer 1–${MAX_BYTES_CAP}, got ${String(options.maxBytes)}`);
  }
  const inline = options.threads === 0;
  const jsonOptions = options.jsonParseBelow === undefined ? {} : { parseBelow: options.jsonParseBelow };
  const headStart = options.jsonHeadStart ?? { from: HEAD_START_FROM, firstPart: FIRST_PART };
  const pool = inline ? null : new WorkerPool({ threads: options.threads, depth: inflightPerThread, testHooks: options.testHooks });
  let inlineClosed = false;
  let inlineCompleted = 0;
  const threads = pool ? pool.threads : 0;
  const maxRunning = Math.max(1, threads * inflightPerThread);
  /** Packed bytes per item seen so far, per kind: the next batch buffer is sized from it. */
  const recordBytes = new Map<string, number>();
  /** Batch buffers the workers handed back, packed into again (at most one per batch in flight). */
  const spare: ArrayBuffer[] = [];

  /** One framed batch: on a worker, or here when the verifier is inline. */
  async function runBatch(kind: string, buf: ArrayBuffer, items: number, signal: AbortSignal | undefined, repack: () => ArrayBuffer, json?: JsonSource): Promise<BatchResult> {
    if (pool) return pool.run(kind, buf, items, { ...(signal ? { signal } : {}), repack, ...(json ? { json: true, shared: json.sab!, sharedAt: json.at } : {}) });
    if (inlineClosed) throw new PoolClosedError(kind);
    if (signal?.aborted) throw abortError(ErrorCodes.MERKLE_ABORTED, signal, 'verification', { terse: true });
    // Yield between batches so a long inline run still lets timers and aborts through.
    await new Promise<void>((r) => setImmediate(r));
    if (signal?.aborted) throw abortError(ErrorCodes.MERKLE_ABORTED, signal, 'verification', { terse: true });
    if (json) {
      const r = verifyJsonBatch(kind, buf, json.view);
      if ('bad' in r) return { valid: new Uint8Array(0), extras: [], bad: r.bad, buf };
      inlineCompleted += items;
      return { ...r, buf };
    }
    const r = verifyBatch(kind, buf);
    inlineCompleted += items;
    return { ...r, buf };
  }

  /** Batch size for `total` items (unknown for streams). */
  function sizeFor(spec: KindSpec, total?: number): number {
    if (options.batchSize !== undefined) return options.batchSize;
    // A short list is cut so each thread gets about four batches: the run then ends with every
    // thread finishing at nearly the same time instead of one working alone on a last big batch.
    if (total !== undefined && threads > 1) return Math.max(1, Math.min(spec.batchSize, Math.ceil(total / (threads * 4))));
    return spec.batchSize;
  }

  /**
   * The next chunk's size with `remaining` items left: `size` until the last few rounds, then
   * shrinking, so the threads finish together instead of one working alone through a last full
   * batch while the others idle (half a batch of one thread's time, ~2% of a 40,000-proof run).
   */
  function taper(size: number, remaining: number): number {
    if (threads < 2 || options.batchSize !== undefined) return size;
    return Math.max(1, Math.min(size, Math.max(Math.ceil(size / 8), Math.ceil(remaining / (2 * threads)))));
  }

  /** Pack one chunk of parsed items and run it. */
  async function runChunk(spec: KindSpec, chunk: KeyedItem[], signal?: AbortSignal): Promise<BatchAnswer> {
    const n = chunk.length;
    const pack = (): ArrayBuffer => {
      const w = new BatchWriter(n, recordBytes.get(spec.name) ?? spec.recordBytes, spare.pop());
      for (let i = 0; i < n; i++) packItem(spec, chunk[i]!.item, w);
      recordBytes.set(spec.name, Math.ceil((w.length / n) * 1.1));
      return w.finish();
    };
    const res = await runBatch(spec.name, pack(), n, signal, pack);
    if (res.buf && spare.length < maxRunning) spare.push(res.buf);
    return { n, codes: res.valid, extras: res.extras, items: chunk };
  }

  /** Items `a … b-1` of a scanned response, decoded from `response` and named by a worker. */
  function startJsonChunk(spec: KindSpec, items: Pick<JsonItems, 'tape' | 'values' | 'keys'>, response: JsonSource, a: number, b: number, signal?: AbortSignal): Promise<BatchResult> {
    // Chunks start in order, so the copy only ever grows: every byte of these items is in it.
    response.upTo(items.tape.end(items.values[b - 1]!));
    return runBatch(spec.name, packJsonBatch(items, a, b, spare.pop()), b - a, signal, () => packJsonBatch(items, a, b), response);
  }

  /** The answer for items `a … b-1` (`found`: the items of the whole response), named by the worker. */
  function finishJsonChunk(spec: KindSpec, found: JsonItems, a: number, b: number, res: BatchResult): BatchAnswer {
    if (res.buf && spare.length < maxRunning) spare.push(res.buf);
    if (res.bad !== undefined) {
      // A skimmed item may not even be JSON (its worker could not parse it): a plain scan names the
      // first syntax error, as it would have without skimming.
      if (found.tape.skimmed) scanJson(found.tape.bytes).release();
      // Exactly the error the parsed input gives (extractWith / unwrapItems).
      throw found.container ? noItemOfKind(found.container) : notAnItem(spec, found.tape.value(found.values[a + res.bad]!), a + res.bad)!;
    }
    return { n: b - a, codes: res.valid, extras: res.extras, ...(res.idLens ? { ids: res.ids ?? '', lens: res.idLens } : {}) };
  }

  /** What a head-start scan (head-start.ts) asks of this verifier. */
  const headStartVerifier: HeadStartVerifier = { jsonOptions, maxRunning, sizeFor, startJsonChunk };

  /**
   * Every batch's answer for `input`, each turned by `shape` as it arrives, in order. `verify` makes
   * the verdicts there, a batch at a time; `verifyTable` keeps the answers.
   */
  async function answersOf<P>(spec: KindSpec, input: unknown, signal: AbortSignal | undefined, shape: (a: BatchAnswer) => P): Promise<P[]> {
    // Each batch's verdicts (for `verify`) go into an array of their own, in order; the answer is made
    // of them at the end. An answer array made first lives through the whole verify, so the young-generation
    // collector moves it to the old generation, and from there it keeps every verdict stored in it
    // later alive after the caller drops it, until a full collection: each verdict and its id were
    // copied twice (~0.3 µs per asset proof across the calling thread and V8's helper threads,
    // which share the two cores with the workers). The copy at the end takes ~1 ns per item.
    const parts: P[] = [];
    for await (const part of answers(spec, input, signal, shape)) parts.push(part);
    return parts;
  }

  /**
   * `answersOf`, yielded a batch at a time in order: nothing is kept here once the consumer has taken
   * a batch (`verifyBatches`). The batches in flight are as many as the pool runs, and the consumer
   * taking its time holds them back.
   */
  async function* answers<P>(spec: KindSpec, input: unknown, signal: AbortSignal | undefined, shape: (a: BatchAnswer) => P): AsyncGenerator<P> {
    if (signal?.aborted) throw abortError(ErrorCodes.MERKLE_ABORTED, signal, 'verification', { terse: true });
    const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input instanceof Uint8Array ? input : null;
    if (bytes && bytes.length > maxBytes) throw new InputTooLargeError('input', maxBytes, bytes.length, "raise the verifier's maxBytes to take it");
    // A large response not scanned yet: the workers start on its first items while the rest is scanned.
    let shared: JsonSource | undefined;
    let head: HeadStart | undefined;
    if (bytes && pool && headStart && bytes.length >= headStart.from && !hasRememberedTape(bytes)) {
      shared = shareResponse(bytes);
      head = await scanWithHeadStart(headStartVerifier, spec, bytes, shared, signal, headStart.firstPart);
    }
    try {
      const found = head ? head.found : bytes ? extractJson(spec, bytes, jsonOptions) : spec.extract(input);
      let at = 0;
      // The items are in memory already: a wider window than a stream's costs nothing.
      if (Array.isArray(found)) {
        const next = (size: number): KeyedItem[] | null => (at >= found.length ? null : found.slice(at, (at += taper(size, found.length - at))));
        const run = async (chunk: KeyedItem[]): Promise<P> => shape(await runChunk(spec, chunk, signal));
        yield* pipeline(next, run, sizeFor(spec, found.length), 2 * maxRunning, maxRunning, signal);
      } else {
        const total = found.values.length;
        let early = head?.early ?? [];
        // The early batches go first; the rest starts after them.
        at = early.length > 0 ? early[early.length - 1]!.b : 0;
        const next = (size: number): Chunk | null => {
          if (early.length > 0) return early.shift()!;
          return at < total ? { a: at, b: (at = Math.min(total, at + taper(size, total - at))) } : null;
        };
        // Workers read the items from one shared copy of the response (one sequential copy here,
        // instead of a copy per batch); inline, the batches point into the caller's bytes as they are.
        const response = shared ?? (pool && total > 0 ? shareResponse(found.tape.bytes) : inPlace(found.tape.bytes));
        const run = async ({ a, b, res }: Chunk): Promise<P> => shape(finishJsonChunk(spec, found, a, b, await (res ?? startJsonChunk(spec, found, response, a, b, signal))));
        try {
          yield* pipeline(next, run, sizeFor(spec, total), 2 * maxRunning, maxRunning, signal);
        } finally {
          // Early batches the pipeline never took (it stopped on an error) must not reject unobserved.
          for (const c of early) c.res!.catch(() => {});
          early = [];
        }
        // Every batch has answered: nothing reads the tape or the shared copy again (after a failure,
        // batches still in flight may need them to repack, so they are left to the garbage collector).
        found.tape.release();
        if (response.sab && !response.callers) releaseResponse(response.sab);
      }
    } finally {
      head?.done();
    }
  }

  return {
    threads,
    get utilization() {
      return pool ? pool.utilization : 0;
    },
    get kernels() {
      return pool ? pool.backends : null;
    },
    get completed() {
      return pool ? pool.completedItems : inlineCompleted;
    },
    async verify(kind, input, opts = {}) {
      const spec = getKind(kind);
      const parts = await answersOf(spec, input, opts.signal, (a) => verdictsOf(spec, a));
      return parts.length === 1 ? parts[0]! : joinVerdicts(parts);
    },
    async verifyTable(kind, input, opts = {}) {
      const spec = getKind(kind);
      return new VerdictTable(spec, await answersOf(spec, input, opts.signal, (a) => a));
    },
    verifyBatches(kind, input, opts = {}) {
      const spec = getKind(kind);
      return answers(spec, input, opts.signal, (a) => new VerdictTable(spec, [a]));
    },
    verifyStream(kind, source, opts = {}) {
      // An unknown kind throws here, at the call, not at the first read.
      return stream(getKind(kind), source, opts.signal);
    },
    async close() {
      inlineClosed = true;
      if (pool) await pool.close();
    },
  };

  /** `verifyStream`: items pulled a batch at a time, only as the consumer reads. */
  async function* stream(spec: KindSpec, source: AsyncIterable<unknown> | Iterable<unknown>, signal?: AbortSignal): AsyncGenerator<Verdict> {
    const it = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : (source as Iterable<unknown>)[Symbol.iterator]();
    let i = 0;
    /** A failure (the source's, or an item not of the kind) met after the items of a chunk. */
    let failed: { error: unknown } | null = null;
    const next = async (size: number): Promise<KeyedItem[] | null> => {
      if (failed) throw failed.error;
      const chunk: KeyedItem[] = [];
      try {
        while (chunk.length < size) {
          const r = await it.next();
          if (r.done) break;
          const item = r.value as unknown;
          // verify's rule: null (nothing known for that id) is an invalid verdict, anything else not
          // of the kind is an error naming the item.
          const bad = notAnItem(spec, item, i);
          if (bad) throw bad;
          i++;
          chunk.push({ item });
        }
      } catch (e) {
        // The items before it are verified and yielded first.
        if (chunk.length === 0) throw e;
        failed = { error: e };
      }
      return chunk.length > 0 ? chunk : null;
    };
    try {
      const run = async (chunk: KeyedItem[]): Promise<Verdict[]> => verdictsOf(spec, await runChunk(spec, chunk, signal));
      for await (const verdicts of pipeline(next, run, sizeFor(spec), maxRunning, maxRunning, signal)) yield* verdicts;
    } finally {
      await it.return?.();
    }
  }
}
