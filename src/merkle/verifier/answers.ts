/**
 * The verifier's input, classified and answered a batch at a time: raw bytes (checked against
 * `maxBytes`, a large response given a head start; an inspected body's scan reused) go the raw-JSON
 * path (raw/answers.ts), parsed input is packed a chunk at a time (parsed-chunk.ts). `verify`,
 * `verifyTable` and `verifyBatches` differ only in how each batch's answer is shaped.
 */
import { abortError } from '../../abort.js';
import { ErrorCodes, InputTooLargeError } from '../../errors/index.js';
import type { KeyedItem } from '../kinds/envelopes.js';
import type { KindSpec } from '../kinds/index.js';
import { extractJson } from './raw/extract.js';
import { hasRememberedTape } from '../../json/index.js';
import type { BatchAnswer } from './batch-answer.js';
import { InspectedBody } from './inspect-body.js';
import { shareResponse, type JsonSource } from './raw/share-response.js';
import { pipeline } from './pipeline.js';
import { scanWithHeadStart, type HeadStart, type HeadStartVerifier } from './raw/head-start.js';
import { jsonAnswers } from './raw/answers.js';
import { rangeAnswers } from './raw/ranges.js';
import { runParsedChunk } from './parsed-chunk.js';
import { startJsonChunk } from './raw/chunk.js';
import { contextFor, type VerifierContext } from './context.js';

/**
 * Every batch's answer for `input`, each turned by `shape` as it arrives, in order. `verify` makes
 * the verdicts there, a batch at a time; `verifyTable` keeps the answers.
 *
 * @example
 * const tables = await answersOf(ctx, spec, bytes, signal, (a) => a);
 */
export async function answersOf<P>(
  ctx: VerifierContext,
  spec: KindSpec,
  input: unknown,
  signal: AbortSignal | undefined,
  shape: (a: BatchAnswer) => P,
): Promise<P[]> {
  // A large raw response is cut into ranges whose items the workers find (raw/ranges.ts), when it
  // turns out to be plain enough; else (null) it goes the usual way.
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input instanceof Uint8Array ? input : null;
  const ranged = bytes ? await rangeAnswers(ctx, spec, bytes, signal, shape) : null;
  if (ranged) return ranged;
  // Each batch's verdicts (for `verify`) go into an array of their own, in order; the answer is made
  // of them at the end. An answer array made first lives through the whole verify, so the young-generation
  // collector moves it to the old generation, and from there it keeps every verdict stored in it
  // later alive after the caller drops it, until a full collection: each verdict and its id were
  // copied twice (~0.3 µs per asset proof across the calling thread and V8's helper threads,
  // which share the two cores with the workers). The copy at the end takes ~1 ns per item.
  const parts: P[] = [];
  for await (const part of answers(ctx, spec, input, signal, shape)) parts.push(part);
  return parts;
}

/**
 * `answersOf`, yielded a batch at a time in order: nothing is kept here once the consumer has taken
 * a batch (`verifyBatches`). The batches in flight are as many as the pool runs, and the consumer
 * taking its time holds them back.
 *
 * @example
 * for await (const table of answers(ctx, spec, bytes, signal, (a) => new VerdictTable(spec, [a]))) print(table);
 */
export async function* answers<P>(
  ctx: VerifierContext,
  spec: KindSpec,
  input: unknown,
  signal: AbortSignal | undefined,
  shape: (a: BatchAnswer) => P,
): AsyncGenerator<P> {
  if (signal?.aborted) throw abortError(ErrorCodes.MERKLE_ABORTED, signal, 'verification', { terse: true });
  const { settings, pool } = ctx;
  const { maxBytes, headStart, jsonOptions } = settings;
  // A body inspected first (inspect-body.ts) is its bytes, scanned already.
  const inspected = input instanceof InspectedBody ? input : null;
  const raw = inspected ? inspected.body : input;
  const bytes = raw instanceof ArrayBuffer ? new Uint8Array(raw) : raw instanceof Uint8Array ? raw : null;
  if (bytes && bytes.length > maxBytes) throw new InputTooLargeError('input', maxBytes, bytes.length, "raise the verifier's maxBytes to take it");
  const known = inspected?.takeFound(spec, jsonOptions) ?? null;
  // A large response not scanned yet: the workers start on its first items while the rest is scanned.
  let shared: JsonSource | undefined;
  let head: HeadStart | undefined;
  if (!known && bytes && pool && headStart && bytes.length >= headStart.from && !hasRememberedTape(bytes)) {
    shared = shareResponse(bytes);
    head = await scanWithHeadStart(headStartVerifier(ctx), spec, bytes, shared, signal, headStart.firstPart);
  }
  try {
    const found = known ?? (head ? head.found : bytes ? extractJson(spec, bytes, jsonOptions) : spec.extract(input));
    // Few enough items (inlineUpTo) are verified on this thread; a head start has sent batches out already.
    const c = head ? ctx : contextFor(ctx, spec.name, Array.isArray(found) ? found.length : found.values.length);
    if (!Array.isArray(found)) {
      yield* jsonAnswers(c, spec, found, head?.early ?? [], shared, signal, shape);
      return;
    }
    // The items are in memory already: a wider window than a stream's costs nothing.
    let at = 0;
    const next = (size: number): KeyedItem[] | null => (at >= found.length ? null : found.slice(at, (at += c.plan.taper(size, found.length - at))));
    const run = async (chunk: KeyedItem[]): Promise<P> => shape(await runParsedChunk(c, spec, chunk, signal));
    yield* pipeline(next, run, c.plan.sizeFor(spec, found.length), 2 * c.maxRunning, c.maxRunning, signal);
  } finally {
    head?.done();
  }
}

/** What a head-start scan (raw/head-start.ts) asks of the verifier. */
function headStartVerifier(ctx: VerifierContext): HeadStartVerifier {
  return {
    jsonOptions: ctx.settings.jsonOptions,
    maxRunning: ctx.maxRunning,
    sizeFor: ctx.plan.sizeFor,
    startJsonChunk: (spec, items, response, a, b, signal) => startJsonChunk(ctx, spec, items, response, a, b, signal),
  };
}
