/**
 * The fleet's journal as its sender holds it (its store, core.ts): the PostgreSQL journal
 * (journal/postgres/journal.ts), opened once on first use; the same table as its intents write to it
 * (intent/journal.ts), each record a fenced write of this process's claim on the intent, refused once
 * another claim took it; and the signatures its processes own, claimed in that table too, so two of
 * them never sign one transaction for two intents.
 */
import type { ResolvedSenderOptions } from '../config.js';
import type { SenderStore } from '../core.js';
import { journaledBy, type IntentJournal } from '../intent/journal.js';
import { createSignatureOwners } from '../intent/signature-owners.js';
import { openPostgresJournal, type FleetMetrics, type PostgresJournal } from '../journal/postgres/journal.js';
import type { JournalRecord } from '../journal/records.js';

/** A fleet sender's store: its table, opened on first use, and closed with the sender. */
export interface FleetStore extends SenderStore {
  postgres: () => Promise<PostgresJournal>;
  /** The table's figures (claims, renewals, takeovers, fenced writes refused, reconnects); zeros until it is open. */
  metrics(): FleetMetrics;
}

const EMPTY_METRICS: FleetMetrics = { claims: 0, takeovers: 0, renewals: 0, leasesLost: 0, fencedRefused: 0, reconnects: 0 };

export function fleetStore(cfg: ResolvedSenderOptions, life: AbortSignal): FleetStore {
  const pg = lazyPostgresJournal(cfg, life);
  let opened: PostgresJournal | undefined;
  const postgres = async (): Promise<PostgresJournal> => (opened = await pg.get());
  return {
    postgres,
    metrics: () => (opened ? { ...opened.metrics } : { ...EMPTY_METRICS }),
    journal: createFencedIntentJournal(pg.get),
    owners: createSignatureOwners(pg.get),
    // The fenced journal holds nothing of its own: closing the table closes it.
    close: pg.close,
  };
}

/** Opens the fleet's journal once, on first use. */
function lazyPostgresJournal(cfg: ResolvedSenderOptions, life: AbortSignal): { get: () => Promise<PostgresJournal>; close: () => Promise<void> } {
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
 * journal is bound to. The fleet's intents are looked up by claim (claims.ts), never all in memory,
 * and the table is closed by its sender (`lazyPostgresJournal`), not here.
 */
function createFencedIntentJournal(postgres: () => Promise<PostgresJournal>): IntentJournal {
  const under = (fence: number | undefined): IntentJournal => {
    const record = async (rec: JournalRecord): Promise<void> => (await postgres()).append(rec, fence);
    return { record, journaled: (rec, known) => journaledBy(record, rec, known), close: async () => undefined, bound: under };
  };
  return under(undefined);
}
