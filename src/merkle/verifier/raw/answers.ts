/**
 * The raw-JSON path: a scanned response's items go out as batches of offsets into one copy of its
 * text, the early batches of a head start (head-start.ts) first, and each answer is shaped in order.
 */
import type { KindSpec } from '../../kinds/index.js';
import type { JsonItems } from './extract.js';
import type { BatchAnswer } from '../batch-answer.js';
import { inPlace, releaseResponse, shareResponse, type JsonSource } from './share-response.js';
import { pipeline } from '../pipeline.js';
import type { Chunk } from './head-start.js';
import { finishJsonChunk, startJsonChunk } from './chunk.js';
import type { VerifierContext } from '../context.js';

/**
 * Every batch's answer for the items `found` in a response, shaped by `shape`, in order. `early`:
 * batches a head start sent out already (taken from the array as they are used); `shared`: the copy
 * of the response they read.
 *
 * @example
 * for await (const a of jsonAnswers(ctx, spec, extractJson(spec, bytes), [], undefined, signal, (a) => a)) use(a);
 */
export async function* jsonAnswers<P>(
  ctx: VerifierContext,
  spec: KindSpec,
  found: JsonItems,
  early: Chunk[],
  shared: JsonSource | undefined,
  signal: AbortSignal | undefined,
  shape: (a: BatchAnswer) => P,
): AsyncGenerator<P> {
  const { plan, maxRunning } = ctx;
  const total = found.values.length;
  // The early batches go first; the rest starts after them.
  let at = early.length > 0 ? early[early.length - 1]!.b : 0;
  const next = (size: number): Chunk | null => {
    if (early.length > 0) return early.shift()!;
    return at < total ? { a: at, b: (at = Math.min(total, at + plan.taper(size, total - at))) } : null;
  };
  // Workers read the items from one shared copy of the response (one sequential copy here,
  // instead of a copy per batch); inline, the batches point into the caller's bytes as they are.
  const response = shared ?? (ctx.pool && total > 0 ? shareResponse(found.tape.bytes) : inPlace(found.tape.bytes));
  const run = async ({ a, b, res }: Chunk): Promise<P> =>
    shape(finishJsonChunk(ctx, spec, found, a, b, await (res ?? startJsonChunk(ctx, spec, found, response, a, b, signal))));
  try {
    yield* pipeline(next, run, plan.sizeFor(spec, total), 2 * maxRunning, maxRunning, signal);
  } finally {
    // Early batches the pipeline never took (it stopped on an error) must not reject unobserved.
    for (const c of early) c.res!.catch(() => {});
    early.length = 0;
  }
  // Every batch has answered: nothing reads the tape or the shared copy again (after a failure,
  // batches still in flight may need them to repack, so they are left to the garbage collector).
  found.tape.release();
  if (response.sab && !response.callers) releaseResponse(response.sab);
}
