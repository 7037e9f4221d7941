/**
 * Batches through the kinds: an item packed as a record (main thread), a batch of records verified
 * into one code byte per item plus the detailed verdicts (worker), and a verdict rebuilt from them.
 */
import { CairnError, ErrorCodes, FieldError } from '../../errors/index.js';
import type { Verdict } from '../verdict.js';
import { RecordReader } from '../records/record-reader.js';
import type { BatchWriter } from '../records/batch-writer.js';
import { isKindName, kinds, type KindSpec } from './index.js';

/** The reason a null item (an id the service knew nothing about) is invalid. */
export const NO_DATA = 'no data for this id: the service returned null (unknown or not indexed)';

/**
 * Pack one item as the next record of `w` (main thread). A `FieldError` the packer raises becomes the
 * record's FAIL op, so the worker reports it in the parser's order; anything else escapes (unusable
 * input).
 *
 * @example
 * const w = new BatchWriter(items.length);
 * for (const item of items) packItem(kinds['account-proof'], item, w);
 * const { valid } = verifyBatch('account-proof', w.finish());
 */
export function packItem(spec: KindSpec, item: unknown, w: BatchWriter): void {
  w.begin();
  if (item === null) {
    w.fail(NO_DATA);
    return;
  }
  try {
    spec.pack(item, w);
  } catch (e) {
    if (e instanceof FieldError) w.fail(e.message);
    else throw e;
  }
}

/**
 * Verify one packed batch of records of `kind` (what a worker does; also the in-thread path).
 * Returns one code byte per item — bit 0 the validity; bits 1–7, when set, the index + 1 of a status
 * in the kind's `statuses` that is all the verdict says — and the verdicts that carry more details.
 * The verdict's own `id` does not travel: the caller names items itself (`decodeVerdict`).
 *
 * @example
 * const { valid, extras } = verifyBatch('account-proof', w.finish());
 */
export function verifyBatch(kind: string, buf: ArrayBuffer): { valid: Uint8Array; extras: Array<[number, Verdict]> } {
  if (!isKindName(kind)) throw new CairnError(ErrorCodes.MERKLE_INVALID_INPUT, `unknown kind "${kind}"`, { context: { field: 'kind' } });
  const spec = kinds[kind];
  const r = new RecordReader(buf);
  const all = spec.verifyMany ? spec.verifyMany(r, r.count, guarded) : null;
  return collect(spec, r.count, (i) => (all ? all[i]! : guarded(() => spec.verify(r.select(i)))));
}

/**
 * One parsed item's verdict through the kind's `verifyParsed` (null: the invalid "no data" verdict);
 * the same answer as packing it and `verifyBatch`. Only for kinds that have `verifyParsed`.
 *
 * @example
 * const v = verifyParsedItem(kinds['asset-leaf'], asset);
 */
export function verifyParsedItem(spec: KindSpec, item: unknown): Verdict {
  const verify = spec.verifyParsed;
  if (!verify) throw new CairnError(ErrorCodes.MERKLE_INVALID_INPUT, `kind "${spec.name}" verifies packed records only`, { context: { field: 'kind' } });
  return item === null || typeof item !== 'object' ? { valid: false, reason: NO_DATA } : guarded(() => verify(item));
}

/**
 * Verdicts → one code byte per item plus the detailed ones (what `verifyBatch` answers).
 *
 * @example
 * const { valid, extras } = collect(spec, verdicts.length, (i) => verdicts[i]);
 */
export function collect(spec: KindSpec, n: number, verdictOf: (i: number) => Verdict): { valid: Uint8Array; extras: Array<[number, Verdict]> } {
  const statuses = spec.statuses ?? [];
  const valid = new Uint8Array(n);
  const extras: Array<[number, Verdict]> = [];
  for (let i = 0; i < n; i++) {
    const v = verdictOf(i);
    if (v.valid) valid[i] = 1;
    if (!v.valid || v.reason !== undefined || v.computedRoot !== undefined) extras.push([i, v]);
    else if (v.status !== undefined) {
      const s = statuses.indexOf(v.status);
      if (s >= 0 && s < 127) valid[i] |= (s + 1) << 1;
      else extras.push([i, v]);
    }
  }
  return { valid, extras };
}

/**
 * `fn()`, or the invalid verdict for a field that does not decode or a kernel rejecting an input
 * (e.g. ≥ r): an invalid item, not a failed batch. Anything else (a TypeError, a bug) fails the batch
 * loudly instead of passing for an "invalid proof".
 */
function guarded<T>(fn: () => T): T | Verdict {
  try {
    return fn();
  } catch (e) {
    if (!(e instanceof FieldError) && !(e instanceof CairnError)) throw e;
    return { valid: false, reason: e.message };
  }
}

/**
 * The verdict of item `i` of a batch answer: its detailed verdict from `extras` when it has one
 * (`extra`), else rebuilt from its code byte; `id` (the caller's name for the item) goes first.
 *
 * @example
 * const v = decodeVerdict(kinds['asset-leaf'], res.valid[i], undefined, 'AssetId…');
 */
export function decodeVerdict(spec: KindSpec, code: number, extra: Verdict | undefined, id: string | undefined): Verdict {
  if (extra) return id === undefined ? extra : { id, ...extra };
  const valid = (code & 1) === 1;
  const s = code >> 1;
  // Built by assignment, not as `{ id, valid }`: V8 tracks where object literals are allocated and,
  // seeing a large batch's verdicts all alive at a collection, allocates that literal's objects in
  // the old generation from then on. Their ids stay young, and an old verdict keeps its id alive after
  // the caller drops it, until a full collection: every id was copied twice by the young-generation
  // collector (~0.3 µs per asset proof of the calling thread's and V8's helper threads' time).
  const v = {} as { id?: string; valid: boolean; status?: string };
  if (id !== undefined) v.id = id;
  v.valid = valid;
  if (s > 0) v.status = spec.statuses![s - 1]!;
  return v;
}
