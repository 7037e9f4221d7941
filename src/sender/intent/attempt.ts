/**
 * One signed attempt on the wire: submit it (when fresh, or resumed from an earlier process),
 * rebroadcast the SAME bytes until the signature shows up, and race that
 * against the shared tracker — in the style of @solana/kit's confirmation racers. The rebroadcasts
 * run under their own link, cut in `finally` when the track ends, so one still waiting out a
 * Retry-After never outlives its intent (or the sender).
 *
 * Rebroadcasts follow the slots while the tracker's websocket names them, then back off
 * (rebroadcast.ts, shared with bundles).
 *
 * A submit `/fast` refuses with 429 takes the second route when there is one (`rateLimited: 'rpc'`,
 * not `swqosOnly`, a client with `call`): the same bytes at once through the JSON-RPC host, then to
 * `/fast` again once its `Retry-After` has passed — the rebroadcast loop holds until then and resends
 * at that moment. The first submit thus returns, and the track starts, without the wait.
 */
import { linkSignals } from '../../abort.js';
import { CairnError, ErrorCodes } from '../../errors/index.js';
import type { ResolvedSenderOptions } from '../config.js';
import type { Tracker, TrackResult } from '../confirm/tracker.js';
import type { SenderEvents } from '../events.js';
import type { LiveAttempt } from './inflight.js';
import type { IntentJournal } from './journal.js';
import { journalFailure } from '../journal/error.js';
import type { NonceRef } from '../journal/records.js';
import type { SendTimings } from '../outcome.js';
import type { Commitment, SenderRpc } from '../client/rpc.js';
import { hasSecondRoute, isRateLimited, rateLimitWait, resendAtOnce, submitOnce, submitViaRpc } from '../client/submit.js';
import { startRebroadcasts } from './rebroadcast.js';

/** Signed bytes of an intent and how long their blockhash lives. */
export interface Signed {
  wire: Uint8Array;
  signature: string;
  /** MAX_SAFE_INTEGER for a durable-nonce transaction: only its nonce moving ends it. */
  lastValidBlockHeight: number;
  nonce?: NonceRef;
}

/** What an attempt needs from its sender. */
export interface AttemptDeps {
  rpc: SenderRpc;
  cfg: ResolvedSenderOptions;
  tracker: Tracker;
  events: SenderEvents;
  journal: IntentJournal;
  lives: Map<string, LiveAttempt>;
  /** `/fast` submits, rebroadcasts among them, and rate-limited submits sent through the JSON-RPC host. */
  counters: { submits: number; rebroadcasts: number; rerouted: number };
  /** Note activity (idle warming pings only after `warmMs` without any). */
  touch(): void;
}

export interface AttemptRequest {
  id: string;
  signed: Signed;
  /** Signed versions of the intent so far, this one included. */
  attempt: number;
  /** Signed just now: never submitted by anyone. */
  fresh: boolean;
  /** Continued from the journal: an earlier process may have submitted these bytes. */
  resumed: boolean;
  searchHistory: boolean;
  commitment: Commitment;
  signal: AbortSignal;
  /** When the send started (performance.now()), and the timings to fill. */
  t0: number;
  timings: SendTimings;
}

/** Submit, rebroadcast and track one attempt to its result; `sends` counts its submits. */
export async function runAttempt(d: AttemptDeps, a: AttemptRequest): Promise<{ result: TrackResult; sends: number }> {
  const { id, signed: cur, timings } = a;
  let sends = 0;
  let landed = false;
  const rb = linkSignals(a.signal);
  // The caller asked for stake-weighted routing only with swqosOnly: no second route then.
  const reroute = d.cfg.rateLimited === 'rpc' && !d.cfg.swqosOnly && hasSecondRoute(d.rpc);
  /** Submit; answers how long `/fast` asked to wait before it gets the bytes again, when they took the second route. */
  const submit = async (signal: AbortSignal): Promise<number | undefined> => {
    d.touch();
    const live = d.lives.get(id);
    if (live) live.submitted = true;
    // A transient failure (a 5xx, a dropped connection) is followed by the same bytes once more at
    // once, not a slot later (client/submit.ts `resendAtOnce`); after that, the rebroadcasts.
    for (let again = false; ; again = true) {
      d.counters.submits++;
      sends++;
      const r = await submitOnce(d.rpc, cur.wire, d.cfg.swqosOnly, signal, reroute ? { waitOutRateLimit: false } : {});
      if (r.ok) return undefined;
      if (r.fatal) throw r.error;
      if (reroute && isRateLimited(r.error)) {
        // Same bytes, so they cannot execute twice whichever host passes them on.
        d.counters.rerouted++;
        const wait = rateLimitWait(r.error);
        const accepted = await submitViaRpc(d.rpc, cur.wire, signal);
        d.events.emit('rerouted', { id, signature: cur.signature, accepted, ...(wait !== undefined ? { retryAfterMs: wait } : {}) });
        return wait;
      }
      if (again || !resendAtOnce(r.error)) return undefined;
    }
  };
  // Subscribed before the bytes leave: the first notification then names the slot that holds them.
  const cancelWatch = a.fresh ? d.tracker.prewatch(cur.signature, a.commitment) : () => undefined;
  /** A Retry-After the first submit left for `/fast` (its bytes went through the JSON-RPC host). */
  let holdMs: number | undefined;
  if (a.fresh || a.resumed) {
    try {
      holdMs = await submit(a.signal);
    } catch (e) {
      // A refusal of bytes never sent before is final. Bytes an earlier process already sent
      // may have landed whatever this host says now: the tracker decides those.
      const refused = e instanceof CairnError && e.code === ErrorCodes.SENDER_REJECTED;
      if (!refused || a.fresh) {
        rb.release();
        cancelWatch();
      }
      if (!refused) throw e;
      if (a.fresh) {
        await d.journal.journaled(
          { op: 'failed', id, at: Date.now(), signature: cur.signature, error: e.message, ...journalFailure(e) },
          { state: 'failed', signature: cur.signature, what: 'the host refused the transaction' },
        );
        d.events.emit('failed', { id, signature: cur.signature, error: e });
        throw e;
      }
    }
    timings.firstSubmitMs ??= performance.now() - a.t0;
    d.events.emit('sent', { id, signature: cur.signature, attempt: a.attempt });
  }
  // Rebroadcast the same bytes until the signature shows up (or the track ends).
  const stopRebroadcasts = startRebroadcasts({
    tracker: d.tracker,
    cfg: d.cfg,
    counters: d.counters,
    signal: rb.signal,
    landed: () => landed,
    ready: () => d.tracker.ready(cur.signature),
    submit,
    ...(holdMs !== undefined ? { holdMs } : {}),
    onResent: () => d.events.emit('rebroadcast', { id, signature: cur.signature, count: sends - 1 }),
  });
  try {
    const result = await d.tracker.track({
      signature: cur.signature,
      lastValidBlockHeight: cur.lastValidBlockHeight,
      ...(cur.nonce ? { nonce: cur.nonce } : {}),
      commitment: a.commitment,
      searchHistory: a.searchHistory,
      signal: a.signal,
      // landed, its slot maybe not read yet: resending is pointless from here
      onSeen: () => void (landed = true),
      onLanded: (slot) => {
        landed = true;
        timings.landedMs = performance.now() - a.t0;
        d.events.emit('landed', { id, signature: cur.signature, slot });
        void d.journal.record({ op: 'landed', id, at: Date.now(), signature: cur.signature, slot }).catch(() => undefined);
      },
    });
    return { result, sends };
  } finally {
    cancelWatch();
    stopRebroadcasts();
    rb.abort(new Error('the track ended'));
    rb.release();
  }
}
