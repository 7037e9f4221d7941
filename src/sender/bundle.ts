/**
 * `sender.sendBundle([...])`: up to 5 transactions built by cairn on one blockhash — a compute-unit
 * price in each, the tip once, in the last — sent through `/fast` `sendBundle` (all or none, as
 * Sender Max bundles are) and confirmed as one. A bundle is ONE intent: one id, an idempotency key
 * over its whole content (every transaction's instructions and payer, in order), one signed record
 * holding every transaction's bytes, journaled before the first submission like a single intent's,
 * the same bytes resent until all land or their blockhash expires, and a new signed set only after
 * that expiry is proven (intent/bundle-drive.ts). Each kind of sender offers it as it offers `send`:
 * the single-process one on its file journal (or none), the fleet through its table.
 *
 * Here: what the caller passes and gets back, and the outcome of a bundle intent read as one.
 */
import { CairnError, ErrorCodes, InputError } from '../errors/index.js';
import type { Signature } from '../solana/index.js';
import type { BundleRpc } from './client/submit.js';
import type { Commitment, SenderRpc } from './client/rpc.js';
import type { SendOutcome } from './outcome.js';

export { MAX_BUNDLE_TRANSACTIONS } from './input/bundle.js';

export interface BundleOptions {
  /** Idempotency key of the whole bundle (default: a random UUID): offered again, it joins or answers the first. */
  id?: string | undefined;
  signal?: AbortSignal | undefined;
  commitment?: Commitment | undefined;
  /** When none of the bundle landed before its blockhash expired (proven): fail, or sign the whole bundle anew. */
  onExpired?: 'fail' | 'resign' | undefined;
}

export interface BundleOutcome {
  /** The bundle's intent id. */
  id: string;
  /** What `/fast` answered for the bundle ('' when no answer came, e.g. an outcome read back from the journal after a crash). */
  bundleId: string;
  /** Each transaction's signature, in bundle order. */
  signatures: Signature[];
  /** The slot each transaction landed in. */
  slots: number[];
  commitment: Commitment;
  /** Signed versions of the bundle (1, or more after re-signing an expired one). */
  attempts: number;
  /** Bundle submissions of the final signed set: the first plus rebroadcasts. */
  sends: number;
  timings: { buildMs: number; firstSubmitMs: number; confirmedMs: number };
  /** True when the outcome was read back from the journal (sent by an earlier process or call). */
  fromJournal?: boolean;
}

/** Throw unless the sender's client can send bundles (cairn's `createClient` can). */
export function assertBundleClient(rpc: SenderRpc): void {
  if (typeof (rpc as BundleRpc).sendBundle !== 'function') throw new InputError('client', "sendBundle needs a client with sendBundle (cairn's createClient)");
}

/** A bundle intent's outcome as `sendBundle` answers it. */
export function bundleOutcomeOf(o: SendOutcome): BundleOutcome {
  if (!o.bundle) {
    throw new CairnError(ErrorCodes.SENDER_ID_CONFLICT, `intent ${JSON.stringify(o.id)} is one transaction, not a bundle`, { context: { id: o.id, field: 'id', part: 'id (a single transaction)' } });
  }
  return {
    id: o.id,
    bundleId: o.bundle.bundleId,
    signatures: o.bundle.signatures,
    slots: o.bundle.slots,
    commitment: o.commitment,
    attempts: o.attempts,
    sends: o.sends,
    timings: { buildMs: o.timings.buildMs, firstSubmitMs: o.timings.firstSubmitMs ?? 0, confirmedMs: o.timings.confirmedMs ?? 0 },
    ...(o.fromJournal ? { fromJournal: true } : {}),
  };
}
