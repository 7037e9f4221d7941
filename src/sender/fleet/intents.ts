/**
 * What `enqueue` takes: intents by caller-chosen id, each stored as the plan the working processes
 * rebuild and sign (addresses, flags and data: never a secret) — or a bundle, one intent stored as
 * its plans in order — checked at the boundary.
 */
import { InputError } from '../../errors/index.js';
import {
  isPublicKeyLike,
  toAddress,
  signerFromInput,
  type AddressInput,
  type SignerLike,
  checkKitLookups,
  readInstructions,
  type InstructionLike,
  type LookupTableInput,
  type TransactionVersion,
} from '../../solana/index.js';
import { nonceOf, type NonceInput } from '../input/prepare.js';
import { intentKey } from '../intent/key.js';
import { planToJournal } from '../journal/plan.js';
import type { JournalPlan, JournalRecord } from '../journal/records.js';
import { MAX_BUNDLE_TRANSACTIONS } from '../input/bundle.js';

/** One intent for `enqueue`: instructions and a payer the working processes can sign for (`createSender({ signers })`). */
export interface FleetIntent {
  /**
   * Caller-chosen idempotency key: enqueuing a known id again with the same content changes nothing;
   * with other content (instructions, payer, amounts) it is refused, `SENDER_ID_CONFLICT`.
   */
  id: string;
  /** web3.js-shaped or kit instructions (a kit meta's signer is not stored: the working processes sign). */
  instructions: readonly InstructionLike[];
  /** The fee payer: its address (or a signer, of which only the address is stored). */
  payer: AddressInput | SignerLike;
  version?: TransactionVersion;
  lookupTables?: readonly LookupTableInput[];
  /**
   * A durable-nonce intent (its own nonce account): signed with the account's nonce value, so its
   * bytes outlive 150 blocks and any process of the fleet rebroadcasts them without re-signing. Only
   * the authority's address is stored: the working processes need its key in `signers`.
   */
  nonce?: NonceInput;
}

/** One transaction of a bundle intent: what a `FleetIntent` holds but its id (no durable nonce: a bundle lives on one blockhash). */
export type FleetBundleTransaction = Omit<FleetIntent, 'id' | 'nonce'>;

/**
 * A bundle as one intent for `enqueue`: 1..5 transactions the working processes build on one
 * blockhash (a CU price in each, the tip once, in the last), sign whole, and send as one `/fast`
 * bundle. Its id is the idempotency key of the whole bundle (every transaction, in order).
 */
export interface FleetBundleIntent {
  id: string;
  bundle: readonly FleetBundleTransaction[];
}

/** Intents as `created` records, checked at the boundary (ids unique within the call). */
export function enqueueItems(intents: Iterable<FleetIntent | FleetBundleIntent>): { id: string; rec: Extract<JournalRecord, { op: 'created' }> }[] {
  if (!intents || typeof (intents as Iterable<FleetIntent>)[Symbol.iterator] !== 'function') throw new InputError('intents', 'expected an iterable of { id, instructions, payer } or { id, bundle }');
  const items = [...intents].map((it, i) => {
    const id = intentId(it, i);
    if (it && 'bundle' in it) {
      const plans = bundlePlansOf(it, i);
      return { id, rec: { op: 'created' as const, id, at: Date.now(), plans, key: intentKey({ plans }) } };
    }
    const plan = planOf(it, i);
    return { id, rec: { op: 'created' as const, id, at: Date.now(), plan, key: intentKey(plan) } };
  });
  const seen = new Set<string>();
  for (const [i, it] of items.entries()) {
    if (seen.has(it.id)) throw new InputError(`intents[${i}].id`, `duplicate id ${JSON.stringify(it.id)} in one call`);
    seen.add(it.id);
  }
  return items;
}

function intentId(it: FleetIntent | FleetBundleIntent, i: number): string {
  if (!it || typeof it !== 'object') throw new InputError(`intents[${i}]`, 'expected { id, instructions, payer } or { id, bundle }');
  if (typeof it.id !== 'string' || it.id.length === 0 || it.id.length > 200) throw new InputError(`intents[${i}].id`, 'expected a non-empty string ≤ 200 chars');
  return it.id;
}

/** A bundle's stored plans, one per transaction in order. */
function bundlePlansOf(it: FleetBundleIntent, i: number): JournalPlan[] {
  const b = it.bundle;
  if (!Array.isArray(b) || b.length < 1 || b.length > MAX_BUNDLE_TRANSACTIONS) {
    throw new InputError(`intents[${i}].bundle`, `expected an array of 1..${MAX_BUNDLE_TRANSACTIONS} transactions, got ${Array.isArray(b) ? b.length : typeof b}`);
  }
  return b.map((t, k) => {
    if (!t || typeof t !== 'object') throw new InputError(`intents[${i}].bundle[${k}]`, 'expected { instructions, payer }');
    if ('nonce' in t && (t as FleetIntent).nonce !== undefined) throw new InputError(`intents[${i}].bundle[${k}].nonce`, 'a bundle lives on one recent blockhash; durable nonces are not taken');
    return planOf(t, `intents[${i}].bundle[${k}]`);
  });
}

/** The stored plan of an intent (addresses, flags, data: never a secret); `at` names it in errors. */
function planOf(it: Omit<FleetIntent, 'id'>, at: number | string): JournalPlan {
  const f = typeof at === 'number' ? `intents[${at}]` : at;
  if (!Array.isArray(it.instructions) || it.instructions.length === 0) throw new InputError(`${f}.instructions`, 'expected a non-empty array of instructions');
  const payer = typeof it.payer === 'string' || isPublicKeyLike(it.payer) ? toAddress(it.payer, `${f}.payer`) : signerFromInput(it.payer, `${f}.payer`).address;
  const version = it.version ?? (it.lookupTables?.length ? 0 : 'legacy');
  const nonce = it.nonce === undefined ? undefined : nonceOf(it.nonce, undefined, `${f}.nonce`);
  const read = readInstructions(it.instructions, `${f}.instructions`);
  checkKitLookups(read, it.lookupTables, `${f}.lookupTables`);
  return planToJournal({ kind: 'plan', payer, instructions: [...read.instructions], version, lookupTables: [...(it.lookupTables ?? [])], signers: [], ...(nonce ? { nonce } : {}) });
}
