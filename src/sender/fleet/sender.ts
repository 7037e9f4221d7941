/**
 * The fleet sender: the core (core.ts) on a PostgreSQL journal shared by many processes
 * (fleet/journal.ts), with the fleet's operations (fleet.ts) as its `send`, `resume` and `retry` —
 * through claims on the shared table — and `enqueue` / `work` / `status` / `outcomes` added.
 */
import type { ResolvedSenderOptions } from '../config.js';
import { createCore, signersOf, type Sender, type SenderConfig, type SenderStats } from '../core.js';
import type { FleetMetrics, PostgresJournalOptions } from '../journal/postgres/journal.js';
import type { SendManyItem } from '../outcome.js';
import { createFleet, type FleetIntent, type FleetStatus } from './fleet.js';
import { fleetStore } from './journal.js';
import type { WorkOptions, WorkSummary } from './work.js';

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

export function createFleetSender(config: SenderConfig, cfg: ResolvedSenderOptions): FleetSender {
  const core = createCore(config, cfg, fleetStore);
  const { keyring, inflight, drive, events, life, resumeDeps } = core;
  const fleet = createFleet({ cfg, keyring, inflight, drive, events, life, journal: core.store.postgres, resumeDeps });
  /** The fleet's own operations refuse a closed sender, as the rest do. */
  const guard = <A extends unknown[], R>(fn: (...a: A) => R) => (...a: A): R => {
    core.assertOpen();
    return fn(...a);
  };

  const send: Sender['send'] = async (input, options = {}) => {
    core.assertOpen();
    return fleet.send(input, core.request(options));
  };

  return {
    send,
    sendMany: core.sendManyOf(send),
    sendBundle: core.sendBundle,
    resume: async (o) => {
      core.assertOpen();
      return fleet.resume({ ...(o?.signal ? { signal: o.signal } : {}), ...(o?.concurrency ? { concurrency: o.concurrency } : {}) });
    },
    retry: async (id, o) => {
      core.assertOpen();
      const { signers, ...rest } = o ?? {};
      return fleet.retry(id, { ...rest, ...(signers ? { signers: signersOf(signers, 'options.signers')! } : {}) });
    },
    on: core.on,
    get stats() {
      return { ...core.stats(), fleet: fleet.metrics };
    },
    config: cfg,
    close: () => core.close(fleet.close),
    enqueue: guard(fleet.enqueue),
    work: guard(fleet.work),
    status: guard(fleet.status),
    outcomes: guard(fleet.outcomes),
  };
}
