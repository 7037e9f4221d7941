/**
 * A bundle's life as ONE intent, under drive.ts's rule: every transaction built and signed (on one
 * blockhash, the tip once, in the last) before any is sent, the whole signed set journaled durably
 * BEFORE it first leaves, the SAME bytes resent until they land or their blockhash expires, and a new
 * signed set only after the old one is proven dead — none of its transactions showed once every
 * one's window had passed. A bundle is all or none, so:
 * - all confirmed: the intent is confirmed, naming every signature and slot;
 * - one failed on chain: it landed (with an error), failed, never signed again;
 * - some landed and the others proven never to (a provider breaking "all or none", or a devnet that
 *   runs a bundle one transaction at a time): `SENDER_BUNDLE_PARTIAL`, reported as it is and never
 *   signed again, since what landed would land twice;
 * - none shows, proven: expired, and with `onExpired: 'resign'` the whole bundle is signed anew.
 * A fleet's drive writes under its claim's token and re-reads the intent before each signing, as a
 * single intent's does.
 */
import { abortError } from '../../abort.js';
import { BlockhashExpiredError, CairnError, ErrorCodes, TransactionFailedError } from '../../errors/index.js';
import type { TrackResult } from '../confirm/tracker.js';
import type { PreparedBundle } from '../input/bundle.js';
import { journalFailure } from '../journal/error.js';
import type { SendOutcome, SendTimings } from '../outcome.js';
import type { Signature } from '../../solana/index.js';
import type { AttemptDeps } from './attempt.js';
import { runBundleAttempt, type SignedBundle } from './bundle-attempt.js';
import type { DriveOptions, IntentDeps } from './drive.js';
import type { IntentJournal } from './journal.js';

const b64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');

/** Drive one bundle intent to an end (`bundle` undefined: continued from signed bytes, with nothing to re-sign from). */
export type BundleDrive = (id: string, bundle: PreparedBundle | undefined, o: DriveOptions) => Promise<SendOutcome>;

export function createBundleDrive(d: IntentDeps): BundleDrive {
  const { cfg, events } = d;

  /** Build and sign every transaction of the bundle; `minHeight` is set after a proven expiry at that height. */
  const signBundle = async (
    journal: IntentJournal,
    id: string,
    bundle: PreparedBundle | undefined,
    signal: AbortSignal,
    minHeight: number | undefined,
    timings: SendTimings,
    beforeSign: (() => Promise<void>) | undefined,
  ): Promise<SignedBundle> => {
    if (!bundle) {
      throw new BlockhashExpiredError(ErrorCodes.SENDER_BLOCKHASH_EXPIRED, `bundle ${id}: cannot re-sign (no plan or signer available)`, {
        context: { signature: '', lastValidBlockHeight: 0, blockHeight: minHeight ?? 0 },
      });
    }
    const t0 = performance.now();
    const txs: SignedBundle['txs'] = [];
    let lastValid = 0;
    try {
      for (let i = 0; i < bundle.plans.length; i++) {
        const mine = new Set(txs.map((t) => t.signature));
        const built = await d.builder.build(bundle.plans[i]!, {
          signal,
          // The tip once, in the last: the bundle tips as one.
          noTip: i < bundle.plans.length - 1,
          // Two identical transactions in one bundle would be one transaction: made distinct as
          // another intent's would be. Owned by this intent fleet-wide like a single intent's.
          claim: async (signature, lastValidBlockHeight) => !mine.has(signature) && (await d.owners.claimShared(id, signature, lastValidBlockHeight)),
          // A new blockhash once, for the first transaction after a proven expiry; the rest share it (cached).
          freshBlockhash: minHeight !== undefined && i === 0,
          ...(minHeight !== undefined ? { minLastValidBlockHeight: minHeight } : {}),
          ...(beforeSign ? { beforeSign } : {}),
        });
        txs.push({ wire: built.wire, signature: built.signature });
        // The latest window of any of them: the bundle is dead only once every one of them is.
        lastValid = Math.max(lastValid, built.lastValidBlockHeight);
      }
    } catch (e) {
      // Nothing was journaled as signed or sent: nothing of this bundle can land, the failure is
      // final (retry(id) reopens a transient one). An abort or a superseded claim is no failure.
      if (signal.aborted || (e instanceof CairnError && e.code === ErrorCodes.SENDER_LEASE_LOST)) throw e;
      const err = e instanceof CairnError ? e : new CairnError(ErrorCodes.SENDER_INVALID_TRANSACTION, `building the bundle failed: ${(e as Error)?.message ?? String(e)}`, { context: { id }, cause: e });
      Object.assign(err.context, { index: txs.length });
      await journal.journaled({ op: 'failed', id, at: Date.now(), error: err.message, ...journalFailure(err) }, { state: minHeight === undefined ? 'created' : 'expired', what: `building transaction ${txs.length} of the bundle failed (${err.code}: ${err.message})` });
      events.emit('failed', { id, error: err });
      throw err;
    }
    timings.buildMs = performance.now() - t0;
    return { txs, lastValidBlockHeight: lastValid };
  };

  /** End the intent in the journal with `err` (its transactions named), tell the listeners, throw it. */
  const fail = async (
    journal: IntentJournal,
    id: string,
    cur: SignedBundle,
    err: CairnError,
    signature: string,
    slot: number | undefined,
    what: string,
  ): Promise<never> => {
    const signatures = cur.txs.map((t) => t.signature);
    await journal.journaled(
      { op: 'failed', id, at: Date.now(), signature, ...(slot !== undefined ? { slot } : {}), error: err.message, ...journalFailure(err) },
      { state: 'failed', signature, ...(slot !== undefined ? { slot } : {}), what },
    );
    events.emit('failed', { id, signature, error: err, signatures });
    throw err;
  };

  /** What the results of one attempt mean for the intent: an outcome, a thrown end, or proven expiry (returned). */
  const judge = async (journal: IntentJournal, id: string, cur: SignedBundle, results: TrackResult[]): Promise<Extract<TrackResult, { kind: 'expired' }> | undefined> => {
    const signatures = cur.txs.map((t) => t.signature);
    const failedAt = results.findIndex((r) => r.kind === 'failed');
    if (failedAt >= 0) {
      const r = results[failedAt] as Extract<TrackResult, { kind: 'failed' }>;
      const signature = signatures[failedAt]!;
      const err = new TransactionFailedError(ErrorCodes.SENDER_TRANSACTION_FAILED, `bundle transaction ${failedAt} (${signature}) failed on chain in slot ${r.slot}: ${safeJson(r.err)}`, {
        context: { signature, err: r.err, slot: r.slot, index: failedAt, signatures },
      });
      return fail(journal, id, cur, err, signature, r.slot, `bundle transaction ${failedAt} failed on chain in slot ${r.slot} (signature ${signature})`);
    }
    const expired = results.filter((r): r is Extract<TrackResult, { kind: 'expired' }> => r.kind === 'expired');
    if (expired.length === 0) return undefined;
    const blockHeight = Math.max(...expired.map((r) => r.blockHeight));
    if (expired.length < results.length) {
      const landed = signatures.filter((_, i) => results[i]!.kind !== 'expired');
      const missing = signatures.filter((_, i) => results[i]!.kind === 'expired');
      const slots = results.flatMap((r) => (r.kind === 'expired' ? [] : [r.slot]));
      const err = new CairnError(
        ErrorCodes.SENDER_BUNDLE_PARTIAL,
        `bundle ${id} landed in part: ${landed.length} of ${signatures.length} transactions landed (${landed.join(', ')}) and ${missing.join(', ')} never did (block height ${blockHeight} passed ${cur.lastValidBlockHeight}); a bundle is all or none, so it is not signed again`,
        { context: { id, signatures, landed, slots, missing, lastValidBlockHeight: cur.lastValidBlockHeight, blockHeight } },
      );
      return fail(journal, id, cur, err, signatures[0]!, undefined, `landed in part (${landed.length} of ${signatures.length})`);
    }
    return { kind: 'expired', lastValidBlockHeight: cur.lastValidBlockHeight, blockHeight };
  };

  /** A proven expiry of the whole bundle: journaled; thrown as final unless it may be signed again. */
  const expired = async (journal: IntentJournal, id: string, cur: SignedBundle, r: Extract<TrackResult, { kind: 'expired' }>, willResign: boolean): Promise<void> => {
    const signatures = cur.txs.map((t) => t.signature);
    const first = signatures[0]!;
    await journal.journaled(
      { op: 'expired', id, at: Date.now(), signature: first, lastValidBlockHeight: r.lastValidBlockHeight, blockHeight: r.blockHeight, signatures },
      { state: 'expired', signature: first, what: `expired unlanded (bundle ${signatures.join(', ')})` },
    );
    d.lives.delete(id);
    events.emit('expired', { id, signature: first, lastValidBlockHeight: r.lastValidBlockHeight, blockHeight: r.blockHeight, willResign, signatures });
    if (willResign) return;
    const err = new BlockhashExpiredError(
      ErrorCodes.SENDER_BLOCKHASH_EXPIRED,
      `bundle ${id} expired: block height ${r.blockHeight} passed its last valid block height ${r.lastValidBlockHeight} and a final status read found none of its ${signatures.length} transactions`,
      { context: { signature: first, lastValidBlockHeight: r.lastValidBlockHeight, blockHeight: r.blockHeight, signatures } },
    );
    await journal.journaled({ op: 'failed', id, at: Date.now(), signature: first, error: err.message, ...journalFailure(err) }, { state: 'expired', signature: first, what: `expired unlanded (bundle ${signatures.join(', ')})` });
    throw err;
  };

  return async (id, bundle, o) => {
    const t0 = performance.now();
    const timings: SendTimings = { buildMs: 0 };
    const from = o.from?.bundle ? o.from : undefined;
    let attempt = from?.attempt ?? 0;
    let current: SignedBundle | undefined = from ? { txs: from.bundle!, lastValidBlockHeight: from.lastValidBlockHeight } : undefined;
    let minHeight: number | undefined;
    let searchHistory = !!o.resumed;
    const journal = d.journal.bound(o.claim?.fence);
    const ad: AttemptDeps = o.claim ? { ...d, journal } : d;
    /** The bundle's latest first signature as this drive knows it: the next signing must find it in the table, proven expired. */
    let known = from?.signature ?? o.known;
    for (;;) {
      if (o.signal.aborted) throw abortError(ErrorCodes.SENDER_ABORTED, o.signal, 'send');
      let fresh = false;
      if (!current) {
        const claim = o.claim;
        const seen = known;
        current = await signBundle(journal, id, bundle, o.signal, minHeight, timings, claim ? () => claim.beforeSign(seen, o.signal) : undefined);
        attempt++;
        const head = current.txs[0]!;
        // Durable BEFORE any byte leaves: after a crash this record names the only live signed set.
        await journal.journaled(
          {
            op: 'signed',
            id,
            at: Date.now(),
            signature: head.signature,
            wire: b64(head.wire),
            lastValidBlockHeight: current.lastValidBlockHeight,
            attempt,
            bundle: current.txs.map((t) => ({ signature: t.signature, wire: b64(t.wire) })),
          },
          { state: minHeight === undefined ? 'created' : 'expired', what: 'signed, not sent' },
        );
        d.lives.set(id, { signature: head.signature, lastValidBlockHeight: current.lastValidBlockHeight, submitted: false });
        fresh = true;
      }
      const cur = current;
      const signatures = cur.txs.map((t) => t.signature);
      known = signatures[0];
      const { results, sends, bundleId } = await runBundleAttempt(ad, {
        id,
        signed: cur,
        attempt,
        fresh,
        resumed: !!o.resumed,
        searchHistory,
        commitment: o.commitment,
        signal: o.signal,
        t0,
        timings,
      });
      const dead = await judge(journal, id, cur, results);
      if (!dead) {
        const slots = results.map((r) => (r as Extract<TrackResult, { kind: 'confirmed' }>).slot);
        const commitment = (results[0] as Extract<TrackResult, { kind: 'confirmed' }>).commitment;
        timings.confirmedMs = performance.now() - t0;
        await journal.journaled(
          { op: 'confirmed', id, at: Date.now(), signature: signatures[0]!, slot: slots[0]!, commitment, bundle: { bundleId, signatures, slots } },
          { state: 'confirmed', signature: signatures[0]!, slot: slots[0]!, what: `landed and ${commitment} (bundle ${signatures.join(', ')} in slots ${slots.join(', ')})` },
        );
        events.emit('confirmed', { id, signature: signatures[0]!, slot: slots[0]!, commitment, signatures });
        return {
          id,
          signature: signatures[0]! as Signature,
          slot: slots[0]!,
          commitment,
          attempts: attempt,
          sends,
          timings,
          bundle: { bundleId, signatures: signatures as Signature[], slots },
        };
      }
      // Proven: none of the bundle showed after every window passed.
      await expired(journal, id, cur, dead, o.onExpired === 'resign' && bundle !== undefined && attempt <= cfg.maxResigns);
      current = undefined;
      minHeight = dead.blockHeight;
      searchHistory = false;
    }
  };
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  } catch {
    return String(v);
  }
}
