/**
 * One signed bundle on the wire, as attempt.ts is one signed transaction: submit it through `/fast`
 * `sendBundle` (when fresh, or resumed from an earlier process), resend the SAME bytes by slot until
 * one of its transactions shows up (rebroadcast.ts), and track every transaction to its result. The
 * bundle's transactions are tracked up to the latest last valid block height among them, so none is
 * called expired while it could still land.
 */
import { linkSignals } from '../../abort.js';
import { CairnError, ErrorCodes } from '../../errors/index.js';
import { resendAtOnce, submitBundleOnce, type BundleRpc } from '../client/submit.js';
import type { TrackResult } from '../confirm/tracker.js';
import { journalFailure } from '../journal/error.js';
import type { AttemptDeps, AttemptRequest } from './attempt.js';
import { startRebroadcasts } from './rebroadcast.js';

/** A bundle's signed transactions, in order, and the height past which none of them can land. */
export interface SignedBundle {
  txs: { wire: Uint8Array; signature: string }[];
  lastValidBlockHeight: number;
}

export interface BundleAttemptRequest extends Omit<AttemptRequest, 'signed'> {
  signed: SignedBundle;
}

/** Every transaction's result (in bundle order), the submits of these bytes, and the last id `/fast` answered. */
export interface BundleAttemptResult {
  results: TrackResult[];
  sends: number;
  bundleId: string;
}

/** Submit, rebroadcast and track one signed bundle to the result of each of its transactions. */
export async function runBundleAttempt(d: AttemptDeps, a: BundleAttemptRequest): Promise<BundleAttemptResult> {
  const { id, signed, timings } = a;
  const wires = signed.txs.map((t) => t.wire);
  const signatures = signed.txs.map((t) => t.signature);
  const first = signatures[0]!;
  let sends = 0;
  let landed = false;
  /** One of the bundle showed, its slot maybe not read yet. */
  let seenAny = false;
  let bundleId = '';
  const rb = linkSignals(a.signal);
  const submit = async (signal: AbortSignal): Promise<void> => {
    d.touch();
    const live = d.lives.get(id);
    if (live) live.submitted = true;
    // as for one transaction (attempt.ts): a transient failure is followed by the same bundle once more at once
    for (let again = false; ; again = true) {
      d.counters.submits++;
      sends++;
      const r = await submitBundleOnce(d.rpc as BundleRpc, wires, signal);
      if (r.ok) return void (bundleId = r.bundleId);
      if (r.fatal) throw r.error;
      if (again || !resendAtOnce(r.error)) return;
    }
  };
  // Subscribed before the bytes leave: the first notifications then name the slot that holds them.
  const cancels = a.fresh ? signatures.map((s) => d.tracker.prewatch(s, a.commitment)) : [];
  const cancelWatch = (): void => cancels.forEach((c) => c());
  if (a.fresh || a.resumed) {
    try {
      await submit(a.signal);
    } catch (e) {
      // As for one transaction (attempt.ts): a refusal of bytes never sent before is final; bytes an
      // earlier process already sent may have landed whatever the host says now.
      const refused = e instanceof CairnError && e.code === ErrorCodes.SENDER_REJECTED;
      if (!refused || a.fresh) {
        rb.release();
        cancelWatch();
      }
      if (!refused) throw e;
      if (a.fresh) {
        Object.assign(e.context, { signature: first, signatures });
        await d.journal.journaled(
          { op: 'failed', id, at: Date.now(), signature: first, error: e.message, ...journalFailure(e) },
          { state: 'failed', signature: first, what: 'the host refused the bundle' },
        );
        d.events.emit('failed', { id, signature: first, error: e, signatures });
        throw e;
      }
    }
    timings.firstSubmitMs ??= performance.now() - a.t0;
    d.events.emit('sent', { id, signature: first, attempt: a.attempt, signatures });
  }
  const stopRebroadcasts = startRebroadcasts({
    tracker: d.tracker,
    cfg: d.cfg,
    counters: d.counters,
    signal: rb.signal,
    landed: () => landed || seenAny,
    ready: () => signatures.every((s) => d.tracker.ready(s)),
    submit,
    onResent: () => d.events.emit('rebroadcast', { id, signature: first, count: sends - 1 }),
  });
  try {
    const results = await Promise.all(
      signatures.map((signature) =>
        d.tracker.track({
          signature,
          lastValidBlockHeight: signed.lastValidBlockHeight,
          commitment: a.commitment,
          searchHistory: a.searchHistory,
          signal: a.signal,
          // one of the bundle landed (its slot maybe not read yet): the bundle is on chain, resending is pointless
          onSeen: () => void (seenAny = true),
          onLanded: (slot) => {
            // The first of the bundle to show: the bundle is on chain, rebroadcasts stop.
            if (landed) return;
            landed = true;
            timings.landedMs = performance.now() - a.t0;
            d.events.emit('landed', { id, signature, slot });
            void d.journal.record({ op: 'landed', id, at: Date.now(), signature, slot }).catch(() => undefined);
          },
        }),
      ),
    );
    return { results, sends, bundleId };
  } finally {
    cancelWatch();
    stopRebroadcasts();
    rb.abort(new Error('the track ended'));
    rb.release();
  }
}
