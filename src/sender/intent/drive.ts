/**
 * An intent's life: sign (or take the caller's signed bytes), journal the signed bytes durably
 * BEFORE they first leave, run the attempt (attempt.ts: submit, rebroadcast, track), and end it in
 * the journal as confirmed, failed on chain or — proven — expired. Only after a proven expiry may
 * the intent be signed again (`onExpired: 'resign'`), so it never has two live signatures and never
 * lands twice. A durable-nonce intent's bytes have no window: they are proven dead only once their
 * nonce account moved past the signed value (confirm/tracker.ts), and re-signing takes the new value. A
 * build failure is final in the journal (nothing was signed, so nothing can land); journal write
 * failures reach the caller through `journalWriteError`, saying what is true.
 * In a fleet a drive belongs to the claim it began under (`DriveOptions.claim`): every record it
 * writes carries that claim's fencing token, and before each signing it re-reads the intent under
 * that token, so it never signs for an intent another process has signed since it began.
 */
import { abortError, sleep } from '../../abort.js';
import { BlockhashExpiredError, CairnError, ErrorCodes, TransactionFailedError } from '../../errors/index.js';
import { runAttempt, type AttemptDeps, type Signed } from './attempt.js';
import { failureHint } from './failure-hint.js';
import type { Builder } from '../build/builder.js';
import type { IntentJournal } from './journal.js';
import type { TrackResult } from '../confirm/tracker.js';
import { journalFailure } from '../journal/error.js';
import type { SendOutcome, SendTimings } from '../outcome.js';
import type { Prepared } from '../input/prepare.js';
import type { Commitment } from '../client/rpc.js';
import type { SignatureOwners } from './signature-owners.js';
import { createBundleDrive } from './bundle-drive.js';
import type { PreparedBundle } from '../input/bundle.js';
import type { Signature } from '../../solana/index.js';

export interface IntentDeps extends AttemptDeps {
  builder: Builder;
  owners: SignatureOwners;
}

export interface DriveOptions {
  signal: AbortSignal;
  commitment: Commitment;
  onExpired: 'fail' | 'resign';
  /** A signed attempt found in the journal, to continue rather than sign anew (a bundle's: every transaction, in order). */
  from?: Signed & { attempt: number; bundle?: { wire: Uint8Array; signature: string }[] };
  /** Continued from the journal (its bytes may have been sent by an earlier process). */
  resumed?: boolean;
  /** The fleet claim this drive runs under (absent without a PostgreSQL journal). */
  claim?: DriveClaim | undefined;
  /** The intent's latest signature when the drive began without `from` (one proven expired), if any. */
  known?: string | undefined;
}

/** A fleet claim as a drive sees it: the token its records carry, and the re-read before signing. */
export interface DriveClaim {
  fence: number;
  /** Resolves only while the claim is still the intent's and its latest signature is `known`, proven expired (journal/postgres/signable.ts). */
  beforeSign(known: string | undefined, signal: AbortSignal): Promise<void>;
}

/** Drive one intent to an end: a single transaction, or a bundle (bundle-drive.ts). */
export type Drive = (id: string, prepared: Prepared | PreparedBundle | undefined, o: DriveOptions) => Promise<SendOutcome>;

const b64 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');

export function createDrive(d: IntentDeps): Drive {
  const { cfg, events } = d;

  /** The next signed version of the intent; `minHeight` is set after a proven expiry at that height. */
  const signNext = async (
    journal: IntentJournal,
    id: string,
    prepared: Prepared | undefined,
    signal: AbortSignal,
    minHeight: number | undefined,
    timings: SendTimings,
    staleNonce: string | undefined,
    beforeSign: (() => Promise<void>) | undefined,
  ): Promise<Signed> => {
    if (!prepared) {
      throw new BlockhashExpiredError(ErrorCodes.SENDER_BLOCKHASH_EXPIRED, `intent ${id}: cannot re-sign (no plan or signer available)`, {
        context: { signature: '', lastValidBlockHeight: 0, blockHeight: minHeight ?? 0 },
      });
    }
    if (prepared.kind === 'wire') {
      let lvbh: number;
      try {
        lvbh = await wireLastValid(prepared.recentBlockhash, prepared.lastValidBlockHeight, signal);
      } catch (e) {
        // Not sent by cairn: the caller still holds the bytes, and nothing here can send them later.
        if (signal.aborted || !(e instanceof CairnError)) throw e;
        await journal.journaled({ op: 'failed', id, at: Date.now(), error: e.message, ...journalFailure(e) }, { state: 'created', what: `reading the blockhash's expiry failed (${e.code})` });
        throw e;
      }
      return { wire: prepared.wire, signature: prepared.signature, lastValidBlockHeight: lvbh };
    }
    try {
      const built = await d.builder.build(prepared, {
        signal,
        // Fleet-wide with a PostgreSQL journal (one round trip, shared by a burst); in memory otherwise.
        claim: (signature, lastValid) => d.owners.claimShared(id, signature, lastValid),
        freshBlockhash: minHeight !== undefined,
        ...(minHeight !== undefined ? { minLastValidBlockHeight: minHeight } : {}),
        ...(staleNonce !== undefined ? { staleNonce } : {}),
        ...(beforeSign ? { beforeSign } : {}),
      });
      timings.buildMs = built.buildMs;
      return { wire: built.wire, signature: built.signature, lastValidBlockHeight: built.lastValidBlockHeight, ...(built.nonce ? { nonce: built.nonce } : {}) };
    } catch (e) {
      // Nothing was signed or sent, so nothing of this attempt can land: the failure is final,
      // in the journal as for the caller (a transient one can be reopened with retry(id)).
      // An abort is not a failure: the intent stays as it is and resume() finishes it.
      // Neither is a claim superseded before signing: the intent is another claim's now.
      if (signal.aborted || (e instanceof CairnError && e.code === ErrorCodes.SENDER_LEASE_LOST)) throw e;
      const err = e instanceof CairnError ? e : new CairnError(ErrorCodes.SENDER_INVALID_TRANSACTION, `building the transaction failed: ${(e as Error)?.message ?? String(e)}`, { context: { id }, cause: e });
      await journal.journaled({ op: 'failed', id, at: Date.now(), error: err.message, ...journalFailure(err) }, { state: minHeight === undefined ? 'created' : 'expired', what: `building failed (${err.code}: ${err.message})` });
      events.emit('failed', { id, error: err });
      throw err;
    }
  };

  /** The last valid height of signed bytes: given, the cached blockhash's, or the longest possible. */
  const wireLastValid = async (recentBlockhash: string, given: number | undefined, signal: AbortSignal): Promise<number> => {
    if (given !== undefined) return given;
    const latest = await d.builder.blockhash(signal);
    if (latest.blockhash === recentBlockhash) return latest.lastValidBlockHeight;
    // Unknown blockhash age: assume the longest possible life, so expiry is never declared early.
    const height = await d.rpc.getBlockHeight(undefined, { signal });
    return height + 151;
  };

  /** A landed, failed transaction: journaled as failed (with its logs when asked for), then thrown. */
  const failedOnChain = async (journal: IntentJournal, id: string, cur: Signed, result: Extract<TrackResult, { kind: 'failed' }>, signal: AbortSignal): Promise<never> => {
    let logs: string[] | undefined;
    if (cfg.fetchLogs) {
      // getTransaction has no 'processed' view: a failure seen at processed may need a slot.
      for (let i = 0; i < 3 && !logs; i++) {
        try {
          logs = logMessagesOf(await d.rpc.getTransaction(cur.signature, { commitment: 'confirmed' }, { signal }));
        } catch {
          /* logs are a courtesy: the failure itself is certain */
        }
        if (!logs && i < 2) await sleep(cfg.pollMs, signal);
      }
    }
    const err = new TransactionFailedError(
      ErrorCodes.SENDER_TRANSACTION_FAILED,
      `transaction ${cur.signature} failed on chain in slot ${result.slot}: ${safeJson(result.err)}${failureHint(result.err, cur.wire)}`,
      { context: { signature: cur.signature, err: result.err, slot: result.slot, ...(logs ? { logs } : {}) } },
    );
    await journal.journaled(
      { op: 'failed', id, at: Date.now(), signature: cur.signature, slot: result.slot, error: err.message, ...journalFailure(err) },
      { state: 'failed', signature: cur.signature, slot: result.slot, what: `failed on chain in slot ${result.slot} (signature ${cur.signature})` },
    );
    events.emit('failed', { id, signature: cur.signature, error: err });
    throw err;
  };

  /** A proven expiry: journaled; thrown as final unless the intent may be signed again. */
  const expired = async (journal: IntentJournal, id: string, cur: Signed, result: Extract<TrackResult, { kind: 'expired' }>, willResign: boolean): Promise<void> => {
    await journal.journaled(
      { op: 'expired', id, at: Date.now(), signature: cur.signature, lastValidBlockHeight: result.lastValidBlockHeight, blockHeight: result.blockHeight, ...(result.nonce ? { nonce: result.nonce } : {}) },
      { state: 'expired', signature: cur.signature, what: `expired unlanded (signature ${cur.signature})` },
    );
    d.lives.delete(id);
    events.emit('expired', { id, signature: cur.signature, lastValidBlockHeight: result.lastValidBlockHeight, blockHeight: result.blockHeight, willResign });
    if (willResign) return;
    const n = result.nonce;
    const err = new BlockhashExpiredError(
      ErrorCodes.SENDER_BLOCKHASH_EXPIRED,
      n
        ? `transaction ${cur.signature} expired: its nonce account ${n.account} moved past ${n.value} (now ${n.now ?? 'no nonce'}) at block height ${result.blockHeight} and a final status read found nothing`
        : `transaction ${cur.signature} expired: block height ${result.blockHeight} passed its last valid block height ${result.lastValidBlockHeight} and a final status read found nothing`,
      { context: { signature: cur.signature, lastValidBlockHeight: result.lastValidBlockHeight, blockHeight: result.blockHeight, ...(n ? { nonce: n } : {}) } },
    );
    await journal.journaled(
      { op: 'failed', id, at: Date.now(), signature: cur.signature, error: err.message, ...journalFailure(err) },
      { state: 'expired', signature: cur.signature, what: `expired unlanded (signature ${cur.signature})` },
    );
    throw err;
  };

  const bundleDrive = createBundleDrive(d);

  return async (id, input, o) => {
    // The websocket connects and announces slots while this intent builds: its signature
    // subscriptions then reach the server before its bytes can land (exact slots, no extra poll).
    d.tracker.warm();
    // A bundle is one intent with a life of its own (bundle-drive.ts): all its transactions or none.
    if (input?.kind === 'bundle' || o.from?.bundle) return bundleDrive(id, input?.kind === 'bundle' ? input : undefined, o);
    const prepared = input;
    const t0 = performance.now();
    const timings: SendTimings = { buildMs: 0 };
    let attempt = o.from?.attempt ?? 0;
    let current: Signed | undefined = o.from;
    let minHeight: number | undefined;
    /** The nonce value of the attempt proven dead: the next one never signs with it. */
    let staleNonce: string | undefined;
    let searchHistory = !!o.resumed;
    // Every record of this drive carries the token of the claim it began under (a fleet's; none otherwise).
    const journal = d.journal.bound(o.claim?.fence);
    const ad: AttemptDeps = o.claim ? { ...d, journal } : d;
    /** The intent's latest signature as this drive knows it: the next signing must find it in the table, proven expired. */
    let known = o.from?.signature ?? o.known;
    for (;;) {
      if (o.signal.aborted) throw abortError(ErrorCodes.SENDER_ABORTED, o.signal, 'send');
      let fresh = false;
      if (!current) {
        const claim = o.claim;
        const seen = known;
        current = await signNext(journal, id, prepared, o.signal, minHeight, timings, staleNonce, claim ? () => claim.beforeSign(seen, o.signal) : undefined);
        attempt++;
        // Durable BEFORE the bytes leave: after a crash this record names the only live signature.
        // When the journal cannot store it, the bytes are never sent.
        await journal.journaled(
          {
            op: 'signed',
            id,
            at: Date.now(),
            signature: current.signature,
            wire: b64(current.wire),
            // A durable-nonce attempt has no window: its record names the nonce instead.
            ...(current.nonce ? { nonce: current.nonce } : { lastValidBlockHeight: current.lastValidBlockHeight }),
            attempt,
          },
          { state: minHeight === undefined ? 'created' : 'expired', what: 'signed, not sent' },
        );
        d.lives.set(id, {
          signature: current.signature,
          ...(current.nonce ? { nonce: current.nonce } : { lastValidBlockHeight: current.lastValidBlockHeight }),
          submitted: false,
        });
        fresh = true;
      }
      const cur = current;
      known = cur.signature;
      const { result, sends } = await runAttempt(ad, {
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
      if (result.kind === 'confirmed') {
        timings.confirmedMs = performance.now() - t0;
        await journal.journaled(
          { op: 'confirmed', id, at: Date.now(), signature: cur.signature, slot: result.slot, commitment: result.commitment },
          { state: 'confirmed', signature: cur.signature, slot: result.slot, what: `landed and ${result.commitment} in slot ${result.slot} (signature ${cur.signature})` },
        );
        events.emit('confirmed', { id, signature: cur.signature, slot: result.slot, commitment: result.commitment });
        return { id, signature: cur.signature as Signature, slot: result.slot, commitment: result.commitment, attempts: attempt, sends, timings };
      }
      if (result.kind === 'failed') return failedOnChain(journal, id, cur, result, o.signal);
      // Proven expired: the final status read after the height passed found nothing.
      await expired(journal, id, cur, result, o.onExpired === 'resign' && prepared?.kind === 'plan' && attempt <= cfg.maxResigns);
      staleNonce = cur.nonce?.value;
      current = undefined;
      minHeight = result.blockHeight;
      searchHistory = false;
    }
  };
}

/** A transaction's log lines: the client checks `meta` is an object (or null), not what it holds. */
function logMessagesOf(tx: Record<string, unknown> | null): string[] | undefined {
  const meta = tx?.meta as { logMessages?: unknown } | null | undefined;
  return Array.isArray(meta?.logMessages) ? (meta.logMessages as string[]) : undefined;
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  } catch {
    return String(v);
  }
}
