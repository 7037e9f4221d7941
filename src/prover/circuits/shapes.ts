/**
 * The circuit shapes the devnet proves and the key names they go by — the names
 * `validityPublicInputs` (src/merkle/groth16/validity.ts) derives from a `getValidityProof` answer, so a
 * devnet proof is looked up under the same key name as a real one: v1 (every tree of height 26)
 * `v1_inclusion_26_<n>`, `v1_non_inclusion_26_<m>`, `v1_combined_26_26_<n>_<m>`; v2 (state trees of
 * height 32, address trees of height 40) `v2_inclusion_32_<n>`, `v2_non_inclusion_40_<m>`,
 * `v2_combined_32_40_<n>_<m>`. A shape's `height` is the first height of its name, so it also tells
 * the generation: 26 is v1, 32 and 40 are v2.
 */
import { InputError } from '../../errors/index.js';

/**
 * A circuit: `accounts` leaves in state trees, `addresses` values absent from address trees. `height`
 * 26 for every v1 circuit; for v2, 32 for inclusion and combined (state trees; the combined circuit's
 * address trees are 40 deep), 40 for non-inclusion.
 */
export interface CircuitShape {
  kind: 'inclusion' | 'non-inclusion' | 'combined';
  height: 26 | 32 | 40;
  accounts: number;
  addresses: number;
}

/** Leaves a v1 inclusion circuit proves (Light's key set has no 5, 6 or 7). */
const V1_INCLUSION_ACCOUNTS: readonly number[] = [1, 2, 3, 4, 8];
/** Addresses a v1 non-inclusion or combined circuit proves. */
const V1_ADDRESSES: readonly number[] = [1, 2];
/** Accounts a v1 combined circuit proves. */
const V1_COMBINED_ACCOUNTS: readonly number[] = [1, 2, 3, 4];
/** Height of every v1 tree. */
const V1_HEIGHT = 26;
/** Heights of v2 state and address trees. */
const V2_STATE_HEIGHT = 32;
const V2_ADDRESS_HEIGHT = 40;
/** Accounts a v2 inclusion circuit proves. */
const V2_INCLUSION_ACCOUNTS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8];

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

/** Every v2 shape: inclusion 1–8; non-inclusion 1, 2; combined 1–4 × 1–2. */
export const V2_SHAPES: readonly CircuitShape[] = [
  ...V2_INCLUSION_ACCOUNTS.map((n): CircuitShape => ({ kind: 'inclusion', height: 32, accounts: n, addresses: 0 })),
  ...V1_ADDRESSES.map((m): CircuitShape => ({ kind: 'non-inclusion', height: 40, accounts: 0, addresses: m })),
  ...V1_COMBINED_ACCOUNTS.flatMap((n) => V1_ADDRESSES.map((m): CircuitShape => ({ kind: 'combined', height: 32, accounts: n, addresses: m }))),
];

/** 1 for height-26 shapes, 2 for the others. */
export function versionOf(shape: CircuitShape): 1 | 2 {
  return shape.height === V1_HEIGHT ? 1 : 2;
}

/** The state-tree and address-tree heights of a shape. */
export function treeHeights(shape: CircuitShape): { state: number; address: number } {
  return versionOf(shape) === 1 ? { state: V1_HEIGHT, address: V1_HEIGHT } : { state: V2_STATE_HEIGHT, address: V2_ADDRESS_HEIGHT };
}

/**
 * Check a shape (throws InputError('shape') for one no circuit has) and return it.
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
  const v1 = height === V1_HEIGHT;
  const v2Height = kind === 'non-inclusion' ? V2_ADDRESS_HEIGHT : V2_STATE_HEIGHT;
  if (!v1 && height !== v2Height) return bad(`expected height 26 (v1) or ${v2Height} (v2) for a ${String(kind)} circuit, got ${String(height)}`);
  if (kind === 'inclusion') {
    if (v1 && (!V1_INCLUSION_ACCOUNTS.includes(accounts) || addresses !== 0)) bad('a v1 inclusion circuit proves 1, 2, 3, 4 or 8 accounts and no address');
    if (!v1 && (!V2_INCLUSION_ACCOUNTS.includes(accounts) || addresses !== 0)) bad('a v2 inclusion circuit proves 1 to 8 accounts and no address');
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
  const v = versionOf(shape);
  const { state, address } = treeHeights(shape);
  if (kind === 'inclusion') return `v${v}_inclusion_${state}_${accounts}`;
  if (kind === 'non-inclusion') return `v${v}_non_inclusion_${address}_${addresses}`;
  return `v${v}_combined_${state}_${address}_${accounts}_${addresses}`;
}

/**
 * The shape for `accounts` leaves and `addresses` new addresses in trees of `version` (what a
 * `getValidityProof` request asks).
 *
 * @example
 * shapeFor(1, 0); // { kind: 'inclusion', height: 26, accounts: 1, addresses: 0 }
 * shapeFor(0, 1, 2); // { kind: 'non-inclusion', height: 40, accounts: 0, addresses: 1 }
 */
export function shapeFor(accounts: number, addresses: number, version: 1 | 2 = 1): CircuitShape {
  const kind = addresses === 0 ? 'inclusion' : accounts === 0 ? 'non-inclusion' : 'combined';
  const height = version === 1 ? V1_HEIGHT : kind === 'non-inclusion' ? V2_ADDRESS_HEIGHT : V2_STATE_HEIGHT;
  return checkShape({ kind, height, accounts, addresses });
}
