/**
 * `createSender(config)`: the wiring. It resolves the config and the client (client/endpoint.ts), creates
 * the shared parts — builder (build/builder.ts), one tracker (confirm/tracker.ts), the journal
 * (intent/journal.ts), who owns which signature, the intents in flight (intent/inflight.ts) — and hands
 * them to the named steps: an intent's life (intent/drive.ts, intent/attempt.ts), `sendMany`
 * (send-many.ts), `resume` / `retry` (intent/resume.ts). Intent ids are idempotency keys: sending an id the journal already knows joins or
 * returns that intent instead of starting another — with the same content; other content under a
 * known id (instructions, payer, amounts, signed bytes) is refused, `SENDER_ID_CONFLICT` (intent/key.ts).
 *
 * With a PostgreSQL journal the sender is one of a fleet (fleet/fleet.ts): `send` and `resume` go through
 * claims on the shared table, and `enqueue` / `work` / `status` / `outcomes` are added.
 *
 * Everything a sender starts (timers, tracker polling, requests) hangs off one AbortController that
 * `close()` aborts; each send also follows its caller's AbortSignal.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { CairnError, ErrorCodes, InputError } from '../errors/index.js';
import { toSigner, type SignerLike } from '../solana/inputs.js';
import type { Signer } from '../solana/signer.js';
import { toSenderRpc, type SenderClientInput } from './client/adapters.js';
import { createBuilder } from './build/builder.js';
import { resolveSenderConfig, type ResolvedSenderOptions, type SenderOptions } from './config.js';
import { createTracker, type TrackerStats } from './confirm/tracker.js';
import { createWatch, type WatchStats } from './confirm/watch.js';
import type { Subscriber } from '../rpc/subscribe.js';
import type { SocketStats } from '../rpc/ws-socket.js';
import { senderClient, type EndpointConfig } from './client/endpoint.js';
import { SenderEvents, type SenderEventName, type SenderListener } from './events.js';
import { createFleet, type FleetIntent, type FleetStatus } from './fleet/fleet.js';
import { createFencedIntentJournal, lazyPostgresJournal } from './fleet/journal.js';
import type { WorkOptions, WorkSummary } from './fleet/work.js';
import { createInflight } from './intent/inflight.js';
import { assertSameContent, intentKey, type IntentKey } from './intent/key.js';
import { createDrive } from './intent/drive.js';
import { createFileIntentJournal } from './intent/journal.js';
import type { FleetMetrics, PostgresJournalOptions } from './journal/postgres/journal.js';
import { planToJournal } from './journal/plan.js';
import { isTerminal } from './journal/file/journal.js';
import { outcomeFromJournal, type SendManyItem, type SendOutcome } from './outcome.js';
import { prepareInput, type SendInput } from './input/prepare.js';
import { keyringOf, resumeAll, resumeIntent, retryIntent, type ResumeDeps, type ResumeOptions } from './intent/resume.js';
import type { Commitment } from './client/rpc.js';
import { sendMany, type SendManyOptions } from './send-many.js';
import { sendBundleOf, type BundleOptions, type BundleOutcome } from './bundle.js';
import { createSignatureOwners } from './intent/signature-owners.js';

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
   * Not journaled yet: a sender with a journal refuses it (InputError naming `journal`).
   *
   * @example
   * const b = await sender.sendBundle([{ instructions: [a], payer }, { instructions: [b], payer }]);
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

/** A sender on a PostgreSQL journal: one of a fleet of processes sharing its intents. */
export interface FleetSenderConfig extends SenderConfig {
  journal: PostgresJournalOptions;
}

/** A fleet sender: a `Sender` whose intents live in PostgreSQL, plus the fleet's operations. */
export interface FleetSender extends Sender {
  /** Add intents by caller-chosen id (idempotent: known ids are left as they are). */
  enqueue(intents: Iterable<FleetIntent>, options?: { signal?: AbortSignal }): Promise<{ added: number; known: number }>;
  /** Claim and drive intents until the signal aborts (or, with `drain`, until none is unfinished). */
  work(options?: WorkOptions): Promise<WorkSummary>;
  /** What the journal says of an intent, and its outcome once it ended (undefined: unknown id). */
  status(id: string, options?: { signal?: AbortSignal }): Promise<FleetStatus | undefined>;
  /** The outcomes this process's `work` and `resume` reach from now on, until the signal aborts. */
  outcomes(options?: { signal?: AbortSignal }): AsyncIterableIterator<SendManyItem>;
  readonly stats: SenderStats & { fleet: FleetMetrics };
}

/**
 * Create a sender.
 *
 * @example
 * const client = createClient({ url: 'http://127.0.0.1:8899' });
 * const sender = createSender({ client, cuPrice: 200_000, cuLimit: 1_000, journal: 'sends.jsonl' });
 * const out = await sender.send({ instructions: [transferInstruction(payer.address, to, 5000n)], payer });
 * console.log(out.signature, out.slot);
 * await sender.close();
 */
export function createSender(config: FleetSenderConfig): FleetSender;
export function createSender(config: SenderConfig): Sender;
export function createSender(config: SenderConfig): Sender | FleetSender {
  if (!config || typeof config !== 'object') throw new InputError('config', 'expected an object');
  // Validate everything first: nothing (no client, no ping) is started for a sender that fails here.
  const cfg = resolveSenderConfig(config);
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
  const counters = { submits: 0, rebroadcasts: 0 };
  let closed = false;
  let lastActivity = Date.now();
  const pg = cfg.postgres ? lazyPostgresJournal(cfg, life.signal) : undefined;
  // A fleet's processes claim signatures in its journal too: two of them never sign one transaction for two intents.
  const owners = createSignatureOwners(pg?.get);
  // Without a fleet the file journal (or none); the local paths below read it whole.
  const fileJournal = createFileIntentJournal(cfg, owners);
  const journal = pg ? createFencedIntentJournal(pg.get) : fileJournal;
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
  const resumeDeps: ResumeDeps = { cfg, keyring, inflight, journal, drive };
  const fileResumeDeps = { ...resumeDeps, journal: fileJournal };
  const fleet = pg ? createFleet({ cfg, keyring, inflight, drive, events, life: life.signal, journal: pg.get, resumeDeps }) : undefined;

  let warmTimer: ReturnType<typeof setInterval> | undefined;
  if (warmMs > 0 && rpc.ping) {
    warmTimer = setInterval(() => {
      if (Date.now() - lastActivity >= warmMs) rpc.ping!({ signal: life.signal }).catch(() => undefined);
    }, warmMs);
    warmTimer.unref();
  }

  /** The content of each intent this sender started and has not ended, by id (for a second caller of the id). */
  const running = new Map<string, IntentKey>();

  const assertOpen = (): void => {
    if (closed) throw new CairnError(ErrorCodes.SENDER_CLOSED, 'sender is closed');
  };

  const send: Sender['send'] = async (input, options = {}) => {
    assertOpen();
    if (options === null || typeof options !== 'object') throw new InputError('options', 'expected an object');
    const id = options.id ?? randomUUID();
    if (typeof id !== 'string' || id.length === 0 || id.length > 200) throw new InputError('options.id', 'expected a non-empty string ≤ 200 chars');
    const commitment = options.commitment ?? cfg.commitment;
    const onExpired = options.onExpired ?? cfg.onExpired;
    if (fleet) return fleet.send(input, { id, signal: options.signal, commitment, onExpired });
    // Read first: the content an id is offered with is checked against the content it stands for.
    const prepared = prepareInput(input, cfg);
    const key = intentKey(prepared.kind === 'plan' ? planToJournal(prepared) : { signature: prepared.signature });
    assertSameContent(id, running.get(id), key, 'being sent by this sender');
    const joined = inflight.get(id);
    if (joined) return joined;
    const jp = fileJournal.open();
    if (jp) {
      const view = (await jp).intents().get(id);
      if (view) {
        assertSameContent(id, view.key, key, 'in the journal');
        if (isTerminal(view.state)) {
          const r = outcomeFromJournal(view);
          if (r instanceof Error) throw r;
          return r;
        }
        return resumeIntent(resumeDeps, view, new Map(), { ...(options.signal ? { signal: options.signal } : {}), commitment, onExpired });
      }
    }
    // Checked again: another call may have started the id while the journal opened.
    assertSameContent(id, running.get(id), key, 'being sent by this sender');
    const again = inflight.get(id);
    if (again) return again;
    if (prepared.kind === 'wire') {
      // Signed bytes cannot be made distinct: the same bytes under another id would be reported as a
      // second payment while only one can land.
      const owner = owners.ownerOf(prepared.signature);
      if (owner !== undefined && owner !== id) {
        throw new InputError('input.wire', `these signed bytes (signature ${prepared.signature}) are already intent ${JSON.stringify(owner)}; the same bytes are one payment: send them under that id`, {
          got: prepared.signature,
        });
      }
      owners.claim(id, prepared.signature, prepared.lastValidBlockHeight ?? Number.MAX_SAFE_INTEGER);
    }
    running.set(id, key);
    return inflight
      .start(
        id,
        async (signal) => {
          await journal.journaled(
            { op: 'created', id, at: Date.now(), ...(prepared.kind === 'plan' && cfg.journal ? { plan: planToJournal(prepared) } : {}), ...(cfg.journal ? { key } : {}) },
            { state: 'none', what: 'not started' },
          );
          return drive(id, prepared, { signal, commitment, onExpired });
        },
        options.signal,
      )
      .finally(() => {
        if (running.get(id) === key) running.delete(id);
      });
  };

  const sender: Sender = {
    send,
    sendMany: (inputs, o) => sendMany({ assertOpen, concurrency: cfg.concurrency, send }, inputs, o),
    sendBundle: async (inputs, o) => {
      assertOpen();
      return sendBundleOf({ rpc, cfg, builder, tracker, counters, life: life.signal }, inputs, o);
    },
    resume: async (o) => {
      assertOpen();
      if (fleet) return fleet.resume({ ...(o?.signal ? { signal: o.signal } : {}), ...(o?.concurrency ? { concurrency: o.concurrency } : {}) });
      const { signers, ...rest } = o ?? {};
      return resumeAll(fileResumeDeps, signers ? { ...rest, signers: signersOf(signers, 'signers')! } : rest);
    },
    retry: async (id, o) => {
      assertOpen();
      const { signers, ...rest } = o ?? {};
      if (fleet) return fleet.retry(id, { ...rest, ...(signers ? { signers: signersOf(signers, 'options.signers')! } : {}) });
      return retryIntent(fileResumeDeps, id, signers ? { ...rest, signers: signersOf(signers, 'options.signers')! } : rest);
    },
    on: (name, fn) => events.on(name, fn),
    get stats() {
      return { tracker: { ...tracker.stats }, ...(watch && subscriber ? { websocket: { ...watch.stats, socket: { ...subscriber.socket.stats } } } : {}), submits: counters.submits, rebroadcasts: counters.rebroadcasts, inFlight: inflight.size, ...(fleet ? { fleet: fleet.metrics } : {}) };
    },
    config: cfg,
    async close() {
      if (closed) return;
      closed = true;
      if (warmTimer) clearInterval(warmTimer);
      life.abort(new CairnError(ErrorCodes.SENDER_CLOSED, 'sender closed'));
      tracker.close();
      await inflight.settled();
      await journal.close();
      await fleet?.close();
      await pg?.close();
      events.clear();
      if (ownsClient) await rpc.close?.();
    },
  };
  if (!fleet) return sender;
  const guard = <A extends unknown[], R>(fn: (...a: A) => R) => (...a: A): R => {
    assertOpen();
    return fn(...a);
  };
  return Object.defineProperties(sender, {
    enqueue: { value: guard(fleet.enqueue), enumerable: true },
    work: { value: guard(fleet.work), enumerable: true },
    status: { value: guard(fleet.status), enumerable: true },
    outcomes: { value: guard(fleet.outcomes), enumerable: true },
  }) as FleetSender;
}

/** Signers in any accepted form (solana/inputs.ts) as cairn signers, each named by its place. */
function signersOf(list: readonly SignerLike[] | undefined, field: string): Signer[] | undefined {
  if (list === undefined) return undefined;
  if (!Array.isArray(list)) throw new InputError(field, 'expected an array of signers');
  return list.map((s, i) => toSigner(s, `${field}[${i}]`));
}
