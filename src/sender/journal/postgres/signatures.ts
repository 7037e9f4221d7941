/**
 * Fleet-wide signature ownership: which intent owns each signature any process of the fleet signed.
 * Identical instructions, payer and blockhash sign to identical bytes; two processes working two
 * such intents would otherwise sign ONE transaction, which lands once while both intents are
 * reported confirmed. A claim is an atomic check-and-set on `<table>_signatures` (its signature is
 * the primary key: `INSERT … ON CONFLICT DO NOTHING`, then the owner read back), taken before the
 * signature is handed out, so the builder can make its transaction distinct (build/builder.ts).
 * Claims made in one turn of the event loop share ONE statement, as the writer's records do: a burst
 * of builds pays one round trip, not one each.
 */
import type { Tables } from './schema.js';
import { batchPerTurn } from './batch-per-turn.js';

type Pending = { id: string; signature: string; lastValid: number; resolve: (owner: string) => void; reject: (e: unknown) => void };

export interface ClaimerDeps {
  t: Tables;
  /** One statement, with the journal's retry policy. */
  q(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * @example
 * const claim = createSignatureClaimer({ t, q });
 * (await claim('order-2', sig, lvbh)) === 'order-2'; // false: order-1 owns these bytes
 */
export function createSignatureClaimer(d: ClaimerDeps): (id: string, signature: string, lastValid: number) => Promise<string> {
  const { t } = d;
  // `ins` answers for rows this statement inserted; `s` (the statement's snapshot) for rows committed
  // before it. A row another process inserted while this statement ran is in neither: read it after.
  const sql = `
    WITH c AS (SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]) AS c(signature, id, last_valid)),
    ins AS (
      INSERT INTO ${t.signatures} (signature, id, last_valid) SELECT signature, id, last_valid FROM c
      ON CONFLICT (signature) DO NOTHING RETURNING signature, id)
    SELECT c.signature, COALESCE(ins.id, s.id) AS id FROM c LEFT JOIN ins ON ins.signature = c.signature LEFT JOIN ${t.signatures} s ON s.signature = c.signature`;
  const reread = `SELECT signature, id FROM ${t.signatures} WHERE signature = ANY($1::text[])`;

  const flush = async (batch: Pending[]): Promise<void> => {
    // One row per signature: the first claimant of a batch is its claim (ON CONFLICT would keep it anyway).
    const first = new Map<string, Pending>();
    for (const p of batch) if (!first.has(p.signature)) first.set(p.signature, p);
    const rows = [...first.values()];
    try {
      const r = await d.q(sql, [rows.map((p) => p.signature), rows.map((p) => p.id), rows.map((p) => p.lastValid)]);
      const owner = new Map<string, string>();
      for (const x of r.rows) if (typeof x.id === 'string') owner.set(x.signature as string, x.id);
      const unseen = rows.filter((p) => !owner.has(p.signature)).map((p) => p.signature);
      if (unseen.length > 0) for (const x of (await d.q(reread, [unseen])).rows) owner.set(x.signature as string, x.id as string);
      for (const p of batch) {
        const o = owner.get(p.signature);
        // Not found even after the read: never claim what the table cannot show as ours.
        p.resolve(o ?? '');
      }
    } catch (e) {
      for (const p of batch) p.reject(e);
    }
  };

  const offer = batchPerTurn(flush);
  return (id, signature, lastValid) => new Promise<string>((resolve, reject) => offer({ id, signature, lastValid, resolve, reject }));
}
