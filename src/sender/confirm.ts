/**
 * One confirmation tracker per sender. Every tick it asks the RPC about ALL in-flight signatures at
 * once — one `getSignatureStatuses` per 256 signatures plus one `getBlockHeight` — instead of one poll
 * loop per transaction (what the provider's SDK does). It sleeps when nothing is in flight.
 *
 * Expiry is proven, not guessed: when a tick sees the block height past a signature's
 * `lastValidBlockHeight` and no status, the signature gets one more status read in the NEXT tick
 * (which starts after that height was observed, so a transaction that landed at or below the last
 * valid height is found), with `searchTransactionHistory`. Only if that read is empty too does the
 * tracker report `expired`, with both heights. A status with `err` is a landed, failed transaction.
 */
import { CairnError, ErrorCodes } from '../errors.js';
import { senderAbortError as abortErrorFor } from './abort.js';
import { normalizeStatuses, reached, toNumber, type Commitment, type SenderRpc, type StatusLike } from './rpc.js';

/** `getSignatureStatuses` takes at most this many signatures per call. */
export const MAX_SIGNATURES_PER_STATUS_CALL = 256;

export interface TrackRequest {
  signature: string;
  lastValidBlockHeight: number;
  commitment: Commitment;
  /** Ask with `searchTransactionHistory` from the start (resumed intents). */
  searchHistory?: boolean;
  signal?: AbortSignal;
  /** Called once, when the signature first shows a status. */
  onLanded?: (slot: number) => void;
}

export type TrackResult =
  | { kind: 'confirmed'; slot: number; commitment: Commitment; status: StatusLike }
  | { kind: 'failed'; slot: number; err: unknown; status: StatusLike }
  | { kind: 'expired'; lastValidBlockHeight: number; blockHeight: number };

export interface TrackerStats {
  ticks: number;
  statusCalls: number;
  heightCalls: number;
  tickErrors: number;
  /** Most recent block height seen. */
  blockHeight: number;
}

export interface Tracker {
  track(req: TrackRequest): Promise<TrackResult>;
  /** Signatures in flight. */
  readonly size: number;
  readonly stats: TrackerStats;
  /** Stop polling; pending tracks reject with SENDER_CLOSED. */
  close(): void;
}

export interface TrackerOptions {
  rpc: SenderRpc;
  pollMs: number;
  /** Receives tick errors (already typed); the tracker keeps polling. */
  onError?: (e: unknown) => void;
}

interface Entry {
  req: TrackRequest;
  resolve: (r: TrackResult) => void;
  reject: (e: unknown) => void;
  landed: boolean;
  /** Height that proved the blockhash past its window; the next read decides. */
  expiredAt?: number;
  /** True once a read that started after `expiredAt` was observed has been issued. */
  finalReadPending?: boolean;
  unlisten?: () => void;
}

/**
 * Create the tracker.
 *
 * @example
 * const tracker = createTracker({ rpc: client, pollMs: 400 });
 * const r = await tracker.track({ signature, lastValidBlockHeight, commitment: 'confirmed' });
 */
export function createTracker(opts: TrackerOptions): Tracker {
  const { rpc, pollMs } = opts;
  const entries = new Map<string, Entry>();
  const stats: TrackerStats = { ticks: 0, statusCalls: 0, heightCalls: 0, tickErrors: 0, blockHeight: 0 };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  let closed = false;
  const life = new AbortController();

  const finish = (sig: string, e: Entry): void => {
    if (entries.get(sig) === e) entries.delete(sig);
    e.unlisten?.();
  };

  const schedule = (delay: number): void => {
    if (closed || running || timer !== undefined || entries.size === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      void tick();
    }, delay);
  };

  const tick = async (): Promise<void> => {
    if (closed || entries.size === 0) return;
    running = true;
    const started = Date.now();
    stats.ticks++;
    // Snapshot: entries added during the tick wait for the next one.
    const batch = [...entries.entries()];
    const finalReads = new Set<Entry>();
    for (const [, e] of batch) if (e.expiredAt !== undefined) finalReads.add(e);
    try {
      const chunks: [string, Entry][][] = [];
      for (let i = 0; i < batch.length; i += MAX_SIGNATURES_PER_STATUS_CALL) chunks.push(batch.slice(i, i + MAX_SIGNATURES_PER_STATUS_CALL));
      const heightP = rpc.getBlockHeight(undefined, { signal: life.signal }).then((h) => toNumber(h, 'getBlockHeight'));
      stats.heightCalls++;
      const statusP = chunks.map((chunk) => {
        stats.statusCalls++;
        const history = chunk.some(([, e]) => e.req.searchHistory || e.expiredAt !== undefined);
        return rpc
          .getSignatureStatuses(
            chunk.map(([s]) => s),
            history ? { searchTransactionHistory: true } : undefined,
            { signal: life.signal },
          )
          .then((r) => normalizeStatuses(r, chunk.length));
      });
      const [height, ...statusLists] = await Promise.all([heightP, ...statusP]);
      if (height > stats.blockHeight) stats.blockHeight = height;
      for (let c = 0; c < chunks.length; c++) {
        const chunk = chunks[c];
        const statuses = statusLists[c];
        for (let i = 0; i < chunk.length; i++) {
          const [sig, e] = chunk[i];
          if (entries.get(sig) !== e) continue; // aborted meanwhile
          const s = statuses[i];
          if (s) {
            if (!e.landed) {
              e.landed = true;
              e.req.onLanded?.(s.slot);
            }
            if (!reached(s, e.req.commitment)) continue;
            // A failure is final once it reached the requested commitment (a processed one could
            // still be on a dropped fork); its bytes are no longer rebroadcast from `onLanded` on.
            if (s.err !== null && s.err !== undefined) {
              finish(sig, e);
              e.resolve({ kind: 'failed', slot: s.slot, err: s.err, status: s });
            } else {
              finish(sig, e);
              e.resolve({ kind: 'confirmed', slot: s.slot, commitment: e.req.commitment, status: s });
            }
            continue;
          }
          if (finalReads.has(e)) {
            // This read started after a height past the window was observed: the signature is dead.
            finish(sig, e);
            e.resolve({ kind: 'expired', lastValidBlockHeight: e.req.lastValidBlockHeight, blockHeight: e.expiredAt! });
          } else if (height > e.req.lastValidBlockHeight && e.expiredAt === undefined) {
            e.expiredAt = height;
          }
        }
      }
    } catch (err) {
      if (!closed) {
        stats.tickErrors++;
        opts.onError?.(err);
      }
    } finally {
      running = false;
      schedule(Math.max(0, pollMs - (Date.now() - started)));
    }
  };

  return {
    track(req) {
      if (closed) return Promise.reject(new CairnError(ErrorCodes.SENDER_CLOSED, 'tracker is closed'));
      if (req.signal?.aborted) return Promise.reject(abortErrorFor(req.signal, 'confirmation'));
      return new Promise<TrackResult>((resolve, reject) => {
        const prev = entries.get(req.signature);
        if (prev) {
          // Same signature twice (a resumed intent joined by a new send): both get the one answer.
          const inner = prev.resolve;
          const innerReject = prev.reject;
          prev.resolve = (r) => {
            inner(r);
            resolve(r);
          };
          prev.reject = (e) => {
            innerReject(e);
            reject(e);
          };
          return;
        }
        const e: Entry = { req, resolve, reject, landed: false };
        if (req.signal) {
          const onAbort = (): void => {
            finish(req.signature, e);
            reject(abortErrorFor(req.signal, 'confirmation'));
          };
          req.signal.addEventListener('abort', onAbort, { once: true });
          e.unlisten = () => req.signal!.removeEventListener('abort', onAbort);
        }
        entries.set(req.signature, e);
        schedule(pollMs);
      });
    },
    get size() {
      return entries.size;
    },
    stats,
    close() {
      if (closed) return;
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      life.abort();
      const err = new CairnError(ErrorCodes.SENDER_CLOSED, 'sender closed while confirming');
      for (const [sig, e] of [...entries]) {
        finish(sig, e);
        e.reject(err);
      }
    },
  };
}
