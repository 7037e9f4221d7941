/**
 * An intent id is an idempotency key: the same id offered again must carry the same content, as a
 * payment API refuses a reused idempotency key with other parameters. `intentKey` is what the
 * journal keeps of an intent's content to tell — the payer, the version, the lookup tables, the
 * nonce account and, per instruction, its program and short digests of its accounts and data (an
 * amount lives in the data); for signed bytes, their signature (which commits to every byte of the
 * message); for a bundle, each transaction's key in order (a bundle is one intent: its order, payers and
 * every instruction are its content). It is stored in the `created` record and kept in the view for as long as the intent is
 * (a confirmed intent drops its plan, never its key). `keyConflict` names the first part that
 * differs, and `idConflict` makes the typed error (`SENDER_ID_CONFLICT`).
 * Intents journaled before keys existed have none: they are answered as before.
 */
import { createHash } from 'node:crypto';
import { CairnError, ErrorCodes } from '../../errors/index.js';
import type { JournalPlan } from '../journal/records.js';

/** What the journal keeps of an intent's content (short digests, never secrets). */
export interface IntentKey {
  /** Signed bytes offered as they are: their first signature. */
  wire?: string;
  payer?: string;
  version?: 'legacy' | 0;
  /** Per instruction: `programId:accountsDigest:dataDigest`. */
  ix?: string[];
  /** Digest of the lookup tables (key and addresses), when any. */
  lut?: string;
  /** The durable-nonce account, when the intent has one. */
  nonce?: string;
  /** A bundle: each transaction's key, in order (the bundle's other fields are absent). */
  bundle?: IntentKey[];
}

const digest = (s: string): string => createHash('sha256').update(s).digest('base64url').slice(0, 16);

/**
 * @example
 * intentKey(planToJournal(prepared)); // { payer, version: 'legacy', ix: ['111…:Xy…:Ab…'] }
 * intentKey({ signature });           // { wire: signature }
 * intentKey({ plans: [a, b] });        // { bundle: [intentKey(a), intentKey(b)] }
 */
export function intentKey(p: JournalPlan | { signature: string } | { plans: readonly JournalPlan[] }): IntentKey {
  if ('signature' in p) return { wire: p.signature };
  if ('plans' in p) return { bundle: p.plans.map((x) => intentKey(x)) };
  return {
    payer: p.payer,
    version: p.version,
    ix: p.instructions.map((ix) => `${ix.programId}:${digest(JSON.stringify(ix.keys))}:${digest(ix.data)}`),
    ...(p.lookupTables?.length ? { lut: digest(JSON.stringify(p.lookupTables)) } : {}),
    ...(p.nonce ? { nonce: p.nonce.account } : {}),
  };
}

/** The first part of `offered` that differs from `stored` (undefined: the same content, or no stored key to tell). */
export function keyConflict(stored: IntentKey | undefined, offered: IntentKey): string | undefined {
  if (!stored) return undefined;
  if (stored.bundle !== undefined || offered.bundle !== undefined) {
    if (stored.bundle === undefined || offered.bundle === undefined) return stored.bundle === undefined ? 'inputs (a bundle where the intent is one transaction)' : 'input (one transaction where the intent is a bundle)';
    const a = stored.bundle;
    const b = offered.bundle;
    if (a.length !== b.length) return `inputs (${b.length} transactions where the bundle has ${a.length})`;
    for (let i = 0; i < a.length; i++) {
      const part = keyConflict(a[i], b[i]!);
      if (part !== undefined) return `inputs[${i}].${part}`;
    }
    return undefined;
  }
  if (stored.wire !== undefined || offered.wire !== undefined) {
    if (stored.wire === undefined || offered.wire === undefined) return stored.wire === undefined ? 'input (signed bytes where instructions were given)' : 'input (instructions where signed bytes were given)';
    return stored.wire === offered.wire ? undefined : 'input.wire (other signed bytes)';
  }
  if (stored.payer !== offered.payer) return 'payer';
  const a = stored.ix ?? [];
  const b = offered.ix ?? [];
  if (a.length !== b.length) return `instructions (${b.length} where the intent has ${a.length})`;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) continue;
    const [pa, ka, da] = a[i]!.split(':');
    const [pb, kb, db] = b[i]!.split(':');
    if (pa !== pb) return `instructions[${i}].programId`;
    if (ka !== kb) return `instructions[${i}].keys`;
    if (da !== db) return `instructions[${i}].data`;
  }
  if (stored.version !== offered.version) return 'version';
  if (stored.lut !== offered.lut) return 'lookupTables';
  if (stored.nonce !== offered.nonce) return 'nonce';
  return undefined;
}

/** The error for an id offered again with other content. */
export function idConflict(id: string, part: string, where: string): CairnError {
  return new CairnError(
    ErrorCodes.SENDER_ID_CONFLICT,
    `intent id ${JSON.stringify(id)} is already ${where} with other content (${part} differs): an id is an idempotency key, so it cannot name a second payment — use a new id for new content`,
    { context: { id, field: part.split(' ')[0]!, part } },
  );
}

/** Throw `SENDER_ID_CONFLICT` when `offered` is not the content `stored` names. */
export function assertSameContent(id: string, stored: IntentKey | undefined, offered: IntentKey, where: string): void {
  const part = keyConflict(stored, offered);
  if (part !== undefined) throw idConflict(id, part, where);
}
