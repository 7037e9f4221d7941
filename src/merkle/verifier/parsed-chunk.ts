/**
 * A chunk of parsed items (objects, or a stream's items): packed as they are into one batch buffer
 * (records/batch-writer.ts, a copy without decoding) and run.
 */
import { BatchWriter } from '../records/batch-writer.js';
import type { KeyedItem } from '../kinds/envelopes.js';
import type { KindSpec } from '../kinds/index.js';
import { packItem } from '../kinds/verify-batch.js';
import type { BatchAnswer } from './batch-answer.js';
import { keepSpare, type VerifierContext } from './context.js';

/**
 * Pack `chunk` and run it; the answer keeps the items (their ids are read from them).
 *
 * @example
 * const answer = await runParsedChunk(ctx, getKind('asset-proof'), [{ item: proof }]);
 */
export async function runParsedChunk(ctx: VerifierContext, spec: KindSpec, chunk: KeyedItem[], signal?: AbortSignal): Promise<BatchAnswer> {
  const n = chunk.length;
  const { recordBytes, spare } = ctx;
  const pack = (): ArrayBuffer => {
    const w = new BatchWriter(n, recordBytes.get(spec.name) ?? spec.recordBytes, spare.pop());
    for (let i = 0; i < n; i++) packItem(spec, chunk[i]!.item, w);
    recordBytes.set(spec.name, Math.ceil((w.length / n) * 1.1));
    return w.finish();
  };
  const res = await ctx.runner.run(spec.name, pack(), n, signal, pack);
  keepSpare(ctx, res.buf);
  return { n, codes: res.valid, extras: res.extras, items: chunk };
}
