/**
 * The verifying-key sets cairn ships. `verifyValidityProof` tries the default ones — Light Protocol's,
 * newest first — and names the set that verified a proof; `keySets` picks others. Opt-in sets are
 * shipped but never tried unless asked for by name: cairn's devnet set comes from a trusted setup
 * derived from a PUBLIC seed, so anyone can forge proofs under it, and a proof from a real service
 * that "verifies" under it proves nothing.
 */
import { isPlainObject } from '../../../assert.js';
import { InputError } from '../../../errors/index.js';
import { unpackKeySet, type KeySet, type PackedKeySet } from './key-set.js';
import { LIGHT_KEYS_8DDF06BA } from './light-8ddf06ba.js';
import { LIGHT_KEYS_338E47405 } from './light-338e47405.js';
import { CAIRN_DEVNET_1 } from './cairn-devnet-1.js';

export { keySetFromJson, packKeySet, unpackKeySet, type KeySet, type PackedKeySet } from './key-set.js';

/** The current Light Protocol keys (light-protocol @8ddf06ba, 104 circuits). */
export const LIGHT_CURRENT: KeySet = unpackKeySet(LIGHT_KEYS_8DDF06BA);
/** The 2024-06-25 v1 inclusion key (light-protocol @338e47405) that the photon test proofs verify under. */
export const LIGHT_2024_06: KeySet = unpackKeySet(LIGHT_KEYS_338E47405);

/** The sets tried by default (Light's), newest first. */
export const SHIPPED_KEY_SETS: readonly KeySet[] = [LIGHT_CURRENT, LIGHT_2024_06];

/**
 * cairn's devnet keys (`cairn-devnet@1`, v1 circuits at height 26, v2 at 32/40): the setup's toxic
 * waste comes from a public seed, so anyone can make proofs that verify under them. Opt-in: name it
 * to use it.
 */
export const CAIRN_DEVNET: KeySet = unpackKeySet(CAIRN_DEVNET_1);

/** Shipped sets never tried unless named (`keySets`, `--key-set`): forgeable, for local devnets only. */
export const OPT_IN_KEY_SETS: readonly KeySet[] = [CAIRN_DEVNET];

/** Short names for the shipped sets (what `--key-set` takes besides the full version label). */
const ALIASES = new Map<string, KeySet>([
  ['light-8ddf06ba', LIGHT_CURRENT],
  ['light-338e47405', LIGHT_2024_06],
  ['cairn-devnet-1', CAIRN_DEVNET],
]);

/**
 * A shipped set by its version label.
 *
 * @example
 * keySetByVersion('light-protocol@8ddf06ba')?.has('v1_inclusion_26_1'); // true
 */
export function keySetByVersion(version: string): KeySet | undefined {
  return SHIPPED_KEY_SETS.find((s) => s.version === version);
}

/**
 * A shipped set, default or opt-in, by its version label or its short name (`light-8ddf06ba`,
 * `light-338e47405`, `cairn-devnet-1`).
 *
 * @example
 * keySetByName('light-338e47405') === LIGHT_2024_06; // true
 */
export function keySetByName(name: string): KeySet | undefined {
  return ALIASES.get(name) ?? [...SHIPPED_KEY_SETS, ...OPT_IN_KEY_SETS].find((s) => s.version === name);
}

/** Every name `keySetByName` knows, short names first (for messages). */
export function keySetNames(): string[] {
  return [...ALIASES.keys()];
}

/** What `keySets` may list: a set, its stored form (as it crosses to a worker), or a shipped set's name. */
export type KeySetSpec = KeySet | PackedKeySet | string;

// Stored forms seen again and again (every record of a pooled batch carries its sets) map to one
// set, so each key is prepared (decoded, G2 lines, e(α, β)) once per thread, not once per proof.
const unpacked = new Map<string, KeySet>();
const UNPACKED_MAX = 16;

/**
 * The sets a `keySets` list names. Throws `InputError` (field `keySets[i]`) for an unknown name.
 *
 * @example
 * resolveKeySets(['light-338e47405']); // [LIGHT_2024_06]
 */
export function resolveKeySets(list: readonly KeySetSpec[]): KeySet[] {
  if (!Array.isArray(list)) throw new InputError('keySets', 'expected an array of key sets, stored key sets or names');
  return list.map((s: unknown, i) => {
    if (typeof s === 'string') {
      const set = keySetByName(s);
      if (!set) throw new InputError(`keySets[${i}]`, `unknown key set "${s}"; expected one of ${keySetNames().join(', ')}`);
      return set;
    }
    if (isPlainObject(s) && typeof s.get === 'function') return s as unknown as KeySet;
    if (!isStored(s)) throw new InputError(`keySets[${i}]`, 'expected a key set, its stored form { version, source, g1, g2, keys } or a name');
    const id = `${s.version}\u0000${s.g1}\u0000${s.g2}\u0000${JSON.stringify(s.keys)}`;
    let set = unpacked.get(id);
    if (!set) {
      set = unpackKeySet(s);
      if (unpacked.size >= UNPACKED_MAX) unpacked.delete(unpacked.keys().next().value!);
      unpacked.set(id, set);
    }
    return set;
  });
}

function isStored(s: unknown): s is PackedKeySet {
  return isPlainObject(s) && typeof s.version === 'string' && typeof s.g1 === 'string' && typeof s.g2 === 'string' && isPlainObject(s.keys);
}
