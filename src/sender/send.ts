/**
 * `createSender(config)`: the orchestration. For each intent: build and sign (build.ts), journal the
 * signed bytes durably (journal.ts), submit through `/fast` (submit.ts), rebroadcast the SAME bytes
 * every `rebroadcastMs` until the signature shows up, and wait for the one shared tracker
 * (confirm.ts) to report confirmed, failed or — proven — expired. Only after a proven expiry may an
 * intent be signed again (`onExpired: 'resign'`), so an intent never has two live signatures and
 * never lands twice. Intent ids are idempotency keys: sending an id the journal already knows joins
 * or returns that intent instead of starting another.
 *
 * Everything a sender starts (timers, tracker polling, requests) hangs off one AbortController that
 * `close()` aborts; each send also follows its caller's AbortSignal.
 */
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { sleep } from '../rpc/retry.js';
import { AbortError, BlockhashExpiredError, CairnError, ErrorCodes, InputError, TransactionFailedError } from '../errors.js';
import { linkSignals, senderAbortError } from './abort.js';
import { createBuilder, planFromJournal, planToJournal, prepareInput, type Built, type Prepared, type SendInput } from './build.js';
import { resolveSenderConfig, type ResolvedSenderOptions, type SenderOptions } from './config.js';
import { createTracker, type TrackerStats } from './confirm.js';
import { senderClient, type EndpointConfig } from './endpoint.js';
import { SenderEvents, type SenderEventName, type SenderListener } from './events.js';
import { errorFromJournal, journalFailure, journalWriteError, type KnownState } from './journal-error.js';
import { isTerminal, openJournal, type IntentView, type Journal, type JournalRecord } from './journal.js';
import { logsOf, toNumber, type Commitment } from './rpc.js';
import { toSigner, type Signer, type SignerInput } from '../solana/signer.js';
import { createSignatureOwners } from './signature-owners.js';
import { submitOnce } from './submit.js';

export interface SenderConfig extends SenderOptions, EndpointConfig {
  /** Signers `resume()` may use to re-sign expired intents (looked up by address). */
  signers?: readonly SignerInput[];
  /** Ping `/fast` when idle for this long (ms), to keep the connection warm; 0 = off (default). */
  warmMs?: number;
}

export interface SendOptions {
  /** Idempotency key (default: a random UUID). */
  id?: string;
  signal?: AbortSignal;
  commitment?: Commitment;
  onExpired?: 'fail' | 'resign';
}

export interface SendTimings {
  /** Build + sign duration, ms (last attempt). */
  buildMs: number;
  /** From the call to the first `/fast` answer, ms. */
  firstSubmitMs?: number;
  /** From the call to the first status seen, ms. */
  landedMs?: number;
  /** From the call to the requested commitment, ms. */
  confirmedMs?: number;
}

export interface SendOutcome {
  id: string;
  signature: string;
  slot: number;
  commitment: Commitment;
  /** Signed versions of the intent (1, or more after re-signing expired ones). */
  attempts: number;
  /** Submits of the final signature (first send + rebroadcasts). */
  sends: number;
  timings: SendTimings;
  /** True when the outcome was read back from the journal (sent by an earlier process). */
  fromJournal?: boolean;
}

export type SendManyItem =
  | { index: number; id: string; ok: true; outcome: SendOutcome }
  | { index: number; id: string; ok: false; error: Error };

export interface SendManyOptions {
  concurrency?: number;
  signal?: AbortSignal;
  /** Idempotency key per input (default: random). */
  idOf?: (input: SendInput, index: number) => string;
  commitment?: Commitment;
  onExpired?: 'fail' | 'resign';
}

export interface ResumeOptions {
  signal?: AbortSignal;
  /** Extra signers for re-signing (added to the sender's). */
  signers?: readonly SignerInput[];
  concurrency?: number;
}

export interface SenderStats {
  tracker: TrackerStats;
  submits: number;
  rebroadcasts: number;
  inFlight: number;
}

export interface Sender {
  send(input: SendInput, options?: SendOptions): Promise<SendOutcome>;
  sendMany(inputs: Iterable<SendInput> | AsyncIterable<SendInput>, options?: SendManyOptions): AsyncIterableIterator<SendManyItem>;
  /** Drive every unfinished intent of the journal to an end. */
  resume(options?: ResumeOptions): Promise<SendManyItem[]>;
  /**
   * Reopen an intent whose failure proved that nothing of it can land — it was never signed (e.g.
   * a blockhash fetch failed), its blockhash expired unlanded, or `/fast` refused its bytes — and
   * drive it again under the same id. Anything else (landed, failed on chain, unknown) is refused:
   * sending it again would be a second payment. Needs a journal.
   */
  retry(id: string, options?: Omit<SendOptions, 'id'> & { signers?: readonly SignerInput[] }): Promise<SendOutcome>;
  on<K extends SenderEventName>(name: K, fn: SenderListener<K>): () => void;
  readonly stats: SenderStats;
  readonly config: ResolvedSenderOptions;
  close(): Promise<void>;
}

interface Current {
  wire: Uint8Array;
  signature: string;
  lastValidBlockHeight: number;
}

const OUTCOMES: ReadonlySet<string> = new Set([
  ErrorCodes.SENDER_ABORTED,
  ErrorCodes.SENDER_TRANSACTION_FAILED,
  ErrorCodes.SENDER_BLOCKHASH_EXPIRED,
  ErrorCodes.SENDER_REJECTED,
]);

const b64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');

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
export function createSender(config: SenderConfig): Sender {
  if (!config || typeof config !== 'object') throw new InputError('config', 'expected an object');
  // Validate everything first: nothing (no client, no ping) is started for a sender that fails here.
  const cfg = resolveSenderConfig(config);
  const warmMs = config.warmMs ?? 0;
  if (!Number.isInteger(warmMs) || warmMs < 0) throw new InputError('warmMs', 'expected a non-negative integer (ms)');
  const keyring = new Map<string, Signer>();
  (config.signers ?? []).forEach((s, i) => {
    const k = toSigner(s, `signers[${i}]`);
    keyring.set(k.address, k);
  });
  // The sender's life: everything it starts hangs off this, from the region choice on.
  const life = new AbortController();
  // Every send links its signal to the sender's: thousands of listeners are expected, not a leak.
  setMaxListeners(0, life.signal);
  const { rpc, owns: ownsClient } = senderClient(config, life.signal);
  const events = new SenderEvents();
  const builder = createBuilder(rpc, cfg);
  const tracker = createTracker({ rpc, pollMs: cfg.pollMs });
  const inflight = new Map<string, Promise<SendOutcome>>();
  const counters = { submits: 0, rebroadcasts: 0 };
  let closed = false;
  let lastActivity = Date.now();
  const owners = createSignatureOwners();
  // Where each intent's live attempt stands, for the context of an abort: may its bytes still land?
  const lives = new Map<string, { signature: string; lastValidBlockHeight: number; submitted: boolean }>();
  let journalP: Promise<Journal> | undefined;
  const journal = (): Promise<Journal> | undefined => {
    if (!cfg.journal) return undefined;
    journalP ??= openJournal(cfg.journal, cfg.journalOptions).then((j) => {
      owners.adopt(j.intents().values());
      return j;
    });
    return journalP;
  };
  const record = async (rec: JournalRecord): Promise<void> => {
    const j = journal();
    if (j) await (await j).append(rec);
  };
  /** Journal a state change; when the journal cannot, the caller learns what is true (journalWriteError). */
  const journaled = async (rec: JournalRecord, known: KnownState): Promise<void> => {
    try {
      await record(rec);
    } catch (e) {
      if (e instanceof CairnError && e.code === ErrorCodes.SENDER_JOURNAL_FAILED) throw journalWriteError(e, rec.id, known);
      throw e;
    }
  };

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

  /** The heart: drive one intent to an end. `from` = a signed attempt found in the journal. */
  const drive = async (
    id: string,
    prepared: Prepared | undefined,
    o: { signal: AbortSignal; commitment: Commitment; onExpired: 'fail' | 'resign'; from?: Current & { attempt: number }; resumed?: boolean },
  ): Promise<SendOutcome> => {
    const t0 = performance.now();
    const timings: SendTimings = { buildMs: 0 };
    let attempt = o.from?.attempt ?? 0;
    let current: Current | undefined = o.from;
    let minHeight: number | undefined;
    let searchHistory = !!o.resumed;
    for (;;) {
      if (o.signal.aborted) throw senderAbortError(o.signal, 'send');
      let fresh = false;
      if (!current) {
        if (!prepared) {
          throw new BlockhashExpiredError(ErrorCodes.SENDER_BLOCKHASH_EXPIRED, `intent ${id}: cannot re-sign (no plan or signer available)`, {
            context: { signature: '', lastValidBlockHeight: 0, blockHeight: minHeight ?? 0 },
          });
        }
        if (prepared.kind === 'wire') {
          let lvbh: number;
          try {
            lvbh = await wireLastValid(prepared.recentBlockhash, prepared.lastValidBlockHeight, o.signal);
          } catch (e) {
            // Not sent by cairn: the caller still holds the bytes, and nothing here can send them later.
            if (o.signal.aborted || !(e instanceof CairnError)) throw e;
            await journaled({ op: 'failed', id, at: Date.now(), error: e.message, ...journalFailure(e) }, { state: 'created', what: `reading the blockhash's expiry failed (${e.code})` });
            throw e;
          }
          current = { wire: prepared.wire, signature: prepared.signature, lastValidBlockHeight: lvbh };
        } else {
          let built: Built;
          try {
            built = await builder.build(prepared, {
              signal: o.signal,
              claim: (signature, lastValid) => owners.claim(id, signature, lastValid),
              freshBlockhash: minHeight !== undefined,
              ...(minHeight !== undefined ? { minLastValidBlockHeight: minHeight } : {}),
            });
          } catch (e) {
            // Nothing was signed or sent, so nothing of this attempt can land: the failure is final,
            // in the journal as for the caller (a transient one can be reopened with retry(id)).
            // An abort is not a failure: the intent stays as it is and resume() finishes it.
            if (o.signal.aborted) throw e;
            const err = e instanceof CairnError ? e : new CairnError(ErrorCodes.SENDER_INVALID_TRANSACTION, `building the transaction failed: ${(e as Error)?.message ?? String(e)}`, { context: { id }, cause: e });
            await journaled({ op: 'failed', id, at: Date.now(), error: err.message, ...journalFailure(err) }, { state: minHeight === undefined ? 'created' : 'expired', what: `building failed (${err.code}: ${err.message})` });
            events.emit('failed', { id, error: err });
            throw err;
          }
          timings.buildMs = built.buildMs;
          current = { wire: built.wire, signature: built.signature, lastValidBlockHeight: built.lastValidBlockHeight };
        }
        attempt++;
        // Durable BEFORE the bytes leave: after a crash this record names the only live signature.
        // When the journal cannot store it, the bytes are never sent.
        await journaled(
          { op: 'signed', id, at: Date.now(), signature: current.signature, wire: b64(current.wire), lastValidBlockHeight: current.lastValidBlockHeight, attempt },
          { state: minHeight === undefined ? 'created' : 'expired', what: 'signed, not sent' },
        );
        lives.set(id, { signature: current.signature, lastValidBlockHeight: current.lastValidBlockHeight, submitted: false });
        fresh = true;
      }
      const cur = current;
      let sends = 0;
      let landed = false;
      // Rebroadcasts run under their own link, cut when the track ends: one still waiting out a
      // Retry-After must not outlive its intent (or the sender).
      const rb = linkSignals(o.signal);
      const submit = async (signal: AbortSignal): Promise<void> => {
        lastActivity = Date.now();
        counters.submits++;
        sends++;
        const live = lives.get(id);
        if (live) live.submitted = true;
        const r = await submitOnce(rpc, cur.wire, cfg.swqosOnly, signal);
        if (!r.ok && r.fatal) throw r.error;
      };
      if (fresh || o.resumed) {
        try {
          await submit(o.signal);
        } catch (e) {
          // A refusal of bytes never sent before is final. Bytes an earlier process already sent
          // may have landed whatever this host says now: the tracker decides those.
          const refused = e instanceof CairnError && e.code === ErrorCodes.SENDER_REJECTED;
          if (!refused || fresh) rb.release();
          if (!refused) throw e;
          if (fresh) {
            await journaled({ op: 'failed', id, at: Date.now(), signature: cur.signature, error: e.message, ...journalFailure(e) }, { state: 'failed', signature: cur.signature, what: 'the host refused the transaction' });
            events.emit('failed', { id, signature: cur.signature, error: e });
            throw e;
          }
        }
        timings.firstSubmitMs ??= performance.now() - t0;
        events.emit('sent', { id, signature: cur.signature, attempt });
      }
      // Rebroadcast the same bytes until the signature shows up (or the track ends).
      // Never two submits of one intent in flight: a slow host must not turn rebroadcasting into a storm.
      let submitting = false;
      const rebroadcast = setInterval(() => {
        if (landed || submitting || rb.signal.aborted) return;
        submitting = true;
        counters.rebroadcasts++;
        submit(rb.signal)
          .then(
            () => events.emit('rebroadcast', { id, signature: cur.signature, count: sends - 1 }),
            () => undefined,
          )
          .finally(() => (submitting = false));
      }, cfg.rebroadcastMs);
      let result;
      try {
        result = await tracker.track({
          signature: cur.signature,
          lastValidBlockHeight: cur.lastValidBlockHeight,
          commitment: o.commitment,
          searchHistory,
          signal: o.signal,
          onLanded: (slot) => {
            landed = true;
            timings.landedMs = performance.now() - t0;
            events.emit('landed', { id, signature: cur.signature, slot });
            void record({ op: 'landed', id, at: Date.now(), signature: cur.signature, slot }).catch(() => undefined);
          },
        });
      } finally {
        clearInterval(rebroadcast);
        rb.abort(new Error('the track ended'));
        rb.release();
      }
      if (result.kind === 'confirmed') {
        timings.confirmedMs = performance.now() - t0;
        await journaled(
          { op: 'confirmed', id, at: Date.now(), signature: cur.signature, slot: result.slot, commitment: result.commitment },
          { state: 'confirmed', signature: cur.signature, slot: result.slot, what: `landed and ${result.commitment} in slot ${result.slot} (signature ${cur.signature})` },
        );
        events.emit('confirmed', { id, signature: cur.signature, slot: result.slot, commitment: result.commitment });
        return { id, signature: cur.signature, slot: result.slot, commitment: result.commitment, attempts: attempt, sends, timings };
      }
      if (result.kind === 'failed') {
        let logs: string[] | undefined;
        if (cfg.fetchLogs) {
          // getTransaction has no 'processed' view: a failure seen at processed may need a slot.
          for (let i = 0; i < 3 && !logs; i++) {
            try {
              logs = logsOf(await rpc.getTransaction(cur.signature, { commitment: 'confirmed' }, { signal: o.signal })).logs;
            } catch {
              /* logs are a courtesy: the failure itself is certain */
            }
            if (!logs && i < 2) await sleep(cfg.pollMs, o.signal);
          }
        }
        const err = new TransactionFailedError(
          ErrorCodes.SENDER_TRANSACTION_FAILED,
          `transaction ${cur.signature} failed on chain in slot ${result.slot}: ${safeJson(result.err)}`,
          { context: { signature: cur.signature, err: result.err, slot: result.slot, ...(logs ? { logs } : {}) } },
        );
        await journaled(
          { op: 'failed', id, at: Date.now(), signature: cur.signature, slot: result.slot, error: err.message, ...journalFailure(err) },
          { state: 'failed', signature: cur.signature, slot: result.slot, what: `failed on chain in slot ${result.slot} (signature ${cur.signature})` },
        );
        events.emit('failed', { id, signature: cur.signature, error: err });
        throw err;
      }
      // Proven expired: the final status read after the height passed found nothing.
      await journaled(
        { op: 'expired', id, at: Date.now(), signature: cur.signature, lastValidBlockHeight: result.lastValidBlockHeight, blockHeight: result.blockHeight },
        { state: 'expired', signature: cur.signature, what: `expired unlanded (signature ${cur.signature})` },
      );
      lives.delete(id);
      const willResign = o.onExpired === 'resign' && prepared?.kind === 'plan' && attempt <= cfg.maxResigns;
      events.emit('expired', {
        id,
        signature: cur.signature,
        lastValidBlockHeight: result.lastValidBlockHeight,
        blockHeight: result.blockHeight,
        willResign,
      });
      if (!willResign) {
        const err = new BlockhashExpiredError(
          ErrorCodes.SENDER_BLOCKHASH_EXPIRED,
          `transaction ${cur.signature} expired: block height ${result.blockHeight} passed its last valid block height ${result.lastValidBlockHeight} and a final status read found nothing`,
          { context: { signature: cur.signature, lastValidBlockHeight: result.lastValidBlockHeight, blockHeight: result.blockHeight } },
        );
        await journaled(
          { op: 'failed', id, at: Date.now(), signature: cur.signature, error: err.message, ...journalFailure(err) },
          { state: 'expired', signature: cur.signature, what: `expired unlanded (signature ${cur.signature})` },
        );
        throw err;
      }
      current = undefined;
      minHeight = result.blockHeight;
      searchHistory = false;
    }
  };

  const wireLastValid = async (recentBlockhash: string, given: number | undefined, signal: AbortSignal): Promise<number> => {
    if (given !== undefined) return given;
    const latest = await builder.blockhash(signal);
    if (latest.blockhash === recentBlockhash) return latest.lastValidBlockHeight;
    // Unknown blockhash age: assume the longest possible life, so expiry is never declared early.
    const height = toNumber(await rpc.getBlockHeight(undefined, { signal }), 'getBlockHeight');
    return height + 151;
  };

  /** Start (or join) one intent; the caller's signal is linked to the sender's life. */
  const start = (id: string, run: (signal: AbortSignal) => Promise<SendOutcome>, signal?: AbortSignal): Promise<SendOutcome> => {
    const existing = inflight.get(id);
    if (existing) return existing;
    const link = linkSignals(life.signal, signal);
    const p = run(link.signal)
      .catch((e: unknown) => {
        // After an abort, whatever broke (a request, a wait, the closed tracker) is reported as the
        // abort — unless the intent had already reached a real outcome. An abort is not a failure:
        // its context says whether bytes were sent (`mayLand`) and, with a journal, resume() ends it.
        const ended = e instanceof CairnError && OUTCOMES.has(e.code) && e.code !== ErrorCodes.SENDER_ABORTED;
        if (link.signal.aborted && !ended) {
          const err = e instanceof AbortError && e.code === ErrorCodes.SENDER_ABORTED ? e : senderAbortError(link.signal, 'send');
          const live = lives.get(id);
          Object.assign(err.context, { id, mayLand: !!live?.submitted, ...(live ? { signature: live.signature, lastValidBlockHeight: live.lastValidBlockHeight } : {}) });
          throw err;
        }
        throw e;
      })
      .finally(() => {
        link.release();
        inflight.delete(id);
        lives.delete(id);
      });
    inflight.set(id, p);
    return p;
  };

  const fromJournalView = (v: IntentView): SendOutcome | Error => {
    const end = v.end;
    if (end?.op === 'confirmed') {
      return {
        id: v.id,
        signature: end.signature,
        slot: end.slot,
        commitment: end.commitment as Commitment,
        attempts: v.attempts,
        sends: 0,
        timings: { buildMs: 0 },
        fromJournal: true,
      };
    }
    if (end?.op === 'failed' || end?.op === 'abandoned') return errorFromJournal(end, v.id);
    return new CairnError(ErrorCodes.SENDER_JOURNAL, `intent ${v.id} ended in state ${v.state}`, { context: { id: v.id, fromJournal: true } });
  };

  /** Continue an intent found unfinished in the journal. */
  const resumeView = (v: IntentView, extra: ReadonlyMap<string, Signer>, o: { signal?: AbortSignal; commitment?: Commitment; onExpired?: 'fail' | 'resign' }) => {
    const ring = new Map([...keyring, ...extra]);
    let prepared: Prepared | undefined;
    if (v.plan) {
      const p = planFromJournal(v.plan, ring);
      if ('kind' in p) prepared = p;
    }
    const from = v.state === 'signed' || v.state === 'landed' ? v.signed : undefined;
    return start(
      v.id,
      async (signal) => {
        if (!from && !prepared && v.state !== 'expired') {
          // created but never signed, and nothing to build it from: nothing was ever sent.
          const err = new CairnError(ErrorCodes.SENDER_JOURNAL, `intent ${v.id} was never sent and cannot be rebuilt`, { context: { id: v.id } });
          await record({ op: 'abandoned', id: v.id, at: Date.now(), reason: err.message, ...journalFailure(err) });
          throw err;
        }
        const onExpired = o.onExpired ?? cfg.onExpired;
        if (v.state === 'expired' && (onExpired !== 'resign' || !prepared)) {
          const end = v.end as Extract<JournalRecord, { op: 'expired' }>;
          const err = new BlockhashExpiredError(
            ErrorCodes.SENDER_BLOCKHASH_EXPIRED,
            `transaction ${end.signature} expired (height ${end.blockHeight} > ${end.lastValidBlockHeight})${prepared ? '' : '; no signer to re-sign'}`,
            { context: { signature: end.signature, lastValidBlockHeight: end.lastValidBlockHeight, blockHeight: end.blockHeight } },
          );
          await record({ op: 'failed', id: v.id, at: Date.now(), signature: end.signature, error: err.message, ...journalFailure(err) });
          throw err;
        }
        return drive(v.id, prepared, {
          signal,
          commitment: o.commitment ?? cfg.commitment,
          onExpired,
          resumed: true,
          ...(from ? { from: { wire: new Uint8Array(Buffer.from(from.wire, 'base64')), signature: from.signature, lastValidBlockHeight: from.lastValidBlockHeight, attempt: from.attempt } } : {}),
        });
      },
      o.signal,
    );
  };

  const send: Sender['send'] = async (input, options = {}) => {
    assertOpen();
    if (options === null || typeof options !== 'object') throw new InputError('options', 'expected an object');
    const id = options.id ?? randomUUID();
    if (typeof id !== 'string' || id.length === 0 || id.length > 200) throw new InputError('options.id', 'expected a non-empty string ≤ 200 chars');
    const commitment = options.commitment ?? cfg.commitment;
    const onExpired = options.onExpired ?? cfg.onExpired;
    const joined = inflight.get(id);
    if (joined) return joined;
    const jp = journal();
    if (jp) {
      const view = (await jp).intents().get(id);
      if (view) {
        if (isTerminal(view.state)) {
          const r = fromJournalView(view);
          if (r instanceof Error) throw r;
          return r;
        }
        return resumeView(view, new Map(), { ...(options.signal ? { signal: options.signal } : {}), commitment, onExpired });
      }
    }
    const prepared = prepareInput(input, cfg);
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
    return start(
      id,
      async (signal) => {
        await journaled({ op: 'created', id, at: Date.now(), ...(prepared.kind === 'plan' && cfg.journal ? { plan: planToJournal(prepared) } : {}) }, { state: 'none', what: 'not started' });
        return drive(id, prepared, { signal, commitment, onExpired });
      },
      options.signal,
    );
  };

  async function* sendMany(inputs: Iterable<SendInput> | AsyncIterable<SendInput>, o: SendManyOptions = {}): AsyncGenerator<SendManyItem> {
    assertOpen();
    const concurrency = o.concurrency ?? cfg.concurrency;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new InputError('concurrency', `expected a positive integer, got ${String(concurrency)}`);
    if (!inputs || (typeof (inputs as Iterable<SendInput>)[Symbol.iterator] !== 'function' && typeof (inputs as AsyncIterable<SendInput>)[Symbol.asyncIterator] !== 'function')) {
      throw new InputError('inputs', 'expected an iterable or async iterable of send inputs');
    }
    const link = linkSignals(o.signal);
    const it: AsyncIterator<SendInput> | Iterator<SendInput> =
      typeof (inputs as AsyncIterable<SendInput>)[Symbol.asyncIterator] === 'function'
        ? (inputs as AsyncIterable<SendInput>)[Symbol.asyncIterator]()
        : (inputs as Iterable<SendInput>)[Symbol.iterator]();
    const ready: SendManyItem[] = [];
    let wake: (() => void) | undefined;
    let running = 0;
    let index = 0;
    let exhausted = false;
    try {
      for (;;) {
        while (!exhausted && running < concurrency) {
          const next = await it.next();
          if (next.done) {
            exhausted = true;
            break;
          }
          const i = index++;
          const input = next.value;
          let id: string;
          try {
            id = o.idOf ? o.idOf(input, i) : randomUUID();
          } catch (e) {
            ready.push({ index: i, id: '', ok: false, error: e instanceof Error ? e : new Error(String(e)) });
            continue;
          }
          running++;
          send(input, {
            id,
            signal: link.signal,
            ...(o.commitment ? { commitment: o.commitment } : {}),
            ...(o.onExpired ? { onExpired: o.onExpired } : {}),
          }).then(
            (outcome) => ready.push({ index: i, id, ok: true, outcome }),
            (error: unknown) => ready.push({ index: i, id, ok: false, error: error instanceof Error ? error : new Error(String(error)) }),
          ).finally(() => {
            running--;
            wake?.();
          });
        }
        if (ready.length > 0) {
          yield ready.shift()!;
          continue;
        }
        if (exhausted && running === 0) return;
        await new Promise<void>((r) => (wake = r));
        wake = undefined;
      }
    } finally {
      // Consumer stopped early (break / throw): stop what is still running.
      if (running > 0) link.abort(new Error('sendMany stopped by its consumer'));
      link.release();
    }
  }

  const retry: Sender['retry'] = async (id, options = {}) => {
    assertOpen();
    if (typeof id !== 'string' || id.length === 0) throw new InputError('id', 'expected an intent id');
    const jp = journal();
    if (!jp) throw new InputError('journal', 'retry() needs a sender created with a journal');
    const joined = inflight.get(id);
    if (joined) return joined;
    const j = await jp;
    const v = j.intents().get(id);
    if (!v) throw new InputError('id', `intent ${JSON.stringify(id)} is not in the journal (never sent, or older than its retention)`);
    const commitment = options.commitment ?? cfg.commitment;
    const onExpired = options.onExpired ?? cfg.onExpired;
    const opts = { ...(options.signal ? { signal: options.signal } : {}), commitment, onExpired };
    if (!isTerminal(v.state)) return resumeView(v, new Map(), opts);
    const end = v.end as Extract<JournalRecord, { op: 'failed' }> | undefined;
    const retryable =
      end?.op === 'failed' && (end.signature === undefined || end.code === ErrorCodes.SENDER_BLOCKHASH_EXPIRED || end.code === ErrorCodes.SENDER_REJECTED);
    if (!retryable) {
      const what = v.state === 'confirmed' ? 'landed' : end?.op === 'failed' ? `failed with ${end.code ?? 'an error'} after its transaction was sent` : `ended ${v.state}`;
      throw new InputError('id', `intent ${JSON.stringify(id)} ${what}; sending it again would be a second payment: use a new id if that is what you want`);
    }
    if (!v.plan) throw new InputError('id', `intent ${JSON.stringify(id)} has no plan to rebuild from (signed bytes are not re-signed by cairn)`);
    const extra = new Map<string, Signer>();
    (options.signers ?? []).forEach((s, i) => {
      const k = toSigner(s, `options.signers[${i}]`);
      extra.set(k.address, k);
    });
    const plan = planFromJournal(v.plan, new Map([...keyring, ...extra]));
    if ('missing' in plan) throw new InputError('options.signers', `re-signing intent ${JSON.stringify(id)} needs ${plan.missing.join(', ')}: pass them in options.signers or createSender({ signers })`);
    await record({ op: 'retried', id, at: Date.now() });
    return resumeView(v, extra, opts);
  };

  const resume: Sender['resume'] = async (o = {}) => {
    assertOpen();
    const jp = journal();
    if (!jp) throw new InputError('journal', 'resume() needs a sender created with a journal path');
    const j = await jp;
    const extra = new Map<string, Signer>();
    (o.signers ?? []).forEach((s, i) => {
      const k = toSigner(s, `signers[${i}]`);
      extra.set(k.address, k);
    });
    const pending = [...j.intents().values()].filter((v) => !isTerminal(v.state) && !inflight.has(v.id));
    const concurrency = o.concurrency ?? cfg.concurrency;
    const out: SendManyItem[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < pending.length) {
        const i = next++;
        const v = pending[i];
        try {
          const outcome = await resumeView(v, extra, o.signal ? { signal: o.signal } : {});
          out.push({ index: i, id: v.id, ok: true, outcome });
        } catch (e) {
          out.push({ index: i, id: v.id, ok: false, error: e instanceof Error ? e : new Error(String(e)) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
    return out;
  };

  return {
    send,
    sendMany: (inputs, o) => sendMany(inputs, o),
    resume,
    retry,
    on: (name, fn) => events.on(name, fn),
    get stats() {
      return { tracker: { ...tracker.stats }, submits: counters.submits, rebroadcasts: counters.rebroadcasts, inFlight: inflight.size };
    },
    config: cfg,
    async close() {
      if (closed) return;
      closed = true;
      if (warmTimer) clearInterval(warmTimer);
      life.abort(new CairnError(ErrorCodes.SENDER_CLOSED, 'sender closed'));
      tracker.close();
      await Promise.allSettled([...inflight.values()]);
      if (journalP) await journalP.then((j) => j.close(), () => undefined);
      events.clear();
      if (ownsClient) await rpc.close?.();
    },
  };
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  } catch {
    return String(v);
  }
}
