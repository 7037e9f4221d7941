/**
 * The PostgreSQL journal's ground: the `pg` client (an optional peer dependency, imported only when a
 * PostgreSQL journal is used), the schema with its migration version (created on first use under an
 * advisory lock, so a fleet starting at once creates it once), and the one retry policy for the
 * database: a connection lost (a server restart, a network cut) is waited out with exponential
 * backoff until the caller's signal or `maxWaitMs`; any other database error is final.
 */
import { createHash } from 'node:crypto';
import { sleep } from '../../../abort.js';
import { CairnError, ErrorCodes, InputError } from '../../../errors/index.js';

/**
 * The part of a `pg.Pool` the journal uses (a real `pg.Pool` fits; so does any pool whose `query`
 * takes pg's `{ name, text, values }`, the named prepared statements the hot paths use).
 */
export interface PgPoolLike {
  query(
    text: string | { name: string; text: string; values?: unknown[] },
    values?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  on?(event: 'error', listener: (e: Error) => void): unknown;
  end?(): Promise<void>;
}

/**
 * The schema version this cairn writes; a table written by a newer one is refused. 2 added
 * `<table>_signatures` (a version-1 table is migrated in place when first opened).
 */
const SCHEMA_VERSION = 2;

/** The SQL names of a journal's tables, from its (validated) base name. */
export interface Tables {
  intents: string;
  records: string;
  meta: string;
  /** Which intent owns each signature signed by the fleet (two intents never share one transaction). */
  signatures: string;
  name: string;
}

export function tablesOf(name: string, field = 'journal.table'): Tables {
  // An identifier, never a quoted string: it is spliced into SQL text.
  if (typeof name !== 'string' || !/^[a-z_][a-z0-9_]{0,40}$/.test(name)) throw new InputError(field, `expected a lower-case SQL identifier (a-z, 0-9, _; ≤ 41 chars), got ${JSON.stringify(name)}`);
  return { intents: name, records: `${name}_records`, meta: `${name}_schema`, signatures: `${name}_signatures`, name };
}

/**
 * A `pg.Pool` for a URL, with `pg` imported now (it is not a dependency of cairn: install it beside).
 * Idle clients of a pool emit 'error' when the server goes away; unheard, that would kill the process.
 */
export async function poolFor(url: string, max: number): Promise<PgPoolLike> {
  let mod: { default?: { Pool?: unknown }; Pool?: unknown };
  try {
    mod = (await import('pg')) as typeof mod;
  } catch (cause) {
    throw new CairnError(ErrorCodes.SENDER_JOURNAL, 'a PostgreSQL journal needs the `pg` package: npm install pg', { context: { package: 'pg' }, cause });
  }
  const Pool = (mod.default?.Pool ?? mod.Pool) as new (o: object) => PgPoolLike;
  const pool = new Pool({ connectionString: url, max, connectionTimeoutMillis: 5_000 });
  pool.on?.('error', () => undefined);
  return pool;
}

const names = new Map<string, string>();
/**
 * A query as a named prepared statement: the journal's statements are a fixed set of texts, each
 * parsed and planned once per connection instead of on every call (its CTEs cost more to plan than
 * to run).
 */
export function prepared(text: string, values: unknown[]): { name: string; text: string; values: unknown[] } {
  let name = names.get(text);
  if (!name) names.set(text, (name = `cairn_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return { name, text, values };
}

/** SQLSTATE classes and errno codes of a database that is away (for now), not of a bad query. */
const TRANSIENT_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

/** True when the error says the server is unreachable or restarting: wait and try again. */
function isTransient(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  if (typeof code === 'string') {
    if (TRANSIENT_ERRNO.has(code)) return true;
    // 08: connection exception; 57P01–57P03: admin shutdown, crash shutdown, cannot connect now;
    // 53300: too many connections; 40001/40P01: serialization failure, deadlock (retry is the cure).
    if (/^08/.test(code) || /^57P0[123]$/.test(code) || code === '53300' || code === '40001' || code === '40P01') return true;
  }
  const msg = (e as Error)?.message ?? '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down|in recovery mode)/i.test(msg);
}

export interface RetryPolicy {
  signal?: AbortSignal | undefined;
  /** Give up after waiting this long for the database (ms). */
  maxWaitMs: number;
  /** Told each time a lost connection is waited out (for the `reconnects` figure). */
  onRetry?: (() => void) | undefined;
}

/**
 * Run `fn`, waiting out a database that is away with exponential backoff (50 ms doubling to 2 s,
 * jittered) until it answers, the signal aborts or `maxWaitMs` passes; then the last error is thrown.
 */
export async function withRetry<T>(fn: () => Promise<T>, p: RetryPolicy): Promise<T> {
  const t0 = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!isTransient(e) || p.signal?.aborted || Date.now() - t0 >= p.maxWaitMs) throw e;
      p.onRetry?.();
      const delay = Math.min(2_000, 50 * 2 ** attempt) * (0.5 + Math.random() / 2);
      await sleep(delay, p.signal);
    }
  }
}

/**
 * Create the journal's tables if they are missing, migrate older ones in place, or check the version
 * of those that exist. Idempotent and safe to run from many processes at once (one advisory lock per
 * table name). Version 1 → 2 adds the signatures table and fills it with the signatures of the
 * unfinished intents and of those ended in the last hour (a blockhash lives ~1 minute; an ended
 * nonce intent's nonce moved on), so a fleet upgraded mid-flight never signs one for another intent.
 */
export async function ensureSchema(pool: PgPoolLike, t: Tables, p: RetryPolicy): Promise<void> {
  // One statement string, so it runs in one implicit transaction: the advisory lock is held until the end.
  const sql = `
    SELECT pg_advisory_xact_lock(hashtext('cairn-journal:${t.name}'));
    CREATE TABLE IF NOT EXISTS ${t.meta} (version integer NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
    INSERT INTO ${t.meta} (version) SELECT ${SCHEMA_VERSION} WHERE NOT EXISTS (SELECT 1 FROM ${t.meta});
    CREATE TABLE IF NOT EXISTS ${t.intents} (
      id text PRIMARY KEY,
      state text NOT NULL,
      view jsonb NOT NULL,
      owner text,
      lease_until timestamptz,
      fence bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX IF NOT EXISTS ${t.name}_open ON ${t.intents} (created_at) WHERE state NOT IN ('confirmed', 'failed', 'abandoned');
    CREATE TABLE IF NOT EXISTS ${t.records} (
      seq bigserial PRIMARY KEY,
      id text NOT NULL,
      fence bigint NOT NULL,
      rec jsonb NOT NULL,
      at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX IF NOT EXISTS ${t.name}_records_id ON ${t.records} (id);
    CREATE TABLE IF NOT EXISTS ${t.signatures} (
      signature text PRIMARY KEY,
      id text NOT NULL,
      last_valid bigint NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX IF NOT EXISTS ${t.name}_signatures_id ON ${t.signatures} (id);
    INSERT INTO ${t.signatures} (signature, id, last_valid)
      SELECT s.signature, s.id, s.last_valid FROM (
        SELECT COALESCE(view->'signed'->>'signature', view->'end'->>'signature') AS signature, id,
          COALESCE((view->>'lastValidBlockHeight')::bigint, ${Number.MAX_SAFE_INTEGER}) AS last_valid
        FROM ${t.intents}
        WHERE (SELECT max(version) FROM ${t.meta}) < 2
          AND (state NOT IN ('confirmed', 'failed', 'abandoned') OR updated_at > now() - interval '1 hour')) s
      WHERE s.signature IS NOT NULL
      ON CONFLICT (signature) DO NOTHING;
    INSERT INTO ${t.meta} (version) SELECT ${SCHEMA_VERSION} WHERE (SELECT max(version) FROM ${t.meta}) < ${SCHEMA_VERSION};
    SELECT max(version) AS version FROM ${t.meta};`;
  const res = await withRetry(() => pool.query(sql), p);
  const last = (Array.isArray(res) ? res.at(-1) : res) as { rows: { version: number }[] };
  const version = Number(last.rows[0]?.version);
  if (version > SCHEMA_VERSION) {
    throw new CairnError(ErrorCodes.SENDER_JOURNAL, `journal table ${t.name} has schema version ${version}, newer than this cairn's ${SCHEMA_VERSION}: upgrade cairn`, { context: { table: t.name } });
  }
}
