/**
 * The worker side of the pool: receives a framed batch of records for one kind, verifies each record
 * on bytes, and answers with a compact result (one validity byte per item, transferred back, plus the
 * few verdicts that carry a reason or status; the batch buffer travels back for reuse). Errors that escape a batch travel as `{ code, message,
 * context }` and are rebuilt on the main thread; anything worse kills the thread and the pool fails
 * only that batch.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CairnError, ErrorCodes } from '../errors/index.js';
import { verifyBatch } from './kinds/verify-batch.js';
import { isKindName, kinds, type KindName } from './kinds/index.js';
import { verifyJsonBatch, type JsonBatchResult } from './verifier/raw/batch.js';
import { isRangeBatch, verifyRangeBatch, type RangeMeta } from './verifier/raw/range-batch.js';
import { poseidonBackend, keccakBackend, takeSlowPaths } from '../crypto/index.js';
import type { WorkerReady, WorkerReply, WorkerRequest } from './protocol.js';

const data = workerData as { testHooks?: boolean; cairnVerifier?: boolean } | null;
const testHooks = data?.testHooks === true;

// Only a thread the pool started answers: importing this module anywhere else does nothing.
if (parentPort && data?.cairnVerifier === true) {
  // No error's stack ever leaves this thread (errors travel as code, message, context), and a bad
  // field's reason is an error: capturing (and, under tsx, source-mapping) its stack cost ~20 µs per
  // invalid item, 20 s of a million null items.
  Error.stackTraceLimit = 0;
  const port = parentPort;
  // A kind with code to load first (kinds/validity-proof.ts: mcl-wasm and the key tables) is loaded
  // on its first batch, not at start-up: threads that never see one never pay for it. Batches that
  // arrive meanwhile queue behind the load, so they are still answered in order.
  let behind: Promise<void> | null = null;
  const prepared = new Set<string>();
  port.on('message', (msg: WorkerRequest) => {
    const prepare = isKindName(msg.kind) ? kinds[msg.kind].prepare : undefined;
    if (behind || (prepare && !prepared.has(msg.kind))) {
      const mine: Promise<void> = (behind ?? Promise.resolve())
        .then(async () => {
          if (prepare && !prepared.has(msg.kind)) {
            // A failed load is left to the batch: verify then answers the kernel's error.
            await prepare.call(kinds[msg.kind as KindName]).catch(() => undefined);
            prepared.add(msg.kind);
          }
        })
        .then(() => handle(msg))
        .finally(() => {
          if (behind === mine) behind = null;
        });
      behind = mine;
      return;
    }
    handle(msg);
  });
  function handle(msg: WorkerRequest): void {
    if (testHooks && msg.kind === '__crash__') {
      // Simulates a fatal fault in a kernel: the thread dies mid-batch.
      process.exit(70);
    }
    if (testHooks && msg.kind === '__throw__') {
      setImmediate(() => {
        // test hook only (testHooks): an uncaught throw kills the thread, which the pool reports as WorkerCrashedError
        throw new Error('simulated uncaught exception in a worker');
      });
      return;
    }
    let reply: WorkerReply;
    const t0 = performance.now();
    try {
      if (msg.json) {
        if (!msg.shared) throw new CairnError(ErrorCodes.MERKLE_INVALID_INPUT, 'a JSON batch came without the response it points into');
        const response = new Uint8Array(msg.shared, msg.sharedAt ?? 0);
        // A range batch: the worker finds its items itself (verifier/raw/ranges.ts).
        const r: JsonBatchResult & { range?: RangeMeta } = isRangeBatch(msg.buf)
          ? verifyRangeBatch(msg.kind, msg.buf, response)
          : verifyJsonBatch(msg.kind, msg.buf, response);
        const ms = performance.now() - t0;
        const slow = takeSlowPaths();
        const range = r.range ? { range: r.range } : {};
        if ('bad' in r) port.postMessage({ id: msg.id, ms, bad: r.bad, buf: msg.buf, ...range, ...(slow ? { slow } : {}) } satisfies WorkerReply, [msg.buf]);
        else {
          reply = { id: msg.id, ms, valid: r.valid, extras: r.extras, buf: msg.buf, ids: r.ids, idLens: r.idLens, ...range, ...(slow ? { slow } : {}) };
          port.postMessage(reply, [r.valid.buffer as ArrayBuffer, r.idLens.buffer as ArrayBuffer, msg.buf]);
        }
        return;
      }
      const r = verifyBatch(msg.kind, msg.buf);
      // The batch buffer goes back too: the main thread packs the next batch into it.
      const slow = takeSlowPaths();
      reply = { id: msg.id, ms: performance.now() - t0, valid: r.valid, extras: r.extras, buf: msg.buf, ...(slow ? { slow } : {}) };
      port.postMessage(reply, [r.valid.buffer as ArrayBuffer, msg.buf]);
    } catch (e) {
      const err = e instanceof CairnError ? e : new CairnError(ErrorCodes.MERKLE_INVALID_INPUT, e instanceof Error ? e.message : String(e));
      const slow = takeSlowPaths();
      reply = { id: msg.id, ms: performance.now() - t0, error: { code: err.code, message: err.message, context: err.context }, ...(slow ? { slow } : {}) };
      port.postMessage(reply);
    }
  }
  // Choose (and load) the hash kernels now, not inside the first batch; the pool reports them.
  const ready: WorkerReady = { ready: true, backends: { poseidon: poseidonBackend(), keccak: keccakBackend() } };
  port.postMessage(ready);
}
