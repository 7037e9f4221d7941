/**
 * A sender's journal as its intents use it: one `record` per state change, and `journaled` for the
 * changes the caller must hear about when they cannot be stored — mapped through `journalWriteError`
 * to what is true. Each kind of sender brings its own: the single-process sender the file journal
 * (`createFileIntentJournal`, opened lazily on first use, its intents then owning their signatures;
 * without a journal path every write is a no-op), the fleet its PostgreSQL table (fleet/journal.ts),
 * where each record is a fenced write of this process's claim on the intent. A drive writes through
 * `bound(fence)`, so its records carry the token of the claim it began under and are refused once
 * that is not the intent's token — whatever this process claimed since.
 */
import { CairnError, ErrorCodes } from '../../errors/index.js';
import type { ResolvedSenderOptions } from '../config.js';
import { journalWriteError, type KnownState } from '../journal/error.js';
import { openJournal, type Journal, type JournalRecord } from '../journal/file/journal.js';
import type { SignatureOwners } from './signature-owners.js';

export interface IntentJournal {
  /** Append a record (no-op without a journal). */
  record(rec: JournalRecord): Promise<void>;
  /** Journal a state change; when the journal cannot, the caller learns what is true (journalWriteError). */
  journaled(rec: JournalRecord, known: KnownState): Promise<void>;
  /** Close the journal if it was ever opened. */
  close(): Promise<void>;
  /** This journal with every record written under fencing token `fence` (a fleet claim's); itself for a file journal. */
  bound(fence: number | undefined): IntentJournal;
}

/** The file journal as a single-process sender's intents use it: also opened whole, to look intents up. */
export interface FileIntentJournal extends IntentJournal {
  /** The open journal (opened on first call), or undefined when the sender has none. */
  open(): Promise<Journal> | undefined;
}

export function createFileIntentJournal(cfg: ResolvedSenderOptions, owners: SignatureOwners): FileIntentJournal {
  let journalP: Promise<Journal> | undefined;
  const open = (): Promise<Journal> | undefined => {
    if (!cfg.journal) return undefined;
    journalP ??= openJournal(cfg.journal, cfg.journalOptions).then((j) => {
      owners.adopt(j.intents().values());
      return j;
    });
    return journalP;
  };
  const record = async (rec: JournalRecord): Promise<void> => {
    const j = open();
    if (j) await (await j).append(rec);
  };
  const self: FileIntentJournal = {
    open,
    record,
    journaled: (rec, known) => journaledBy(record, rec, known),
    async close() {
      if (journalP) await journalP.then((j) => j.close(), () => undefined);
    },
    // One process holds a file journal (its lock): there is no claim to bind to.
    bound: () => self,
  };
  return self;
}

/** Store a state change; a journal that cannot store it tells what is true instead (journalWriteError). */
export async function journaledBy(record: (rec: JournalRecord) => Promise<void>, rec: JournalRecord, known: KnownState): Promise<void> {
  try {
    await record(rec);
  } catch (e) {
    if (e instanceof CairnError && e.code === ErrorCodes.SENDER_JOURNAL_FAILED) throw journalWriteError(e, rec.id, known);
    throw e;
  }
}
