/**
 * The circuit shapes the devnet proves and the key names they go by — the names
 * `validityPublicInputs` (src/merkle/validity.ts) derives from a `getValidityProof` answer, so a
 * devnet proof is looked up under the same key name as a real one: `v1_inclusion_26_<n>`,
 * `v1_non_inclusion_26_<m>`, `v1_combined_26_26_<n>_<m>`.
 */
import { InputError } from '../../errors.js';

/** A v1 circuit: `accounts` leaves in state trees, `addresses` values absent from address trees, all of height 26. */
export interface CircuitShape {
  kind: 'inclusion' | 'non-inclusion' | 'combined';
  height: 26;
  accounts: number;
  addresses: number;
}

/** Leaves a v1 inclusion circuit proves (Light's key set has no 5, 6 or 7). */
export const V1_INCLUSION_ACCOUNTS: readonly number[] = [1, 2, 3, 4, 8];
/** Addresses a v1 non-inclusion or combined circuit proves. */
export const V1_ADDRESSES: readonly number[] = [1, 2];
/** Accounts a v1 combined circuit proves. */
export const V1_COMBINED_ACCOUNTS: readonly number[] = [1, 2, 3, 4];
/** Height of every v1 tree. */
export const V1_HEIGHT = 26;

/**
 * Every v1 shape: inclusion 1, 2, 3, 4, 8; non-inclusion 1, 2; combined 1–4 × 1–2.
 *
 * @example
 * V1_SHAPES.map(circuitName); // ['v1_inclusion_26_1', …, 'v1_combined_26_26_4_2']
 */
export const V1_SHAPES: readonly CircuitShape[] = [
  ...V1_INCLUSION_ACCOUNTS.map((n): CircuitShape => ({ kind: 'inclusion', height: 26, accounts: n, addresses: 0 })),
  ...V1_ADDRESSES.map((m): CircuitShape => ({ kind: 'non-inclusion', height: 26, accounts: 0, addresses: m })),
  ...V1_COMBINED_ACCOUNTS.flatMap((n) => V1_ADDRESSES.map((m): CircuitShape => ({ kind: 'combined', height: 26, accounts: n, addresses: m }))),
];

/**
 * Check a shape (throws InputError('shape') for one no v1 circuit has) and return it.
 *
 * @example
 * checkShape({ kind: 'inclusion', height: 26, accounts: 5, addresses: 0 }); // throws: 1, 2, 3, 4 or 8
 */
export function checkShape(shape: CircuitShape): CircuitShape {
  const bad = (message: string): never => {
    throw new InputError('shape', message, { got: JSON.stringify(shape) });
  };
  if (shape === null || typeof shape !== 'object') return bad('expected { kind, height, accounts, addresses }');
  const { kind, height, accounts, addresses } = shape;
  if (height !== V1_HEIGHT) return bad(`expected height 26 (v1 trees), got ${String(height)}`);
  if (kind === 'inclusion') {
    if (!V1_INCLUSION_ACCOUNTS.includes(accounts) || addresses !== 0) bad('an inclusion circuit proves 1, 2, 3, 4 or 8 accounts and no address');
  } else if (kind === 'non-inclusion') {
    if (!V1_ADDRESSES.includes(addresses) || accounts !== 0) bad('a non-inclusion circuit proves 1 or 2 addresses and no account');
  } else if (kind === 'combined') {
    if (!V1_COMBINED_ACCOUNTS.includes(accounts) || !V1_ADDRESSES.includes(addresses)) bad('a combined circuit proves 1 to 4 accounts and 1 or 2 addresses');
  } else bad(`expected kind 'inclusion', 'non-inclusion' or 'combined', got ${String(kind)}`);
  return shape;
}

/**
 * The key name of a shape, as `validityPublicInputs` names the circuit.
 *
 * @example
 * circuitName({ kind: 'combined', height: 26, accounts: 1, addresses: 1 }); // 'v1_combined_26_26_1_1'
 */
export function circuitName(shape: CircuitShape): string {
  const { kind, accounts, addresses } = checkShape(shape);
  if (kind === 'inclusion') return `v1_inclusion_26_${accounts}`;
  if (kind === 'non-inclusion') return `v1_non_inclusion_26_${addresses}`;
  return `v1_combined_26_26_${accounts}_${addresses}`;
}

/**
 * The shape for `accounts` leaves and `addresses` new addresses (what a `getValidityProof` request asks).
 *
 * @example
 * shapeFor(1, 0); // { kind: 'inclusion', height: 26, accounts: 1, addresses: 0 }
 */
export function shapeFor(accounts: number, addresses: number): CircuitShape {
  const kind = addresses === 0 ? 'inclusion' : accounts === 0 ? 'non-inclusion' : 'combined';
  return checkShape({ kind, height: 26, accounts, addresses });
}
