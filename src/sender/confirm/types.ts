/**
 * The batched confirmation tracker's contract: what `track` takes and answers, its statistics, and the
 * options `createTracker` (tracker.ts) takes.
 */
import type { NonceRef } from '../journal/records.js';
import type { Commitment, SenderRpc, StatusLike } from '../client/rpc.js';
import type { Watch } from './watch.js';

/** `getSignatureStatuses` takes at most this many signatures per call. */
export const MAX_SIGNATURES_PER_STATUS_CALL = 256;

export interface TrackRequest {
  signature: string;
  lastValidBlockHeight: number;
  commitment: Commitment;
  /** Ask with `searchTransactionHistory` from the start (resumed intents). */
  searchHistory?: boolean;
  signal?: AbortSignal;
  /**
   * Called once, as soon as the signature is known to have landed — a notification that does not
   * say in which slot (see confirm/watch.ts) is enough; `onLanded` follows with the slot.
   */
  onSeen?: () => void;
  /** Called once, when the signature first shows a status (its slot read exactly). */
  onLanded?: (slot: number) => void;
  /** A durable-nonce transaction: live until its nonce account's value moves past `value`. */
  nonce?: NonceRef;
}

export type TrackResult =
  | { kind: 'confirmed'; slot: number; commitment: Commitment; status: StatusLike }
  | { kind: 'failed'; slot: number; err: unknown; status: StatusLike }
  /**
   * For a durable-nonce signature, `nonce.now` is what the account held instead (null: no nonce any
   * more) and `lastValidBlockHeight` the last height at which it was seen holding the signed value.
   */
  | { kind: 'expired'; lastValidBlockHeight: number; blockHeight: number; nonce?: NonceRef & { now: string | null } };

export interface TrackerStats {
  /** Polls of every signature in flight (height and statuses), each after a slot or on the timer. */
  ticks: number;
  /**
   * Status reads of only the signatures a notification said landed without saying where (watch.ts),
   * for their slot; their calls count in `statusCalls` too.
   */
  slotReads: number;
  statusCalls: number;
  heightCalls: number;
  tickErrors: number;
  /** Most recent block height seen. */
  blockHeight: number;
  /** Signatures settled (or first seen landed) by a websocket notification before any poll. */
  byNotification: number;
}

export interface Tracker {
  track(req: TrackRequest): Promise<TrackResult>;
  /** Signatures in flight. */
  readonly size: number;
  readonly stats: TrackerStats;
  /** The latest slot the websocket named (undefined without one). */
  readonly slot: number | undefined;
  /** How long a slot lasts, from the websocket's slot notifications (undefined without them). */
  readonly slotMs: number | undefined;
  /** Slot notifications flow (the websocket is up). */
  readonly live: boolean;
  /** The websocket tells a slot's processed notifications before announcing it (watch.ts). */
  readonly announcesDoneSlots: boolean;
  /** The signature's processed subscription is acknowledged (true without a websocket: nothing to wait for). */
  ready(signature: string): boolean;
  /** Called at each slot notification (never without a websocket). */
  onSlot(fn: (slot: number) => void): () => void;
  /**
   * Subscribe to a signature before its bytes are sent, so its first notification is, as a rule,
   * the one sent as its slot was produced (the exact slot: watch.ts judges each); `track` adopts
   * it. Returns the cancel, for bytes that end up never tracked.
   */
  prewatch(signature: string, commitment: Commitment): () => void;
  /** A send is starting: open the websocket side now, while it builds (watch.ts `warm`). */
  warm(): void;
  /** Stop polling; pending tracks reject with SENDER_CLOSED. */
  close(): void;
}

export interface TrackerOptions {
  rpc: Pick<SenderRpc, 'getBlockHeight' | 'getSignatureStatuses' | 'getMultipleAccounts' | 'getAccountInfo'>;
  pollMs: number;
  /** The websocket side to race against the polls (watch.ts). */
  watch?: Watch | undefined;
  /** Receives tick errors (already typed); the tracker keeps polling. */
  onError?: (e: unknown) => void;
}
