/**
 * The fleet sender: the core (core.ts) on one PostgreSQL journal shared by any number of processes
 * (its store, journal.ts). `enqueue` adds intents by caller-chosen id (idempotent, intents.ts),
 * `work` claims and drives them (work.ts, claims.ts), `status` and `outcomes` (outcomes.ts) tell how
 * they ended, `resume` takes over whatever a dead process left. `send` / `sendMany` / `sendBundle`
 * work on the same table: they enqueue, claim the id (or wait for the process holding it) and drive
 * it (a bundle as one intent); `retry` reopens an ended intent as the file journal's does.
 */
import { linkSignals } from '../../abort.js';
import { CairnError, InputError } from '../../errors/index.js';
import type { ResolvedSenderOptions } from '../config.js';
import { bundleOutcomeOf } from '../bundle.js';
import { createCore, signersOf, type Sender, type SenderConfig, type SenderStats, type SendRequest } from '../core.js';
import { bundleRecord, type PreparedBundle } from '../input/bundle.js';
import { prepareInput, type Prepared } from '../input/prepare.js';
import { assertSameContent, intentKey } from '../intent/key.js';
import { assertRetryable } from '../intent/resume.js';
import { planToJournal, preparedFromView } from '../journal/plan.js';
import type { Claim, FleetMetrics, PostgresJournal, PostgresJournalOptions } from '../journal/postgres/journal.js';
import { isBundleView, isTerminal, signaturesOf, type IntentState, type JournalRecord } from '../journal/records.js';
import { outcomeFromJournal, type SendManyItem, type SendOutcome } from '../outcome.js';
import { createClaims } from './claims.js';
import { enqueueItems, type FleetBundleIntent, type FleetIntent } from './intents.js';
import { fleetStore } from './journal.js';
import { createOutcomes } from './outcomes.js';
import { runWork, type WorkOptions, type WorkSummary } from './work.js';

/** A sender on a PostgreSQL journal: one of a fleet of processes sharing its intents. */
export interface FleetSenderConfig extends SenderConfig {
  journal: PostgresJournalOptions;
}

/** A fleet sender: a `Sender` whose intents live in PostgreSQL, plus the fleet's operations. */
export interface FleetSender extends Sender {
  /** Add intents by caller-chosen id (idempotent: known ids are left as they are); a `{ id, bundle }` is one bundle intent. */
  enqueue(intents: Iterable<FleetIntent | FleetBundleIntent>, options?: { signal?: AbortSignal }): Promise<{ added: number; known: number }>;
  /** Claim and drive intents until the signal aborts (or, with `drain`, until none is unfinished). */
  work(options?: WorkOptions): Promise<WorkSummary>;
  /** What the journal says of an intent, and its outcome once it ended (undefined: unknown id). */
  status(id: string, options?: { signal?: AbortSignal }): Promise<FleetStatus | undefined>;
  /** The outcomes this process's `work` and `resume` reach from now on, until the signal aborts. */
  outcomes(options?: { signal?: AbortSignal }): AsyncIterableIterator<SendManyItem>;
  readonly stats: SenderStats & { fleet: FleetMetrics };
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
  /** Its live (or final) signature, once it has one (a bundle's: its first transaction's). */
  signature?: string;
  /** A bundle's: every signature of its latest signed set, in order (none before it is signed). */
  signatures?: string[];
  outcome?: SendOutcome;
  error?: CairnError;
}

export function createFleetSender(config: SenderConfig, cfg: ResolvedSenderOptions): FleetSender {
  const core = createCore(config, cfg, fleetStore);
  const { keyring, inflight, life, store } = core;
  const journal = store.postgres;
  const outcomes = createOutcomes();
  const claims = createClaims(core, outcomes.publish);
  const { settle, exclude } = claims;
  /** The fleet's own operations refuse a closed sender at the call, as the rest do. */
  const guard = <A extends unknown[], R>(fn: (...a: A) => R) => (...a: A): R => {
    core.assertOpen();
    return fn(...a);
  };

  const send: Sender['send'] = async (input, options = {}) => {
    core.assertOpen();
    const o = core.request(options);
    const id = o.id;
    const prepared = prepareInput(input, cfg);
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
    return offer(j, { op: 'created', id, at: Date.now(), ...(plan ? { plan } : {}), key }, prepared, o);
  };

  /** Store intent `rec.id` (refused, SENDER_ID_CONFLICT, when the id is known with other content), then join, claim or wait for it. */
  const offer = async (j: PostgresJournal, rec: Extract<JournalRecord, { op: 'created' }>, prepared: Prepared | PreparedBundle, o: SendRequest): Promise<SendOutcome> => {
    const id = rec.id;
    claims.renew(j);
    const link = linkSignals(life, o.signal);
    try {
      await j.enqueue([{ id, rec }], link.signal);
      const joined = inflight.get(id);
      if (joined) return await joined;
      return await claims.driveId(j, id, link.signal, prepared, o);
    } finally {
      link.release();
    }
  };

  /** A bundle through the table: one intent, stored with every plan, then claimed and driven as `send`'s. */
  const sendBundle: Sender['sendBundle'] = async (inputs, options = {}) => {
    core.assertOpen();
    const o = core.request(options);
    const bundle = core.prepareBundle(inputs);
    const { plans, key } = bundleRecord(bundle);
    const j = await journal();
    return bundleOutcomeOf(await offer(j, { op: 'created', id: o.id, at: Date.now(), plans, key }, bundle, o));
  };

  /**
   * `retry(id)` on the fleet's table, as the file journal's: an unfinished id is driven (or waited
   * for), an ended one is reopened only when its failure proved nothing of it can land
   * (`assertRetryable`), by one conditional statement that also claims it, and driven again.
   */
  const retry: Sender['retry'] = async (id, options) => {
    core.assertOpen();
    const { signers, ...o } = options ?? {};
    const extra = signersOf(signers, 'options.signers') ?? [];
    if (typeof id !== 'string' || id.length === 0) throw new InputError('id', 'expected an intent id');
    const joined = inflight.get(id);
    if (joined) return joined;
    const ring = new Map([...keyring, ...extra.map((s) => [s.address, s] as const)]);
    const j = await journal();
    claims.renew(j);
    const link = linkSignals(life, o.signal);
    try {
      const s = await j.status(id, link.signal);
      if (!s) throw new InputError('id', `intent ${JSON.stringify(id)} is not in the journal ${j.table} (never enqueued, or collected)`);
      let first: Claim | undefined;
      if (isTerminal(s.state)) {
        assertRetryable(s.view, ring);
        // Undefined: another process reopened it first; it is then driven (or waited for) below.
        first = await j.reopen(id, s.fence, link.signal);
      }
      const plan = preparedFromView(s.view, ring);
      return await claims.driveId(j, id, link.signal, plan && 'kind' in plan ? plan : undefined, o, first);
    } finally {
      link.release();
    }
  };

  return {
    send,
    sendMany: core.sendManyOf(send),
    sendBundle,
    resume: async (o) => {
      core.assertOpen();
      const items: SendManyItem[] = [];
      const j = await journal();
      claims.renew(j);
      await runWork(
        { journal: j, life, settle, exclude },
        { ...(o?.signal ? { signal: o.signal } : {}), ...(o?.concurrency ? { concurrency: o.concurrency } : {}) },
        cfg.concurrency,
        { once: true, items },
      );
      return items;
    },
    retry,
    on: core.on,
    get stats() {
      return { ...core.stats(), fleet: store.metrics() };
    },
    config: cfg,
    // What the fleet started besides the core stops once the intents in flight settled, before the table closes.
    close: () => core.close(async () => (claims.stop(), outcomes.clear())),
    enqueue: guard(async (intents: Iterable<FleetIntent | FleetBundleIntent>, o: { signal?: AbortSignal } = {}) => {
      const items = enqueueItems(intents);
      const j = await journal();
      let added = 0;
      // Batches keep each statement's parameters bounded.
      for (let i = 0; i < items.length; i += 1_000) added += await j.enqueue(items.slice(i, i + 1_000), o.signal);
      return { added, known: items.length - added };
    }),
    work: guard(async (o: WorkOptions = {}) => {
      const j = await journal();
      // Claims taken ahead of their slot are held from the start: renewed like the rest.
      claims.renew(j);
      return runWork({ journal: j, life, settle, exclude }, o, cfg.concurrency);
    }),
    status: guard(async (id: string, o: { signal?: AbortSignal } = {}) => {
      if (typeof id !== 'string' || id.length === 0) throw new InputError('id', 'expected an intent id');
      const s = await (await journal()).status(id, o.signal);
      if (!s) return undefined;
      const signature = s.view.signed?.signature ?? (s.view.end as { signature?: string } | undefined)?.signature;
      const bundle = isBundleView(s.view) ? { signatures: signaturesOf(s.view) } : {};
      const out: FleetStatus = { id, state: s.state, owner: s.owner, leaseUntil: s.leaseUntil, fence: s.fence, ...(signature ? { signature } : {}), ...bundle };
      if (isTerminal(s.state)) {
        const r = outcomeFromJournal(s.view);
        if (r instanceof CairnError) out.error = r;
        else out.outcome = r;
      }
      return out;
    }),
    outcomes: guard((o: { signal?: AbortSignal } = {}) => outcomes.stream(o.signal ?? life)),
  };
}
