/**
 * What a verify kind is: how to find its items in whatever the service returned (main thread), what
 * an item's id is, how to pack one item into a record (main thread: a cheap copy of its fields), and
 * how to decode and verify a record (worker). Decoding (base58 above all) runs on the workers because
 * the main thread is the one part of the pipeline that does not scale with threads.
 */
import type { Verdict } from '../verdict.js';
import type { KeyedItem } from './envelopes.js';
import type { BatchWriter } from '../records/batch-writer.js';
import type { RecordReader } from '../records/record-reader.js';
import type { JsonManyPacker, JsonPacker } from '../cnft/asset-proof-packer.js';
import type { KindName } from './names.js';

/** A JSON object as the kinds read it. */
export type Json = Record<string, unknown>;

/** One verify kind. */
export interface KindSpec {
  readonly name: KindName;
  /**
   * Items per batch sent to a worker: 5–20 ms of work on the 2-core reference machine, so the
   * per-batch messaging (~35–80 µs of main-thread time there) stays well under 1%. The last batches
   * of a run are cut smaller (verifier/batch-plan.ts `taper`), so big batches leave no thread idle at the end.
   */
  readonly batchSize: number;
  /** Rough packed bytes per item (the first guess for a batch buffer's size). */
  readonly recordBytes: number;
  /** Shape test: is this object one item of the kind? */
  looksLike(v: Json): boolean;
  /** Flatten a response (any envelope) into items. Throws `InputError` when nothing fits. */
  extract(input: unknown): KeyedItem[];
  /**
   * True when `extract` would take this input apart with the kind's own envelope rule (a fixture
   * bundle, a transaction's compression info) rather than the common ones: the bytes path then
   * parses it instead of scanning (verifier/raw/extract.ts).
   */
  special?(input: unknown): boolean;
  /** A human id for an item (asset id, account hash, address). */
  id(item: unknown, key?: string): string | undefined;
  /**
   * Item → record (main thread): a cheap copy of its fields into `w`. Throws `FieldError` for a
   * problem it can see without decoding; `packItem` turns that into the record's FAIL op.
   */
  pack(item: unknown, w: BatchWriter): void;
  /**
   * Load what `verify` needs on this thread (a kind whose code is too heavy to load with the
   * registry, e.g. the pairing code of validity proofs). Batch runners await it before a batch of the
   * kind, on every thread; once settled it costs nothing. Absent: nothing to load.
   */
  prepare?(): Promise<void>;
  /** Record → verdict (worker): decode the fields, then verify. */
  verify(r: RecordReader): Verdict;
  /**
   * Parsed item → verdict, for a worker that parsed the item itself (the bytes path, verifier/raw/batch.ts)
   * and would otherwise pack it only to unpack it again. Must give `verify(pack(item))`'s verdict.
   */
  verifyParsed?(item: object): Verdict;
  /**
   * Item JSON text `src[a..b)` → record, without parsing it (the bytes path's workers): writes what
   * `pack(JSON.parse(text))` writes and puts the item's id's byte range in `id`, or returns false,
   * writing nothing, when it declines the text (then the item is parsed).
   */
  packJson?: JsonPacker | null;
  /** `packJson` for many items of a batch's table in one call, until one is declined (verifier/raw/batch.ts). */
  packJsonMany?: JsonManyPacker | null;
  /**
   * All `n` records of a batch → verdicts, for kinds whose kernel is faster over many items at once
   * (same verdicts as `verify` record by record). `decode` wraps each record's decoding: a field that
   * does not decode comes back as that item's invalid verdict instead.
   */
  verifyMany?(r: RecordReader, n: number, decode: <T>(fn: () => T) => T | Verdict): Verdict[];
  /**
   * Statuses a valid verdict of this kind may carry with nothing else to say (no reason, no computed
   * root). Such a verdict travels back from a worker as a code in its validity byte instead of an
   * object (see `verifyBatch`): cloning thousands of `{ id, valid, status }` objects cost the main
   * thread more than verifying cheap kinds does.
   */
  readonly statuses?: readonly string[];
}
