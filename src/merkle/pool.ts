/**
 * A small pool of `worker_threads` that verify framed batches (see records/format.ts). A FIFO queue in front;
 * each worker is handed up to `depth` batches at once (default 2), so the next one already waits in
 * its port when it finishes one and it never idles while the main thread is busy packing. Batches
 * travel as transferred `ArrayBuffer`s, never copied. A worker that dies fails only the batch it was
 * running (with `WorkerCrashedError`); the batches queued behind it go to its replacement. `close()`
 * terminates every thread; idle workers are `unref()`ed so a forgotten pool never holds the process.
 *
 * Workers must load TypeScript when cairn runs from source (vitest, tsx) and plain JS from dist/: the
 * thread starts from a tiny inline bootstrap that registers tsx's loader only when the entry is a
 * `.ts` file, then imports the entry.
 */
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { abortError } from '../abort.js';
import { CairnError, ErrorCodes, fromSerialized, PoolClosedError, WorkerCrashedError } from '../errors/index.js';
import type { Verdict } from './verdict.js';
import type { RangeMeta } from './verifier/raw/range-batch.js';
import type { WorkerReady, WorkerReply, WorkerRequest } from './protocol.js';
import { WORKER_BOOTSTRAP, workerEntry, workerExecArgv } from '../worker-start.js';
import { warnOnce } from '../crypto/index.js';

export interface BatchResult {
  valid: Uint8Array;
  extras: Array<[number, Verdict]>;
  /** The batch buffer, handed back by the worker for the next batch to be packed into. */
  buf?: ArrayBuffer;
  /** JSON batches: the items' ids as the worker read them (verifier/raw/batch.ts). */
  ids?: string;
  idLens?: Uint32Array;
  /** JSON batches: the index of an item that is not of the kind (then `valid` is empty). */
  bad?: number;
  /** Range batches: where the worker found its items (verifier/raw/range-batch.ts). */
  range?: RangeMeta;
}

/** How `WorkerPool.run` runs a batch. */
export interface RunOptions {
  signal?: AbortSignal;
  /** Builds the same batch again (see `run`). */
  repack?: () => ArrayBuffer;
  /** The batch holds raw JSON items, not packed records. */
  json?: boolean;
  /** The response a shared JSON batch's offsets point into, from byte `sharedAt` (default 0). */
  shared?: SharedArrayBuffer;
  sharedAt?: number;
}

export interface PoolOptions {
  /** Number of worker threads (default: available parallelism). */
  threads?: number;
  /** Batches handed to one worker at a time (1 running + the rest waiting in its port; default 2). */
  depth?: number;
  /** Enables the `__crash__`/`__throw__` kinds used by the pool's own tests. */
  testHooks?: boolean;
}

interface Task {
  id: number;
  kind: string;
  buf: ArrayBuffer;
  /** True once `buf` was transferred (detached here). */
  moved: boolean;
  /** Builds the batch again, for a batch moved to a worker that died before starting it. */
  repack?: () => ArrayBuffer;
  items: number;
  /** The batch holds raw JSON items. */
  json: boolean;
  /** The response a shared JSON batch points into, from byte `sharedAt`. */
  shared?: SharedArrayBuffer;
  sharedAt?: number;
  resolve: (r: BatchResult) => void;
  reject: (e: unknown) => void;
  signal?: AbortSignal;
  settled: boolean;
}

interface Slot {
  worker: Worker;
  /** Batches posted to this worker, oldest first; the first is the one it is running. */
  tasks: Task[];
  started: boolean;
  lastError?: Error;
}

/** Consecutive workers that died before answering anything: past this the pool stops respawning. */
const MAX_START_FAILURES = 3;

/** The worker pool. Use `createVerifier` (verifier/create-verifier.ts) unless you are framing batches yourself. */
export class WorkerPool {
  readonly threads: number;
  /** Batches handed to one worker at a time. */
  readonly depth: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  /** The one `close()` under way: every call waits for the same threads to exit. */
  private closing: Promise<void> | null = null;
  /** Threads started and not yet exited (a terminated one counts until its exit). */
  private alive = 0;
  private startFailures = 0;
  private broken: CairnError | null = null;
  private readonly spawnInfo: { entry: string; tsx?: string };
  private readonly testHooks: boolean;
  private kernels: WorkerReady['backends'] | null = null;
  /** Batches and items completed, and total milliseconds workers spent verifying (utilisation). */
  completedBatches = 0;
  completedItems = 0;
  busyMs = 0;
  private readonly createdAt = performance.now();
  /**
   * The batches waiting on each caller's signal, behind ONE abort listener per signal: a listener per
   * batch made Node print MaxListenersExceededWarning from 11 threads on (two batches in flight each),
   * and a long-lived signal shared by many calls carried one per batch.
   */
  private readonly bySignal = new Map<AbortSignal, { tasks: Set<Task>; onAbort: () => void }>();
  /** Slower paths the workers took (slow-paths.ts), summed over their replies. */
  private readonly slow = new Map<string, number>();

  constructor(options: PoolOptions = {}) {
    const n = options.threads ?? availableParallelism();
    if (!Number.isInteger(n) || n < 1 || n > 256) throw new CairnError(ErrorCodes.INPUT_INVALID, `"threads": expected an integer 1–256, got ${String(n)}`, { context: { field: 'threads' } });
    const depth = options.depth ?? 2;
    if (!Number.isInteger(depth) || depth < 1 || depth > 64) throw new CairnError(ErrorCodes.INPUT_INVALID, `"depth": expected an integer 1–64, got ${String(depth)}`, { context: { field: 'depth' } });
    this.threads = n;
    this.depth = depth;
    this.testHooks = options.testHooks === true;
    this.spawnInfo = workerEntry(import.meta.url, 'worker');
    for (let i = 0; i < n; i++) this.slots.push(this.spawn());
  }

  /** Batches waiting for a worker. */
  get queueSize(): number {
    return this.queue.length;
  }

  /** Fraction of wall time the workers spent verifying since the pool started (0–1). */
  get utilization(): number {
    const wall = performance.now() - this.createdAt;
    return wall > 0 ? Math.min(1, this.busyMs / (wall * this.threads)) : 0;
  }

  /** Slower paths the workers took and how often (slow-paths.ts); empty when every batch ran fast. */
  get slowPaths(): Record<string, number> {
    return Object.fromEntries(this.slow);
  }

  /** The hash kernels the workers chose (null until one has started). */
  get backends(): WorkerReady['backends'] | null {
    return this.kernels;
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_BOOTSTRAP, {
      eval: true,
      execArgv: workerExecArgv(),
      workerData: { ...this.spawnInfo, testHooks: this.testHooks, cairnVerifier: true },
      stdout: false,
      stderr: false,
    });
    const slot: Slot = { worker, tasks: [], started: false };
    worker.on('message', (msg: WorkerReply | WorkerReady) => this.onMessage(slot, msg));
    worker.on('error', (e: Error) => {
      slot.lastError = e;
    });
    worker.on('exit', (code: number) => {
      this.alive--;
      this.onExit(slot, code);
    });
    worker.unref();
    this.alive++;
    return slot;
  }

  private onMessage(slot: Slot, msg: WorkerReply | WorkerReady): void {
    if ('ready' in msg) {
      slot.started = true;
      this.startFailures = 0;
      this.kernels ??= msg.backends;
      return;
    }
    if (msg.slow) {
      // Counted, and said once per process on this thread: a fallback that stays quiet is how the
      // packed build ran validity proofs at a fifth of their speed unnoticed.
      for (const [path, n] of msg.slow) {
        this.slow.set(path, (this.slow.get(path) ?? 0) + n);
        warnOnce(path);
      }
    }
    // Replies come in posting order; look the task up by id all the same.
    const at = slot.tasks.findIndex((t) => t.id === msg.id);
    const task = at < 0 ? undefined : slot.tasks.splice(at, 1)[0];
    // Once closing, a worker stays referenced until it has exited (see close).
    if (slot.tasks.length === 0 && !this.closed) slot.worker.unref();
    if (task) {
      this.busyMs += msg.ms;
      this.settle(task, () => {
        if ('error' in msg) task.reject(fromSerialized(msg.error));
        else if ('bad' in msg) {
          const range = msg.range ? { range: msg.range } : {};
          task.resolve({ valid: new Uint8Array(0), extras: [], bad: msg.bad, ...(msg.buf ? { buf: msg.buf } : {}), ...range });
        } else {
          this.completedBatches++;
          // A range batch's items are the ones its worker found (verifier/raw/range-batch.ts).
          this.completedItems += msg.range ? msg.valid.length : task.items;
          task.resolve({
            valid: msg.valid,
            extras: msg.extras,
            ...(msg.buf ? { buf: msg.buf } : {}),
            ...(msg.ids !== undefined ? { ids: msg.ids, idLens: msg.idLens } : {}),
            ...(msg.range ? { range: msg.range } : {}),
          });
        }
      });
    }
    this.pump();
  }

  private onExit(slot: Slot, code: number): void {
    const idx = this.slots.indexOf(slot);
    if (idx < 0) return; // terminated by close()
    if (!slot.started) this.startFailures++;
    // The oldest batch is the one the worker was running; the others never started and run again
    // on the replacement, ahead of everything queued after them.
    const [task, ...waiting] = slot.tasks;
    slot.tasks = [];
    const again = waiting.filter((t) => !t.settled);
    for (const t of again) {
      if (t.moved && t.repack) {
        t.buf = t.repack();
        t.moved = false;
      }
    }
    this.queue.unshift(...again);
    const why = slot.lastError ? `: ${slot.lastError.message}` : '';
    if (task) {
      this.settle(task, () =>
        task.reject(
          new WorkerCrashedError(`a verifier worker died (exit code ${code}) while verifying a batch of ${task.items} ${task.kind} item(s)${why}`, {
            kind: task.kind,
            items: task.items,
            exitCode: code,
            ...(slot.lastError ? { error: slot.lastError.message } : {}),
          }),
        ),
      );
    }
    if (this.closed) {
      this.slots.splice(idx, 1);
      return;
    }
    if (this.startFailures >= MAX_START_FAILURES) {
      // Workers cannot even start (a missing module, a broken loader): respawning would spin forever.
      this.slots.splice(idx, 1);
      this.broken = new WorkerCrashedError(`verifier workers fail to start (exit code ${code})${why}`, { kind: task?.kind ?? '', items: 0, exitCode: code });
      if (this.slots.length === 0) this.failQueue(this.broken);
      return;
    }
    this.slots[idx] = this.spawn();
    this.pump();
  }

  private settle(task: Task, fn: () => void): void {
    if (task.settled) return;
    task.settled = true;
    if (task.signal) this.unwatch(task, task.signal);
    fn();
  }

  /** Reject `task` when `signal` aborts, sharing the signal's one listener with its other batches. */
  private watch(task: Task, signal: AbortSignal): void {
    task.signal = signal;
    let entry = this.bySignal.get(signal);
    if (!entry) {
      const tasks = new Set<Task>();
      // An aborted batch already in a worker finishes there and its answer is dropped: batches are
      // short, and killing the thread would cost more than it saves.
      const onAbort = (): void => {
        this.bySignal.delete(signal);
        for (const t of [...tasks]) this.settle(t, () => t.reject(abortError(ErrorCodes.MERKLE_ABORTED, signal, 'verification', { terse: true })));
      };
      entry = { tasks, onAbort };
      this.bySignal.set(signal, entry);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    entry.tasks.add(task);
  }

  /** `task` no longer waits on `signal`; the signal's listener goes with its last batch. */
  private unwatch(task: Task, signal: AbortSignal): void {
    const entry = this.bySignal.get(signal);
    if (!entry) return;
    entry.tasks.delete(task);
    if (entry.tasks.size === 0) {
      signal.removeEventListener('abort', entry.onAbort);
      this.bySignal.delete(signal);
    }
  }

  private failQueue(err: CairnError): void {
    for (const t of this.queue.splice(0)) this.settle(t, () => t.reject(err));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      // The least loaded worker (an idle one first) takes the next batch.
      let slot: Slot | undefined;
      for (const s of this.slots) if (s.tasks.length < this.depth && (!slot || s.tasks.length < slot.tasks.length)) slot = s;
      if (!slot) return;
      let task = this.queue.shift();
      while (task && task.settled) task = this.queue.shift();
      if (!task) return;
      const req: WorkerRequest = {
        id: task.id,
        kind: task.kind,
        buf: task.buf,
        ...(task.json ? { json: true } : {}),
        ...(task.shared ? { shared: task.shared, sharedAt: task.sharedAt ?? 0 } : {}),
      };
      // A batch that will wait behind another one must survive this worker dying first: it is moved
      // only when it can be packed again, else it is sent as a copy and kept until answered.
      if (slot.tasks.length === 0 || task.repack) {
        slot.worker.postMessage(req, [task.buf]);
        task.moved = true;
      } else {
        slot.worker.postMessage(req);
      }
      if (slot.tasks.push(task) === 1) slot.worker.ref();
    }
  }

  /**
   * Verify one framed batch of `items` records of `kind` on some worker. `repack` (optional) builds
   * the same batch again; with it every batch is moved, never copied, even one that waits behind
   * another in a worker's port (if that worker dies, the waiting batch is packed again). `json`: the
   * batch holds raw JSON items (verifier/raw/batch.ts `packJsonBatch`), pointing into `shared` if given.
   *
   * @example
   * const r = await pool.run('account-proof', writer.finish(), items.length);
   */
  run(kind: string, buf: ArrayBuffer, items: number, options: RunOptions = {}): Promise<BatchResult> {
    const { signal, repack, json = false, shared, sharedAt } = options;
    if (this.closed) return Promise.reject(new PoolClosedError(kind));
    if (this.broken && this.slots.length === 0) return Promise.reject(this.broken);
    if (signal?.aborted) return Promise.reject(abortError(ErrorCodes.MERKLE_ABORTED, signal, 'verification', { terse: true }));
    return new Promise<BatchResult>((resolve, reject) => {
      const task: Task = {
        id: this.nextId++,
        kind,
        buf,
        moved: false,
        items,
        json,
        resolve,
        reject,
        settled: false,
        ...(repack ? { repack } : {}),
        ...(shared ? { shared, sharedAt: sharedAt ?? 0 } : {}),
      };
      if (signal) this.watch(task, signal);
      this.queue.push(task);
      this.pump();
    });
  }

  /**
   * Terminate every worker; pending and running batches fail with `PoolClosedError`. Idempotent: every
   * call, concurrent or later, settles once every thread has exited.
   */
  close(): Promise<void> {
    this.closing ??= this.terminateAll();
    return this.closing;
  }

  private async terminateAll(): Promise<void> {
    this.closed = true;
    const err = new PoolClosedError();
    this.failQueue(err);
    const slots = this.slots.splice(0);
    for (const s of slots) {
      for (const t of s.tasks.splice(0)) this.settle(t, () => t.reject(new PoolClosedError(t.kind)));
    }
    // An idle worker is unref()ed, and so is the wait for its exit: in a process with nothing else
    // to do the event loop ran dry first, and the process ended with this close still pending.
    await Promise.all(
      slots.map((s) => {
        s.worker.ref();
        return s.worker.terminate();
      }),
    );
  }

  /** True once `close()` was called. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Threads started and not yet exited (0 once close() has settled). */
  get liveWorkers(): number {
    return this.alive;
  }
}
