/**
 * `sender.sendBundle([...])`: up to 5 transactions built by cairn on one blockhash — a compute-unit
 * price in each, the tip once, in the last — sent through `/fast` `sendBundle` (all or none, as
 * Sender Max bundles are) and confirmed as one: it resolves when every transaction reached the
 * commitment, fails if one failed on chain or the blockhash expired with one missing. The whole
 * bundle is resent (same bytes) per slot for the first few slots without a sign of landing, then
 * less often, as single sends are (intent/attempt.ts).
 *
 * Bundles are not journaled yet: a sender with a journal (file or PostgreSQL) refuses them with an
 * InputError naming `journal`, rather than send something a crash could send twice.
 */
import { linkSignals } from '../abort.js';
import { BlockhashExpiredError, CairnError, ErrorCodes, InputError, TransactionFailedError } from '../errors/index.js';
import { EARLY_REBROADCASTS } from './intent/rebroadcast.js';
import type { Builder } from './build/builder.js';
import type { ResolvedSenderOptions } from './config.js';
import type { Tracker, TrackResult } from './confirm/tracker.js';
import { prepareInput, type SendInput } from './input/prepare.js';
import type { Commitment, SenderRpc } from './client/rpc.js';
import { isRejection } from './client/submit.js';

/** A Sender bundle holds at most this many transactions. */
export const MAX_BUNDLE_TRANSACTIONS = 5;

export interface BundleOptions {
  signal?: AbortSignal | undefined;
  commitment?: Commitment | undefined;
}

export interface BundleOutcome {
  /** What `/fast` answered for the bundle. */
  bundleId: string;
  /** Each transaction's signature, in bundle order. */
  signatures: string[];
  /** The slot each transaction landed in. */
  slots: number[];
  commitment: Commitment;
  /** Bundle submissions: the first plus rebroadcasts. */
  sends: number;
  timings: { buildMs: number; firstSubmitMs: number; confirmedMs: number };
}

export interface BundleDeps {
  rpc: SenderRpc;
  cfg: ResolvedSenderOptions;
  builder: Builder;
  tracker: Tracker;
  counters: { submits: number; rebroadcasts: number };
  life: AbortSignal;
}

type BundleRpc = SenderRpc & { sendBundle?: (wires: Uint8Array[], opts?: { signal?: AbortSignal }) => Promise<string> };

/** Send `inputs` as one bundle and wait for all of it. */
export async function sendBundleOf(d: BundleDeps, inputs: readonly SendInput[], o: BundleOptions = {}): Promise<BundleOutcome> {
  if (d.cfg.journal || d.cfg.postgres) {
    throw new InputError('journal', 'bundles are not journaled yet: send them from a sender without a journal (a crash could otherwise send a bundle twice)');
  }
  const rpc = d.rpc as BundleRpc;
  if (typeof rpc.sendBundle !== 'function') throw new InputError('client', 'sendBundle needs a client with sendBundle (cairn\'s createClient)');
  if (!Array.isArray(inputs) || inputs.length < 1 || inputs.length > MAX_BUNDLE_TRANSACTIONS) {
    throw new InputError('inputs', `expected an array of 1..${MAX_BUNDLE_TRANSACTIONS} transactions, got ${Array.isArray(inputs) ? inputs.length : typeof inputs}`);
  }
  const plans = inputs.map((input, i) => {
    const p = prepareInput(input, d.cfg);
    // cairn builds every transaction of a bundle: that is how the tip goes in once, on one blockhash
    if (p.kind !== 'plan') throw new InputError(`inputs[${i}]`, 'a bundle takes { instructions, payer } (cairn builds it: a CU price in each, the tip once, one blockhash), not signed bytes');
    if (p.nonce) throw new InputError(`inputs[${i}].nonce`, 'a bundle lives on one recent blockhash; durable nonces are not taken');
    return p;
  });
  const commitment = o.commitment ?? d.cfg.commitment;
  const link = linkSignals(o.signal, d.life);
  const signal = link.signal;
  const t0 = performance.now();
  const cancels: (() => void)[] = [];
  let rebroadcast: ReturnType<typeof setInterval> | undefined;
  let offSlot = (): void => undefined;
  try {
    const built = [];
    for (let i = 0; i < plans.length; i++) built.push(await d.builder.build(plans[i]!, { signal, noTip: i < plans.length - 1 }));
    const lastValidBlockHeight = Math.min(...built.map((b) => b.lastValidBlockHeight));
    const wires = built.map((b) => b.wire);
    const signatures = built.map((b) => b.signature);
    const buildMs = performance.now() - t0;
    for (const s of signatures) cancels.push(d.tracker.prewatch(s, commitment));
    let sends = 0;
    let bundleId = '';
    const submit = async (s: AbortSignal): Promise<void> => {
      sends++;
      d.counters.submits++;
      bundleId = await rpc.sendBundle!(wires, { signal: s });
    };
    try {
      await submit(signal);
    } catch (e) {
      if (signal.aborted) throw e;
      if (isRejection(e)) throw new CairnError(ErrorCodes.SENDER_REJECTED, `/fast refused the bundle: ${(e as Error).message}`, { context: { host: (e as Error).message }, cause: e });
      // not answered: it may have arrived; the rebroadcasts and the tracker decide
    }
    const firstSubmitMs = performance.now() - t0;
    // Rebroadcast the whole bundle until one of its transactions shows up, as single sends do.
    let landed = false;
    let submitting = false;
    let lastAt = Date.now();
    let answeredAt = d.tracker.slot;
    let early = 0;
    let gap = d.cfg.rebroadcastSlots;
    const resend = (): void => {
      if (landed || submitting || signal.aborted) return;
      submitting = true;
      d.counters.rebroadcasts++;
      submit(signal)
        .catch(() => undefined)
        .finally(() => {
          submitting = false;
          lastAt = Date.now();
          answeredAt = d.tracker.slot;
        });
    };
    rebroadcast = setInterval(() => {
      if (Date.now() - lastAt >= d.cfg.rebroadcastMs * 0.9) resend();
    }, d.cfg.rebroadcastMs);
    offSlot = d.tracker.onSlot((slot) => {
      if (landed || submitting) return;
      if (answeredAt === undefined) return void (answeredAt = slot);
      if (slot - answeredAt < gap) return;
      if (++early > EARLY_REBROADCASTS) gap *= 2;
      resend();
    });
    const results: TrackResult[] = await Promise.all(
      signatures.map((signature) => d.tracker.track({ signature, lastValidBlockHeight, commitment, signal, onLanded: () => void (landed = true) })),
    );
    for (let i = 0; i < results.length; i++) {
      const r = results[i]!;
      if (r.kind === 'failed') {
        throw new TransactionFailedError(ErrorCodes.SENDER_TRANSACTION_FAILED, `bundle transaction ${i} (${signatures[i]}) failed on chain: ${JSON.stringify(r.err)}`, { context: { signature: signatures[i]!, err: r.err, slot: r.slot } });
      }
      if (r.kind === 'expired') {
        throw new BlockhashExpiredError(ErrorCodes.SENDER_BLOCKHASH_EXPIRED, `bundle transaction ${i} (${signatures[i]}) never landed: block height ${r.blockHeight} passed ${r.lastValidBlockHeight}`, {
          context: { signature: signatures[i]!, lastValidBlockHeight: r.lastValidBlockHeight, blockHeight: r.blockHeight },
        });
      }
    }
    return {
      bundleId,
      signatures,
      slots: results.map((r) => (r.kind === 'confirmed' ? r.slot : 0)),
      commitment,
      sends,
      timings: { buildMs, firstSubmitMs, confirmedMs: performance.now() - t0 },
    };
  } finally {
    for (const c of cancels) c();
    if (rebroadcast) clearInterval(rebroadcast);
    offSlot();
    link.abort(new Error('the bundle ended'));
    link.release();
  }
}
