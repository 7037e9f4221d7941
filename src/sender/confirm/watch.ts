/**
 * The tracker's websocket side (tracker.ts races it against its batched polls): one slot
 * subscription while anything is in flight — its notifications time the polls and the early
 * rebroadcasts — and, per signature, a `signatureSubscribe` at `processed` (it landed: stop
 * rebroadcasting) and one at the commitment the caller waits for. Everything here is an
 * accelerator: a subscription refused, a socket down or a gap only means the polls decide alone,
 * so errors are counted and dropped, never surfaced.
 */
import type { Subscriber, Subscription } from '../../rpc/subscribe.js';
import type { Commitment, StatusLike } from '../client/rpc.js';

export interface WatchStats {
  /** Signature notifications that reached the tracker. */
  signatureNotifications: number;
  slotNotifications: number;
  /** Subscriptions that failed to open or ended in error (the polls covered them). */
  failures: number;
}

export interface Watch {
  /** Latest slot a notification named (undefined before the first). */
  readonly slot: number | undefined;
  /** Slot notifications flow: the socket is up and the slot subscription acknowledged. */
  readonly live: boolean;
  onSlot(fn: (slot: number) => void): () => void;
  /**
   * Watch a signature; `on` gets each status the socket tells, with `exact` false when the
   * notification may name a later slot than the transaction's (it came before any slot passed
   * since the watch began: the server found it already landed, and names its current slot).
   * Returns the unwatch.
   */
  watchSignature(signature: string, commitment: Commitment, on: (s: StatusLike, exact: boolean) => void): () => void;
  /** Something is in flight: keep the slot subscription open. */
  busy(): void;
  /** Nothing is in flight: let the slot subscription go (after a short grace). */
  idle(): void;
  readonly stats: WatchStats;
  close(): void;
}

/** Keep the slot subscription this long after the last signature left (bursts come back). */
const IDLE_GRACE_MS = 2_000;

export function createWatch(subscriber: Subscriber): Watch {
  const life = new AbortController();
  // Each watched signature's own controller, aborted with `life`: one set rather than one 'abort'
  // listener per signature on life.signal (past ten in flight, Node printed MaxListenersExceededWarning).
  const watches = new Set<AbortController>();
  const stats: WatchStats = { signatureNotifications: 0, slotNotifications: 0, failures: 0 };
  const slotFns = new Set<(slot: number) => void>();
  let slot: number | undefined;
  let slots: Subscription<unknown> | undefined;
  let opening = false;
  let acked = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const openSlots = (): void => {
    if (slots || opening || closed) return;
    opening = true;
    subscriber
      .slot({
        signal: life.signal,
        overflow: 'drop-oldest',
        bufferSize: 8,
        onGap: () => undefined,
        onNotification: (n) => {
          stats.slotNotifications++;
          if (slot === undefined || n.slot > slot) slot = n.slot;
          for (const fn of [...slotFns]) fn(n.slot);
        },
        onError: () => {
          stats.failures++;
          slots = undefined;
          acked = false;
        },
      })
      .then(
        (s) => {
          opening = false;
          if (closed) return void s.close();
          slots = s as Subscription<unknown>;
          acked = true;
        },
        () => {
          opening = false;
          stats.failures++;
        },
      );
  };

  return {
    get slot() {
      return slot;
    },
    get live() {
      return acked && slots !== undefined && !slots.closed && subscriber.socket.up;
    },
    onSlot(fn) {
      slotFns.add(fn);
      return () => slotFns.delete(fn);
    },
    watchSignature(signature, commitment, on) {
      const subs: Promise<Subscription<unknown> | undefined>[] = [];
      const from = slot;
      const ctl = new AbortController();
      if (life.signal.aborted) ctl.abort();
      else watches.add(ctl);
      // processed tells that it landed; the caller's commitment settles it
      for (const c of commitment === 'processed' ? (['processed'] as const) : (['processed', commitment] as const)) {
        subs.push(
          subscriber
            .signature(signature, {
              commitment: c,
              signal: ctl.signal,
              onGap: () => undefined,
              onError: () => void stats.failures++,
              onNotification: (n) => {
                stats.signatureNotifications++;
                on({ slot: n.slot, err: n.err ?? null, confirmationStatus: c, confirmations: c === 'finalized' ? null : 0 }, from !== undefined && n.slot > from && n.reread !== true);
              },
            })
            .then(
              (s) => s as Subscription<unknown>,
              () => {
                if (!ctl.signal.aborted) stats.failures++;
                return undefined;
              },
            ),
        );
      }
      return () => {
        watches.delete(ctl);
        for (const p of subs) void p.then((s) => s?.close());
        ctl.abort();
      };
    },
    busy() {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = undefined;
      openSlots();
    },
    idle() {
      if (idleTimer || !slots) return;
      idleTimer = setTimeout(() => {
        idleTimer = undefined;
        const s = slots;
        slots = undefined;
        acked = false;
        void s?.close();
      }, IDLE_GRACE_MS);
      idleTimer.unref();
    },
    stats,
    close() {
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      slotFns.clear();
      life.abort();
      for (const c of watches) c.abort();
      watches.clear();
      void slots?.close();
      slots = undefined;
    },
  };
}
