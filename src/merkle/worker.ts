/**
 * The worker side of the pool: receives a framed batch of records for one kind, verifies each record
 * on bytes, and answers with a compact result (one validity byte per item, transferred back, plus the
 * few verdicts that carry a reason or status). Errors that escape a batch travel as `{ code, message,
 * context }` and are rebuilt on the main thread; anything worse kills the thread and the pool fails
 * only that batch.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CairnError, ErrorCodes } from '../errors.js';
import { verifyBatch } from './kinds.js';
import type { Verdict } from './verdict.js';

/** A request from the pool. `kind: '__crash__'` exists only for the pool's crash tests. */
export interface WorkerRequest {
  id: number;
  kind: string;
  buf: ArrayBuffer;
}

/** A reply: `valid[i]` is 1 for a valid item; `extras` holds `[i, verdict]` for items with details. */
export type WorkerReply =
  | { id: number; valid: Uint8Array; extras: Array<[number, Verdict]> }
  | { id: number; error: { code: string; message: string; context: object } };

const data = workerData as { testHooks?: boolean; cairnVerifier?: boolean } | null;
const testHooks = data?.testHooks === true;

// Only a thread the pool started answers: importing this module anywhere else does nothing.
if (parentPort && data?.cairnVerifier === true) {
  const port = parentPort;
  port.on('message', (msg: WorkerRequest) => {
    if (testHooks && msg.kind === '__crash__') {
      // Simulates a fatal fault in a kernel: the thread dies mid-batch.
      process.exit(70);
    }
    if (testHooks && msg.kind === '__throw__') {
      setImmediate(() => {
        throw new Error('simulated uncaught exception in a worker');
      });
      return;
    }
    let reply: WorkerReply;
    try {
      const r = verifyBatch(msg.kind, msg.buf);
      reply = { id: msg.id, valid: r.valid, extras: r.extras };
      port.postMessage(reply, [r.valid.buffer as ArrayBuffer]);
    } catch (e) {
      const err = e instanceof CairnError ? e : new CairnError(ErrorCodes.MERKLE_INVALID_INPUT, e instanceof Error ? e.message : String(e));
      reply = { id: msg.id, error: { code: err.code, message: err.message, context: err.context } };
      port.postMessage(reply);
    }
  });
  port.postMessage({ ready: true });
}
