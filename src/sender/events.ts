/**
 * Progress events of a sender. Listeners are called synchronously and must not throw; a throwing
 * listener is isolated (its error is swallowed) so that reporting can never break sending. A
 * bundle's events name its first transaction's `signature` (which names the signed set, as in the
 * journal) and every transaction's in `signatures`.
 */

export interface SenderEventMap {
  /** First submit of a signature. */
  sent: { id: string; signature: string; attempt: number; signatures?: string[] };
  /** The same bytes sent again. */
  rebroadcast: { id: string; signature: string; count: number };
  /**
   * `/fast` refused the bytes with 429 and they went at once through the JSON-RPC host's
   * `sendTransaction` (`rateLimited: 'rpc'`); `accepted` says whether that host took them, and `/fast`
   * gets them again after `retryAfterMs` (when it sent one).
   */
  rerouted: { id: string; signature: string; accepted: boolean; retryAfterMs?: number };
  /** First seen in a status (processed or better). */
  landed: { id: string; signature: string; slot: number };
  /** Reached the requested commitment. */
  confirmed: { id: string; signature: string; slot: number; commitment: string; signatures?: string[] };
  /** Landed with an error, was refused, or could not be sent. */
  failed: { id: string; signature?: string; error: Error; signatures?: string[] };
  /** Proven expired (height past lastValidBlockHeight, final status read found nothing). */
  expired: { id: string; signature: string; lastValidBlockHeight: number; blockHeight: number; willResign: boolean; signatures?: string[] };
  /** Fleet: this process claimed an intent whose previous holder's lease had lapsed. */
  takeover: { id: string; fence: number };
  /** Fleet: this process's claim on an intent lapsed (a renewal found it gone, or a fenced write was refused). */
  leaseLost: { id: string };
}

export type SenderEventName = keyof SenderEventMap;
export type SenderListener<K extends SenderEventName> = (event: SenderEventMap[K]) => void;

/** A minimal typed event emitter. */
export class SenderEvents {
  readonly #listeners: { [K in SenderEventName]?: Set<SenderListener<K>> } = {};

  /** Subscribe; returns the unsubscribe function. */
  on<K extends SenderEventName>(name: K, fn: SenderListener<K>): () => void {
    let set = this.#listeners[name] as Set<SenderListener<K>> | undefined;
    if (!set) {
      set = new Set();
      (this.#listeners as Record<string, unknown>)[name] = set;
    }
    set.add(fn);
    return () => set!.delete(fn);
  }

  emit<K extends SenderEventName>(name: K, event: SenderEventMap[K]): void {
    const set = this.#listeners[name] as Set<SenderListener<K>> | undefined;
    if (!set) return;
    for (const fn of set) {
      try {
        fn(event);
      } catch {
        /* a listener's bug must not stop a send */
      }
    }
  }

  clear(): void {
    for (const k of Object.keys(this.#listeners)) delete (this.#listeners as Record<string, unknown>)[k];
  }
}
