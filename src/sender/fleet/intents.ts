/**
 * What `enqueue` takes: intents by caller-chosen id, each stored as the plan the working processes
 * rebuild and sign (addresses, flags and data: never a secret), checked at the boundary.
 */
import { InputError } from '../../errors/index.js';
import { isPublicKeyLike, toAddress, toSigner, type AddressInput, type SignerLike } from '../../solana/inputs.js';
import { checkKitLookups, readInstructions, type InstructionLike } from '../../solana/kit-instructions.js';
import type { LookupTableInput, TransactionVersion } from '../../solana/wire.js';
import { nonceOf, type NonceInput } from '../input/prepare.js';
import { intentKey } from '../intent/key.js';
import { planToJournal } from '../journal/plan.js';
import type { JournalRecord } from '../journal/records.js';

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

/** Intents as `created` records, checked at the boundary (ids unique within the call). */
export function enqueueItems(intents: Iterable<FleetIntent>): { id: string; rec: Extract<JournalRecord, { op: 'created' }> }[] {
  if (!intents || typeof (intents as Iterable<FleetIntent>)[Symbol.iterator] !== 'function') throw new InputError('intents', 'expected an iterable of { id, instructions, payer }');
  const items = [...intents].map((it, i) => {
    const plan = planOf(it, i);
    return { id: intentId(it, i), rec: { op: 'created' as const, id: it.id, at: Date.now(), plan, key: intentKey(plan) } };
  });
  const seen = new Set<string>();
  for (const [i, it] of items.entries()) {
    if (seen.has(it.id)) throw new InputError(`intents[${i}].id`, `duplicate id ${JSON.stringify(it.id)} in one call`);
    seen.add(it.id);
  }
  return items;
}

function intentId(it: FleetIntent, i: number): string {
  if (!it || typeof it !== 'object') throw new InputError(`intents[${i}]`, 'expected { id, instructions, payer }');
  if (typeof it.id !== 'string' || it.id.length === 0 || it.id.length > 200) throw new InputError(`intents[${i}].id`, 'expected a non-empty string ≤ 200 chars');
  return it.id;
}

/** The stored plan of an intent (addresses, flags, data: never a secret). */
function planOf(it: FleetIntent, i: number) {
  if (!Array.isArray(it.instructions) || it.instructions.length === 0) throw new InputError(`intents[${i}].instructions`, 'expected a non-empty array of instructions');
  const payer = typeof it.payer === 'string' || isPublicKeyLike(it.payer) ? toAddress(it.payer, `intents[${i}].payer`) : toSigner(it.payer, `intents[${i}].payer`).address;
  const version = it.version ?? (it.lookupTables?.length ? 0 : 'legacy');
  const nonce = it.nonce === undefined ? undefined : nonceOf(it.nonce, undefined, `intents[${i}].nonce`);
  const read = readInstructions(it.instructions, `intents[${i}].instructions`);
  checkKitLookups(read, it.lookupTables, `intents[${i}].lookupTables`);
  return planToJournal({ kind: 'plan', payer, instructions: [...read.instructions], version, lookupTables: [...(it.lookupTables ?? [])], signers: [], ...(nonce ? { nonce } : {}) });
}

