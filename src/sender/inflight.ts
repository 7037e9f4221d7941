/**
 * The intents a sender is driving right now: one run per id (a second call with the id joins the
 * first), each under a link to the sender's life and its caller's signal, released when it ends.
 * An abort is reported with what is known of the live attempt — `mayLand` once its bytes were
 * submitted — unless the intent had already reached a real outcome.
 */
import { abortError, linkSignals } from '../abort.js';
import { AbortError, CairnError, ErrorCodes } from '../errors.js';
import type { NonceRef } from './journal-records.js';
import type { SendOutcome } from './outcome.js';

/** Where an intent's live attempt stands, for the context of an abort: may its bytes still land? */
export interface LiveAttempt {
  signature: string;
  /** Absent for a durable-nonce attempt: its bytes may land until `nonce` moves, at any height. */
  lastValidBlockHeight?: number;
  nonce?: NonceRef;
  submitted: boolean;
}

export interface Inflight {
  /** Start (or join) one intent; the caller's signal is linked to the sender's life. */
  start(id: string, run: (signal: AbortSignal) => Promise<SendOutcome>, signal?: AbortSignal): Promise<SendOutcome>;
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
  const runs = new Map<string, Promise<SendOutcome>>();
  const lives = new Map<string, LiveAttempt>();
  return {
    start(id, run, signal) {
      const existing = runs.get(id);
      if (existing) return existing;
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
            const window = live?.nonce ? { nonce: live.nonce } : live?.lastValidBlockHeight !== undefined ? { lastValidBlockHeight: live.lastValidBlockHeight } : {};
            Object.assign(err.context, { id, mayLand: !!live?.submitted, ...(live ? { signature: live.signature, ...window } : {}) });
            throw err;
          }
          throw e;
        })
        .finally(() => {
          link.release();
          runs.delete(id);
          lives.delete(id);
        });
      runs.set(id, p);
      return p;
    },
    get: (id) => runs.get(id),
    get size() {
      return runs.size;
    },
    async settled() {
      await Promise.allSettled([...runs.values()]);
    },
    lives,
  };
}
