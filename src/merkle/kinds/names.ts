/**
 * The names of the verify kinds, in the order `cairn verify` lists them. A new kind adds its name here
 * and its spec to the registry (index.ts), which the compiler then requires.
 */

/** The kinds `cairn verify` and `createVerifier` understand. */
export const KIND_NAMES = ['asset-proof', 'asset-leaf', 'account-proof', 'account-hash', 'address-proof', 'validity-proof'] as const;
export type KindName = (typeof KIND_NAMES)[number];

export const isKindName = (k: string): k is KindName => (KIND_NAMES as readonly string[]).includes(k);
