/**
 * The journal's record model: what each state change of an intent stores, and how records fold into
 * one view per intent. Pure data and functions: the file, its lock and its compaction live beside.
 */
import { existsSync, readFileSync } from 'node:fs';
import { CairnError, ErrorCodes } from '../../errors/index.js';
import type { IntentKey } from '../intent/key.js';

export type IntentState = 'created' | 'signed' | 'landed' | 'confirmed' | 'failed' | 'expired' | 'abandoned';

/** A serialisable plan to rebuild the transaction (only for instruction inputs; never secrets). */
export interface JournalPlan {
  payer: string;
  version: 'legacy' | 0;
  instructions: { programId: string; keys: [string, boolean, boolean][]; data: string }[];
  lookupTables?: { key: string; addresses: string[] }[];
  /** A durable-nonce intent: the nonce account it advances and the authority that signs the advance. */
  nonce?: { account: string; authority: string };
}

/**
 * The durable nonce signed bytes carry instead of a recent blockhash: they stay valid until the
 * account's value moves past `value` — no block height ends them.
 */
export interface NonceRef {
  account: string;
  value: string;
}

/** One signed transaction of a bundle, as the journal stores it. */
export interface BundleTransaction {
  signature: string;
  /** The signed bytes, base64. */
  wire: string;
}

/** How a bundle ended confirmed: every transaction's signature and slot, in order, and the id `/fast` gave it. */
export interface BundleEnd {
  bundleId: string;
  signatures: string[];
  slots: number[];
}

export type JournalRecord =
  // `key`: what the id stands for (intent/key.ts), so the id offered with other content is refused.
  // A bundle (sender.sendBundle) has `plans`, one per transaction in order, and no `plan`.
  | { op: 'created'; id: string; at: number; plan?: JournalPlan; plans?: JournalPlan[]; key?: IntentKey }
  // A durable-nonce transaction has `nonce` and no `lastValidBlockHeight`: only the nonce moving ends it.
  // A bundle's record holds every transaction (`bundle`, in order), all signed before any is sent;
  // `signature` and `wire` are its first's, which names the signed set as a single intent's signature does.
  | { op: 'signed'; id: string; at: number; signature: string; wire: string; lastValidBlockHeight?: number; nonce?: NonceRef; attempt: number; bundle?: BundleTransaction[] }
  | { op: 'landed'; id: string; at: number; signature: string; slot: number }
  // A bundle's `signature` and `slot` are its first transaction's; `bundle` has them all.
  | { op: 'confirmed'; id: string; at: number; signature: string; slot: number; commitment: string; bundle?: BundleEnd }
  // `code` and `context` of the error that ended the intent (absent in records written before they existed)
  | { op: 'failed'; id: string; at: number; signature?: string; slot?: number; error: string; code?: string; context?: Record<string, unknown> }
  // For a nonce transaction: `nonce` says the value moved (`now`, null when the account is gone), and
  // `lastValidBlockHeight` is the last height at which the account was seen still holding the signed value.
  // A bundle is proven expired only when none of its transactions shows (`signatures`: all of them).
  | { op: 'expired'; id: string; at: number; signature: string; lastValidBlockHeight: number; blockHeight: number; nonce?: NonceRef & { now: string | null }; signatures?: string[] }
  | { op: 'abandoned'; id: string; at: number; reason: string; code?: string; context?: Record<string, unknown> }
  // `retry(id)` reopened an intent whose failure proved nothing of it can land (never signed, or expired)
  | { op: 'retried'; id: string; at: number };

/** What the journal knows about one intent after folding its records. */
export interface IntentView {
  id: string;
  state: IntentState;
  plan?: JournalPlan;
  /** A bundle's plans, one per transaction in order (dropped once it is confirmed, as `plan` is). */
  plans?: JournalPlan[];
  /** The content its id stands for (kept after the plan is dropped; absent in journals older than keys). */
  key?: IntentKey;
  /** Latest signed attempt (the only possibly live signature). */
  signed?: { signature: string; wire: string; lastValidBlockHeight?: number; nonce?: NonceRef; attempt: number; bundle?: BundleTransaction[] };
  /** Final record when the intent ended. */
  end?: JournalRecord;
  attempts: number;
  /** When the intent's first record was written (ms since the epoch). */
  createdAt?: number;
  /** Slot of the first status seen for the live signature. */
  landedSlot?: number;
  /** The last signed attempt's last valid block height (kept after the wire bytes are dropped). */
  lastValidBlockHeight?: number;
}

const TERMINAL: ReadonlySet<IntentState> = new Set(['confirmed', 'failed', 'abandoned']);
/** True when the view is a bundle's (sender.sendBundle), whatever state it is in. */
export function isBundleView(v: IntentView): boolean {
  return (
    v.plans !== undefined || v.key?.bundle !== undefined || v.signed?.bundle !== undefined || (v.end as { bundle?: unknown } | undefined)?.bundle !== undefined
  );
}

/** Every signature of the view's latest signed set: a bundle's all, a single intent's one (none before signing). */
export function signaturesOf(v: IntentView): string[] {
  const end = v.end as { signature?: string; signatures?: string[]; bundle?: BundleEnd; context?: { signatures?: unknown } } | undefined;
  if (v.signed?.bundle) return v.signed.bundle.map((t) => t.signature);
  if (end?.bundle) return [...end.bundle.signatures];
  if (Array.isArray(end?.signatures)) return [...end.signatures];
  if (Array.isArray(end?.context?.signatures)) return (end.context.signatures as unknown[]).filter((s): s is string => typeof s === 'string');
  const one = v.signed?.signature ?? end?.signature;
  return one ? [one] : [];
}

/** True when the intent reached an end no resume may change. `expired` is not terminal: resign may follow. */
export function isTerminal(s: IntentState): boolean {
  return TERMINAL.has(s);
}

/** Apply one record to the view of its intent (creating the view when new). */
export function applyRecord(views: Map<string, IntentView>, r: JournalRecord): void {
  let v = views.get(r.id);
  if (!v) {
    v = { id: r.id, state: 'created', attempts: 0, createdAt: r.at };
    views.set(r.id, v);
  }
  switch (r.op) {
    case 'created':
      if (r.plan) v.plan = r.plan;
      if (r.plans) v.plans = r.plans;
      if (r.key) v.key = r.key;
      break;
    case 'signed':
      v.attempts = Math.max(v.attempts, r.attempt);
      if (r.lastValidBlockHeight !== undefined) v.lastValidBlockHeight = r.lastValidBlockHeight;
      else delete v.lastValidBlockHeight;
      if (!isTerminal(v.state)) {
        v.signed = {
          signature: r.signature,
          wire: r.wire,
          ...(r.lastValidBlockHeight !== undefined ? { lastValidBlockHeight: r.lastValidBlockHeight } : {}),
          ...(r.nonce ? { nonce: r.nonce } : {}),
          attempt: r.attempt,
          ...(r.bundle ? { bundle: r.bundle } : {}),
        };
        v.state = 'signed';
        delete v.end;
        delete v.landedSlot;
      }
      break;
    case 'landed':
      if (v.state === 'signed') {
        v.state = 'landed';
        v.landedSlot = r.slot;
      }
      break;
    case 'confirmed':
    case 'failed':
    case 'abandoned': {
      v.state = r.op;
      v.end = r;
      // An ended intent needs no wire bytes any more (a compacted `end` carries the attempt count).
      const attempts = (r as { attempts?: unknown }).attempts;
      if (typeof attempts === 'number') v.attempts = Math.max(v.attempts, attempts);
      delete v.signed;
      if (r.op === 'confirmed') {
        delete v.plan;
        delete v.plans;
      }
      break;
    }
    case 'retried':
      // Only a failure that proved nothing can land is reopened (the sender checks before writing it).
      if (v.state === 'failed' || v.state === 'abandoned') {
        v.state = 'created';
        delete v.end;
      }
      break;
    case 'expired':
      if (!isTerminal(v.state)) {
        v.state = 'expired';
        v.end = r;
      }
      break;
  }
}

/** Fold records (in file order) into per-intent views. */
export function foldRecords(records: Iterable<JournalRecord>): Map<string, IntentView> {
  const out = new Map<string, IntentView>();
  for (const r of records) applyRecord(out, r);
  return out;
}

/**
 * Read a whole journal file's records into memory (for inspection and tests; `openJournal` streams).
 * A torn (unparsable) final line is dropped, any other bad line throws.
 */
export function readJournal(path: string): JournalRecord[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const out: JournalRecord[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line) continue;
    try {
      const r = JSON.parse(line) as JournalRecord;
      // caught just below and reported as SENDER_JOURNAL naming the line: never seen by a caller
      if (!r || typeof r.id !== 'string' || typeof r.op !== 'string') throw new Error('not a record');
      out.push(r);
    } catch (cause) {
      const isLast = lines.slice(i + 1).every((l) => l === '');
      if (isLast) break; // torn write at crash time: the record never became durable
      throw new CairnError(ErrorCodes.SENDER_JOURNAL, `journal ${path}: line ${i + 1} is not a record`, { context: { path, line: i + 1 }, cause });
    }
  }
  return out;
}
