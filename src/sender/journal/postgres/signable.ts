/**
 * The fleet's re-read before signing (issue 29): a drive about to sign asks the table whether its
 * claim is still the intent's — its fencing token, this process's unexpired lease — and whether the
 * latest signature the table knows is the one the drive knows, with its proof of expiry stored (or
 * none, for an intent never signed). Anything else means another process claimed or signed it since
 * the drive began: the drive must sign nothing (`SENDER_LEASE_LOST`, counted in `fencedRefused`).
 * The checks asked in one turn of the event loop share ONE statement, as the writer's records and the
 * signature claims do: a burst of builds costs one round trip and one pooled connection, so the
 * re-reads never queue the lease renewals behind them.
 */
import { CairnError, ErrorCodes } from '../../../errors/index.js';
import type { Tables } from './schema.js';
import { batchPerTurn } from './batch-per-turn.js';

type Pending = { id: string; fence: number; known: string | undefined; resolve: () => void; reject: (e: unknown) => void };

export interface SignableDeps {
  t: Tables;
  owner: string;
  metrics: { fencedRefused: number };
  /** One statement, with the journal's retry policy. */
  q(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * @example
 * const signable = createSignableCheck({ t, owner, metrics, q });
 * await signable('order-1', claim.fence, undefined); // resolves, or SENDER_LEASE_LOST: sign nothing
 */
export function createSignableCheck(d: SignableDeps): (id: string, fence: number, known: string | undefined) => Promise<void> {
  const { t } = d;
  const sql = `
    SELECT id, fence, owner = $2 AND lease_until > now() AS mine, state, view->'signed'->>'signature' AS signed,
      view->'end'->>'op' AS end_op, view->'end'->>'signature' AS end_sig
    FROM ${t.intents} WHERE id = ANY($1::text[])`;

  const judge = (p: Pending, row: Record<string, unknown> | undefined): void => {
    const signed = (row?.signed as string | null | undefined) ?? undefined;
    const proven = row?.state === 'expired' && row.end_op === 'expired' && row.end_sig === p.known;
    const ok = row !== undefined && Number(row.fence) === p.fence && row.mine === true && (signed === undefined ? p.known === undefined && row.state === 'created' : signed === p.known && proven);
    if (ok) return p.resolve();
    d.metrics.fencedRefused++;
    const what = !row
      ? 'it is gone from the table'
      : Number(row.fence) !== p.fence || row.mine !== true
        ? `its claim moved on (token ${String(row.fence)}, this drive's ${p.fence})`
        : `the table holds ${signed ? `signature ${signed}` : 'no signature'} (${String(row.state)}) where this drive knew ${p.known ?? 'none'}`;
    p.reject(
      new CairnError(ErrorCodes.SENDER_LEASE_LOST, `intent ${p.id}: not signed again under fencing token ${p.fence}: ${what}`, {
        context: { id: p.id, table: t.name, fence: p.fence, op: 'sign', ...(signed ? { signature: signed } : {}) },
      }),
    );
  };

  const flush = async (batch: Pending[]): Promise<void> => {
    try {
      const r = await d.q(sql, [[...new Set(batch.map((p) => p.id))], d.owner]);
      const rows = new Map(r.rows.map((x) => [x.id as string, x]));
      for (const p of batch) judge(p, rows.get(p.id));
    } catch (e) {
      for (const p of batch) p.reject(e);
    }
  };

  const offer = batchPerTurn(flush);
  return (id, fence, known) => new Promise<void>((resolve, reject) => offer({ id, fence, known, resolve, reject }));
}
