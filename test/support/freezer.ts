/**
 * A fleet worker frozen at a chosen step, as a SIGSTOP (a GC pause, a stalled VM) freezes a process —
 * but in the test's own process, so the step is chosen exactly and the wake-up is ordered. The worker
 * gets a real `pg.Pool` and the real client, each behind a gate: once its drive reaches the step, every
 * call of the worker (its lease renewals included) waits. `thawDb()` lets its database calls go on
 * (all but the one that froze it), so the test can have the woken worker claim the intent again
 * before its old drive moves; `thaw()` lets everything go on. Nothing is answered in the worker's
 * place: every call that goes on reaches the real server.
 */
import pg from 'pg';
import type { CairnClient } from '../../src/rpc/client/create-client.js';
import type { PgPoolLike } from '../../src/sender/journal/postgres/schema.js';

/** Where the worker's drive freezes. */
export type FreezePoint = 'mid-prepare' | 'after-blockhash' | 'after-signing' | 'after-signed-write' | 'mid-confirmation';

export interface Freezer {
  pool: PgPoolLike;
  client: CairnClient;
  /** Resolves when the worker froze. */
  frozen: Promise<void>;
  /** Freeze now (every later call waits), without a freeze point: for a worker that dies mid-way. */
  freeze(): void;
  thawDb(): void;
  thaw(): void;
  end(): Promise<void>;
}

const gate = (): { wait: Promise<void>; open: () => void } => {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
};

/**
 * @example
 * const fz = createFreezer(server.url, env.client, 'after-blockhash');
 * const a = createSender({ client: fz.client, journal: { postgres: fz.pool, table } , … });
 * await fz.frozen; …; fz.thawDb(); …; fz.thaw();
 */
export function createFreezer(url: string, client: CairnClient, point?: FreezePoint): Freezer {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => undefined);
  let isFrozen = false;
  const froze = gate();
  const db = gate();
  const rest = gate();
  const trigger = gate();
  let sent = false;
  const freeze = (): void => {
    if (isFrozen) return;
    isFrozen = true;
    froze.open();
  };
  const textOf = (q: string | { text: string }): string => (typeof q === 'string' ? q : q.text);
  const gatedPool: PgPoolLike = {
    async query(q, values) {
      if (!isFrozen && point === 'after-signing' && /ON CONFLICT \(signature\) DO NOTHING RETURNING signature, id/.test(textOf(q))) {
        freeze();
        await trigger.wait;
      } else if (isFrozen) await db.wait;
      return pool.query(q as string, values) as unknown as ReturnType<PgPoolLike['query']>;
    },
    on: () => undefined,
  };
  const gated = new Proxy(client, {
    get(target, prop, recv) {
      const v = Reflect.get(target, prop, recv) as unknown;
      if (typeof v !== 'function' || prop === 'close') return v;
      const fn = v as (...a: unknown[]) => Promise<unknown>;
      return async (...args: unknown[]) => {
        const at = (p: FreezePoint): boolean => !isFrozen && point === p;
        if (prop === 'getLatestBlockhash' && at('mid-prepare')) {
          freeze();
          await trigger.wait;
        } else if (prop === 'sendTransaction' && at('after-signed-write')) {
          freeze();
          await trigger.wait;
        } else if (prop === 'getSignatureStatuses' && sent && at('mid-confirmation')) {
          freeze();
          await trigger.wait;
        } else if (isFrozen) await rest.wait;
        const r = await fn.apply(target, args);
        if (prop === 'sendTransaction') sent = true;
        if (prop === 'getLatestBlockhash' && at('after-blockhash')) {
          freeze();
          await trigger.wait;
        }
        return r;
      };
    },
  });
  return {
    pool: gatedPool,
    client: gated,
    frozen: froze.wait,
    freeze,
    thawDb: () => db.open(),
    thaw() {
      db.open();
      rest.open();
      trigger.open();
    },
    end: () => pool.end(),
  };
}
