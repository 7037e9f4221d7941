/**
 * What the kinds share to find their items: the default extraction (unwrap envelopes, then check each
 * item's shape), the error for an item of another kind, and the fixtures bundle's parts.
 */
import { isPlainObject } from '../../assert.js';
import { InputError } from '../../errors/index.js';
import { unwrapItems, type KeyedItem } from './envelopes.js';
import type { KindSpec } from './spec.js';

/** A string, or undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Default extraction: unwrap envelopes, then check every item has the kind's shape. */
export function extractWith(spec: Pick<KindSpec, 'looksLike' | 'name'>, input: unknown): KeyedItem[] {
  const items = unwrapItems(input, (v) => spec.looksLike(v));
  items.forEach(({ item }, i) => {
    const bad = notAnItem(spec, item, i);
    if (bad) throw bad;
  });
  return items;
}

/** The error for item `i` when it is not of the kind (null is fine: an invalid item, see packItem). */
export function notAnItem(spec: Pick<KindSpec, 'looksLike' | 'name'>, item: unknown, i: number): InputError | null {
  // null = the service knew nothing for that id: an invalid item (see packItem), not a bad input
  if (item === null || (isPlainObject(item) && spec.looksLike(item))) return null;
  return new InputError(`items[${i}]`, `not a ${spec.name} item (${isPlainObject(item) ? `keys: ${Object.keys(item).slice(0, 8).join(', ')}` : typeof item})`);
}

/** The mpl-bubblegum fixtures bundle `{assetId, getAsset, getAssetProof, …}`: take the named part. */
export function bundled(input: unknown, part: 'getAsset' | 'getAssetProof'): KeyedItem[] | null {
  if (!isPlainObject(input) || !isPlainObject(input[part])) return null;
  const key = typeof input.assetId === 'string' ? input.assetId : undefined;
  return [{ item: input[part], ...(key === undefined ? {} : { key }) }];
}
