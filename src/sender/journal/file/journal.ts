/**
 * The exactly-once journal: an append-only JSONL file, one record per state change of an intent,
 * fsync'd before the state change has effects. The rule that makes resume safe: a `signed` record
 * (signature, wire bytes, lastValidBlockHeight) is durable BEFORE those bytes are first submitted,
 * and a new signature for an intent is only ever journaled after an `expired` record proved the
 * previous one dead. So after a crash the last `signed` record of an intent names its only possibly
 * live signature.
 *
 * Writes are group-committed: records appended in the same turn of the event loop go out in one
 * write + one fdatasync, and each caller's promise resolves only when every byte of its record is
 * written and synced. The journal fails closed: after any write error (a full disk, an I/O error) it
 * cuts the file back to its last durable byte and refuses every further state change, so no record
 * is ever half-stored behind a "durable" answer and nothing is written after a gap. A torn last line
 * (crash mid-write) is cut off when the journal is reopened. One process holds a journal at a time
 * (lock.ts), and the file is compacted once it grows past a size (compact.ts).
 */
import { existsSync } from 'node:fs';
import { CairnError, ErrorCodes, InputError } from '../../../errors/index.js';
import { compactJournal, type Retention } from './compact.js';
import { openAppendFile, syncDir, writeAll, type JournalFile, type OpenJournalFile } from './io.js';
import { lockJournal, type JournalLock } from './lock.js';
import { streamJournal } from './read.js';
import { applyRecord, isTerminal, type IntentView, type JournalRecord } from '../records.js';

export { applyRecord, foldRecords, isTerminal, readJournal } from '../records.js';
export type { IntentState, IntentView, JournalPlan, JournalRecord } from '../records.js';

export interface Journal {
  readonly path: string;
  /**
   * Append a record; resolves once every byte of it is written and synced. After a write error the
   * journal is failed: this rejects with `SENDER_JOURNAL_FAILED` (context: the record's intent id,
   * its last durable state and signature), now and for every later record.
   */
  append(rec: JournalRecord): Promise<void>;
  /** Every intent the journal keeps (see `Retention`), folded from its durable records. */
  intents(): Map<string, IntentView>;
  /** The write error that failed the journal, if one did. */
  readonly failure: CairnError | undefined;
  /** Rewrite the file with only what the kept intents need (also done on its own past a size). */
  compact(): Promise<{ beforeBytes: number; afterBytes: number; intents: number }>;
  close(): Promise<void>;
}

export interface JournalOptions extends Partial<Retention> {
  /** Compact once the file grows past this many bytes (default 64 MiB; 0 = only on `compact()`). */
  compactAboveBytes?: number;
  /** The file layer (default: the real file); the soak campaign puts a full disk here. */
  file?: OpenJournalFile;
}

const MiB = 1 << 20;
const DEFAULTS = { compactAboveBytes: 64 * MiB, keepEndedMs: Infinity, keepEndedCount: 100_000 };

function positiveInt(v: unknown, field: string, fallback: number): number {
  if (v === undefined || (v === Infinity && fallback === Infinity)) return fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new InputError(`journal.${field}`, `expected a non-negative integer, got ${String(v)}`, { got: v });
  return v;
}

/** Check journal options (naming the bad field) and fill in the defaults. */
export function resolveJournalOptions(o: JournalOptions = {}): Required<Omit<JournalOptions, 'file'>> & Pick<JournalOptions, 'file'> {
  if (o.file !== undefined && typeof o.file !== 'function') throw new InputError('journal.file', 'expected a function that opens the journal file');
  return {
    compactAboveBytes: positiveInt(o.compactAboveBytes, 'compactAboveBytes', DEFAULTS.compactAboveBytes),
    keepEndedMs: positiveInt(o.keepEndedMs, 'keepEndedMs', DEFAULTS.keepEndedMs),
    keepEndedCount: positiveInt(o.keepEndedCount, 'keepEndedCount', DEFAULTS.keepEndedCount),
    ...(o.file ? { file: o.file } : {}),
  };
}

/**
 * Keeps the views of ended intents within the retention window: older ones are forgotten (their ids
 * are no longer idempotency keys), so memory is bounded by the window, not by the file's history.
 */
function retainer(views: Map<string, IntentView>, keep: Retention): { retain(v: IntentView): void; trim(): void } {
  let ended = 0;
  const endedAt = (v: IntentView): number => (v.end as { at?: number } | undefined)?.at ?? 0;
  /** Keep the newest `keepEndedCount` ended intents. */
  const trim = (): void => {
    const all = [...views.values()].filter((x) => isTerminal(x.state));
    ended = all.length;
    if (ended <= keep.keepEndedCount) return;
    all.sort((a, b) => endedAt(a) - endedAt(b));
    for (const x of all.slice(0, ended - keep.keepEndedCount)) views.delete(x.id);
    ended = keep.keepEndedCount;
  };
  return {
    retain(v) {
      if (!isTerminal(v.state)) return;
      if (endedAt(v) < Date.now() - keep.keepEndedMs) {
        views.delete(v.id);
        return;
      }
      // Amortised: trimmed each time the count reaches twice the limit.
      if (++ended > 2 * keep.keepEndedCount) trim();
    },
    trim,
  };
}

function openError(path: string, cause: unknown): CairnError {
  if (cause instanceof CairnError) return cause;
  const code = (cause as NodeJS.ErrnoException)?.code;
  const why = code === 'ENOENT' ? 'its directory does not exist' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : code === 'ENOSPC' ? 'the disk is full' : code === 'EROFS' ? 'read-only file system' : (cause as Error)?.message ?? String(cause);
  return new CairnError(ErrorCodes.SENDER_JOURNAL, `cannot open journal ${path}: ${why}${code ? ` (${code})` : ''}`, { context: { path, ...(code ? { errno: code } : {}) }, cause });
}

/**
 * Open (or create) a journal file for appending: takes its lock, reads it as a stream, cuts a torn
 * tail, and compacts it when it is past `compactAboveBytes`.
 *
 * @example
 * const j = await openJournal('/var/lib/bot/sends.jsonl');
 * await j.append({ op: 'created', id: 'order-17', at: Date.now() });
 * await j.close();
 */
export async function openJournal(path: string, options: JournalOptions = {}): Promise<Journal> {
  const resolved = resolveJournalOptions(options);
  const compactAbove = resolved.compactAboveBytes;
  const keep: Retention = { keepEndedMs: resolved.keepEndedMs, keepEndedCount: resolved.keepEndedCount };
  const openFile = resolved.file ?? openAppendFile;
  let lock: JournalLock;
  try {
    lock = await lockJournal(path);
  } catch (e) {
    throw openError(path, e);
  }
  const views = new Map<string, IntentView>();
  const { retain, trim } = retainer(views, keep);
  let file: JournalFile | undefined;
  let size: number;
  let compactedSize = 0;
  try {
    const existed = existsSync(path);
    const read = await streamJournal(path, (r) => {
      applyRecord(views, r);
      const v = views.get(r.id);
      if (v) retain(v);
    });
    size = read.durableBytes;
    trim();
    if (read.tornAt !== undefined) {
      // A torn last line (the crash hit mid-write) never became durable: cut it off, so the next
      // record starts on a fresh line and the file stays valid JSONL.
      const f = await openFile(path);
      try {
        await f.truncate(read.durableBytes);
        await f.datasync();
      } finally {
        await f.close();
      }
    }
    if (compactAbove > 0 && size > compactAbove) {
      size = compactedSize = (await compactJournal(path, views, openFile)).afterBytes;
    }
    file = await openFile(path);
    if (!existed) await syncDir(path);
  } catch (e) {
    await file?.close().catch(() => undefined);
    await lock.release().catch(() => undefined);
    throw openError(path, e);
  }
  return journalOver(path, file, size, views, retain, lock, { openFile, compactAbove, compactedSize });
}

type Pending = { rec: JournalRecord; line: string; resolve: () => void; reject: (e: unknown) => void };

function journalOver(
  path: string,
  initial: JournalFile,
  initialSize: number,
  views: Map<string, IntentView>,
  retain: (v: IntentView) => void,
  lock: JournalLock,
  o: { openFile: OpenJournalFile; compactAbove: number; compactedSize: number },
): Journal {
  let file: JournalFile | undefined = initial;
  let size = initialSize;
  let compactedSize = o.compactedSize;
  let pending: Pending[] = [];
  let flushing: Promise<void> | null = null;
  let closed = false;
  let failure: CairnError<'SENDER_JOURNAL_FAILED'> | undefined;

  /** The error one record gets once the journal failed: what is durable about its intent. */
  const failedFor = (rec: JournalRecord, truncated: boolean): CairnError => {
    const v = views.get(rec.id);
    const state = v?.state ?? 'none';
    const signature = v?.signed?.signature ?? (v?.end as { signature?: string } | undefined)?.signature;
    return new CairnError(ErrorCodes.SENDER_JOURNAL_FAILED, `journal ${path} failed (${failure!.message}); intent ${rec.id} is durably ${state}, its ${rec.op} record was not stored`, {
      context: { path, id: rec.id, op: rec.op, state, ...(signature ? { signature } : {}), truncated, ...failure!.context },
      cause: failure!.cause,
    });
  };

  const fail = async (cause: unknown, batch: Pending[]): Promise<void> => {
    const code = (cause as NodeJS.ErrnoException)?.code;
    failure = new CairnError(ErrorCodes.SENDER_JOURNAL_FAILED, `write failed${code ? ` (${code})` : ''}`, { context: { path, ...(code ? { errno: code } : {}) }, cause });
    // Cut back to the last durable byte, so no part of a refused record remains to be read later.
    let truncated = false;
    if (file) {
      try {
        await file.truncate(size);
        await file.datasync();
        truncated = true;
      } catch {
        /* the reader cuts a torn tail on the next open; a full record left here is one we refused */
      }
    }
    for (const p of [...batch, ...pending]) p.reject(failedFor(p.rec, truncated));
    pending = [];
  };

  const compactNow = async (): Promise<{ beforeBytes: number; afterBytes: number; intents: number }> => {
    const before = size;
    await file!.close();
    file = undefined;
    let r;
    try {
      r = await compactJournal(path, views, o.openFile);
      size = compactedSize = r.afterBytes;
    } finally {
      file = await o.openFile(path);
    }
    return { beforeBytes: before, afterBytes: r.afterBytes, intents: r.intents };
  };

  const flush = async (): Promise<void> => {
    while (pending.length > 0 && !failure) {
      const batch = pending;
      pending = [];
      const bytes = Buffer.from(batch.map((p) => p.line).join(''));
      try {
        await writeAll(file!, bytes);
        await file!.datasync();
      } catch (cause) {
        await fail(cause, batch);
        break;
      }
      size += bytes.length;
      for (const p of batch) {
        applyRecord(views, p.rec);
        const v = views.get(p.rec.id);
        if (v) retain(v);
        p.resolve();
      }
      if (o.compactAbove > 0 && size > Math.max(o.compactAbove, 2 * compactedSize)) {
        // Compaction is housekeeping: when it fails (no room for the copy) the journal goes on as it was.
        try {
          await compactNow();
        } catch (e) {
          if (!file) await fail(e, []);
        }
      }
    }
    flushing = null;
  };

  return {
    path,
    get failure() {
      return failure;
    },
    append(rec) {
      if (closed) return Promise.reject(new CairnError(ErrorCodes.SENDER_CLOSED, 'journal is closed', { context: { path } }));
      if (failure) return Promise.reject(failedFor(rec, true));
      return new Promise<void>((resolve, reject) => {
        pending.push({ rec, line: JSON.stringify(rec) + '\n', resolve, reject });
        // Defer the flush one macrotask so records from the same burst share one fsync.
        flushing ??= new Promise<void>((r) => setImmediate(r)).then(flush);
      });
    },
    intents() {
      return views;
    },
    async compact() {
      if (closed) throw new CairnError(ErrorCodes.SENDER_CLOSED, 'journal is closed', { context: { path } });
      while (flushing) await flushing;
      if (failure) throw failure;
      return compactNow();
    },
    async close() {
      if (closed) return;
      closed = true;
      while (flushing) await flushing;
      try {
        await file?.close();
      } finally {
        file = undefined;
        await lock.release();
      }
    },
  };
}
