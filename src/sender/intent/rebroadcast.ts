/**
 * The rebroadcast loop of one attempt — a single transaction's (attempt.ts) or a bundle's
 * (bundle-attempt.ts): the SAME bytes resent until they show up. While the tracker's websocket names
 * slots, the first `EARLY_REBROADCASTS` resends come `rebroadcastSlots` slots after the last submit
 * was answered with no sign of landing (the slot that could hold them has been produced, and its
 * processed notification would have come first) — counting only a slot announced at least half a
 * slot after the answer (`SAME_MOMENT_SLOTS`) — then the gap doubles each time; every
 * `rebroadcastMs` the timer resends as before, whatever the socket does. Never two submits of one
 * attempt in flight: a slow host must not turn rebroadcasting into a storm. A submit `/fast` answered
 * with 429 whose bytes took the second route (attempt.ts) holds every resend until its `Retry-After`
 * has passed, and the bytes go to `/fast` again at that moment — as the client's own wait would have.
 */
import type { ResolvedSenderOptions } from '../config.js';
import type { Tracker } from '../confirm/tracker.js';

/** Rebroadcasts paced by slots before the gap starts doubling. */
const EARLY_REBROADCASTS = 3;

/**
 * A slot notification read less than this share of a slot after the host's answer decides nothing
 * about those bytes: the host may have taken them after that slot began — the websocket's path is
 * not the sender host's (a different host in production, a hop longer in the landing benchmark), and
 * a stalled event loop reads both at once — and they would land in the next slot. Resending on such
 * a notification was up to a third of the rebroadcasts of a loaded landing run; the next slot
 * decides instead.
 */
const SAME_MOMENT_SLOTS = 0.5;

export interface RebroadcastOptions {
  tracker: Tracker;
  cfg: ResolvedSenderOptions;
  counters: { rebroadcasts: number };
  /** The attempt's rebroadcast link: no resend starts once it is aborted. */
  signal: AbortSignal;
  /** True once the bytes showed up: nothing is resent after. */
  landed(): boolean;
  /** The signatures' processed subscriptions are acknowledged (Tracker.ready): their silence at a slot means something. */
  ready(): boolean;
  /**
   * One resubmission; a rejection is swallowed here (the tracker decides). Answers how long `/fast`
   * asked to wait when the bytes went through the JSON-RPC host instead (a 429 rerouted).
   */
  submit(signal: AbortSignal): Promise<number | undefined | void>;
  /** The first submit was rerouted: nothing before this many ms, then one resend to `/fast`. */
  holdMs?: number;
  /** Told after each resend the host answered. */
  onResent?(): void;
}

/**
 * Start resending; returns the stop (call it when the track ends).
 *
 * @example
 * const stop = startRebroadcasts({ tracker, cfg, counters, signal: rb.signal, landed: () => landed, submit });
 * try { await tracker.track(...); } finally { stop(); }
 */
export function startRebroadcasts(o: RebroadcastOptions): () => void {
  const { tracker, cfg } = o;
  let submitting = false;
  let lastAt = Date.now();
  /** The latest slot named when the last submit was answered (undefined: none known), and when. */
  let answeredAt = tracker.slot;
  let answeredTime = performance.now();
  let slotRebroadcasts = 0;
  let gapSlots = cfg.rebroadcastSlots;
  /** A `/fast` Retry-After still running (Date.now() it ends; 0: none), and the resend waiting for it. */
  let heldUntil = 0;
  let holdTimer: ReturnType<typeof setTimeout> | undefined;
  /** Stopped: a submit answered after the stop arms no hold (its timer would outlive the attempt). */
  let stopped = false;
  const hold = (ms: number): void => {
    if (stopped) return;
    heldUntil = Date.now() + ms;
    holdTimer = setTimeout(() => {
      heldUntil = 0;
      resend();
    }, ms);
  };
  const resend = (): void => {
    if (stopped || o.landed() || submitting || o.signal.aborted || heldUntil > 0) return;
    submitting = true;
    o.counters.rebroadcasts++;
    lastAt = Date.now();
    o.submit(o.signal)
      .then(
        (wait) => {
          o.onResent?.();
          if (typeof wait === 'number' && !o.signal.aborted) hold(wait);
        },
        () => undefined,
      )
      .finally(() => {
        submitting = false;
        lastAt = Date.now();
        answeredAt = tracker.slot;
        answeredTime = performance.now();
      });
  };
  if (o.holdMs !== undefined) hold(o.holdMs);
  const timer = setInterval(() => {
    if (Date.now() - lastAt >= cfg.rebroadcastMs * 0.9) resend();
  }, cfg.rebroadcastMs);
  const offSlot = tracker.onSlot((slot) => {
    if (o.landed() || submitting) return;
    if (answeredAt === undefined) return void (answeredAt = slot);
    // Where a slot is announced as it starts (Agave), the one after the answer is still running.
    if (slot - answeredAt < gapSlots + (tracker.announcesDoneSlots ? 0 : 1)) return;
    if (performance.now() - answeredTime < (tracker.slotMs ?? 0) * SAME_MOMENT_SLOTS) return;
    // A subscription still on its way tells nothing by its silence (the bytes may have landed before it).
    if (!o.ready()) return;
    slotRebroadcasts++;
    if (slotRebroadcasts > EARLY_REBROADCASTS) gapSlots *= 2;
    resend();
  });
  return () => {
    stopped = true;
    clearInterval(timer);
    clearTimeout(holdTimer);
    offSlot();
  };
}
