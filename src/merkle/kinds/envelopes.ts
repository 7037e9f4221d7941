/**
 * Envelope unwrapping: anything the service returns (a JSON-RPC response, `{context, value}`, a paged
 * list, an object keyed by id, …) flattened into the list of items a kind verifies.
 */
import { isPlainObject } from '../../assert.js';
import { InputError } from '../../errors/index.js';
import { describe } from '../fields.js';

/** An item and the id it was keyed by (for objects keyed by id, as getAssetProofBatch returns). */
export interface KeyedItem {
  item: unknown;
  key?: string;
}

/**
 * Flatten anything the service returns into a list of items: a whole JSON-RPC response, a bare
 * `result`, `{context, value}`, a paged list (`items`), an array, an object keyed by id, or a single
 * item. `looksLikeItem` tells a single item apart from an object keyed by id.
 *
 * @example
 * unwrapItems({ jsonrpc: '2.0', id: 1, result: { context: { slot: 1 }, value: [p1, p2] } }, isProof)
 * // [{ item: p1 }, { item: p2 }]
 */
export function unwrapItems(input: unknown, looksLikeItem: (v: Record<string, unknown>) => boolean): KeyedItem[] {
  const v = peelEnvelopes(input, looksLikeItem);
  // null entries (unknown ids in a batch answer) stay as items: each becomes an invalid verdict.
  // Array.from, not map: a hole in a sparse array becomes an undefined item (named items[i] later), not a hole.
  if (Array.isArray(v)) return Array.from(v, (item) => ({ item }));
  if (looksLikeItem(v)) return [{ item: v }];
  const entries = Object.entries(v);
  if (entries.length > 0 && entries.every(([, x]) => x === null || (isPlainObject(x) && looksLikeItem(x)))) {
    return entries.map(([key, item]) => ({ item, key }));
  }
  throw noItemOfKind(v);
}

/** The error for an object that is neither an item nor an object keyed by id. */
export function noItemOfKind(v: object): InputError {
  return new InputError('input', `found no item of this kind (keys: ${Object.keys(v).slice(0, 8).join(', ') || 'none'})`);
}

/**
 * `unwrapItems`' first half: the envelopes peeled off, down to the array of items, the object keyed
 * by id, or the single item (throws `InputError` for an error response, a null result, a scalar).
 * The bytes path (verifier/raw/extract.ts) runs it on a lazily decoded envelope.
 */
export function peelEnvelopes(input: unknown, looksLikeItem: (v: Record<string, unknown>) => boolean): unknown[] | Record<string, unknown> {
  let v = input;
  // Peel envelopes, outermost first. Bounded: each step strictly descends.
  for (let depth = 0; depth < 8; depth++) {
    if (!isPlainObject(v)) break;
    if ('jsonrpc' in v && ('result' in v || 'error' in v)) {
      if (v.error !== undefined && v.error !== null) {
        const e = v.error as { code?: unknown; message?: unknown };
        throw new InputError('error', `the input is a JSON-RPC error response (${String(e.code)}: ${String(e.message)}), not proofs`, { got: e });
      }
      v = v.result;
      continue;
    }
    if (looksLikeItem(v)) break;
    if ('value' in v && ('context' in v || Object.keys(v).length === 1)) {
      v = v.value;
      continue;
    }
    if (Array.isArray(v.items)) {
      v = v.items;
      continue;
    }
    break;
  }
  // A null result is "not found", never "nothing to check, all valid".
  if (v === null || v === undefined) throw new InputError('result', 'the response holds no result (null): the requested item was not found');
  if (Array.isArray(v)) return v;
  if (!isPlainObject(v)) throw new InputError('input', `expected an object or an array, got ${describe(v)}`);
  return v;
}
