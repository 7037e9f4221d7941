/**
 * What one subscription hands its consumer: a bounded buffer read as an async iterator, or drained
 * into callbacks. The slow-consumer policy is stated and never silent: when `bufferSize`
 * notifications wait unread, `overflow: 'error'` (the default) ends the subscription with
 * `RPC_SUBSCRIPTION_OVERFLOW`, and `overflow: 'drop-oldest'` discards the oldest one and reports a
 * gap (`onGap`, or the same error when nobody listens for gaps).
 */
import { CairnError, ErrorCodes } from '../../errors/index.js';

/** What may have been missed, and why. */
export interface SubscriptionGap {
  reason: 'reconnect' | 'overflow';
  /** Notifications discarded (overflow). */
  lost?: number;
  /** The last slot delivered before the gap, when known. */
  afterSlot?: number;
  /** The first slot delivered after it (slot and root subscriptions), when known. */
  beforeSlot?: number;
}

export interface StreamOptions<T> {
  bufferSize: number;
  overflow: 'error' | 'drop-oldest';
  onGap?: ((gap: SubscriptionGap) => void) | undefined;
  /** Called once when the stream ends for any reason (consumer left, error, close). */
  onEnd(): void;
  /** Which subscription, for messages. */
  what: string;
  /** For `T` values, their slot (gap reports name it). */
  slotOf?: ((v: T) => number | undefined) | undefined;
}

export interface Stream<T> extends AsyncIterableIterator<T> {
  push(v: T): void;
  /** Report a gap: to `onGap`, or as the end of the stream when nobody listens. */
  gap(g: SubscriptionGap): void;
  fail(e: Error): void;
  end(): void;
  readonly ended: boolean;
  readonly buffered: number;
  readonly lastSlot: number | undefined;
}

function gapError(what: string, g: SubscriptionGap): CairnError {
  const why = g.reason === 'overflow' ? `the consumer fell behind and ${g.lost ?? 1} notification(s) were discarded` : 'the socket reconnected and notifications sent meanwhile cannot be re-read';
  return new CairnError(ErrorCodes.RPC_SUBSCRIPTION_GAP, `${what}: ${why}; pass onGap to be told and keep the subscription`, { context: { ...g } });
}

export function createStream<T>(o: StreamOptions<T>): Stream<T> {
  const buf: T[] = [];
  let head = 0;
  let waiter: { resolve(r: IteratorResult<T>): void; reject(e: unknown): void } | undefined;
  let error: Error | undefined;
  let ended = false;
  let lastSlot: number | undefined;
  const finish = (): void => {
    if (ended) return;
    ended = true;
    o.onEnd();
  };
  const wake = (): void => {
    if (!waiter) return;
    const w = waiter;
    if (head < buf.length) {
      waiter = undefined;
      const v = buf[head]!;
      buf[head++] = undefined as T;
      if (head > 1024 && head * 2 > buf.length) {
        buf.splice(0, head);
        head = 0;
      }
      w.resolve({ value: v, done: false });
    } else if (error) {
      waiter = undefined;
      w.reject(error);
    } else if (ended) {
      waiter = undefined;
      w.resolve({ value: undefined, done: true });
    }
  };
  const s: Stream<T> = {
    push(v) {
      if (ended) return;
      const slot = o.slotOf?.(v);
      if (buf.length - head >= o.bufferSize) {
        if (o.overflow === 'error') {
          return s.fail(new CairnError(ErrorCodes.RPC_SUBSCRIPTION_OVERFLOW, `${o.what}: ${o.bufferSize} notifications wait unread (bufferSize); the consumer is too slow`, { context: { bufferSize: o.bufferSize } }));
        }
        buf[head++] = undefined as T;
        s.gap({ reason: 'overflow', lost: 1, ...(lastSlot !== undefined ? { afterSlot: lastSlot } : {}) });
        if (ended) return;
      }
      if (slot !== undefined) lastSlot = slot;
      buf.push(v);
      wake();
    },
    gap(g) {
      if (ended) return;
      if (o.onGap) {
        try {
          o.onGap(g);
        } catch (e) {
          s.fail(e instanceof Error ? e : new Error(String(e)));
        }
      } else s.fail(gapError(o.what, g));
    },
    fail(e) {
      if (ended) return;
      error = e;
      finish();
      wake();
    },
    end() {
      finish();
      wake();
    },
    get ended() {
      return ended;
    },
    get buffered() {
      return buf.length - head;
    },
    get lastSlot() {
      return lastSlot;
    },
    next() {
      if (head < buf.length || error || ended) {
        return new Promise((resolve, reject) => {
          waiter = { resolve, reject };
          wake();
        });
      }
      if (waiter) return Promise.reject(new CairnError(ErrorCodes.INPUT_INVALID, `${o.what}: next() called again before the previous one settled`, { context: { field: 'next' } }));
      return new Promise((resolve, reject) => (waiter = { resolve, reject }));
    },
    return() {
      buf.length = head = 0;
      error = undefined;
      finish();
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return s;
    },
  };
  return s;
}
