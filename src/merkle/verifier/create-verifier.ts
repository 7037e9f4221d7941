/**
 * `createVerifier`: the public face of the worker pool. Items are found in the JSON on the main thread
 * (kinds/) and packed as they are into batches (records/batch-writer.ts: a cheap copy, no
 * decoding), decoded and verified in workers (worker.ts), and the verdicts come back in input order
 * (a large raw response's items are found by the workers themselves, in byte ranges of it: raw/ranges.ts).
 * The main thread is the part that does not scale with threads, so it does as little per item as it
 * can. `verifyStream` keeps at most `threads × inflightPerThread` batches in flight and pulls from its
 * source only as the consumer reads, so memory stays bounded whatever the input size.
 *
 * This file is the wiring; the steps are beside it in verifier/: the options checked (settings), where
 * a batch runs (batch-runner), batch sizes (batch-plan), packing parsed items (parsed-chunk), the
 * raw-JSON path (raw/: chunk, answers, and ranges for a large response), the input classified (answers) and streams (verdict-stream);
 * checking the roots against the chain is a layer around it all (anchor/). `createVerifier` is the
 * package's function; `createVerifierWithTestOptions` the same one with the test hooks in its type.
 */
import { getKind } from '../kinds/index.js';
import { joinVerdicts, verdictsOf } from './batch-answer.js';
import { VerdictTable } from './verdict-table.js';
import type { InternalVerifierOptions, Verifier, VerifierOptions } from './types.js';
import { createVerifierContext } from './context.js';
import { answers, answersOf } from './answers.js';
import { verdictStream } from './verdict-stream.js';
import { withAnchor } from '../anchor/anchored-verifier.js';

/**
 * `createVerifier` with the test hooks (`InternalVerifierOptions`) in its type: what the tests,
 * benchmarks and the package root call.
 *
 * @example
 * const v = createVerifierWithTestOptions({ threads: 2, testHooks: true });
 */
export function createVerifierWithTestOptions(options: InternalVerifierOptions = {}): Verifier {
  const ctx = createVerifierContext(options);
  const { pool, runner } = ctx;
  const pooled: Verifier = {
    threads: ctx.threads,
    get utilization() {
      return pool ? pool.utilization : 0;
    },
    get kernels() {
      return pool ? pool.backends : null;
    },
    get completed() {
      return runner.completed + (ctx.inline?.runner.completed ?? 0);
    },
    get slowPaths() {
      const inline = ctx.inline?.runner.slowPaths;
      if (!inline || Object.keys(inline).length === 0) return runner.slowPaths;
      const all = { ...runner.slowPaths };
      for (const [path, n] of Object.entries(inline)) all[path] = (all[path] ?? 0) + n;
      return all;
    },
    async verify(kind, input, opts = {}) {
      const spec = getKind(kind);
      const parts = await answersOf(ctx, spec, input, opts.signal, (a) => verdictsOf(spec, a));
      return parts.length === 1 ? parts[0]! : joinVerdicts(parts);
    },
    async verifyTable(kind, input, opts = {}) {
      const spec = getKind(kind);
      return new VerdictTable(spec, await answersOf(ctx, spec, input, opts.signal, (a) => a));
    },
    verifyBatches(kind, input, opts = {}) {
      const spec = getKind(kind);
      return answers(ctx, spec, input, opts.signal, (a) => new VerdictTable(spec, [a]));
    },
    verifyStream(kind, source, opts = {}) {
      // An unknown kind throws here, at the call, not at the first read.
      return verdictStream(ctx, getKind(kind), source, opts.signal);
    },
    anchored: false,
    close: async () => {
      await ctx.inline?.runner.close();
      await runner.close();
    },
  };
  // Anchoring is a layer around the pool (anchor/anchored-verifier.ts): set here, or per call.
  return withAnchor(pooled, options.anchor);
}

/**
 * Create a verifier backed by `threads` worker threads (`0`: on the calling thread). Typed with the
 * public options only: the test hooks it also reads are not part of the API.
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
export const createVerifier: (options?: VerifierOptions) => Verifier = createVerifierWithTestOptions;
