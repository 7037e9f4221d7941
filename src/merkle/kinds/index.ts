/**
 * The registry of verify kinds shared by the CLI, the verifier and the workers: one file per kind
 * beside this one, one line each below.
 *
 * Value problems in a field (bad base58, wrong length, a u64 out of range) make that item invalid with
 * a reason naming the field; an item that is not of the kind at all makes the input unusable.
 */
import { InputError } from '../../errors/index.js';
import { isKindName, KIND_NAMES, type KindName } from './names.js';
import type { KindSpec } from './spec.js';
import { assetProofKind } from './asset-proof.js';
import { assetLeafKind } from './asset-leaf.js';
import { accountProofKind } from './account-proof.js';
import { accountHashKind } from './account-hash.js';
import { addressProofKind } from './address-proof.js';
import { validityProofKind } from './validity-proof.js';

export { isKindName, KIND_NAMES, type KindName };
export type { KindSpec };
export { extractWith, notAnItem } from './extract.js';

/** Every kind by name. */
export const kinds: Record<KindName, KindSpec> = {
  'asset-proof': assetProofKind,
  'asset-leaf': assetLeafKind,
  'account-proof': accountProofKind,
  'account-hash': accountHashKind,
  'address-proof': addressProofKind,
  'validity-proof': validityProofKind,
};

/**
 * Look a kind up, with a typed error listing the known ones.
 *
 * @example
 * const items = getKind('account-proof').extract(rpcResponse); // [{ item }, …]
 */
export function getKind(name: string): KindSpec {
  if (!isKindName(name)) throw new InputError('kind', `unknown kind "${name}"; expected one of ${KIND_NAMES.join(', ')}`);
  return kinds[name];
}
