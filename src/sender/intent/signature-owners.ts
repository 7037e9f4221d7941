/**
 * Which intent owns each signature a sender signed or found in its journal. Identical instructions,
 * payer and blockhash sign to identical bytes, and two intents must never share one transaction:
 * twenty identical transfers were once reported as twenty payments while eight landed. The builder
 * asks `claim` before it hands out a signature and makes the transaction distinct when it is taken.
 * A fleet (PostgreSQL journal) shares the question with its other processes: `claimShared` asks this
 * process's map first (what it already knows costs no round trip) and then the journal's signatures
 * table, which answers atomically for the whole fleet.
 */
import { signaturesOf, type IntentView } from '../journal/records.js';

export interface SignatureOwners {
  /** Take `signature` for intent `id` in this process; false when another intent owns it already. */
  claim(id: string, signature: string, lastValidBlockHeight: number): boolean;
  /**
   * As `claim`, and across the fleet when the sender has a shared journal (a promise then);
   * synchronous, and exactly `claim`, without one.
   */
  claimShared(id: string, signature: string, lastValidBlockHeight: number): boolean | Promise<boolean>;
  /** The intent that owns `signature`, if any. */
  ownerOf(signature: string): string | undefined;
  /** Record what a journal's intents own (their live or final signature). */
  adopt(views: Iterable<IntentView>): void;
}

/** The fleet's signature table (a PostgreSQL journal's `claimSignature`). */
export interface SharedSignatures {
  claimSignature(id: string, signature: string, lastValidBlockHeight: number): Promise<boolean>;
}

/** The owner recorded for a signature the fleet's table gave to another process's intent. */
const ELSEWHERE = '\u0000another process';

/** Entries kept before pruning those whose blockhash is long gone (no build can sign with it again). */
const PRUNE_ABOVE = 50_000;
/** Blocks behind the newest claim an entry's blockhash must be before it is pruned (two windows). */
const PRUNE_BEHIND = 300;

/**
 * @example
 * const owners = createSignatureOwners();
 * owners.claim('order-1', sig, lvbh); // true
 * owners.claim('order-2', sig, lvbh); // false: sign order-2 differently
 * const fleet = createSignatureOwners(() => openPostgresJournal(o)); // claimShared asks the table too
 */
export function createSignatureOwners(shared?: () => Promise<SharedSignatures>): SignatureOwners {
  const owners = new Map<string, { id: string; lastValidBlockHeight: number }>();
  // The newest blockhash window claimed. A durable-nonce signature has no window (MAX_SAFE_INTEGER):
  // measured from it, every blockhash entry would look long gone, live ones included, and two
  // intents could again share one transaction. Nonce entries themselves are never pruned by height
  // (their nonce, not a height, ends them); there is one per nonce intent signed.
  let newest = 0;
  /** Signatures the fleet's table confirmed as owned by the intent this map names. */
  const confirmed = new Set<string>();
  const claim = (id: string, signature: string, lastValidBlockHeight: number): boolean => {
    const o = owners.get(signature);
    if (o && o.id !== id) return false;
    owners.set(signature, { id, lastValidBlockHeight });
    if (lastValidBlockHeight < Number.MAX_SAFE_INTEGER && lastValidBlockHeight > newest) newest = lastValidBlockHeight;
    if (owners.size > PRUNE_ABOVE) {
      for (const [k, v] of owners) {
        if (v.lastValidBlockHeight < newest - PRUNE_BEHIND) {
          owners.delete(k);
          confirmed.delete(k);
        }
      }
    }
    return true;
  };
  return {
    claim,
    claimShared(id, signature, lastValidBlockHeight) {
      // Reserved here synchronously first, so concurrent builds of this process see each other
      // without a round trip; only a signature this process has not seen yet goes to the table.
      if (!claim(id, signature, lastValidBlockHeight)) return false;
      if (!shared || confirmed.has(signature)) return true;
      return shared()
        .then((s) => s.claimSignature(id, signature, lastValidBlockHeight))
        .then(
          (mine) => {
            // Another process's intent owns it: remembered as not ours (its id is not known here).
            if (mine) confirmed.add(signature);
            else owners.set(signature, { id: ELSEWHERE, lastValidBlockHeight });
            return mine;
          },
          (e: unknown) => {
            // Unknown to the fleet: give the reservation back, so a later claim asks again.
            if (owners.get(signature)?.id === id) owners.delete(signature);
            throw e;
          },
        );
    },
    ownerOf: (signature) => owners.get(signature)?.id,
    adopt(views) {
      for (const v of views) {
        // signed nonce bytes have no window: they stay live until their nonce moves
        const window = v.signed?.nonce ? Number.MAX_SAFE_INTEGER : (v.signed?.lastValidBlockHeight ?? v.lastValidBlockHeight ?? 0);
        // a bundle owns every one of its transactions
        for (const sig of signaturesOf(v)) owners.set(sig, { id: v.id, lastValidBlockHeight: window });
      }
    },
  };
}
