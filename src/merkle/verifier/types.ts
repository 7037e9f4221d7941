/**
 * The verifier's contract: the options `createVerifier` takes and the `Verifier` it returns (verify,
 * as verdicts, a table, batches or a stream).
 */
import type { KindName } from '../kinds/index.js';
import type { Verdict } from '../verdict.js';
import type { VerdictTable } from './verdict-table.js';
import type { AnchorOptions } from '../anchor/source.js';

export interface VerifierOptions {
  /**
   * Worker threads (default: available parallelism). `0` verifies on the calling thread: no start-up
   * cost, for a handful of items.
   */
  threads?: number;
  /**
   * Items per batch; default per kind (about 10 ms of work each), and smaller for a short `verify`
   * so every thread gets several batches.
   */
  batchSize?: number;
  /** Batches in flight per thread (default 2: one running, one waiting in the worker's port). */
  inflightPerThread?: number;
  /**
   * The most bytes a raw JSON input may have (default 1 GiB, at most 4 GiB - 1: offsets into it are
   * 32-bit); more is `INPUT_TOO_LARGE`, before anything is read. Parsed input is in memory already.
   */
  maxBytes?: number;
  /**
   * Check every proof's roots against the chain: `{ rpc: client | url, commitment?, cacheMs? }`.
   * Tree accounts are read with `getMultipleAccounts` (≤ 100 per call, cached one slot); a root the
   * tree's root history does not hold makes the verdict invalid (`unknown-root`), as do
   * `tree-not-found` and `not-a-tree`; valid verdicts say `anchored: true`. Without it verdicts are
   * self-consistency only (`anchored` absent).
   */
  anchor?: AnchorOptions;
}

/**
 * What `createVerifier` reads beyond the public options: test hooks and thresholds the tests set to
 * reach a path with small inputs. Not exported by `cairn-solana/merkle`, whose `createVerifier` takes
 * `VerifierOptions` only; tests import `createVerifier` from merkle/verifier/create-verifier.ts, which takes these.
 */
export interface InternalVerifierOptions extends VerifierOptions {
  /** pool crash tests: the workers obey `__crash__` / `__throw__` messages */
  testHooks?: boolean;
  /** raw JSON below this many bytes is parsed on the calling thread (tests: 0). */
  jsonParseBelow?: number;
  /**
   * raw JSON from `from` bytes on is scanned `firstPart` bytes first, and its first batches sent out
   * while the rest is scanned (default 1 MiB, 256 KiB; tests: small; `false`: never).
   */
  jsonHeadStart?: { from: number; firstPart: number } | false;
  /**
   * An input of at most this many items of a kind is verified on the calling thread, not the pool
   * (the proxy's small answers: a round trip to a worker, woken on a loaded host, cost more than
   * verifying them). Raw input decides once its items are found, and never after a head start.
   */
  inlineUpTo?: Partial<Record<KindName, number>>;
}

export interface VerifyOptions {
  signal?: AbortSignal;
  /** Anchor this call (overrides the verifier's anchor); `false` skips the verifier's anchor. */
  anchor?: AnchorOptions | false;
}

export interface Verifier {
  readonly threads: number;
  /**
   * Verify a list of items (or any response envelope holding them); verdicts in input order.
   * `input` is parsed JSON, or the response's raw bytes (`Uint8Array`/`ArrayBuffer` of JSON text):
   * then the main thread only scans the text, and the workers decode the items, so a large response
   * costs the calling thread a fraction of what parsing it would. Rejects with `InputError` when an
   * item is not of the kind (or the bytes are not JSON), `InputTooLargeError` for bytes over
   * `maxBytes`, `WorkerCrashedError` when a worker died on a batch, `AbortError` on abort.
   */
  verify(kind: KindName, input: unknown, options?: VerifyOptions): Promise<Verdict[]>;
  /**
   * `verify`, answered as a `VerdictTable`: the counts, each item's validity and id, and the invalid
   * items' verdicts, with a verdict object made only for what is read. For large batches: the calling
   * thread then does no work per item, which is what lets 2 threads run cheap kinds (asset proofs)
   * near twice as fast as 1. Same inputs, same errors as `verify`.
   */
  verifyTable(kind: KindName, input: unknown, options?: VerifyOptions): Promise<VerdictTable>;
  /**
   * `verifyTable`'s answer a batch at a time, in input order, each batch a `VerdictTable` of its own
   * (indices within it; the caller counts its way through the input). Nothing is kept once a batch is
   * taken, and a consumer that takes its time holds the workers back: memory stays bounded by the
   * batches in flight whatever the number of verdicts (a million invalid items). Same inputs, same
   * errors as `verify`; an error comes at its place, after the batches before it.
   */
  verifyBatches(kind: KindName, input: unknown, options?: VerifyOptions): AsyncGenerator<VerdictTable>;
  /** Verify items from an (async) iterable, yielding verdicts in order, with backpressure. */
  verifyStream(kind: KindName, source: AsyncIterable<unknown> | Iterable<unknown>, options?: VerifyOptions): AsyncGenerator<Verdict>;
  /** Fraction of wall time workers were busy. */
  readonly utilization: number;
  /** The hash kernels the worker threads chose (null inline, or before a worker has started). */
  readonly kernels: { poseidon: string; keccak: string } | null;
  /** Items verified so far. */
  readonly completed: number;
  /**
   * Slower paths taken instead of the fast one, and how many times: `groth16-batch-error` (a batch of
   * validity proofs checked one proof at a time), `groth16-portable` (mcl-wasm did not load: the
   * portable pairing code, ≈ 3–4× slower), `groth16-miller-loop-vec`. Empty when every item took the
   * fast path. The first of each per process is also a `process.emitWarning` (code `CAIRN_SLOW_PATH`).
   */
  readonly slowPaths: Readonly<Record<string, number>>;
  /** True when the verifier anchors every call (`createVerifier({ anchor })`). */
  readonly anchored: boolean;
  /** Stop every worker; nothing is left running. */
  close(): Promise<void>;
}
