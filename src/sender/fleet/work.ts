/**
 * The fleet's worker loop: claim free intents (at most `concurrency` held at once), drive each to an
 * end, and claim more as slots free up. With `drain` it returns once the whole table has no
 * unfinished intent left (other processes' included: one of them may die and leave its intents to
 * take over); with `once` (what `resume()` is) it returns when a claim finds nothing free and its
 * own intents ended. A database that is away is waited out by the journal's retry policy.
 */
import { linkSignals, sleep } from '../../abort.js';
import { CairnError, ErrorCodes, InputError } from '../../errors/index.js';
import type { Claim, PostgresJournal } from '../journal/postgres/journal.js';
import type { SendManyItem } from '../outcome.js';

export interface WorkOptions {
  /** Intents driven at once by this process (default: the sender's `concurrency`). */
  concurrency?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Return once no intent of the table is unfinished (default false: work until the signal aborts). */
  drain?: boolean | undefined;
  /** How often to look for free intents when there were none (ms, default 250). */
  idleMs?: number | undefined;
}

/** What one `work()` call did. */
export interface WorkSummary {
  /** Intents this call drove to an end (confirmed or failed). */
  ended: number;
  confirmed: number;
  failed: number;
  /** Intents whose claim lapsed while this call drove them (another process finishes them). */
  leaseLost: number;
  /** Intents given back unfinished (work stopped, or an error that ends nothing). */
  released: number;
}

/** What the loop needs of its fleet. */
export interface WorkDeps {
  journal: PostgresJournal;
  life: AbortSignal;
  /** Drive one claimed intent; resolves with its item (undefined when the claim was lost or given back). */
  settle(c: Claim, signal: AbortSignal, index: number): Promise<SendManyItem | undefined>;
  /** Intents this process must not claim (it lacks their signers). */
  exclude?: () => readonly string[];
}

/** How a settled item counts. */
function tally(s: WorkSummary, item: SendManyItem | undefined, lost: boolean): void {
  if (lost) s.leaseLost++;
  else if (!item) s.released++;
  else {
    s.ended++;
    if (item.ok) s.confirmed++;
    else s.failed++;
  }
}

export const isLeaseLost = (e: unknown): boolean => e instanceof CairnError && e.code === ErrorCodes.SENDER_LEASE_LOST;

/**
 * @example
 * const summary = await runWork(deps, { concurrency: 32, drain: true }, 64);
 */
export async function runWork(
  d: WorkDeps,
  o: WorkOptions,
  defaultConcurrency: number,
  mode: { once?: boolean; items?: SendManyItem[] } = {},
): Promise<WorkSummary> {
  const concurrency = o.concurrency ?? defaultConcurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new InputError('concurrency', `expected a positive integer, got ${String(concurrency)}`);
  const idleMs = o.idleMs ?? 250;
  if (!Number.isInteger(idleMs) || idleMs < 1) throw new InputError('idleMs', `expected a positive integer (ms), got ${String(idleMs)}`);
  const link = linkSignals(d.life, o.signal);
  const summary: WorkSummary = { ended: 0, confirmed: 0, failed: 0, leaseLost: 0, released: 0 };
  const running = new Set<Promise<void>>();
  let wake: (() => void) | undefined;
  let index = 0;
  const start = (c: Claim): void => {
    const p = d
      .settle(c, link.signal, index++)
      .then(
        (item) => {
          tally(summary, item, false);
          if (item && mode.items) mode.items.push(item);
        },
        (e: unknown) => tally(summary, undefined, isLeaseLost(e)),
      )
      .finally(() => {
        running.delete(p);
        wake?.();
      });
    running.add(p);
  };
  // Claims are taken in batches and kept `ahead` in hand (held and renewed like the rest): one claim
  // per freed slot would be one statement per intent, and a slot would idle while it commits.
  const ahead = Math.max(1, concurrency >> 3);
  const ready: Claim[] = [];
  const fill = (): void => {
    while (ready.length > 0 && running.size < concurrency) start(ready.shift()!);
  };
  try {
    while (!link.signal.aborted) {
      // Armed before claiming, so an intent settling meanwhile still wakes the wait below.
      const woke = new Promise<void>((r) => (wake = r));
      fill();
      const want = concurrency - running.size + ahead - ready.length;
      const tried = want >= ahead || (running.size === 0 && ready.length === 0);
      let got = 0;
      if (tried) {
        try {
          const claims = await d.journal.claim(want, link.signal, d.exclude?.() ?? []);
          got = claims.length;
          ready.push(...claims);
        } catch {
          // The database stayed away past maxWaitMs: try again after a while (nothing new is held).
          if (link.signal.aborted) break;
        }
        fill();
        if (got > 0) continue;
        if (mode.once && ready.length === 0) break;
        if (o.drain && running.size === 0 && ready.length === 0) {
          const left = await d.journal.unfinished(link.signal).catch(() => -1);
          if (left === 0) break;
        }
      }
      // Nothing claimable: look again after idleMs; enough in hand: until an intent settles.
      const nap = linkSignals(link.signal);
      await Promise.race([sleep(tried ? idleMs : 60_000, nap.signal).catch(() => undefined), woke]);
      nap.abort();
      nap.release();
      wake = undefined;
    }
    while (running.size > 0) await Promise.race(running);
  } finally {
    // Claimed ahead and never started: give them back at once rather than let their leases lapse.
    for (const c of ready.splice(0)) await d.journal.release(c.view.id, c.fence).catch(() => undefined);
    await Promise.allSettled([...running]);
    link.release();
  }
  return summary;
}
