/**
 * The fleet's journal as its sender holds it: the PostgreSQL journal (journal/postgres/journal.ts),
 * opened once on first use, and the same table as its intents write to it (intent/journal.ts): each
 * record a fenced write of this process's claim on the intent, refused once another claim took it.
 */
import type { ResolvedSenderOptions } from '../config.js';
import { journaledBy, type IntentJournal } from '../intent/journal.js';
import { openPostgresJournal, type PostgresJournal } from '../journal/postgres/journal.js';
import type { JournalRecord } from '../journal/records.js';

/** Opens the fleet's journal once, on first use. */
export function lazyPostgresJournal(cfg: ResolvedSenderOptions, life: AbortSignal): { get: () => Promise<PostgresJournal>; close: () => Promise<void> } {
  let p: Promise<PostgresJournal> | undefined;
  return {
    get: () => (p ??= openPostgresJournal(cfg.postgres!, life)),
    close: async () => {
      if (p) await p.then((j) => j.close(), () => undefined);
    },
  };
}

/**
 * The intents' journal on the fleet's table: every record written under the fencing token the
 * journal is bound to. The fleet's intents are looked up by claim (fleet.ts), never all in memory,
 * and the table is closed by its sender (`lazyPostgresJournal`), not here.
 */
export function createFencedIntentJournal(postgres: () => Promise<PostgresJournal>): IntentJournal {
  const under = (fence: number | undefined): IntentJournal => {
    const record = async (rec: JournalRecord): Promise<void> => (await postgres()).append(rec, fence);
    return { record, journaled: (rec, known) => journaledBy(record, rec, known), close: async () => undefined, bound: under };
  };
  return under(undefined);
}
