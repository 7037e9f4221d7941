/**
 * The intents a sender is driving right now: one run per id (a second call with the id joins the
 * first), each under a link to the sender's life and its caller's signal, released when it ends.
 * An abort is reported with what is known of the live attempt — `mayLand` once its bytes were
 * submitted — unless the intent had already reached a real outcome.
 * In a fleet a run belongs to the claim it began under (its fencing token): a newer claim of this
 * process never joins a run of an older one — that run may be a drive frozen past its lease while
 * another process signed the intent, and joining it would store its records under the new token.
 * The older run is aborted and the newer starts from what the table says; a start under an older
 * token than the running one is refused.
 */
import { abortError, linkSignals } from '../../abort.js';
import { AbortError, CairnError, ErrorCodes } from '../../errors/index.js';
import type { NonceRef } from '../journal/records.js';
import type { SendOutcome } from '../outcome.js';

/** Where an intent's live attempt stands, for the context of an abort: may its bytes still land? */
export interface LiveAttempt {
  signature: string;
  /** Absent for a durable-nonce attempt: its bytes may land until `nonce` moves, at any height. */
  lastValidBlockHeight?: number;
  nonce?: NonceRef;
  submitted: boolean;
}

export interface Inflight {
  /**
   * Start (or join) one intent; the caller's signal is linked to the sender's life. With `fence`
   * (a fleet claim's token) a run under an older token is aborted and replaced, never joined.
   */
  start(id: string, run: (signal: AbortSignal) => Promise<SendOutcome>, signal?: AbortSignal, fence?: number): Promise<SendOutcome>;
  get(id: string): Promise<SendOutcome> | undefined;
  readonly size: number;
  /** Resolves when every run started so far has ended. */
  settled(): Promise<void>;
  /** The live attempt of each running intent (set by the intent's driver). */
  readonly lives: Map<string, LiveAttempt>;
}

/** The codes of a real end of an intent (an abort is none: with a journal, resume() finishes it). */
const OUTCOMES: ReadonlySet<string> = new Set([
  ErrorCodes.SENDER_ABORTED,
  ErrorCodes.SENDER_TRANSACTION_FAILED,
  ErrorCodes.SENDER_BLOCKHASH_EXPIRED,
  ErrorCodes.SENDER_REJECTED,
]);

export function createInflight(life: AbortSignal): Inflight {
  const runs = new Map<string, { p: Promise<SendOutcome>; fence: number | undefined; abort: (r?: unknown) => void }>();
  const lives = new Map<string, LiveAttempt>();
  /** Every run not yet ended, replaced ones included. */
  const pending = new Set<Promise<SendOutcome>>();
  return {
    start(id, run, signal, fence) {
      const existing = runs.get(id);
      if (existing) {
        if (fence === undefined || existing.fence === undefined || existing.fence === fence) return existing.p;
        if (existing.fence > fence) {
          return Promise.reject(
            new CairnError(ErrorCodes.SENDER_LEASE_LOST, `intent ${id}: a claim with fencing token ${fence} is older than the one this process drives it under (${existing.fence})`, {
              context: { id, fence, current: existing.fence },
            }),
          );
        }
        // A drive of an older claim: it ends here (its records would be refused by its token anyway).
        existing.abort(new CairnError(ErrorCodes.SENDER_LEASE_LOST, `intent ${id}: claimed again under fencing token ${fence}; the drive under ${existing.fence} ends`, { context: { id, fence: existing.fence, current: fence } }));
        runs.delete(id);
        lives.delete(id);
      }
      const link = linkSignals(life, signal);
      const p = run(link.signal)
        .catch((e: unknown) => {
          // After an abort, whatever broke (a request, a wait, the closed tracker) is reported as the
          // abort — unless the intent had already reached a real outcome. An abort is not a failure:
          // its context says whether bytes were sent (`mayLand`) and, with a journal, resume() ends it.
          const ended = e instanceof CairnError && OUTCOMES.has(e.code) && e.code !== ErrorCodes.SENDER_ABORTED;
          if (link.signal.aborted && !ended) {
            const err = e instanceof AbortError && e.code === ErrorCodes.SENDER_ABORTED ? e : abortError(ErrorCodes.SENDER_ABORTED, link.signal, 'send');
            const live = lives.get(id);
            const window = live?.nonce
              ? { nonce: live.nonce }
              : live?.lastValidBlockHeight !== undefined
                ? { lastValidBlockHeight: live.lastValidBlockHeight }
                : {};
            Object.assign(err.context, { id, mayLand: !!live?.submitted, ...(live ? { signature: live.signature, ...window } : {}) });
            throw err;
          }
          throw e;
        })
        .finally(() => {
          link.release();
          // A newer claim's run may have replaced this one: it keeps its entries.
          if (runs.get(id)?.p === p) {
            runs.delete(id);
            lives.delete(id);
          }
          pending.delete(p);
        });
      runs.set(id, { p, fence, abort: link.abort });
      pending.add(p);
      return p;
    },
    get: (id) => runs.get(id)?.p,
    get size() {
      return runs.size;
    },
    async settled() {
      // Replaced runs too: an aborted older drive still ends before the sender closes.
      await Promise.allSettled([...pending]);
    },
    lives,
  };
}
