/**
 * The tracker's websocket side (tracker.ts races it against its batched polls): one slot
 * subscription while anything is in flight — its notifications time the polls and the early
 * rebroadcasts — and, per signature, a `signatureSubscribe` at `processed` (it landed: stop
 * rebroadcasting) and one at the commitment the caller waits for. Everything here is an
 * accelerator: a subscription refused, a socket down or a gap only means the polls decide alone,
 * so errors are counted and dropped, never surfaced.
 *
 * A signature notification names the slot the server was at when it sent it, which is the
 * transaction's own slot only when the server told it as that slot was processed — not when the
 * transaction had landed before the subscription reached the server (a cold socket, a resumed
 * intent, a slow subscribe), nor on a node that announces each slot before it processes it. The
 * socket keeps order across subscriptions, so a notification is read as exact only when it came
 * before the slot notification of the slot it names; the rest tell that the signature landed, and
 * a poll reads where.
 */
import { ON_ARRIVAL, type ArrivalOption } from '../../rpc/internal.js';
import type { SignatureNotification, SlotNotification, Subscriber, Subscription } from '../../rpc/index.js';
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
  /** How long a slot lasts, as the slot notifications' arrivals say (a moving average; undefined before two in a row). */
  readonly slotMs: number | undefined;
  /** Slot notifications flow: the socket is up and the slot subscription acknowledged. */
  readonly live: boolean;
  /**
   * The server tells a slot's processed notifications before it announces the slot (some came
   * exact), so an announcement says the slot is done. False until one does: an Agave node announces
   * a slot as it starts, and its notifications follow.
   */
  readonly announcesDoneSlots: boolean;
  /** The signature's processed subscription is acknowledged: its silence means something. */
  ready(signature: string): boolean;
  onSlot(fn: (slot: number) => void): () => void;
  /**
   * Watch a signature; `on` gets each status the socket tells, with `exact` true only when its slot
   * is the transaction's: told before that slot was announced on the socket (see above). Returns
   * the unwatch.
   */
  watchSignature(signature: string, commitment: Commitment, on: (s: StatusLike, exact: boolean) => void): () => void;
  /** Something is in flight: keep the slot subscription open. */
  busy(): void;
  /** Nothing is in flight: let the slot subscription go (after a short grace). */
  idle(): void;
  /**
   * A send is starting: open the socket and the slot subscription now, while it builds, so the
   * signature subscriptions that follow reach the server before the bytes can land. Let go after
   * the grace unless `busy()` comes first.
   */
  warm(): void;
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
  /**
   * The latest slot the live slot subscription announced, as the socket delivered it (not as its
   * consumer read it); undefined until it announced one on the current socket.
   */
  let announced: number | undefined;
  /** When the announcement of `announced` arrived, and the slot length estimated from such arrivals. */
  let announcedAt = 0;
  let slotMs: number | undefined;
  /** Signature notifications judged exact as they arrived. */
  const exactOnes = new WeakSet<SignatureNotification>();
  let doneSlots = false;
  /** Signatures whose processed subscription the server acknowledged. */
  const readySigs = new Set<string>();
  let slots: Subscription<unknown> | undefined;
  let opening = false;
  let acked = false;
  let inFlight = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  // A new socket announces slots afresh: what the old one announced orders nothing on it.
  const offState = subscriber.socket.onState?.((up) => {
    if (!up) announced = undefined;
  });

  /** Let the slot subscription go after the grace, unless something is in flight by then. */
  const armIdle = (): void => {
    if (idleTimer || inFlight || closed || (!slots && !opening)) return;
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      if (inFlight) return;
      const s = slots;
      slots = undefined;
      acked = false;
      announced = undefined;
      void s?.close();
    }, IDLE_GRACE_MS);
    idleTimer.unref();
  };

  const openSlots = (): void => {
    if (slots || opening || closed) return;
    opening = true;
    const o: Parameters<Subscriber['slot']>[0] & ArrivalOption<SlotNotification> = {
      signal: life.signal,
      overflow: 'drop-oldest',
      bufferSize: 8,
      onGap: () => undefined,
      [ON_ARRIVAL]: (n) => {
        const at = performance.now();
        if (announced !== undefined && n.slot > announced) {
          const each = (at - announcedAt) / (n.slot - announced);
          slotMs = slotMs === undefined ? each : slotMs * 0.9 + each * 0.1;
        }
        if (announced === undefined || n.slot > announced) {
          announced = n.slot;
          announcedAt = at;
        }
      },
      onNotification: (n) => {
        stats.slotNotifications++;
        if (slot === undefined || n.slot > slot) slot = n.slot;
        for (const fn of [...slotFns]) fn(n.slot);
      },
      onError: () => {
        stats.failures++;
        slots = undefined;
        acked = false;
        announced = undefined;
      },
    };
    subscriber.slot(o).then(
      (s) => {
        opening = false;
        if (closed) return void s.close();
        slots = s as Subscription<unknown>;
        acked = true;
        armIdle();
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
    get slotMs() {
      return slotMs;
    },
    get announcesDoneSlots() {
      return doneSlots;
    },
    ready: (signature) => readySigs.has(signature),
    get live() {
      return acked && slots !== undefined && !slots.closed && subscriber.socket.up;
    },
    onSlot(fn) {
      slotFns.add(fn);
      return () => slotFns.delete(fn);
    },
    watchSignature(signature, commitment, on) {
      const subs: Promise<Subscription<unknown> | undefined>[] = [];
      const ctl = new AbortController();
      if (life.signal.aborted) ctl.abort();
      else watches.add(ctl);
      // processed tells that it landed; the caller's commitment settles it
      for (const c of commitment === 'processed' ? (['processed'] as const) : (['processed', commitment] as const)) {
        const o: Parameters<Subscriber['signature']>[1] & ArrivalOption<SignatureNotification> = {
          commitment: c,
          signal: ctl.signal,
          onGap: () => undefined,
          onError: () => void stats.failures++,
          // Told before its slot was announced: sent as that slot was processed, so it is the transaction's.
          [ON_ARRIVAL]: (n) => {
            if (n.reread !== true && announced !== undefined && n.slot > announced) {
              exactOnes.add(n);
              if (c === 'processed') doneSlots = true;
            }
          },
          onNotification: (n) => {
            stats.signatureNotifications++;
            on({ slot: n.slot, err: n.err ?? null, confirmationStatus: c, confirmations: c === 'finalized' ? null : 0 }, exactOnes.has(n));
          },
        };
        subs.push(
          subscriber.signature(signature, o).then(
            (s) => {
              if (c === 'processed' && !ctl.signal.aborted) readySigs.add(signature);
              return s as Subscription<unknown>;
            },
            () => {
              if (!ctl.signal.aborted) stats.failures++;
              return undefined;
            },
          ),
        );
      }
      return () => {
        readySigs.delete(signature);
        watches.delete(ctl);
        for (const p of subs) void p.then((s) => s?.close());
        ctl.abort();
      };
    },
    busy() {
      inFlight = true;
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = undefined;
      openSlots();
    },
    idle() {
      inFlight = false;
      armIdle();
    },
    warm() {
      openSlots();
      armIdle();
    },
    stats,
    close() {
      closed = true;
      offState?.();
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
