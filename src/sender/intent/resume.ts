/**
 * Intents the journal holds unfinished or reopened: `resumeIntent` continues one (its signed bytes
 * if it has live ones, else a rebuild from its plan with the signers at hand), `resumeAll` drives
 * every unfinished intent to an end, and `retryIntent` reopens an intent only when its failure
 * proved that nothing of it can land — anything else would be a second payment.
 */
import { BlockhashExpiredError, CairnError, ErrorCodes, InputError } from '../../errors/index.js';
import { toSigner, type Signer, type SignerInput } from '../../solana/index.js';
import type { ResolvedSenderOptions } from '../config.js';
import type { Signed } from './attempt.js';
import type { Inflight } from './inflight.js';
import type { Drive, DriveClaim } from './drive.js';
import type { FileIntentJournal, IntentJournal } from './journal.js';
import { journalFailure } from '../journal/error.js';
import { preparedFromView } from '../journal/plan.js';
import { isTerminal, type IntentView, type JournalRecord } from '../journal/file/journal.js';
import type { PreparedBundle } from '../input/bundle.js';
import type { SendManyItem, SendOutcome } from '../outcome.js';
import { asCairnError } from '../send-many.js';
import type { Prepared } from '../input/prepare.js';
import type { Commitment } from '../client/rpc.js';

export interface ResumeOptions {
  signal?: AbortSignal;
  /** Extra signers for re-signing (added to the sender's). */
  signers?: readonly SignerInput[];
  concurrency?: number;
}

export interface RetryOptions {
  signal?: AbortSignal;
  commitment?: Commitment;
  onExpired?: 'fail' | 'resign';
  signers?: readonly SignerInput[];
}

/** What resuming needs of its sender (`J`: the journal its sender brings, intent/journal.ts). */
export interface ResumeDeps<J extends IntentJournal = IntentJournal> {
  cfg: ResolvedSenderOptions;
  /** The sender's own signers, by address. */
  keyring: ReadonlyMap<string, Signer>;
  inflight: Inflight;
  journal: J;
  drive: Drive;
}

/** Signers by address; `field` names the list in errors. */
export function keyringOf(list: readonly SignerInput[] | undefined, field: string): Map<string, Signer> {
  const ring = new Map<string, Signer>();
  (list ?? []).forEach((s, i) => {
    const k = toSigner(s, `${field}[${i}]`);
    ring.set(k.address, k);
  });
  return ring;
}

/** Continue an intent found unfinished in the journal. */
export function resumeIntent(
  d: ResumeDeps,
  v: IntentView,
  extra: ReadonlyMap<string, Signer>,
  o: { signal?: AbortSignal; commitment?: Commitment; onExpired?: 'fail' | 'resign'; claim?: DriveClaim | undefined },
): Promise<SendOutcome> {
  const ring = new Map([...d.keyring, ...extra]);
  // A single intent's plan or a bundle's plans: what a new signing (none yet, or after a proven expiry) builds from.
  const p = preparedFromView(v, ring);
  const prepared: Prepared | PreparedBundle | undefined = p && 'kind' in p ? p : undefined;
  const from = v.state === 'signed' || v.state === 'landed' ? v.signed : undefined;
  // A fleet claim's records carry its token (drive.ts); a file journal's need none.
  const journal = d.journal.bound(o.claim?.fence);
  return d.inflight.start(
    v.id,
    async (signal) => {
      if (!from && !prepared && v.state !== 'expired') {
        // created but never signed, and nothing to build it from: nothing was ever sent.
        const err = new CairnError(ErrorCodes.SENDER_JOURNAL, `intent ${v.id} was never sent and cannot be rebuilt`, { context: { id: v.id } });
        await journal.record({ op: 'abandoned', id: v.id, at: Date.now(), reason: err.message, ...journalFailure(err) });
        throw err;
      }
      const onExpired = o.onExpired ?? d.cfg.onExpired;
      if (v.state === 'expired' && (onExpired !== 'resign' || !prepared)) {
        const end = v.end as Extract<JournalRecord, { op: 'expired' }>;
        const bundle = end.signatures ? { signatures: end.signatures } : {};
        const err = new BlockhashExpiredError(
          ErrorCodes.SENDER_BLOCKHASH_EXPIRED,
          `${end.signatures ? `bundle ${end.signatures.join(', ')}` : `transaction ${end.signature}`} expired (height ${end.blockHeight} > ${end.lastValidBlockHeight})${prepared ? '' : '; no signer to re-sign'}`,
          { context: { signature: end.signature, lastValidBlockHeight: end.lastValidBlockHeight, blockHeight: end.blockHeight, ...bundle } },
        );
        await journal.record({ op: 'failed', id: v.id, at: Date.now(), signature: end.signature, error: err.message, ...journalFailure(err) });
        throw err;
      }
      return d.drive(v.id, prepared, {
        signal,
        commitment: o.commitment ?? d.cfg.commitment,
        onExpired,
        resumed: true,
        ...(from ? { from: signedOf(from) } : { known: v.signed?.signature }),
        claim: o.claim,
      });
    },
    o.signal,
    o.claim?.fence,
  );
}

/** A journaled signed attempt as bytes to continue: a durable-nonce one has no height that ends it; a bundle's holds every transaction. */
function signedOf(from: NonNullable<IntentView['signed']>): Signed & { attempt: number; bundle?: { wire: Uint8Array; signature: string }[] } {
  const bytes = (b64: string): Uint8Array => new Uint8Array(Buffer.from(b64, 'base64'));
  return {
    wire: bytes(from.wire),
    signature: from.signature,
    lastValidBlockHeight: from.lastValidBlockHeight ?? Number.MAX_SAFE_INTEGER,
    ...(from.nonce ? { nonce: from.nonce } : {}),
    attempt: from.attempt,
    ...(from.bundle ? { bundle: from.bundle.map((t) => ({ signature: t.signature, wire: bytes(t.wire) })) } : {}),
  };
}

/**
 * Throw (an InputError saying why) unless the ended intent `v` may be reopened: its failure proved
 * nothing of it can land — never signed, expired unlanded, or refused by the host — and its plan can
 * be re-signed with the signers in `ring`. Shared by the file journal's and the fleet's `retry`.
 */
export function assertRetryable(v: IntentView, ring: ReadonlyMap<string, Signer>): void {
  const id = v.id;
  const end = v.end as Extract<JournalRecord, { op: 'failed' }> | undefined;
  const retryable =
    end?.op === 'failed' && (end.signature === undefined || end.code === ErrorCodes.SENDER_BLOCKHASH_EXPIRED || end.code === ErrorCodes.SENDER_REJECTED);
  if (!retryable) {
    const what = v.state === 'confirmed' ? 'landed' : end?.op === 'failed' ? `failed with ${end.code ?? 'an error'} after its transaction was sent` : `ended ${v.state}`;
    throw new InputError('id', `intent ${JSON.stringify(id)} ${what}; sending it again would be a second payment: use a new id if that is what you want`);
  }
  const plan = preparedFromView(v, ring);
  if (!plan) throw new InputError('id', `intent ${JSON.stringify(id)} has no plan to rebuild from (signed bytes are not re-signed by cairn)`);
  if ('missing' in plan) throw new InputError('options.signers', `re-signing intent ${JSON.stringify(id)} needs ${plan.missing.join(', ')}: pass them in options.signers or createSender({ signers })`);
}

/** Reopen an intent whose failure proved nothing of it can land (see Sender['retry']). */
export async function retryIntent(d: ResumeDeps<FileIntentJournal>, id: string, options: RetryOptions = {}): Promise<SendOutcome> {
  if (typeof id !== 'string' || id.length === 0) throw new InputError('id', 'expected an intent id');
  const jp = d.journal.open();
  if (!jp) throw new InputError('journal', 'retry() needs a sender created with a journal');
  const joined = d.inflight.get(id);
  if (joined) return joined;
  const j = await jp;
  const v = j.intents().get(id);
  if (!v) throw new InputError('id', `intent ${JSON.stringify(id)} is not in the journal (never sent, or older than its retention)`);
  const commitment = options.commitment ?? d.cfg.commitment;
  const onExpired = options.onExpired ?? d.cfg.onExpired;
  const opts = { ...(options.signal ? { signal: options.signal } : {}), commitment, onExpired };
  if (!isTerminal(v.state)) return resumeIntent(d, v, new Map(), opts);
  const extra = keyringOf(options.signers, 'options.signers');
  assertRetryable(v, new Map([...d.keyring, ...extra]));
  await d.journal.record({ op: 'retried', id, at: Date.now() });
  return resumeIntent(d, v, extra, opts);
}

/** Drive every unfinished intent of the journal to an end, `concurrency` at a time. */
export async function resumeAll(d: ResumeDeps<FileIntentJournal>, o: ResumeOptions = {}): Promise<SendManyItem[]> {
  const jp = d.journal.open();
  if (!jp) throw new InputError('journal', 'resume() needs a sender created with a journal path');
  const j = await jp;
  const extra = keyringOf(o.signers, 'signers');
  const pending = [...j.intents().values()].filter((v) => !isTerminal(v.state) && !d.inflight.get(v.id));
  const concurrency = o.concurrency ?? d.cfg.concurrency;
  const out: SendManyItem[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pending.length) {
      const i = next++;
      const v = pending[i];
      try {
        const outcome = await resumeIntent(d, v, extra, o.signal ? { signal: o.signal } : {});
        out.push({ index: i, id: v.id, ok: true, outcome });
      } catch (e) {
        out.push({ index: i, id: v.id, ok: false, error: asCairnError(e) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
  return out;
}
