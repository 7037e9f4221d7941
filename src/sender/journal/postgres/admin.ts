/**
 * Operating a fleet's PostgreSQL journal (what `cairn journal status|init|gc` runs): create the
 * schema ahead of the fleet, read the table's health — intents by state, leases held, leases stuck
 * (lapsed under a holder nobody took over from yet), the oldest unfinished intent — and drop ended
 * intents older than a retention (their ids stop being idempotency keys) with the signatures they
 * claimed.
 */
import { CairnError, ErrorCodes } from '../../../errors/index.js';
import { ensureSchema, poolFor, tablesOf, type PgPoolLike, type Tables } from './schema.js';

export interface PostgresJournalHealth {
  table: string;
  schemaVersion: number;
  intents: number;
  byState: Record<string, number>;
  unfinished: number;
  /** Unfinished intents under an unexpired lease. */
  leased: number;
  /** Unfinished intents whose holder's lease lapsed (a process died or stalled; the next claim takes them over). */
  stuckLeases: number;
  oldestUnfinished?: { id: string; createdAt: string; state: string };
}

async function withPool<T>(postgres: string | PgPoolLike, fn: (pool: PgPoolLike) => Promise<T>): Promise<T> {
  const pool = typeof postgres === 'string' ? await poolFor(postgres, 2) : postgres;
  try {
    return await fn(pool);
  } catch (e) {
    if (e instanceof CairnError) throw e;
    throw new CairnError(ErrorCodes.SENDER_JOURNAL, `PostgreSQL journal: ${(e as Error)?.message ?? String(e)}`, { cause: e });
  } finally {
    if (typeof postgres === 'string') await pool.end?.().catch(() => undefined);
  }
}

async function schemaVersion(pool: PgPoolLike, t: Tables): Promise<number> {
  const r = await pool.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [t.meta]);
  if (!r.rows[0]?.present) throw new CairnError(ErrorCodes.SENDER_JOURNAL, `no journal table ${t.name} in this database (cairn journal init creates it; a fleet sender does on first use)`, { context: { table: t.name } });
  return Number((await pool.query(`SELECT max(version) AS v FROM ${t.meta}`)).rows[0]?.v);
}

/**
 * Create the journal's tables (idempotent). Returns the schema version.
 *
 * @example
 * await initPostgresJournal('postgres://bot@db/bots');
 */
export async function initPostgresJournal(postgres: string | PgPoolLike, table = 'cairn_intents'): Promise<number> {
  const t = tablesOf(table, 'table');
  return withPool(postgres, async (pool) => {
    await ensureSchema(pool, t, { maxWaitMs: 0 });
    return schemaVersion(pool, t);
  });
}

/** The table's health (read-only). */
export async function postgresJournalHealth(postgres: string | PgPoolLike, table = 'cairn_intents'): Promise<PostgresJournalHealth> {
  const t = tablesOf(table, 'table');
  return withPool(postgres, async (pool) => {
    const version = await schemaVersion(pool, t);
    const states = await pool.query(`SELECT state, count(*)::int AS n FROM ${t.intents} GROUP BY state ORDER BY state`);
    const leases = await pool.query(
      `SELECT count(*) FILTER (WHERE lease_until > now())::int AS leased, count(*) FILTER (WHERE owner IS NOT NULL AND lease_until <= now())::int AS stuck
       FROM ${t.intents} WHERE state NOT IN ('confirmed', 'failed', 'abandoned')`,
    );
    const oldest = await pool.query(`SELECT id, created_at, state FROM ${t.intents} WHERE state NOT IN ('confirmed', 'failed', 'abandoned') ORDER BY created_at LIMIT 1`);
    const byState: Record<string, number> = {};
    for (const r of states.rows) byState[r.state as string] = Number(r.n);
    const intents = Object.values(byState).reduce((a, b) => a + b, 0);
    const o = oldest.rows[0];
    return {
      table: t.name,
      schemaVersion: version,
      intents,
      byState,
      unfinished: intents - (byState.confirmed ?? 0) - (byState.failed ?? 0) - (byState.abandoned ?? 0),
      leased: Number(leases.rows[0]?.leased ?? 0),
      stuckLeases: Number(leases.rows[0]?.stuck ?? 0),
      ...(o ? { oldestUnfinished: { id: o.id as string, createdAt: new Date(o.created_at as string).toISOString(), state: o.state as string } } : {}),
    };
  });
}

/**
 * Delete ended intents (and their records) that ended more than `olderThanMs` ago, and the
 * signatures claimed more than `olderThanMs` ago by intents that ended (or are gone). Unfinished
 * intents and their signatures are never touched. Returns how many rows were removed.
 */
export async function gcPostgresJournal(postgres: string | PgPoolLike, olderThanMs: number, table = 'cairn_intents'): Promise<{ intents: number; records: number; signatures: number }> {
  const t = tablesOf(table, 'table');
  return withPool(postgres, async (pool) => {
    // A version-1 table is migrated first (it has no signatures table yet).
    await schemaVersion(pool, t);
    await ensureSchema(pool, t, { maxWaitMs: 0 });
    // Every part of one statement reads one snapshot: an intent deleted by `gone` still reads as
    // ended to `sigs`, so its signatures go with it.
    const r = (await pool.query(
      `WITH gone AS (DELETE FROM ${t.intents} WHERE state IN ('confirmed', 'failed', 'abandoned') AND updated_at < now() - ($1::double precision * interval '1 millisecond') RETURNING id),
            recs AS (DELETE FROM ${t.records} r USING gone WHERE r.id = gone.id RETURNING 1),
            sigs AS (DELETE FROM ${t.signatures} s WHERE s.created_at < now() - ($1::double precision * interval '1 millisecond')
              AND NOT EXISTS (SELECT 1 FROM ${t.intents} i WHERE i.id = s.id AND i.state NOT IN ('confirmed', 'failed', 'abandoned')) RETURNING 1)
       SELECT (SELECT count(*) FROM gone)::int AS intents, (SELECT count(*) FROM recs)::int AS records, (SELECT count(*) FROM sigs)::int AS signatures`,
      [olderThanMs],
    )) as unknown as { rows: { intents: number; records: number; signatures: number }[] };
    return { intents: Number(r.rows[0]?.intents ?? 0), records: Number(r.rows[0]?.records ?? 0), signatures: Number(r.rows[0]?.signatures ?? 0) };
  });
}
