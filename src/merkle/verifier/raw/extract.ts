/**
 * `extractJson`: where a kind's items sit in a raw JSON response, as tape entries, without decoding
 * them. The envelopes are peeled by the same code as for parsed input (kinds/envelopes.ts `peelEnvelopes`, run
 * on a lazily decoded view), so both paths find the same items; each item's own shape is checked by
 * the worker that decodes it (batch.ts).
 *
 * Small responses, and the fixture bundles and transaction envelopes some kinds know, are simply
 * parsed: there is nothing to gain on them.
 */
import { InputError } from '../../../errors/index.js';
import { extractWith, notAnItem, type KindSpec } from '../../kinds/index.js';
import { noItemOfKind, peelEnvelopes, type KeyedItem } from '../../kinds/envelopes.js';
import { entryOf, scanJson, type JsonTape, T_ARRAY, T_NULL, T_OBJECT } from '../../../json/index.js';

/** Items found in a scanned response. */
export interface JsonItems {
  tape: JsonTape;
  /** Each item's value entry. */
  values: ArrayLike<number>;
  /** Each item's key entry, for an object keyed by id (the key names the item); else null. */
  keys: ArrayLike<number> | null;
  /** The keyed object (for the error an item that is not of the kind makes). */
  container?: object;
}

/** Below this many bytes a response is parsed whole (`parseBelow: 0` forces the tape, for tests). */
const PARSE_BELOW = 16 * 1024;

/**
 * The items of `spec` in the JSON text `bytes`: tape entries, or (small or special inputs) parsed
 * items. Throws `InputError` as `spec.extract` does for unusable input, and for text that is not JSON.
 *
 * @example
 * const found = extractJson(kinds['asset-proof'], body);
 * Array.isArray(found) ? found.length : found.values.length;
 */
export function extractJson(spec: KindSpec, bytes: Uint8Array, options: { parseBelow?: number } = {}): JsonItems | KeyedItem[] {
  return extractFromTape(spec, scanJson(bytes, { decodeBelow: scanDecodeBelow(options) }), options);
}

/** True when a response of `length` bytes is parsed whole, not scanned (see `PARSE_BELOW`). */
export const parsedWhole = (length: number, options: { parseBelow?: number } = {}): boolean => length < (options.parseBelow ?? PARSE_BELOW);

/** The `decodeBelow` the tapes given to `extractFromTape` are to be scanned with. */
export const scanDecodeBelow = (options: { parseBelow?: number } = {}): number => Math.min(options.parseBelow ?? PARSE_BELOW, 4096);

/**
 * `extractJson` of a text already scanned (whole), with `decodeBelow: scanDecodeBelow(options)`; of the
 * value at entry `from` (0: the whole text) as of a text holding that value alone.
 */
export function extractFromTape(spec: KindSpec, tape: JsonTape, options: { parseBelow?: number } = {}, from = 0): JsonItems | KeyedItem[] {
  if (parsedWhole(from === 0 ? tape.bytes.length : tape.end(from) - tape.start(from), options)) return spec.extract(tape.value(from));
  const root = tape.lazy(from);
  if (spec.special?.(root)) return spec.extract(tape.value(from));
  const v = peelEnvelopes(root, (o) => spec.looksLike(o));
  const e = entryOf(v);
  // Inside a part small enough to have been decoded whole: it is parsed already.
  if (e < 0) return extractWith(spec, v);
  if (tape.type(e) === T_ARRAY) {
    const values = tape.elements(e);
    // The first item is looked at here, as in an object keyed by id: a list of something else is
    // refused at once, before a worker starts (the workers check the others as they decode them).
    const first = values.length > 0 ? values[0]! : -1;
    if (first >= 0 && tape.type(first) !== T_NULL) {
      // One view of the item for the check and for its error: the lazy view and a decoded value may
      // read a long number differently (a number / its digits), and `looksLike` then disagreed with
      // itself, so the error was null and the verifier rejected with null.
      const item = tape.type(first) === T_OBJECT ? (tape.lazy(first) as Record<string, unknown>) : tape.value(first);
      if (!(tape.type(first) === T_OBJECT && spec.looksLike(item as Record<string, unknown>))) {
        throw notAnItem(spec, item, 0) ?? new InputError('items[0]', `not a ${spec.name} item`);
      }
    }
    return { tape, values, keys: null };
  }
  if (spec.looksLike(v as Record<string, unknown>)) return { tape, values: [e], keys: null };
  // An object keyed by id: every value an object or null; the first one must be an item (the
  // workers check the others, as they decode them).
  // Walked in place (a member is its key entry, then its value's): typed arrays, not a pair per member,
  // as for the items of a list.
  const keys = tape.memberKeys(e);
  const n = keys.length;
  if (n === 0) throw noItemOfKind(v);
  const values = new Uint32Array(n);
  let checked = false;
  for (let i = 0; i < n; i++) {
    const x = keys[i]! + 1;
    const t = tape.type(x);
    if (t !== T_NULL && t !== T_OBJECT) throw noItemOfKind(v);
    if (!checked && t === T_OBJECT) {
      if (!spec.looksLike(tape.lazy(x) as Record<string, unknown>)) throw noItemOfKind(v);
      checked = true;
    }
    values[i] = x;
  }
  return { tape, values, keys, container: v };
}
