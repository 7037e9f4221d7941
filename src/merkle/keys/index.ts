/**
 * The verifying-key sets cairn ships, newest first. `verifyValidityProof` tries them in this order
 * and names the set that verified a proof; pass `keySets` to pin one version (or add your own with
 * `unpackKeySet(packKeySet(...))`).
 */
import { unpackKeySet, type KeySet } from './key-set.js';
import { LIGHT_KEYS_8DDF06BA } from './light-8ddf06ba.js';
import { LIGHT_KEYS_338E47405 } from './light-338e47405.js';

export { packKeySet, packedKeySetModule, unpackKeySet, type KeySet, type PackedKeySet } from './key-set.js';

/** The current Light Protocol keys (light-protocol @8ddf06ba, 104 circuits). */
export const LIGHT_CURRENT: KeySet = unpackKeySet(LIGHT_KEYS_8DDF06BA);
/** The 2024-06-25 v1 inclusion key (light-protocol @338e47405) that the photon test proofs verify under. */
export const LIGHT_2024_06: KeySet = unpackKeySet(LIGHT_KEYS_338E47405);

/** Every shipped set, newest first. */
export const SHIPPED_KEY_SETS: readonly KeySet[] = [LIGHT_CURRENT, LIGHT_2024_06];

/**
 * A shipped set by its version label.
 *
 * @example
 * keySetByVersion('light-protocol@8ddf06ba')?.has('v1_inclusion_26_1'); // true
 */
export function keySetByVersion(version: string): KeySet | undefined {
  return SHIPPED_KEY_SETS.find((s) => s.version === version);
}
