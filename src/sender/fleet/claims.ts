/**
 * How a fleet process drives the intents it claims (journal/postgres/journal.ts): a drive belongs to
 * the claim it began under — its records carry that claim's token, it re-reads the intent under it
 * before signing (intent/drive.ts), and a newer claim of this process never joins it
 * (intent/inflight.ts) but starts from what the table says, another process's `signed` bytes
 * included, tracked as they are. Signed bytes are durable before their first submission, a new
 * signature only follows a proven expiry, and a process whose claim lapsed can store nothing more —
 * the file journal's invariant, fleet-wide. Leases held are renewed every third of a lease.
 */
import { abortError, sleep } from '../../abort.js';
import { CairnError, ErrorCodes, InputError } from '../../errors/index.js';
import type { Commitment } from '../client/rpc.js';
import type { SenderCore } from '../core.js';
import type { SenderEvents } from '../events.js';
import type { Prepared } from '../input/prepare.js';
import type { DriveClaim } from '../intent/drive.js';
import { resumeIntent } from '../intent/resume.js';
import type { PreparedBundle } from '../input/bundle.js';
import { preparedFromView } from '../journal/plan.js';
import type { Claim, IntentStatus, PostgresJournal } from '../journal/postgres/journal.js';
import { isTerminal } from '../journal/records.js';
import { outcomeFromJournal, type SendManyItem, type SendOutcome } from '../outcome.js';
import { asCairnError } from '../send-many.js';
import type { FleetStore } from './journal.js';
import { isLeaseLost } from './work.js';

/** What a drive is asked for beyond the sender's defaults. */
export interface DriveWith {
  commitment?: Commitment | undefined;
  onExpired?: 'fail' | 'resign' | undefined;
}

export interface Claims {
  /** Keep this process's leases on `j` alive (from the first use of the table until `stop`). */
  renew(j: PostgresJournal): void;
  /** Intents this process must not claim: it lacks their signers. */
  exclude(): readonly string[];
  /** One claim to its end, for work() and resume(); the claim is given back if it is still held after. */
  settle(c: Claim, signal: AbortSignal, index: number): Promise<SendManyItem | undefined>;
  /** Claim `id` (or wait for the process holding it) and drive it; an ended id answers from the journal. */
  driveId(
    j: PostgresJournal,
    id: string,
    signal: AbortSignal,
    prepared: Prepared | PreparedBundle | undefined,
    o: DriveWith,
    first?: Claim,
  ): Promise<SendOutcome>;
  stop(): void;
}

/**
 * @example
 * const claims = createClaims(core, outcomes.publish);
 * const out = await claims.driveId(await core.store.postgres(), 'order-1', signal, prepared, {});
 */
export function createClaims(core: SenderCore<FleetStore>, publish: (item: SendManyItem) => void): Claims {
  /** Intents this process lacks the signers of: given back, and not claimed again by work(). */
  const cannotSign = new Set<string>();
  const renewer = createRenewer(core.events, core.life);
  const opts = (signal: AbortSignal, o: DriveWith = {}) => ({
    signal,
    commitment: o.commitment ?? core.cfg.commitment,
    onExpired: o.onExpired ?? core.cfg.onExpired,
  });

  /** A claim as its drive carries it: the token of its records, and the re-read before each signing. */
  const bindClaim = (j: PostgresJournal, id: string, fence: number): DriveClaim => ({
    fence,
    beforeSign: (known, signal) => j.signable(id, fence, known, signal),
  });

  /** Drive a claimed intent: built from its plan when nothing was signed yet, else continued from its bytes. */
  const driveClaim = async (c: Claim, signal: AbortSignal, prepared?: Prepared | PreparedBundle, o: DriveWith = {}): Promise<SendOutcome> => {
    const v = c.view;
    const j = await core.store.postgres();
    if (!j.holds(v.id, c.fence)) {
      // Claimed again since (a send of this process took it while this claim waited its turn): the newer claim drives it.
      throw new CairnError(ErrorCodes.SENDER_LEASE_LOST, `intent ${v.id}: the claim under fencing token ${c.fence} is no longer held`, { context: { id: v.id, fence: c.fence } });
    }
    const claim = bindClaim(j, v.id, c.fence);
    if (c.takeover) core.events.emit('takeover', { id: v.id, fence: c.fence });
    if (v.state === 'created' || v.state === 'expired') {
      const extra = prepared?.kind === 'plan' ? prepared.signers : prepared?.kind === 'bundle' ? prepared.plans.flatMap((p) => p.signers) : [];
      const ring = new Map([...core.keyring, ...extra.map((s) => [s.address, s] as const)]);
      // A single intent's plan or a bundle's plans, rebuilt with the keys at hand.
      const plan = preparedFromView(v, ring) ?? prepared;
      if (plan && 'missing' in plan) {
        // This process cannot sign it: leave it to one that can (never abandon it for want of a key),
        // and claim it no more.
        if (cannotSign.size < 10_000) cannotSign.add(v.id);
        return Promise.reject(new InputError('signers', `intent ${v.id} needs ${plan.missing.join(', ')}: pass them in createSender({ signers })`));
      }
      if (v.state === 'created' && plan) return core.inflight.start(v.id, (s) => core.drive(v.id, plan, { ...opts(s, o), claim }), signal, c.fence);
    }
    return resumeIntent(core.resumeDeps, v, new Map(), { ...opts(signal, o), claim });
  };

  /** One claim to its end, for work() and resume(); the claim is given back if it is still held after. */
  const settle = async (c: Claim, signal: AbortSignal, index: number): Promise<SendManyItem | undefined> => {
    const j = await core.store.postgres();
    renewer.start(j);
    const id = c.view.id;
    try {
      const outcome = await driveClaim(c, signal);
      const item: SendManyItem = { index, id, ok: true, outcome };
      publish(item);
      return item;
    } catch (e) {
      if (isLeaseLost(e)) {
        core.events.emit('leaseLost', { id });
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

  /** Claim `id` (or wait for the process holding it) and drive it; an ended id answers from the journal. */
  const driveId = async (
    j: PostgresJournal,
    id: string,
    signal: AbortSignal,
    prepared: Prepared | PreparedBundle | undefined,
    o: DriveWith,
    first?: Claim,
  ): Promise<SendOutcome> => {
    for (let c: Claim | IntentStatus | undefined = first; ; c = undefined) {
      c ??= await j.claimId(id, signal);
      if (c && 'takeover' in c) {
        try {
          return await driveClaim(c, signal, prepared, o);
        } catch (e) {
          if (!isLeaseLost(e)) throw e;
          core.events.emit('leaseLost', { id });
        } finally {
          await j.release(id, c.fence);
        }
      } else if (c && isTerminal(c.state)) {
        const r = outcomeFromJournal(c.view);
        if (r instanceof Error) throw r;
        return r;
      }
      // Another process holds it: its end (or its lease lapsing) is a poll away.
      await sleep(Math.max(100, 2 * core.cfg.pollMs), signal).catch(() => {
        throw abortError(ErrorCodes.SENDER_ABORTED, signal, 'send');
      });
    }
  };

  return { renew: renewer.start, exclude: () => [...cannotSign], settle, driveId, stop: renewer.stop };
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
