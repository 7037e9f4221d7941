/**
 * The exactly-once journal: an append-only JSONL file, one record per state change of an intent,
 * fsync'd before the state change has effects. The rule that makes resume safe: a `signed` record
 * (signature, wire bytes, lastValidBlockHeight) is durable BEFORE those bytes are first submitted,
 * and a new signature for an intent is only ever journaled after an `expired` record proved the
 * previous one dead. So after a crash the last `signed` record of an intent names its only possibly
 * live signature.
 *
 * Writes are group-committed: records appended in the same turn of the event loop go out in one
 * `write` + one `fsync`, and every caller's promise resolves when its record is on disk. A torn last
 * line (crash mid-write) is ignored on load and cut off when the journal is reopened.
 */
import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { CairnError, ErrorCodes } from '../errors.js';

export type IntentState = 'created' | 'signed' | 'landed' | 'confirmed' | 'failed' | 'expired' | 'abandoned';

/** A serialisable plan to rebuild the transaction (only for instruction inputs; never secrets). */
export interface JournalPlan {
  payer: string;
  version: 'legacy' | 0;
  instructions: { programId: string; keys: [string, boolean, boolean][]; data: string }[];
  lookupTables?: { key: string; addresses: string[] }[];
}

export type JournalRecord =
  | { op: 'created'; id: string; at: number; plan?: JournalPlan }
  | { op: 'signed'; id: string; at: number; signature: string; wire: string; lastValidBlockHeight: number; attempt: number }
  | { op: 'landed'; id: string; at: number; signature: string; slot: number }
  | { op: 'confirmed'; id: string; at: number; signature: string; slot: number; commitment: string }
  // `code` and `context` of the error that ended the intent (absent in records written before they existed)
  | { op: 'failed'; id: string; at: number; signature?: string; slot?: number; error: string; code?: string; context?: Record<string, unknown> }
  | { op: 'expired'; id: string; at: number; signature: string; lastValidBlockHeight: number; blockHeight: number }
  | { op: 'abandoned'; id: string; at: number; reason: string; code?: string; context?: Record<string, unknown> };

/** What the journal knows about one intent after folding its records. */
export interface IntentView {
  id: string;
  state: IntentState;
  plan?: JournalPlan;
  /** Latest signed attempt (the only possibly live signature). */
  signed?: { signature: string; wire: string; lastValidBlockHeight: number; attempt: number };
  /** Final record when the intent ended. */
  end?: JournalRecord;
  attempts: number;
}

export interface Journal {
  readonly path: string;
  /** Append a record; resolves once it is fsync'd. */
  append(rec: JournalRecord): Promise<void>;
  /** Every intent in the file, folded. */
  intents(): Map<string, IntentView>;
  close(): Promise<void>;
}

const TERMINAL: ReadonlySet<IntentState> = new Set(['confirmed', 'failed', 'abandoned']);
/** True when the intent reached an end no resume may change. `expired` is not terminal: resign may follow. */
export function isTerminal(s: IntentState): boolean {
  return TERMINAL.has(s);
}

/** Apply one record to the view of its intent (creating the view when new). */
export function applyRecord(views: Map<string, IntentView>, r: JournalRecord): void {
  let v = views.get(r.id);
  if (!v) {
    v = { id: r.id, state: 'created', attempts: 0 };
    views.set(r.id, v);
  }
  switch (r.op) {
    case 'created':
      if (r.plan) v.plan = r.plan;
      break;
    case 'signed':
      v.signed = { signature: r.signature, wire: r.wire, lastValidBlockHeight: r.lastValidBlockHeight, attempt: r.attempt };
      v.attempts = Math.max(v.attempts, r.attempt);
      if (!isTerminal(v.state)) {
        v.state = 'signed';
        delete v.end;
      }
      break;
    case 'landed':
      if (v.state === 'signed') v.state = 'landed';
      break;
    case 'confirmed':
    case 'failed':
    case 'abandoned':
      v.state = r.op;
      v.end = r;
      break;
    case 'expired':
      if (!isTerminal(v.state)) {
        v.state = 'expired';
        v.end = r;
      }
      break;
  }
}

/** Fold records (in file order) into per-intent views. */
export function foldRecords(records: Iterable<JournalRecord>): Map<string, IntentView> {
  const out = new Map<string, IntentView>();
  for (const r of records) applyRecord(out, r);
  return out;
}

/** Read a journal file's records; a torn (unparsable) final line is dropped, any other bad line throws. */
export function readJournal(path: string): JournalRecord[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const out: JournalRecord[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    try {
      const r = JSON.parse(line) as JournalRecord;
      if (!r || typeof r.id !== 'string' || typeof r.op !== 'string') throw new Error('not a record');
      out.push(r);
    } catch (cause) {
      const isLast = lines.slice(i + 1).every((l) => l === '');
      if (isLast) break; // torn write at crash time: the record never became durable
      throw new CairnError(ErrorCodes.SENDER_JOURNAL, `journal ${path}: line ${i + 1} is not a record`, { context: { path, line: i + 1 }, cause });
    }
  }
  return out;
}

/**
 * Open (or create) a journal file for appending.
 *
 * @example
 * const j = await openJournal('/var/lib/bot/sends.jsonl');
 * await j.append({ op: 'created', id: 'order-17', at: Date.now() });
 */
export async function openJournal(path: string): Promise<Journal> {
  // A torn last line (the crash hit mid-write) never became durable: cut it off, so the next
  // record starts on a fresh line and the file stays valid JSONL.
  if (existsSync(path)) {
    const text = readFileSync(path);
    if (text.length > 0 && text[text.length - 1] !== 0x0a) {
      const keep = text.lastIndexOf(0x0a) + 1;
      const fd = openSync(path, 'r+');
      try {
        ftruncateSync(fd, keep);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
  }
  let fh: FileHandle;
  try {
    fh = await open(path, 'a');
  } catch (cause) {
    throw new CairnError(ErrorCodes.SENDER_JOURNAL, `cannot open journal ${path}`, { context: { path }, cause });
  }
  const views = foldRecords(readJournal(path));
  let pending: { line: string; resolve: () => void; reject: (e: unknown) => void }[] = [];
  let flushing: Promise<void> | null = null;
  let closed = false;

  const flush = async (): Promise<void> => {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        await fh.write(batch.map((p) => p.line).join(''));
        await fh.datasync();
        for (const p of batch) p.resolve();
      } catch (cause) {
        const err = new CairnError(ErrorCodes.SENDER_JOURNAL, `journal ${path}: write failed`, { context: { path }, cause });
        for (const p of batch) p.reject(err);
      }
    }
    flushing = null;
  };

  return {
    path,
    append(rec) {
      if (closed) return Promise.reject(new CairnError(ErrorCodes.SENDER_CLOSED, 'journal is closed', { context: { path } }));
      applyRecord(views, rec);
      return new Promise<void>((resolve, reject) => {
        pending.push({ line: JSON.stringify(rec) + '\n', resolve, reject });
        // Defer the flush one macrotask so records from the same burst share one fsync.
        flushing ??= new Promise<void>((r) => setImmediate(r)).then(flush);
      });
    },
    intents() {
      return views;
    },
    async close() {
      if (closed) return;
      closed = true;
      while (flushing) await flushing;
      await fh.close();
    },
  };
}
