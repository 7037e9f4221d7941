/**
 * A chunk of a scanned raw response: items `a … b-1` are sent out as offsets into the response's
 * text (batch.ts), decoded and named by the worker, and their answer is made here.
 */
import { noItemOfKind } from '../../kinds/envelopes.js';
import { notAnItem, type KindSpec } from '../../kinds/index.js';
import type { JsonItems } from './extract.js';
import { packJsonBatch } from './batch.js';
import { scanJson } from '../../../json/index.js';
import type { BatchResult } from '../../pool.js';
import type { BatchAnswer } from '../batch-answer.js';
import type { JsonSource } from './share-response.js';
import { keepSpare, type VerifierContext } from '../context.js';

/**
 * Items `a … b-1` of a scanned response, decoded from `response` and named by a worker.
 *
 * @example
 * const res = startJsonChunk(ctx, spec, found, inPlace(found.tape.bytes), 0, 10);
 */
export function startJsonChunk(ctx: VerifierContext, spec: KindSpec, items: Pick<JsonItems, 'tape' | 'values' | 'keys'>, response: JsonSource, a: number, b: number, signal?: AbortSignal): Promise<BatchResult> {
  // Chunks start in order, so the copy only ever grows: every byte of these items is in it.
  response.upTo(items.tape.end(items.values[b - 1]!));
  return ctx.runner.run(spec.name, packJsonBatch(items, a, b, ctx.spare.pop()), b - a, signal, () => packJsonBatch(items, a, b), response);
}

/**
 * The answer for items `a … b-1` (`found`: the items of the whole response), named by the worker;
 * throws the error the parsed input gives when the worker found an item not of the kind.
 *
 * @example
 * const answer = finishJsonChunk(ctx, spec, found, 0, 10, await startJsonChunk(ctx, spec, found, response, 0, 10));
 */
export function finishJsonChunk(ctx: VerifierContext, spec: KindSpec, found: JsonItems, a: number, b: number, res: BatchResult): BatchAnswer {
  keepSpare(ctx, res.buf);
  if (res.bad !== undefined) {
    // A skimmed item may not even be JSON (its worker could not parse it): a plain scan names the
    // first syntax error, as it would have without skimming.
    if (found.tape.skimmed) scanJson(found.tape.bytes).release();
    // Exactly the error the parsed input gives (extractWith / unwrapItems).
    throw found.container ? noItemOfKind(found.container) : notAnItem(spec, found.tape.value(found.values[a + res.bad]!), a + res.bad)!;
  }
  return { n: b - a, codes: res.valid, extras: res.extras, ...(res.idLens ? { ids: res.ids ?? '', lens: res.idLens } : {}) };
}
