/**
 * The shapes of `verifyValidityProof`: the verdict it returns and the options it takes.
 */
import type { Verdict } from '../verdict.js';
import type { KeySetSpec } from './keys/index.js';

/** What `verifyValidityProof` returns. */
export interface ValidityVerdict extends Verdict {
  /**
   * `verified` (valid: a key set verified the proof), `not-verified` (well formed, no key set
   * verified it), `proof-absent` (structure valid, the response carries no proof bytes),
   * `structure-valid` (`structureOnly` was asked), `nothing-to-prove` (no account or address needs
   * the proof), `malformed` (a structural check failed; `reason` names the field).
   */
  status: 'verified' | 'not-verified' | 'proof-absent' | 'structure-valid' | 'nothing-to-prove' | 'malformed';
  /** The circuit the response calls for, e.g. `v1_inclusion_26_2` or `v2_combined_32_40_1_1`. */
  circuit?: string;
  /** Version label of the key set that verified the proof. */
  keySet?: string;
  /** Version labels of the key sets tried (when none verified). */
  tried?: string[];
  /** The public inputs, 32-byte big-endian hex. */
  publicInputs?: string[];
}

export interface ValidityOptions {
  /**
   * Key sets to try, in order: sets, their stored form, or shipped sets' names (`light-8ddf06ba`,
   * `cairn-devnet-1`, a version label). Default: Light's shipped sets, newest first — never an
   * opt-in set such as cairn's devnet keys, which anyone can forge proofs under.
   */
  keySets?: readonly KeySetSpec[];
  /** Pairing backend (default 'auto': mcl when loaded). */
  backend?: 'auto' | 'mcl' | 'noble';
  /**
   * The request the response answers. With it the v1 shape splits exactly: its first
   * `hashes.length` entries are accounts, the rest new addresses.
   */
  request?: { hashes?: readonly string[]; newAddressesWithTrees?: readonly { address: string; tree: string }[] };
  /** Extra base58 address trees for splitting the v1 shape without `request` (the public ones are known). */
  addressTrees?: readonly string[];
  /** Compressed accounts (as the indexer returns them): each must re-hash to one of the proof's leaves. */
  accounts?: readonly unknown[];
  /** `getCompressedAccountProof` values: each path must verify and end at the proof's root for that leaf. */
  accountProofs?: readonly unknown[];
  /** `getMultipleNewAddressProofs` items: each must verify and end at the proof's root for that address. */
  addressProofs?: readonly unknown[];
  /** Check structure only; never run the pairing. */
  structureOnly?: boolean;
  /** Echoed as `verdict.id`. */
  id?: string;
}
