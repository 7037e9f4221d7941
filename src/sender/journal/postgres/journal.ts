/**
 * The journal of a fleet: one PostgreSQL table of intents shared by many sender processes, with the
 * file journal's record model (every state change is a record, folded into a view by `applyRecord`;
 * the records are kept beside the view). What a fleet adds is ownership:
 * - a process drives an intent only while it holds a claim on it: a lease (renewed while it works)
 *   and a fencing token, incremented by every claim, so monotonic per intent;
 * - claims are taken with `FOR UPDATE SKIP LOCKED`, so processes never wait on each other, and an
 *   intent whose lease lapsed (its holder killed, paused, cut off) is taken over by the next claim;
 * - every state change is one statement conditional on the token and an unexpired lease, so a
 *   holder whose lease lapsed can never record anything again — in particular never a new
 *   signature, and since bytes are sent only after their `signed` record is stored, never send one.
 *   Such a refused write is counted (`fencedRefused`) and thrown as `SENDER_LEASE_LOST`.
 * Leases are measured by the database's clock alone (`now()`), never by the processes' clocks.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { CairnError, ErrorCodes } from '../../../errors/index.js';
import { applyRecord, type IntentState, type IntentView, type JournalRecord } from '../records.js';
import { idConflict, keyConflict, type IntentKey } from '../../intent/key.js';
import { createSignableCheck } from './signable.js';
import { createSignatureClaimer } from './signatures.js';
import { createFencedWriter, type HeldClaim } from './writer.js';
import { ensureSchema, poolFor, prepared, tablesOf, withRetry, type PgPoolLike, type RetryPolicy, type Tables } from './schema.js';

export { type PgPoolLike } from './schema.js';

export interface PostgresJournalOptions {
  /** A `postgres://` URL (a pool is made with the `pg` package) or a `pg.Pool` you own. */
  postgres: string | PgPoolLike;
  /** Base name of the tables (default `cairn_intents`; also `<table>_records`, `<table>_signatures`, `<table>_schema`). */
  table?: string | undefined;
  /** How long a claim lasts without renewal (ms, default 10,000); renewed every third of it. */
  leaseMs?: number | undefined;
  /** Connections of the pool made for a URL (default 10). */
  poolSize?: number | undefined;
  /** How long to wait out an unreachable database before a state change fails (ms, default 120,000). */
  maxWaitMs?: number | undefined;
}

/** A claim this process holds on one intent. */
export interface Claim {
  view: IntentView;
  fence: number;
  /** The intent's lease had lapsed under another holder: this claim took it over. */
  takeover: boolean;
}

/** What the table says about one intent. */
export interface IntentStatus {
  id: string;
  state: IntentState;
  view: IntentView;
  owner: string | null;
  leaseUntil: Date | null;
  fence: number;
}

/** Fleet figures of this process. */
export interface FleetMetrics {
  claims: number;
  takeovers: number;
  renewals: number;
  /** Claims found lapsed when renewing (another process may hold them now). */
  leasesLost: number;
  /** State changes refused because this process's claim had lapsed (fencing). */
  fencedRefused: number;
  /** Database calls that waited out a lost connection. */
  reconnects: number;
}

export interface PostgresJournal {
  readonly table: string;
  /** This process's name in `owner` (host:pid:random). */
  readonly owner: string;
  readonly leaseMs: number;
  readonly metrics: FleetMetrics;
  /**
   * Add intents (their `created` records); ids already known with the same content are left as they
   * are. Returns how many were new. An id known with other content (its `key`) is refused with
   * `SENDER_ID_CONFLICT`, and then nothing of the call is added (bar a concurrent enqueue of that id
   * with other content, which is found after the insert and refused too).
   */
  enqueue(items: { id: string; rec: Extract<JournalRecord, { op: 'created' }> }[], signal?: AbortSignal): Promise<number>;
  /** Claim up to `n` unfinished intents nobody holds (or whose lease lapsed), oldest first, but none of `exclude`. */
  claim(n: number, signal?: AbortSignal, exclude?: readonly string[]): Promise<Claim[]>;
  /** Claim intent `id` when it is unfinished and free; else what the table says of it. */
  claimId(id: string, signal?: AbortSignal): Promise<Claim | IntentStatus | undefined>;
  /**
   * Store a state change of a claimed intent, fenced by `fence` — the token of the claim its drive
   * began under (default: the claim held now). Refused (`SENDER_LEASE_LOST`) unless that token is
   * still the intent's and this process's lease on it holds. Ending the intent releases the claim.
   */
  append(rec: JournalRecord, fence?: number): Promise<void>;
  /**
   * The re-read before signing, one statement: resolves only while `fence` is still the intent's
   * token, this process's lease holds, and the latest signature the table knows of the intent is
   * `known` (the one this drive began with or proved expired; none for an intent never signed) with
   * its proof of expiry stored. Anything else — another process signed since — is
   * `SENDER_LEASE_LOST`: this drive must sign nothing.
   */
  signable(id: string, fence: number, known: string | undefined, signal?: AbortSignal): Promise<void>;
  /**
   * Reopen an ended intent for `retry(id)` and claim it, in one statement: its `retried` record is
   * stored and its state becomes `created` only while it is still ended with fencing token `fence`
   * (the one its checked view was read with), so of processes retrying it at once one reopens it.
   * Undefined: it changed meanwhile (reopened by another, or gone).
   */
  reopen(id: string, fence: number, signal?: AbortSignal): Promise<Claim | undefined>;
  /**
   * Take `signature` for intent `id` fleet-wide (an atomic check-and-set on `<table>_signatures`);
   * false when another intent owns it already: identical bytes must be made distinct before they
   * are signed for this one. Not fenced: owning a signature changes no intent's state.
   */
  claimSignature(id: string, signature: string, lastValidBlockHeight: number): Promise<boolean>;
  /** Give a claim up without a state change (work stopped): the intent is free for any process at once. With `fence`, only that claim (never a newer one). */
  release(id: string, fence?: number): Promise<void>;
  /** Extend every held lease; returns the ids whose claim had lapsed (dropped from this process). */
  renew(signal?: AbortSignal): Promise<string[]>;
  /** This process holds a live claim on `id` (with `fence`: that very claim). */
  holds(id: string, fence?: number): boolean;
  status(id: string, signal?: AbortSignal): Promise<IntentStatus | undefined>;
  /** Unfinished intents in the table (held or not). */
  unfinished(signal?: AbortSignal): Promise<number>;
  close(): Promise<void>;
}

const ENDED = `('confirmed', 'failed', 'abandoned')`;

function int(v: unknown, field: string, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) throw new CairnError(ErrorCodes.INPUT_INVALID, `"${field}": expected an integer ≥ ${min}, got ${String(v)}`, { context: { field, got: v } });
  return v;
}

/** Check a PostgreSQL journal's options (naming the bad field) without connecting. */
export function resolvePostgresOptions(o: PostgresJournalOptions): Required<Omit<PostgresJournalOptions, 'postgres'>> & Pick<PostgresJournalOptions, 'postgres'> {
  const pgv = o.postgres;
  const isPool = pgv !== null && typeof pgv === 'object' && typeof (pgv as PgPoolLike).query === 'function';
  if (!(typeof pgv === 'string' && /^postgres(ql)?:\/\//.test(pgv)) && !isPool) {
    throw new CairnError(ErrorCodes.INPUT_INVALID, '"journal.postgres": expected a postgres:// URL or a pg.Pool', { context: { field: 'journal.postgres' } });
  }
  const table = o.table ?? 'cairn_intents';
  tablesOf(table);
  return {
    postgres: pgv,
    table,
    leaseMs: int(o.leaseMs, 'journal.leaseMs', 10_000, 100),
    poolSize: int(o.poolSize, 'journal.poolSize', 10, 1),
    maxWaitMs: int(o.maxWaitMs, 'journal.maxWaitMs', 120_000, 0),
  };
}

const rowStatus = (r: Record<string, unknown>): IntentStatus => ({
  id: r.id as string,
  state: r.state as IntentState,
  view: r.view as IntentView,
  owner: (r.owner as string | null) ?? null,
  leaseUntil: (r.lease_until as Date | null) ?? null,
  fence: Number(r.fence),
});

/**
 * Open (creating its tables on first use) a PostgreSQL journal.
 *
 * @example
 * const j = await openPostgresJournal({ postgres: 'postgres://bot@db/bots' });
 * const [claim] = await j.claim(1);
 */
export async function openPostgresJournal(options: PostgresJournalOptions, life?: AbortSignal): Promise<PostgresJournal> {
  const o = resolvePostgresOptions(options);
  const t: Tables = tablesOf(o.table);
  const owns = typeof o.postgres === 'string';
  const pool = typeof o.postgres === 'string' ? await poolFor(o.postgres, o.poolSize) : o.postgres;
  const metrics: FleetMetrics = { claims: 0, takeovers: 0, renewals: 0, leasesLost: 0, fencedRefused: 0, reconnects: 0 };
  const policy = (signal?: AbortSignal): RetryPolicy => ({ signal: signal ?? life, maxWaitMs: o.maxWaitMs, onRetry: () => metrics.reconnects++ });
  const q = (text: string, values: unknown[], signal?: AbortSignal) => withRetry(() => pool.query(prepared(text, values)), policy(signal));
  try {
    await ensureSchema(pool, t, policy());
  } catch (e) {
    if (owns) await pool.end?.().catch(() => undefined);
    if (e instanceof CairnError) throw e;
    throw new CairnError(ErrorCodes.SENDER_JOURNAL, `cannot open the PostgreSQL journal ${t.name}: ${(e as Error)?.message ?? String(e)}`, { context: { table: t.name }, cause: e });
  }
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /**
   * The claims held, with the view as this holder last stored it. A claim renew() found lapsed stays
   * (marked `lost`) so that a late state change still goes to the database and is refused there by
   * its token — the fence is the database's, never this process's own bookkeeping.
   */
  const held = new Map<string, HeldClaim>();
  const write = createFencedWriter({ t, owner, held, metrics, q: (text, values) => q(text, values) });
  const claimSignature = createSignatureClaimer({ t, q: (text, values) => q(text, values) });
  const signable = createSignableCheck({ t, owner, metrics, q: (text, values) => q(text, values) });
  let closed = false;

  const take = (rows: Record<string, unknown>[]): Claim[] =>
    rows.map((r) => {
      const fence = Number(r.fence);
      const view = r.view as IntentView;
      const takeover = r.prev_owner !== null && r.prev_owner !== undefined;
      metrics.claims++;
      if (takeover) metrics.takeovers++;
      held.set(view.id, { fence, view });
      return { view, fence, takeover };
    });

  const leaseSql = `now() + ($2::double precision * interval '1 millisecond')`;

  const status = async (id: string, signal?: AbortSignal): Promise<IntentStatus | undefined> => {
    const r = await q(`SELECT id, state, view, owner, lease_until, fence FROM ${t.intents} WHERE id = $1`, [id], signal);
    return r.rows.length ? rowStatus(r.rows[0]!) : undefined;
  };
  const release = async (id: string, fence?: number): Promise<void> => {
    const h = held.get(id);
    if (!h || (fence !== undefined && h.fence !== fence)) return;
    held.delete(id);
    if (h.lost) return;
    await pool.query(`UPDATE ${t.intents} SET owner = NULL, lease_until = NULL WHERE id = $1 AND fence = $2 AND owner = $3`, [id, h.fence, owner]).catch(() => undefined);
  };

  return {
    table: t.name,
    owner,
    leaseMs: o.leaseMs,
    metrics,
    async enqueue(items, signal) {
      if (items.length === 0) return 0;
      const ids = items.map((i) => i.id);
      const views = items.map((i) => {
        const m = new Map<string, IntentView>();
        applyRecord(m, i.rec);
        return JSON.stringify(m.get(i.id));
      });
      const recs = items.map((i) => JSON.stringify(i.rec));
      const keys = items.map((i) => (i.rec.key ? JSON.stringify(i.rec.key) : null));
      // One statement: nothing is added when a known id carries other content (jsonb equality ignores key order).
      const r = await q(
        `WITH n AS (SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS n(id, view, rec, key, k)),
         bad AS (
           SELECT i.id, i.view->'key' AS stored FROM ${t.intents} i JOIN n ON n.id = i.id
           WHERE n.key IS NOT NULL AND i.view ? 'key' AND i.view->'key' <> n.key::jsonb ORDER BY n.k LIMIT 1),
         ins AS (
           INSERT INTO ${t.intents} (id, state, view) SELECT id, 'created', view::jsonb FROM n WHERE NOT EXISTS (SELECT 1 FROM bad)
           ON CONFLICT (id) DO NOTHING RETURNING id),
         recs AS (INSERT INTO ${t.records} (id, fence, rec) SELECT n.id, 0, n.rec::jsonb FROM n JOIN ins ON ins.id = n.id)
         SELECT (SELECT count(*) FROM ins)::int AS added, (SELECT coalesce(array_agg(id), '{}') FROM ins) AS ins_ids, (SELECT id FROM bad) AS bad_id, (SELECT stored FROM bad) AS bad_key`,
        [ids, views, recs, keys],
        signal,
      );
      const row = r.rows[0]!;
      const byId = new Map(items.map((i) => [i.id, i.rec.key]));
      const conflict = (id: string, stored: IntentKey): CairnError | undefined => {
        const offered = byId.get(id);
        const part = offered ? keyConflict(stored, offered) : undefined;
        return part === undefined ? undefined : idConflict(id, part, `in journal ${t.name}`);
      };
      if (typeof row.bad_id === 'string') throw conflict(row.bad_id, row.bad_key as IntentKey) ?? idConflict(row.bad_id, 'content', `in journal ${t.name}`);
      // Known ids the statement could not see yet (inserted by a statement running at the same time): read back.
      const inserted = new Set(row.ins_ids as string[]);
      const known = items.filter((i) => !inserted.has(i.id) && i.rec.key).map((i) => i.id);
      if (known.length > 0) {
        const back = await q(`SELECT id, view->'key' AS key FROM ${t.intents} WHERE id = ANY($1::text[]) AND view ? 'key'`, [known], signal);
        for (const b of back.rows) {
          const e = conflict(b.id as string, b.key as IntentKey);
          if (e) throw e;
        }
      }
      return Number(row.added);
    },
    async claim(n, signal, exclude = []) {
      if (n <= 0) return [];
      const r = await q(
        `WITH c AS (
           SELECT id, owner AS prev_owner FROM ${t.intents}
           WHERE state NOT IN ${ENDED} AND (lease_until IS NULL OR lease_until < now()) AND NOT (id = ANY($4::text[]))
           ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
         UPDATE ${t.intents} i SET owner = $1, lease_until = ${leaseSql}, fence = i.fence + 1
         FROM c WHERE i.id = c.id RETURNING i.id, i.view, i.fence, c.prev_owner`,
        [owner, o.leaseMs, n, exclude],
        signal,
      );
      return take(r.rows);
    },
    async claimId(id, signal) {
      const r = await q(
        `WITH c AS (
           SELECT id, owner AS prev_owner FROM ${t.intents}
           WHERE id = $3 AND state NOT IN ${ENDED} AND (lease_until IS NULL OR lease_until < now() OR (owner = $1 AND fence = $4))
           FOR UPDATE SKIP LOCKED)
         UPDATE ${t.intents} i SET owner = $1, lease_until = ${leaseSql}, fence = i.fence + 1
         FROM c WHERE i.id = c.id RETURNING i.id, i.view, i.fence, c.prev_owner`,
        [owner, o.leaseMs, id, held.get(id)?.fence ?? -1],
        signal,
      );
      if (r.rows.length) {
        // Re-claiming its own claim is no takeover.
        if (r.rows[0]!.prev_owner === owner) r.rows[0]!.prev_owner = null;
        return take(r.rows)[0];
      }
      return status(id, signal);
    },
    async reopen(id, fence, signal) {
      const rec: JournalRecord = { op: 'retried', id, at: Date.now() };
      const r = await q(
        `WITH u AS (
           UPDATE ${t.intents} i SET state = 'created', owner = $1, lease_until = ${leaseSql}, fence = i.fence + 1, updated_at = now(),
             view = (i.view - 'end') || jsonb_build_object('state', 'created')
           WHERE i.id = $3 AND i.fence = $4 AND i.state IN ('failed', 'abandoned') RETURNING i.id, i.view, i.fence),
         ins AS (INSERT INTO ${t.records} (id, fence, rec) SELECT u.id, u.fence, $5::jsonb FROM u)
         SELECT u.id, u.view, u.fence, NULL AS prev_owner FROM u`,
        [owner, o.leaseMs, id, fence, JSON.stringify(rec)],
        signal,
      );
      return r.rows.length ? take(r.rows)[0] : undefined;
    },
    async append(rec, fence) {
      if (closed) throw new CairnError(ErrorCodes.SENDER_CLOSED, 'journal is closed', { context: { table: t.name } });
      return fence === undefined ? write(rec) : write(rec, fence);
    },
    // Batched: the re-reads of a burst of builds share one statement (signable.ts).
    signable: (id, fence, known) => signable(id, fence, known),
    async claimSignature(id, signature, lastValidBlockHeight) {
      if (closed) throw new CairnError(ErrorCodes.SENDER_CLOSED, 'journal is closed', { context: { table: t.name } });
      return (await claimSignature(id, signature, lastValidBlockHeight)) === id;
    },
    release,
    async renew(signal) {
      if (held.size === 0) return [];
      const ids = [...held.entries()].filter(([, h]) => !h.lost).map(([id]) => id);
      if (ids.length === 0) return [];
      const fences = ids.map((id) => held.get(id)!.fence);
      const r = await q(
        `UPDATE ${t.intents} i SET lease_until = ${leaseSql} FROM unnest($3::text[], $4::bigint[]) AS c(id, fence)
         WHERE i.id = c.id AND i.fence = c.fence AND i.owner = $1 AND i.lease_until > now() RETURNING i.id`,
        [owner, o.leaseMs, ids, fences],
        signal,
      );
      metrics.renewals += r.rows.length;
      const kept = new Set(r.rows.map((x) => x.id as string));
      // Ended meanwhile (append released them) is not lost.
      const lost = ids.filter((id) => !kept.has(id) && held.get(id)?.fence === fences[ids.indexOf(id)]);
      for (const id of lost) held.get(id)!.lost = true;
      metrics.leasesLost += lost.length;
      return lost;
    },
    holds: (id, fence) => held.has(id) && !held.get(id)!.lost && (fence === undefined || held.get(id)!.fence === fence),
    status,
    async unfinished(signal) {
      const r = await q(`SELECT count(*)::int AS n FROM ${t.intents} WHERE state NOT IN ${ENDED}`, [], signal);
      return Number(r.rows[0]?.n ?? 0);
    },
    async close() {
      if (closed) return;
      closed = true;
      // Hand back what is still held (one statement), so other processes need not wait for the leases to lapse.
      const mine = [...held.entries()].filter(([, h]) => !h.lost);
      held.clear();
      if (mine.length > 0) {
        await pool
          .query(`UPDATE ${t.intents} i SET owner = NULL, lease_until = NULL FROM unnest($1::text[], $2::bigint[]) AS c(id, fence) WHERE i.id = c.id AND i.fence = c.fence AND i.owner = $3`, [
            mine.map(([id]) => id),
            mine.map(([, h]) => h.fence),
            owner,
          ])
          .catch(() => undefined);
      }
      if (owns) await pool.end?.().catch(() => undefined);
    },
  };
}
