/**
 * The signature-verifier thread: under a burst, a second LiteSVM on a worker thread checks the
 * signatures of queued transactions while the main thread serves HTTP, so that the chain executes
 * them at the slot boundary with LiteSVM's own check turned off. Low traffic never starts it.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ParsedTransaction } from '../../solana/index.js';

/** A submission waiting for its slot, as the chain queues it and the verifier checks it. */
export interface PendingSubmission {
  signature: string;
  wire: Uint8Array;
  parsed: ParsedTransaction;
  /** Set once the verifier thread has checked every signature and found them valid. */
  verified?: boolean;
}

/** Pending submissions in one slot before the signature-verifier thread is started. */
export const VERIFIER_START_QUEUE = 32;
/** Most transactions in one message to the verifier thread, and the longest a batch waits to fill. */
const VERIFIER_BATCH = 64;
const VERIFIER_WAIT_MS = 5;

/**
 * Signature pre-verification on a worker thread. Ed25519 verification is ~85% of what LiteSVM
 * spends on a plain transfer (0.10 of 0.12 ms here; 0.015 ms with sigverify off), and it needs no
 * chain state, so a second LiteSVM on another thread checks the signatures of queued transactions
 * while the main thread serves HTTP. Its verdict is only ever used one way: a transaction it found
 * valid executes with LiteSVM's own sigverify turned off; everything else (found invalid, verdict
 * not back yet, verifier failed) executes with sigverify on, exactly as without the verifier. The
 * verifier runs the same LiteSVM code (sanitize, then verify, then account loading), so a
 * simulation that fails only at account loading (`AccountNotFound`, the fee payer unknown to its
 * empty bank) or succeeds has passed verification.
 */
const VERIFIER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { LiteSVM, FailedTransactionMetadata } = require(workerData.litesvm);
const inner = new LiteSVM().withBlockhashCheck(false).withTransactionHistory(0n).inner;
const executing = new Int32Array(workerData.executing);
parentPort.on('message', (m) => {
  const n = m.offsets.length - 1;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    // Behind (a busy machine): the main thread has executed this batch already, verifying inline.
    if (Atomics.load(executing, 0) >= m.due) break;
    const w = m.bytes.subarray(m.offsets[i], m.offsets[i + 1]);
    let r;
    try {
      r = m.versions[i] ? inner.simulateVersionedTransaction(w) : inner.simulateLegacyTransaction(w);
    } catch {
      continue;
    }
    if (!(r instanceof FailedTransactionMetadata) || r.err() === ${2 /* TransactionErrorFieldless.AccountNotFound */}) out[i] = 1;
  }
  parentPort.postMessage({ id: m.id, out }, [out.buffer]);
});
`;

export interface SignatureVerifier {
  /** Queue a submission that will execute in slot `due`. */
  submit(p: PendingSubmission, due: number): void;
  /** The chain is executing `slot` now: batches due by then are no longer worth verifying. */
  executing(slot: number): void;
  close(): Promise<void>;
}

export function createSignatureVerifier(): SignatureVerifier {
  let worker: Worker | null = null;
  // The slot being executed, shared with the verifier so that it skips work the chain no longer needs.
  const executing = new Int32Array(new SharedArrayBuffer(4));
  try {
    // No inherited loader flags (tsx, vitest): the verifier is plain CommonJS and starts faster bare.
    worker = new Worker(VERIFIER_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: { litesvm: createRequire(import.meta.url).resolve('litesvm'), executing: executing.buffer },
    });
  } catch {
    worker = null;
  }
  // A verifier must never keep a process alive or take the chain down with it: unref'd, and any
  // error just ends it (transactions then verify inline, as they always could).
  worker?.unref();
  const inflight = new Map<number, PendingSubmission[]>();
  let nextId = 0;
  let batch: PendingSubmission[] = [];
  let batchDue = 0;
  let scheduled: NodeJS.Timeout | null = null;
  const end = () => {
    worker = null;
    inflight.clear();
    batch = [];
  };
  worker?.on('error', end);
  worker?.on('exit', end);
  worker?.on('message', (m: { id: number; out: Uint8Array }) => {
    const ps = inflight.get(m.id);
    if (!ps) return;
    inflight.delete(m.id);
    for (let i = 0; i < ps.length; i++) if (m.out[i] === 1) ps[i]!.verified = true;
  });
  // Submissions travel in batches (up to VERIFIER_BATCH, or what VERIFIER_WAIT_MS gathered) in one buffer: a
  // message per transaction would cost the main thread more than the verification it saves.
  const flush = () => {
    if (scheduled) clearTimeout(scheduled);
    scheduled = null;
    const ps = batch;
    batch = [];
    if (!worker || ps.length === 0) return;
    let size = 0;
    for (const p of ps) size += p.wire.length;
    const bytes = new Uint8Array(size);
    const offsets = new Uint32Array(ps.length + 1);
    const versions = new Uint8Array(ps.length);
    let o = 0;
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i]!;
      bytes.set(p.wire, o);
      o += p.wire.length;
      offsets[i + 1] = o;
      versions[i] = p.parsed.parts.version === 'legacy' ? 0 : 1;
    }
    const id = nextId++;
    inflight.set(id, ps);
    worker.postMessage({ id, due: batchDue, bytes, offsets, versions }, [bytes.buffer, offsets.buffer, versions.buffer]);
  };
  return {
    submit(p, due) {
      if (!worker) return;
      if (batch.length && due !== batchDue) flush();
      batchDue = due;
      batch.push(p);
      if (batch.length >= VERIFIER_BATCH) flush();
      else if (!scheduled) {
        scheduled = setTimeout(flush, VERIFIER_WAIT_MS);
        scheduled.unref();
      }
    },
    executing(slot) {
      Atomics.store(executing, 0, slot | 0);
    },
    async close() {
      if (scheduled) clearTimeout(scheduled);
      scheduled = null;
      const w = worker;
      end();
      await w?.terminate();
    },
  };
}
