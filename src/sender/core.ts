/**
 * The core every sender is built on: the config checked, the client chosen (client/endpoint.ts), and
 * the pipeline an intent runs through — builder (build/builder.ts), one tracker (confirm/tracker.ts),
 * the intents in flight (intent/inflight.ts), who owns which signature, and an intent's life
 * (intent/drive.ts, intent/attempt.ts; a bundle's in intent/bundle-drive.ts) — with what both kinds of
 * sender answer alike: `sendMany` over their `send`, events, stats and `close`. A kind brings its
 * journal (a store: the journal its intents write to, who owns which signature, and how to close
 * them) and its own `send`, `sendBundle`, `resume` and `retry`: the single-process sender (single.ts) on the file journal, the
 * fleet sender (fleet/sender.ts) on PostgreSQL. The core never asks which kind it serves.
 *
 * Everything a sender starts (timers, tracker polling, requests) hangs off one AbortController that
 * `close()` aborts; each send also follows its caller's AbortSignal.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { CairnError, ErrorCodes, InputError } from '../errors/index.js';
import { signerFromInput, type SignerLike, type Signer } from '../solana/index.js';
import type { Subscriber, SocketStats } from '../rpc/index.js';
import { assertBundleClient, type BundleOptions, type BundleOutcome } from './bundle.js';
import { createBuilder } from './build/builder.js';
import { toSenderRpc, type SenderClientInput } from './client/adapters.js';
import { senderClient, type EndpointConfig } from './client/endpoint.js';
import type { Commitment } from './client/rpc.js';
import type { ResolvedSenderOptions, SenderOptions } from './config.js';
import { createTracker, type TrackerStats } from './confirm/tracker.js';
import { createWatch, type WatchStats } from './confirm/watch.js';
import { SenderEvents, type SenderEventName, type SenderListener } from './events.js';
import { prepareBundle, type PreparedBundle } from './input/bundle.js';
import type { SendInput } from './input/prepare.js';
import { createDrive, type Drive } from './intent/drive.js';
import { createInflight, type Inflight } from './intent/inflight.js';
import type { IntentJournal } from './intent/journal.js';
import { keyringOf, type ResumeDeps, type ResumeOptions } from './intent/resume.js';
import type { SignatureOwners } from './intent/signature-owners.js';
import type { FleetMetrics } from './journal/postgres/journal.js';
import type { SendManyItem, SendOutcome } from './outcome.js';
import { sendMany, type SendManyOptions } from './send-many.js';

/** EndpointConfig's fields with `undefined` taken as absent (exactOptionalPropertyTypes), the client widened below. */
type EndpointInputs = { [K in Exclude<keyof EndpointConfig, 'client'>]?: EndpointConfig[K] | undefined };

export interface SenderConfig extends SenderOptions, EndpointInputs {
  /**
   * The RPC client: cairn's `createClient(...)` (or anything with its methods), a web3.js
   * `Connection` or a kit `Rpc` (adapted, src/sender/client/adapters.ts). Absent: the sender creates one.
   */
  client?: SenderClientInput | undefined;
  /** Signers `resume()` may use to re-sign expired intents (looked up by address). */
  signers?: readonly SignerLike[] | undefined;
  /** Ping `/fast` when idle for this long (ms), to keep the connection warm; 0 = off (default). */
  warmMs?: number | undefined;
}

export interface SendOptions {
  /** Idempotency key (default: a random UUID). */
  id?: string | undefined;
  signal?: AbortSignal | undefined;
  commitment?: Commitment | undefined;
  onExpired?: 'fail' | 'resign' | undefined;
}

export interface SenderStats {
  tracker: TrackerStats;
  /** The websocket side of confirmation (absent without one): notifications and the socket's messages. */
  websocket?: WatchStats & { socket: SocketStats };
  submits: number;
  rebroadcasts: number;
  /** Submits `/fast` refused with 429 whose bytes went at once through the JSON-RPC host (`rateLimited: 'rpc'`). */
  rerouted: number;
  inFlight: number;
  /** A fleet sender's figures: claims, renewals, takeovers, fenced writes refused, reconnects. */
  fleet?: FleetMetrics;
}

export interface Sender {
  send(input: SendInput, options?: SendOptions): Promise<SendOutcome>;
  sendMany(inputs: Iterable<SendInput> | AsyncIterable<SendInput>, options?: SendManyOptions): AsyncIterableIterator<SendManyItem>;
  /**
   * Up to 5 transactions as one `/fast` bundle (all or none): cairn builds each on one blockhash
   * with a CU price, tips once in the last, and resolves when all of them reached the commitment.
   * A bundle is one intent: `options.id` is its idempotency key (over every transaction, in order),
   * and with a journal it is journaled once — signed whole before it is first sent, resumed after
   * a crash with the same bytes, signed anew only once its expiry is proven.
   *
   * @example
   * const b = await sender.sendBundle([{ instructions: [a], payer }, { instructions: [b], payer }], { id: 'order-9' });
   * console.log(b.signatures, b.slots);
   */
  sendBundle(inputs: readonly SendInput[], options?: BundleOptions): Promise<BundleOutcome>;
  /** Drive every unfinished intent of the journal to an end. */
  resume(options?: Omit<ResumeOptions, 'signers'> & { signers?: readonly SignerLike[] | undefined }): Promise<SendManyItem[]>;
  /**
   * Reopen an intent whose failure proved that nothing of it can land — it was never signed (e.g.
   * a blockhash fetch failed), its blockhash expired unlanded, or `/fast` refused its bytes — and
   * drive it again under the same id. Anything else (landed, failed on chain, unknown) is refused:
   * sending it again would be a second payment. Needs a journal.
   */
  retry(id: string, options?: Omit<SendOptions, 'id'> & { signers?: readonly SignerLike[] | undefined }): Promise<SendOutcome>;
  on<K extends SenderEventName>(name: K, fn: SenderListener<K>): () => void;
  readonly stats: SenderStats;
  readonly config: ResolvedSenderOptions;
  close(): Promise<void>;
}

/** What a kind of sender brings to the core: the journal its intents write to, and who owns which signature. */
export interface SenderStore<J extends IntentJournal = IntentJournal> {
  journal: J;
  owners: SignatureOwners;
  /** Close the journal (after every intent in flight has settled). */
  close(): Promise<void>;
}

/** A send's options read and defaulted: what both kinds of sender drive an intent with. */
export interface SendRequest {
  id: string;
  signal: AbortSignal | undefined;
  commitment: Commitment;
  onExpired: 'fail' | 'resign';
}

export interface SenderCore<S extends SenderStore> {
  readonly cfg: ResolvedSenderOptions;
  /** The sender's own signers (`createSender({ signers })`), by address. */
  readonly keyring: ReadonlyMap<string, Signer>;
  /** The sender's life: aborted by `close()`. */
  readonly life: AbortSignal;
  readonly events: SenderEvents;
  readonly inflight: Inflight;
  readonly store: S;
  readonly drive: Drive;
  readonly resumeDeps: ResumeDeps<S['journal']>;
  /** Throws SENDER_CLOSED once `close()` was called. */
  assertOpen(): void;
  /** A send's options checked (InputError naming the field) and defaulted from the config. */
  request(options: SendOptions): SendRequest;
  /** `sendMany` over the kind's `send`. */
  sendManyOf(send: Sender['send']): Sender['sendMany'];
  /** A bundle's inputs checked (InputError naming `inputs[i]`; `client` when it cannot send bundles). */
  prepareBundle(inputs: readonly SendInput[]): PreparedBundle;
  on: Sender['on'];
  stats(): SenderStats;
  /**
   * Stop everything the sender started, wait for its intents to settle, then run `own` (what the kind
   * started besides the core), close the store and the client the sender created. Once.
   */
  close(own?: () => Promise<void>): Promise<void>;
}

/**
 * @example
 * const core = createCore(config, resolveSenderConfig(config), (cfg) => fileStore(cfg));
 * const out = await core.drive(id, prepared, { signal, commitment: 'confirmed', onExpired: 'fail' });
 */
export function createCore<S extends SenderStore>(
  config: SenderConfig,
  cfg: ResolvedSenderOptions,
  storeOf: (cfg: ResolvedSenderOptions, life: AbortSignal) => S,
): SenderCore<S> {
  // Validate everything first: nothing (no client, no ping) is started for a sender that fails here.
  const warmMs = config.warmMs ?? 0;
  if (!Number.isInteger(warmMs) || warmMs < 0) throw new InputError('warmMs', 'expected a non-negative integer (ms)');
  const keyring = keyringOf(signersOf(config.signers, 'signers'), 'signers');
  // A Connection or kit Rpc is adapted here, before anything starts (an unusable client is an InputError).
  const client = config.client === undefined ? undefined : toSenderRpc(config.client, 'client');
  // The sender's life: everything it starts hangs off this, from the region choice on.
  const life = new AbortController();
  // Every send links its signal to the sender's: thousands of listeners are expected, not a leak.
  setMaxListeners(0, life.signal);
  const { client: _given, ...endpointConfig } = config as Omit<SenderConfig, 'client'> & EndpointConfig;
  const { rpc, owns: ownsClient } = senderClient({ ...endpointConfig, ...(client ? { client } : {}) }, life.signal);
  const events = new SenderEvents();
  const builder = createBuilder(rpc, cfg);
  // The client's websocket, when it has one (cairn's client does; a Connection or kit Rpc adapted does not).
  const subscriber = cfg.websocket ? (rpc as { subscribe?: Subscriber }).subscribe : undefined;
  const watch = subscriber && typeof subscriber.signature === 'function' && typeof subscriber.slot === 'function' ? createWatch(subscriber) : undefined;
  const tracker = createTracker({ rpc, pollMs: cfg.pollMs, watch });
  const inflight = createInflight(life.signal);
  const counters = { submits: 0, rebroadcasts: 0, rerouted: 0 };
  let closed = false;
  let lastActivity = Date.now();
  const store = storeOf(cfg, life.signal);
  const { journal, owners } = store;
  const drive = createDrive({
    rpc,
    cfg,
    tracker,
    events,
    journal,
    lives: inflight.lives,
    counters,
    touch: () => (lastActivity = Date.now()),
    builder,
    owners,
  });

  let warmTimer: ReturnType<typeof setInterval> | undefined;
  if (warmMs > 0 && rpc.ping) {
    warmTimer = setInterval(() => {
      if (Date.now() - lastActivity >= warmMs) rpc.ping!({ signal: life.signal }).catch(() => undefined);
    }, warmMs);
    warmTimer.unref();
  }

  const assertOpen = (): void => {
    if (closed) throw new CairnError(ErrorCodes.SENDER_CLOSED, 'sender is closed');
  };

  return {
    cfg,
    keyring,
    life: life.signal,
    events,
    inflight,
    store,
    drive,
    resumeDeps: { cfg, keyring, inflight, journal, drive },
    assertOpen,
    request(options) {
      if (options === null || typeof options !== 'object') throw new InputError('options', 'expected an object');
      const id = options.id ?? randomUUID();
      if (typeof id !== 'string' || id.length === 0 || id.length > 200) throw new InputError('options.id', 'expected a non-empty string ≤ 200 chars');
      return { id, signal: options.signal, commitment: options.commitment ?? cfg.commitment, onExpired: options.onExpired ?? cfg.onExpired };
    },
    sendManyOf: (send) => (inputs, o) => sendMany({ assertOpen, concurrency: cfg.concurrency, send }, inputs, o),
    prepareBundle(inputs) {
      assertBundleClient(rpc);
      return prepareBundle(inputs, cfg);
    },
    on: (name, fn) => events.on(name, fn),
    stats() {
      return {
        tracker: { ...tracker.stats },
        ...(watch && subscriber ? { websocket: { ...watch.stats, socket: { ...subscriber.socket.stats } } } : {}),
        submits: counters.submits,
        rebroadcasts: counters.rebroadcasts,
        rerouted: counters.rerouted,
        inFlight: inflight.size,
      };
    },
    async close(own) {
      if (closed) return;
      closed = true;
      if (warmTimer) clearInterval(warmTimer);
      life.abort(new CairnError(ErrorCodes.SENDER_CLOSED, 'sender closed'));
      tracker.close();
      await inflight.settled();
      await own?.();
      await store.close();
      events.clear();
      if (ownsClient) await rpc.close?.();
    },
  };
}

/** Signers in any accepted form (solana/inputs.ts) as cairn signers, each named by its place. */
export function signersOf(list: readonly SignerLike[] | undefined, field: string): Signer[] | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) throw new InputError(field, 'expected an array of signers');
  return list.map((s, i) => signerFromInput(s, `${field}[${i}]`));
}
