/**
 * The devnet's handle on the prover thread (worker.ts): `prove(shape, inputs)` queues a job and
 * resolves to the compressed proof. The thread starts on the first job (a devnet that is never
 * asked for a validity proof never starts it), is unref'd while idle so it never keeps a process
 * alive, and is terminated by `close()`. Aborting a queued job drops it; aborting the running one
 * settles its promise at once (the thread finishes that proof and the answer is discarded).
 * Like the verifier pool, the thread loads TypeScript through tsx when cairn runs from source.
 */
import { Worker } from 'node:worker_threads';
import { CairnError, ErrorCodes, fromSerialized } from '../errors/index.js';
import type { CircuitInputs, CircuitShape } from './circuits/index.js';
import type { CompressedProof } from './groth16-prove.js';
import { WORKER_BOOTSTRAP, workerEntry, workerExecArgv } from '../worker-start.js';

/** A job as posted to the thread. */
export interface ProverJob {
  id: number;
  shape: CircuitShape;
  inputs: CircuitInputs;
}

/** The thread's answer. */
export type ProverReply = { id: number; proof: CompressedProof } | { id: number; error: { code: string; message: string; context: object } };

export interface ProverWorker {
  prove(shape: CircuitShape, inputs: CircuitInputs, opts?: { signal?: AbortSignal }): Promise<CompressedProof>;
  /** Jobs queued or running. */
  readonly pending: number;
  close(): Promise<void>;
}

interface Job extends ProverJob {
  resolve(p: CompressedProof): void;
  reject(e: unknown): void;
  done: boolean;
  cleanup(): void;
}

/**
 * Start (lazily) the prover thread, with proving keys cached in `cacheDir`. `slot` reads the devnet's
 * chain: a job the closing prover drops fails with `DEVNET_STOPPED`, whose context names the slot.
 *
 * @example
 * const prover = createProverWorker({ cacheDir: defaultCacheDir(), slot: () => chain.slot() });
 * const proof = await prover.prove(shape, inputs); // { a, b, c } compressed
 * await prover.close();
 */
export function createProverWorker(opts: { cacheDir: string; slot: () => number }): ProverWorker {
  const stopped = () => new CairnError(ErrorCodes.DEVNET_STOPPED, 'the devnet stopped before the validity proof was made', { context: { slot: opts.slot() } });
  let worker: Worker | null = null;
  let running: Job | null = null;
  const queue: Job[] = [];
  let nextId = 1;
  let closed = false;

  const settle = (job: Job, fn: () => void): void => {
    if (job.done) return;
    job.done = true;
    job.cleanup();
    fn();
  };

  const spawn = (): Worker => {
    const w = new Worker(WORKER_BOOTSTRAP, { eval: true, execArgv: workerExecArgv(), workerData: { ...workerEntry(import.meta.url, 'worker'), cacheDir: opts.cacheDir }, stdout: false, stderr: false });
    w.on('message', (msg: ProverReply | { ready: true }) => {
      if ('ready' in msg) return;
      const job = running;
      if (!job || job.id !== msg.id) return;
      running = null;
      if ('proof' in msg) settle(job, () => job.resolve(msg.proof));
      else settle(job, () => job.reject(fromSerialized(msg.error)));
      pump();
    });
    w.on('error', () => undefined); // reported through 'exit'
    w.on('exit', (code) => {
      if (worker !== w) return;
      worker = null;
      const job = running;
      running = null;
      if (job) settle(job, () => job.reject(new CairnError(ErrorCodes.INTERNAL, `the prover thread exited (code ${code}) while proving ${job.shape.kind}`, { context: { invariant: 'prover-thread' } })));
      if (!closed) pump();
    });
    w.unref();
    return w;
  };

  const pump = (): void => {
    if (closed || running) return;
    let job = queue.shift();
    while (job?.done) job = queue.shift();
    if (!job) {
      worker?.unref();
      return;
    }
    worker ??= spawn();
    worker.ref(); // a proof in flight keeps the process alive; an idle thread does not
    running = job;
    worker.postMessage({ id: job.id, shape: job.shape, inputs: job.inputs } satisfies ProverJob);
  };

  return {
    get pending() {
      return queue.length + (running ? 1 : 0);
    },
    prove(shape, inputs, o = {}) {
      if (closed) return Promise.reject(stopped());
      const { signal } = o;
      if (signal?.aborted) return Promise.reject(signal.reason);
      return new Promise<CompressedProof>((resolve, reject) => {
        const onAbort = () => settle(job, () => reject(signal!.reason));
        const job: Job = { id: nextId++, shape, inputs, resolve, reject, done: false, cleanup: () => signal?.removeEventListener('abort', onAbort) };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(job);
        pump();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const job of [...queue, ...(running ? [running] : [])]) settle(job, () => job.reject(stopped()));
      queue.length = 0;
      running = null;
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
