/**
 * `createVerifier`: the public face of the worker pool. JSON items are parsed once on the main thread
 * (kinds.ts), framed into batches of records (codec.ts), verified in workers (worker.ts), and the
 * verdicts come back in input order. `verifyStream` keeps at most `2 × threads` batches in flight and
 * pulls from its source only as the consumer reads, so memory stays bounded whatever the input size.
 */
import { InputError } from '../errors.js';
import { encodeBatch, type KeyedItem } from './codec.js';
import { encodeItem, getKind, verifyBatch, type KindName, type KindSpec } from './kinds.js';
import { abortError, PoolClosedError, WorkerPool, type BatchResult } from './pool.js';
import type { Verdict } from './verdict.js';

export interface VerifierOptions {
  /**
   * Worker threads (default: available parallelism). `0` verifies on the calling thread: no start-up
   * cost, for a handful of items.
   */
  threads?: number;
  /** Items per batch; default per kind (small for Poseidon paths, large for keccak). */
  batchSize?: number;
  /** Batches in flight per thread for streams (default 2). */
  inflightPerThread?: number;
  /** @internal pool crash tests */
  testHooks?: boolean;
}

export interface VerifyOptions {
  signal?: AbortSignal;
}

export interface Verifier {
  readonly threads: number;
  /**
   * Verify a list of items (or any response envelope holding them); verdicts in input order.
   * Rejects with `InputError` when an item is not of the kind, `WorkerCrashedError` when a worker
   * died on a batch, `AbortError` on abort.
   */
  verify(kind: KindName, input: unknown, options?: VerifyOptions): Promise<Verdict[]>;
  /** Verify items from an (async) iterable, yielding verdicts in order, with backpressure. */
  verifyStream(kind: KindName, source: AsyncIterable<unknown> | Iterable<unknown>, options?: VerifyOptions): AsyncGenerator<Verdict>;
  /** Fraction of wall time workers were busy. */
  readonly utilization: number;
  /** Items verified so far. */
  readonly completed: number;
  /** Stop every worker; nothing is left running. */
  close(): Promise<void>;
}

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
  const inline = options.threads === 0;
  const pool = inline ? null : new WorkerPool({ threads: options.threads, testHooks: options.testHooks });
  let inlineClosed = false;
  let inlineCompleted = 0;
  const threads = pool ? pool.threads : 0;

  /** One framed batch: on a worker, or here when the verifier is inline. */
  async function runBatch(kind: string, buf: ArrayBuffer, items: number, signal?: AbortSignal): Promise<BatchResult> {
    if (pool) return pool.run(kind, buf, items, signal);
    if (inlineClosed) throw new PoolClosedError(kind);
    if (signal?.aborted) throw abortError(signal);
    // Yield between batches so a long inline run still lets timers and aborts through.
    await new Promise<void>((r) => setImmediate(r));
    if (signal?.aborted) throw abortError(signal);
    const r = verifyBatch(kind, buf);
    inlineCompleted += items;
    return r;
  }
  const inflightPerThread = options.inflightPerThread ?? 2;
  if (options.batchSize !== undefined && (!Number.isInteger(options.batchSize) || options.batchSize < 1)) {
    throw new InputError('batchSize', `expected a positive integer, got ${String(options.batchSize)}`);
  }

  /** Encode one chunk, run it, and assemble its verdicts in order. */
  async function runChunk(spec: KindSpec, kindName: string, chunk: KeyedItem[], signal?: AbortSignal): Promise<Verdict[]> {
    const records: Uint8Array[] = new Array(chunk.length);
    const verdicts: Verdict[] = new Array(chunk.length);
    const ids: (string | undefined)[] = new Array(chunk.length);
    let toWorker = 0;
    for (let i = 0; i < chunk.length; i++) {
      const { item, key } = chunk[i]!;
      ids[i] = key ?? spec.id(item, key);
      const r = encodeItem(spec, item);
      if ('record' in r) {
        records[i] = r.record;
        toWorker++;
      } else {
        records[i] = new Uint8Array(0);
        verdicts[i] = r.verdict;
      }
    }
    if (toWorker > 0) {
      const res = await runBatch(kindName, encodeBatch(records), chunk.length, signal);
      const extras = new Map(res.extras);
      for (let i = 0; i < chunk.length; i++) {
        if (verdicts[i]) continue;
        verdicts[i] = extras.get(i) ?? { valid: res.valid[i] === 1 };
      }
    }
    for (let i = 0; i < chunk.length; i++) {
      const v = verdicts[i]!;
      verdicts[i] = ids[i] === undefined ? v : { id: ids[i], ...v };
    }
    return verdicts;
  }

  async function* pipeline(spec: KindSpec, source: AsyncIterable<KeyedItem> | Iterable<KeyedItem>, signal?: AbortSignal): AsyncGenerator<Verdict> {
    const size = options.batchSize ?? spec.batchSize;
    const maxInflight = Math.max(1, threads * inflightPerThread);
    const inflight: Promise<Verdict[]>[] = [];
    const launch = (chunk: KeyedItem[]): void => {
      const p = runChunk(spec, spec.name, chunk, signal);
      // Chunks behind a failed one may fail too; their rejections are observed here so none goes
      // unhandled, and the first failure in order is the one the consumer sees.
      p.catch(() => {});
      inflight.push(p);
    };
    let chunk: KeyedItem[] = [];
    try {
      for await (const it of source as AsyncIterable<KeyedItem>) {
        if (signal?.aborted) throw abortError(signal);
        chunk.push(it);
        if (chunk.length >= size) {
          launch(chunk);
          chunk = [];
          while (inflight.length >= maxInflight) yield* await inflight.shift()!;
        }
      }
      if (chunk.length) launch(chunk);
      chunk = [];
      while (inflight.length) yield* await inflight.shift()!;
    } finally {
      inflight.length = 0;
    }
  }

  async function* keyed(spec: KindSpec, source: AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<KeyedItem> {
    let i = 0;
    for await (const item of source as AsyncIterable<unknown>) {
      const o = item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : null;
      if (!o || !spec.looksLike(o)) throw new InputError(`items[${i}]`, `not a ${spec.name} item`);
      i++;
      yield { item };
    }
  }

  return {
    threads,
    get utilization() {
      return pool ? pool.utilization : 0;
    },
    get completed() {
      return pool ? pool.completedItems : inlineCompleted;
    },
    async verify(kind, input, opts = {}) {
      const spec = getKind(kind);
      if (opts.signal?.aborted) throw abortError(opts.signal);
      const items = spec.extract(input);
      const out: Verdict[] = [];
      for await (const v of pipeline(spec, items, opts.signal)) out.push(v);
      return out;
    },
    verifyStream(kind, source, opts = {}) {
      const spec = getKind(kind);
      return pipeline(spec, keyed(spec, source), opts.signal);
    },
    async close() {
      inlineClosed = true;
      if (pool) await pool.close();
    },
  };
}
