/**
 * `verifyStream`: items pulled from the caller's (async) iterable a batch at a time, only as the
 * consumer reads, and their verdicts yielded in order.
 */
import type { KeyedItem } from '../kinds/envelopes.js';
import { notAnItem, type KindSpec } from '../kinds/index.js';
import { verdictsOf } from './batch-answer.js';
import type { Verdict } from '../verdict.js';
import { pipeline } from './pipeline.js';
import { runParsedChunk } from './parsed-chunk.js';
import type { VerifierContext } from './context.js';

/**
 * The verdicts of the items of `source`, in order; an item not of the kind (or the source's own
 * failure) is thrown after the verdicts of the items before it.
 *
 * @example
 * for await (const v of verdictStream(ctx, getKind('asset-proof'), proofs())) if (!v.valid) report(v);
 */
export async function* verdictStream(
  ctx: VerifierContext,
  spec: KindSpec,
  source: AsyncIterable<unknown> | Iterable<unknown>,
  signal?: AbortSignal,
): AsyncGenerator<Verdict> {
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
    const run = async (chunk: KeyedItem[]): Promise<Verdict[]> => verdictsOf(spec, await runParsedChunk(ctx, spec, chunk, signal));
    for await (const verdicts of pipeline(next, run, ctx.plan.sizeFor(spec), ctx.maxRunning, ctx.maxRunning, signal)) yield* verdicts;
  } finally {
    await it.return?.();
  }
}
