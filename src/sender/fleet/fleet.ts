/**
 * A fleet of senders on one PostgreSQL journal (journal/postgres/journal.ts): `enqueue` adds intents by
 * caller-chosen id (idempotent), `work` claims and drives them in any number of processes, `status`
 * and `outcomes` tell how they ended, `resume` takes over whatever a dead process left. An intent is
 * driven by the sender's usual steps (intent/drive.ts), its records fenced by this process's claim: signed
 * bytes are durable before their first submission, a new signature only follows a proven expiry, and
 * a process whose claim lapsed can store nothing more — the file journal's invariant, fleet-wide.
 * A drive belongs to the claim it began under: its records carry that claim's token, it re-reads
 * the intent under it before signing, and a newer claim of this process never joins it (intent/inflight.ts)
 * but starts from what the table says — another process's `signed` bytes included, tracked as they are.
 * `send` / `sendMany` work on the same table: they enqueue, claim the id (or wait for the process
 * holding it) and drive it.
 */
import { randomUUID } from 'node:crypto';
import { abortError, linkSignals, sleep } from '../../abort.js';
import { CairnError, ErrorCodes, InputError } from '../../errors/index.js';
import { isPublicKeyLike, toAddress, toSigner, type AddressInput, type SignerLike } from '../../solana/inputs.js';
import type { Signer } from '../../solana/signer.js';
import { checkKitLookups, readInstructions, type InstructionLike } from '../../solana/kit-instructions.js';
import type { LookupTableInput, TransactionVersion } from '../../solana/wire.js';
import type { ResolvedSenderOptions } from '../config.js';
import type { SenderEvents } from '../events.js';
import { isLeaseLost, runWork, type WorkOptions, type WorkSummary } from './work.js';
import type { Inflight } from '../intent/inflight.js';
import { assertSameContent, intentKey } from '../intent/key.js';
import type { Drive, DriveClaim } from '../intent/drive.js';
import { planFromJournal, planToJournal } from '../journal/plan.js';
import { type Claim, type FleetMetrics, type IntentStatus, type PostgresJournal } from '../journal/postgres/journal.js';
import { isTerminal, type IntentState, type JournalRecord } from '../journal/records.js';
import { outcomeFromJournal, type SendManyItem, type SendOutcome } from '../outcome.js';
import { nonceOf, prepareInput, type NonceInput, type Prepared, type SendInput } from '../input/prepare.js';
import { assertRetryable, resumeIntent, type ResumeDeps } from '../intent/resume.js';
import type { Commitment } from '../client/rpc.js';
import { asCairnError } from '../send-many.js';

/** One intent for `enqueue`: instructions and a payer the working processes can sign for (`createSender({ signers })`). */
export interface FleetIntent {
  /**
   * Caller-chosen idempotency key: enqueuing a known id again with the same content changes nothing;
   * with other content (instructions, payer, amounts) it is refused, `SENDER_ID_CONFLICT`.
   */
  id: string;
  /** web3.js-shaped or kit instructions (a kit meta's signer is not stored: the working processes sign). */
  instructions: readonly InstructionLike[];
  /** The fee payer: its address (or a signer, of which only the address is stored). */
  payer: AddressInput | SignerLike;
  version?: TransactionVersion;
  lookupTables?: readonly LookupTableInput[];
  /**
   * A durable-nonce intent (its own nonce account): signed with the account's nonce value, so its
   * bytes outlive 150 blocks and any process of the fleet rebroadcasts them without re-signing. Only
   * the authority's address is stored: the working processes need its key in `signers`.
   */
  nonce?: NonceInput;
}

/** What the journal says of one intent, and its outcome once it ended. */
export interface FleetStatus {
  id: string;
  state: IntentState;
  /** The process holding it (host:pid:random), while one does. */
  owner: string | null;
  leaseUntil: Date | null;
  /** The fencing token of its latest claim. */
  fence: number;
  /** Its live (or final) signature, once it has one. */
  signature?: string;
  outcome?: SendOutcome;
  error?: CairnError;
}

export interface Fleet {
  enqueue(intents: Iterable<FleetIntent>, options?: { signal?: AbortSignal }): Promise<{ added: number; known: number }>;
  work(options?: WorkOptions): Promise<WorkSummary>;
  status(id: string, options?: { signal?: AbortSignal }): Promise<FleetStatus | undefined>;
  outcomes(options?: { signal?: AbortSignal }): AsyncIterableIterator<SendManyItem>;
  resume(options?: { signal?: AbortSignal; concurrency?: number }): Promise<SendManyItem[]>;
  send(input: SendInput, options: { id?: string | undefined; signal?: AbortSignal | undefined; commitment?: Commitment | undefined; onExpired?: 'fail' | 'resign' | undefined }): Promise<SendOutcome>;
  retry(id: string, options?: { signal?: AbortSignal | undefined; commitment?: Commitment | undefined; onExpired?: 'fail' | 'resign' | undefined; signers?: readonly Signer[] | undefined }): Promise<SendOutcome>;
  readonly metrics: FleetMetrics;
  close(): Promise<void>;
}

export interface FleetDeps {
  cfg: ResolvedSenderOptions;
  keyring: ReadonlyMap<string, Signer>;
  inflight: Inflight;
  drive: Drive;
  events: SenderEvents;
  life: AbortSignal;
  /** The journal (opened once by the sender's intent journal). */
  journal: () => Promise<PostgresJournal>;
  resumeDeps: ResumeDeps;
}

const EMPTY_METRICS: FleetMetrics = { claims: 0, takeovers: 0, renewals: 0, leasesLost: 0, fencedRefused: 0, reconnects: 0 };

export function createFleet(d: FleetDeps): Fleet {
  let opened: PostgresJournal | undefined;
  const journal = async (): Promise<PostgresJournal> => (opened = await d.journal());
  const listeners = new Set<(item: SendManyItem) => void>();
  const publish = (item: SendManyItem): void => {
    for (const fn of listeners) fn(item);
  };
  /** Intents this process lacks the signers of: given back, and not claimed again by work(). */
  const cannotSign = new Set<string>();
  const exclude = (): readonly string[] => [...cannotSign];
  const renewer = createRenewer(d.events, d.life);
  const startRenewing = renewer.start;
  const opts = (signal: AbortSignal, o: { commitment?: Commitment | undefined; onExpired?: 'fail' | 'resign' | undefined } = {}) => ({
    signal,
    commitment: o.commitment ?? d.cfg.commitment,
    onExpired: o.onExpired ?? d.cfg.onExpired,
  });

  /** A claim as its drive carries it: the token of its records, and the re-read before each signing. */
  const bindClaim = (j: PostgresJournal, id: string, fence: number): DriveClaim => ({
    fence,
    beforeSign: (known, signal) => j.signable(id, fence, known, signal),
  });

  /** Drive a claimed intent: built from its plan when nothing was signed yet, else continued from its bytes. */
  const driveClaim = async (c: Claim, signal: AbortSignal, prepared?: Prepared, o: Parameters<typeof opts>[1] = {}): Promise<SendOutcome> => {
    const v = c.view;
    const j = await journal();
    if (!j.holds(v.id, c.fence)) {
      // Claimed again since (a send of this process took it while this claim waited its turn): the newer claim drives it.
      throw new CairnError(ErrorCodes.SENDER_LEASE_LOST, `intent ${v.id}: the claim under fencing token ${c.fence} is no longer held`, { context: { id: v.id, fence: c.fence } });
    }
    const claim = bindClaim(j, v.id, c.fence);
    if (c.takeover) d.events.emit('takeover', { id: v.id, fence: c.fence });
    if (v.state === 'created' || v.state === 'expired') {
      const extra = prepared?.kind === 'plan' ? prepared.signers : [];
      const ring = new Map([...d.keyring, ...extra.map((s) => [s.address, s] as const)]);
      const plan = v.plan ? planFromJournal(v.plan, ring) : prepared;
      if (plan && 'missing' in plan) {
        // This process cannot sign it: leave it to one that can (never abandon it for want of a key),
        // and claim it no more.
        if (cannotSign.size < 10_000) cannotSign.add(v.id);
        return Promise.reject(new InputError('signers', `intent ${v.id} needs ${plan.missing.join(', ')}: pass them in createSender({ signers })`));
      }
      if (v.state === 'created' && plan) return d.inflight.start(v.id, (s) => d.drive(v.id, plan, { ...opts(s, o), claim }), signal, c.fence);
    }
    return resumeIntent(d.resumeDeps, v, new Map(), { ...opts(signal, o), claim });
  };

  /** One claim to its end, for work() and resume(); the claim is given back if it is still held after. */
  const settle = async (c: Claim, signal: AbortSignal, index: number): Promise<SendManyItem | undefined> => {
    const j = await journal();
    startRenewing(j);
    const id = c.view.id;
    try {
      const outcome = await driveClaim(c, signal);
      const item: SendManyItem = { index, id, ok: true, outcome };
      publish(item);
      return item;
    } catch (e) {
      if (isLeaseLost(e)) {
        d.events.emit('leaseLost', { id });
        throw e;
      }
      const error = asCairnError(e);
      // Ended (failed, abandoned) when the journal no longer holds it for this process; else given back.
      if (j.holds(id, c.fence) || error.code === ErrorCodes.SENDER_ABORTED) return undefined;
      const item: SendManyItem = { index, id, ok: false, error };
      publish(item);
      return item;
    } finally {
      // This claim only: a newer one of this process (which superseded this drive) goes on.
      await j.release(id, c.fence);
    }
  };

  const fleetSend: Fleet['send'] = async (input, o) => {
    const id = o.id ?? randomUUID();
    if (typeof id !== 'string' || id.length === 0 || id.length > 200) throw new InputError('options.id', 'expected a non-empty string ≤ 200 chars');
    const prepared = prepareInput(input, d.cfg);
    const plan = prepared.kind === 'plan' ? planToJournal(prepared) : undefined;
    const key = intentKey(plan ?? { signature: prepared.kind === 'wire' ? prepared.signature : '' });
    const j = await journal();
    // The id's content is checked against the table's before anything is joined, claimed or stored.
    if (prepared.kind === 'wire') assertSameContent(id, (await j.status(id, o.signal))?.view.key, key, `in journal ${j.table}`);
    if (prepared.kind === 'wire' && !(await j.claimSignature(id, prepared.signature, prepared.lastValidBlockHeight ?? Number.MAX_SAFE_INTEGER))) {
      // Signed bytes cannot be made distinct: under a second id they would be reported as a second
      // payment while only one can land (fleet-wide, as a single sender refuses them).
      throw new InputError('input.wire', `these signed bytes (signature ${prepared.signature}) are already another intent's in journal ${j.table}; the same bytes are one payment: send them under that id`, {
        got: prepared.signature,
      });
    }
    startRenewing(j);
    const link = linkSignals(d.life, o.signal);
    try {
      // Refused (SENDER_ID_CONFLICT) when the id is known with other content.
      await j.enqueue([{ id, rec: { op: 'created', id, at: Date.now(), ...(plan ? { plan } : {}), key } }], link.signal);
      const joined = d.inflight.get(id);
      if (joined) return await joined;
      return await driveId(j, id, link.signal, prepared, o);
    } finally {
      link.release();
    }
  };

  /** Claim `id` (or wait for the process holding it) and drive it; an ended id answers from the journal. */
  const driveId = async (j: PostgresJournal, id: string, signal: AbortSignal, prepared: Prepared | undefined, o: Parameters<typeof opts>[1], first?: Claim): Promise<SendOutcome> => {
    for (let c: Claim | IntentStatus | undefined = first; ; c = undefined) {
      c ??= await j.claimId(id, signal);
      if (c && 'takeover' in c) {
        try {
          return await driveClaim(c, signal, prepared, o);
        } catch (e) {
          if (!isLeaseLost(e)) throw e;
          d.events.emit('leaseLost', { id });
        } finally {
          await j.release(id, c.fence);
        }
      } else if (c && isTerminal(c.state)) {
        const r = outcomeFromJournal(c.view);
        if (r instanceof Error) throw r;
        return r;
      }
      // Another process holds it: its end (or its lease lapsing) is a poll away.
      await sleep(Math.max(100, 2 * d.cfg.pollMs), signal).catch(() => {
        throw abortError(ErrorCodes.SENDER_ABORTED, signal, 'send');
      });
    }
  };

  /**
   * `retry(id)` on the fleet's table, as the file journal's: an unfinished id is driven (or waited
   * for), an ended one is reopened only when its failure proved nothing of it can land
   * (`assertRetryable`), by one conditional statement that also claims it, and driven again.
   */
  const fleetRetry: Fleet['retry'] = async (id, o = {}) => {
    if (typeof id !== 'string' || id.length === 0) throw new InputError('id', 'expected an intent id');
    const joined = d.inflight.get(id);
    if (joined) return joined;
    const extra = o.signers ?? [];
    const ring = new Map([...d.keyring, ...extra.map((s) => [s.address, s] as const)]);
    const j = await journal();
    startRenewing(j);
    const link = linkSignals(d.life, o.signal);
    try {
      const s = await j.status(id, link.signal);
      if (!s) throw new InputError('id', `intent ${JSON.stringify(id)} is not in the journal ${j.table} (never enqueued, or collected)`);
      let first: Claim | undefined;
      if (isTerminal(s.state)) {
        assertRetryable(s.view, ring);
        // Undefined: another process reopened it first; it is then driven (or waited for) below.
        first = await j.reopen(id, s.fence, link.signal);
      }
      const plan = s.view.plan ? planFromJournal(s.view.plan, ring) : undefined;
      return await driveId(j, id, link.signal, plan && 'kind' in plan ? plan : undefined, o, first);
    } finally {
      link.release();
    }
  };

  return {
    async enqueue(intents, o = {}) {
      const items = enqueueItems(intents);
      const j = await journal();
      let added = 0;
      // Batches keep each statement's parameters bounded.
      for (let i = 0; i < items.length; i += 1_000) added += await j.enqueue(items.slice(i, i + 1_000), o.signal);
      return { added, known: items.length - added };
    },
    async work(o = {}) {
      const j = await journal();
      // Claims taken ahead of their slot are held from the start: renewed like the rest.
      startRenewing(j);
      return runWork({ journal: j, life: d.life, settle, exclude }, o, d.cfg.concurrency);
    },
    async resume(o = {}) {
      const items: SendManyItem[] = [];
      const j = await journal();
      startRenewing(j);
      await runWork({ journal: j, life: d.life, settle, exclude }, o, d.cfg.concurrency, { once: true, items });
      return items;
    },
    async status(id, o = {}) {
      if (typeof id !== 'string' || id.length === 0) throw new InputError('id', 'expected an intent id');
      const s = await (await journal()).status(id, o.signal);
      if (!s) return undefined;
      const signature = s.view.signed?.signature ?? (s.view.end as { signature?: string } | undefined)?.signature;
      const out: FleetStatus = { id, state: s.state, owner: s.owner, leaseUntil: s.leaseUntil, fence: s.fence, ...(signature ? { signature } : {}) };
      if (isTerminal(s.state)) {
        const r = outcomeFromJournal(s.view);
        if (r instanceof CairnError) out.error = r;
        else out.outcome = r;
      }
      return out;
    },
    outcomes: (o = {}) => outcomeStream(listeners, o.signal ?? d.life),
    send: fleetSend,
    retry: fleetRetry,
    get metrics() {
      return opened ? { ...opened.metrics } : { ...EMPTY_METRICS };
    },
    async close() {
      renewer.stop();
      listeners.clear();
    },
  };
}

/** Keep held leases alive every third of a lease; those found lapsed are told (their next state change will be refused). */
function createRenewer(events: SenderEvents, life: AbortSignal): { start(j: PostgresJournal): void; stop(): void } {
  let timer: ReturnType<typeof setInterval> | undefined;
  let renewing = false;
  return {
    start(j) {
      if (timer) return;
      timer = setInterval(() => {
        if (renewing || life.aborted) return;
        renewing = true;
        j.renew(life)
          .then((lost) => lost.forEach((id) => events.emit('leaseLost', { id })))
          .catch(() => undefined)
          .finally(() => (renewing = false));
      }, Math.max(50, Math.floor(j.leaseMs / 3)));
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}

/** Intents as `created` records, checked at the boundary (ids unique within the call). */
function enqueueItems(intents: Iterable<FleetIntent>): { id: string; rec: Extract<JournalRecord, { op: 'created' }> }[] {
  if (!intents || typeof (intents as Iterable<FleetIntent>)[Symbol.iterator] !== 'function') throw new InputError('intents', 'expected an iterable of { id, instructions, payer }');
  const items = [...intents].map((it, i) => {
    const plan = planOf(it, i);
    return { id: intentId(it, i), rec: { op: 'created' as const, id: it.id, at: Date.now(), plan, key: intentKey(plan) } };
  });
  const seen = new Set<string>();
  for (const [i, it] of items.entries()) {
    if (seen.has(it.id)) throw new InputError(`intents[${i}].id`, `duplicate id ${JSON.stringify(it.id)} in one call`);
    seen.add(it.id);
  }
  return items;
}

function intentId(it: FleetIntent, i: number): string {
  if (!it || typeof it !== 'object') throw new InputError(`intents[${i}]`, 'expected { id, instructions, payer }');
  if (typeof it.id !== 'string' || it.id.length === 0 || it.id.length > 200) throw new InputError(`intents[${i}].id`, 'expected a non-empty string ≤ 200 chars');
  return it.id;
}

/** The stored plan of an intent (addresses, flags, data: never a secret). */
function planOf(it: FleetIntent, i: number) {
  if (!Array.isArray(it.instructions) || it.instructions.length === 0) throw new InputError(`intents[${i}].instructions`, 'expected a non-empty array of instructions');
  const payer = typeof it.payer === 'string' || isPublicKeyLike(it.payer) ? toAddress(it.payer, `intents[${i}].payer`) : toSigner(it.payer, `intents[${i}].payer`).address;
  const version = it.version ?? (it.lookupTables?.length ? 0 : 'legacy');
  const nonce = it.nonce === undefined ? undefined : nonceOf(it.nonce, undefined, `intents[${i}].nonce`);
  const read = readInstructions(it.instructions, `intents[${i}].instructions`);
  checkKitLookups(read, it.lookupTables, `intents[${i}].lookupTables`);
  return planToJournal({ kind: 'plan', payer, instructions: [...read.instructions], version, lookupTables: [...(it.lookupTables ?? [])], signers: [], ...(nonce ? { nonce } : {}) });
}

/** Items published from now on, until the signal aborts or the consumer stops. */
async function* outcomeStream(listeners: Set<(item: SendManyItem) => void>, signal: AbortSignal): AsyncGenerator<SendManyItem> {
  const queue: SendManyItem[] = [];
  let wake: (() => void) | undefined;
  const fn = (item: SendManyItem): void => {
    queue.push(item);
    wake?.();
  };
  const onAbort = (): void => wake?.();
  listeners.add(fn);
  signal.addEventListener('abort', onAbort);
  try {
    for (;;) {
      while (queue.length) yield queue.shift()!;
      if (signal.aborted) return;
      await new Promise<void>((r) => (wake = r));
      wake = undefined;
    }
  } finally {
    listeners.delete(fn);
    signal.removeEventListener('abort', onAbort);
  }
}
