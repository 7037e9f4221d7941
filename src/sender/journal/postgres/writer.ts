/**
 * The PostgreSQL journal's writes, group-committed as the file journal's are: the state changes
 * appended in one turn of the event loop go to the database in ONE statement (one commit, one WAL
 * flush), and each caller's promise settles only when that statement has committed. Every change is
 * still fenced on its own: the statement updates an intent only where the token and owner match and
 * the lease has not lapsed, and returns the ids it updated; a record whose intent is missing from
 * that answer was refused (counted, `SENDER_LEASE_LOST`). A record is written under the token it was
 * appended with (the claim its drive began under), never under whatever this process holds at flush
 * time: a record of an older claim than the one held is refused here, without a round trip, and one
 * whose claim was taken over is refused by the statement. Records of one intent in one batch are
 * folded in order into one new view, and all of them are kept in the records table.
 * Up to `MAX_IN_FLIGHT` batches run at once (a record need not wait for the batch before it to
 * commit). No two batches ever hold the same intent, so each folds onto the view the database
 * already has: a record joins its intent's earlier record while that one still waits in the queue
 * (a `landed` and `confirmed` seen in one poll share a commit), and waits for it once it is in flight.
 */
import { CairnError, ErrorCodes } from '../../../errors/index.js';
import { applyRecord, isTerminal, type IntentView, type JournalRecord } from '../records.js';
import type { Tables } from './schema.js';

/** A claim as the writer sees it (journal.ts keeps them). */
export interface HeldClaim {
  fence: number;
  view: IntentView;
  lost?: boolean;
}

export interface WriterDeps {
  t: Tables;
  owner: string;
  held: Map<string, HeldClaim>;
  metrics: { fencedRefused: number };
  /** One statement, with the journal's retry policy. */
  q(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

type Pending = { rec: JournalRecord; fence: number | undefined; resolve: () => void; reject: (e: unknown) => void };

/** Batches in flight at once per journal (its pool also serves claims and renewals). */
const MAX_IN_FLIGHT = 4;

/**
 * @example
 * const append = createFencedWriter({ t, owner, held, metrics, q });
 * await append({ op: 'signed', id, ... }, claim.fence); // durable, or SENDER_LEASE_LOST
 */
export function createFencedWriter(d: WriterDeps): (rec: JournalRecord, fence?: number) => Promise<void> {
  const { t, held } = d;
  let queue: Pending[] = [];
  let scheduled = false;
  let inFlight = 0;
  /** Intents with a record in `queue`, and the batch in flight holding each dispatched intent. */
  const queued = new Set<string>();
  const flying = new Map<string, Promise<void>>();

  const refused = (rec: JournalRecord, fence: number | undefined): CairnError =>
    new CairnError(ErrorCodes.SENDER_LEASE_LOST, `intent ${rec.id}: this process's claim (fencing token ${fence ?? 'none'}) is no longer the intent's (lapsed, taken over or claimed again); its ${rec.op} record was refused`, {
      context: { id: rec.id, table: t.name, fence: fence ?? -1, op: rec.op },
    });

  const sql = `
    WITH c AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::boolean[]) AS c(id, fence, view, state, ends)),
    u AS (
      UPDATE ${t.intents} i SET view = c.view::jsonb, state = c.state, updated_at = now(),
        owner = CASE WHEN c.ends THEN NULL ELSE i.owner END, lease_until = CASE WHEN c.ends THEN NULL ELSE i.lease_until END
      FROM c WHERE i.id = c.id AND i.fence = c.fence AND i.owner = $6 AND i.lease_until > now() RETURNING i.id),
    ins AS (
      INSERT INTO ${t.records} (id, fence, rec)
      SELECT r.id, r.fence, r.rec::jsonb FROM unnest($7::text[], $8::bigint[], $9::text[]) WITH ORDINALITY AS r(id, fence, rec, n) JOIN u ON u.id = r.id ORDER BY r.n)
    SELECT id FROM u`;

  /** Start batches while there are records and room; each one that ends makes room for the next. */
  const pump = (): void => {
    while (queue.length > 0 && inFlight < MAX_IN_FLIGHT) {
      const batch = queue;
      queue = [];
      queued.clear();
      inFlight++;
      const b = flush(batch).finally(() => {
        inFlight--;
        pump();
      });
      const ids = new Set(batch.map((p) => p.rec.id));
      for (const id of ids) flying.set(id, b);
      void b.finally(() => {
        for (const id of ids) if (flying.get(id) === b) flying.delete(id);
      });
    }
  };

  const flush = async (batch: Pending[]): Promise<void> => {
    const byId = new Map<string, { fence: number; view: IntentView; recs: Pending[] }>();
    for (const p of batch) {
      const h = held.get(p.rec.id);
      if (!h || h.fence !== p.fence) {
        // Never claimed here (or already ended), or claimed again since its drive began: its token is not the intent's.
        if (h) d.metrics.fencedRefused++;
        p.reject(refused(p.rec, p.fence));
        continue;
      }
      let g = byId.get(p.rec.id);
      if (!g) byId.set(p.rec.id, (g = { fence: h.fence, view: structuredClone(h.view), recs: [] }));
      const m = new Map([[p.rec.id, g.view]]);
      applyRecord(m, p.rec);
      g.recs.push(p);
    }
    if (byId.size === 0) return;
    const groups = [...byId.entries()];
    const recs = groups.flatMap(([id, g]) => g.recs.map((p) => ({ id, fence: g.fence, rec: JSON.stringify(p.rec) })));
    let stored: Set<string>;
    try {
      const r = await d.q(sql, [
        groups.map(([id]) => id),
        groups.map(([, g]) => g.fence),
        groups.map(([, g]) => JSON.stringify(g.view)),
        groups.map(([, g]) => g.view.state),
        groups.map(([, g]) => isTerminal(g.view.state)),
        d.owner,
        recs.map((x) => x.id),
        recs.map((x) => x.fence),
        recs.map((x) => x.rec),
      ]);
      stored = new Set(r.rows.map((x) => x.id as string));
    } catch (cause) {
      // The database stayed away past maxWaitMs: what is durable is what the table held before.
      for (const [id, g] of groups) {
        const before = held.get(id)?.view ?? g.view;
        for (const p of g.recs) {
          p.reject(
            new CairnError(ErrorCodes.SENDER_JOURNAL_FAILED, `journal ${t.name}: ${(cause as Error)?.message ?? String(cause)}; intent ${id} is durably ${before.state}, its ${p.rec.op} record was not stored`, {
              context: { id, table: t.name, state: before.state, ...(before.signed ? { signature: before.signed.signature } : {}) },
              cause,
            }),
          );
        }
      }
      return;
    }
    for (const [id, g] of groups) {
      const h = held.get(id);
      const same = h !== undefined && h.fence === g.fence;
      if (stored.has(id)) {
        if (same) {
          h.view = g.view;
          if (isTerminal(g.view.state)) held.delete(id);
        }
        for (const p of g.recs) p.resolve();
      } else {
        d.metrics.fencedRefused += g.recs.length;
        if (same) held.delete(id);
        for (const p of g.recs) p.reject(refused(p.rec, g.fence));
      }
    }
  };

  const enqueue = (rec: JournalRecord, fence: number | undefined): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      queue.push({ rec, fence, resolve, reject });
      queued.add(rec.id);
      if (scheduled) return;
      // One macrotask later, so the records of a burst share one commit.
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        pump();
      });
    });

  /** `fence`: the token the record's drive began under (default: the claim held now, as a caller of the journal itself means it). */
  const append = (rec: JournalRecord, fence: number | undefined = held.get(rec.id)?.fence): Promise<void> => {
    const h = held.get(rec.id);
    if (h && fence !== undefined && h.fence !== fence) {
      d.metrics.fencedRefused++;
      return Promise.reject(refused(rec, fence));
    }
    const ahead = flying.get(rec.id);
    if (ahead && !queued.has(rec.id)) return ahead.then(() => append(rec, fence));
    return enqueue(rec, fence);
  };
  return append;
}
