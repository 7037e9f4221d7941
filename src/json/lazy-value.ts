/**
 * A tape entry as a JS value that decodes only what is read (`JsonTape.lazy`): scalars as themselves,
 * objects as objects whose members decode on first read, arrays as empty arrays (`entryOf` finds
 * their entry). Enough for shape tests (`in`, `typeof`, `Array.isArray`, `Object.keys`) on an envelope
 * of any size, so the kinds' own `looksLike` tests run unchanged on it.
 */
import { CairnError, ErrorCodes } from '../errors/index.js';
import { T_ARRAY, T_FALSE, T_NULL, T_NUMBER, T_OBJECT, T_STRING, T_TRUE } from './tape-format.js';

/** What lazy decoding reads of a tape (json-tape.ts's `JsonTape`). */
export interface LazySource {
  readonly decodeBelow: number;
  type(e: number): number;
  start(e: number): number;
  end(e: number): number;
  string(e: number): string;
  slice(a: number, b: number): string;
  value(e: number): unknown;
  isSkimmed(e: number): boolean;
  members(e: number): Array<[number, number]>;
}

/** The tape entry behind each object and array `lazyValue` returned (see `entryOf`). */
const entries = new WeakMap<object, number>();

/** The tape entry behind an object or array `lazy()` returned, or -1. */
export function entryOf(a: unknown): number {
  return typeof a === 'object' && a !== null ? (entries.get(a) ?? -1) : -1;
}

/** Entry `e` of `t`, decoded lazily (see above). */
export function lazyValue(t: LazySource, e: number): unknown {
  switch (t.type(e)) {
    case T_OBJECT: {
      // A small object is simply decoded (an error object, a single item); a large one (an
      // envelope around thousands of items) decodes member by member as read.
      // A skimmed one has no members on the tape: decoded whole too.
      const o = t.end(e) - t.start(e) < t.decodeBelow || t.isSkimmed(e) ? (t.value(e) as object) : lazyObject(t, e);
      entries.set(o, e);
      return o;
    }
    case T_ARRAY: {
      const a: unknown[] = [];
      entries.set(a, e);
      return a;
    }
    case T_STRING:
      return t.string(e);
    case T_NUMBER:
      // A number that may not survive a double is read as `value` reads it, so a shape test on
      // the lazy view answers as one on the decoded value (and as the lossless parser's) does.
      return t.end(e) - t.start(e) >= 16 ? t.value(e) : Number(t.slice(t.start(e), t.end(e)));
    case T_TRUE:
      return true;
    case T_FALSE:
      return false;
    case T_NULL:
      return null;
    default:
      // A key entry: callers pass value entries only.
      throw new CairnError(ErrorCodes.INTERNAL, `tape entry ${e} is not a value`, { context: { invariant: 'json tape: lazy() of a value entry' } });
  }
}

function lazyObject(t: LazySource, e: number): Record<string, unknown> {
  // Keys as JSON.parse orders them: array-index keys first, ascending; the last duplicate wins.
  const at = new Map<string, number>();
  for (const [k, v] of t.members(e)) at.set(t.string(k), v);
  const keys = [...at.keys()];
  const index = keys.filter(isIndex).sort((a, b) => Number(a) - Number(b));
  const ordered = index.length === 0 ? keys : [...index, ...keys.filter((k) => !isIndex(k))];
  const cache = new Map<string, unknown>();
  const read = (k: string): unknown => {
    if (!cache.has(k)) cache.set(k, lazyValue(t, at.get(k)!));
    return cache.get(k);
  };
  const target: Record<string, unknown> = {};
  return new Proxy(target, {
    get: (_t, k) => (typeof k === 'string' && at.has(k) ? read(k) : undefined),
    has: (_t, k) => typeof k === 'string' && at.has(k),
    ownKeys: () => ordered,
    getOwnPropertyDescriptor: (_t, k) => (typeof k === 'string' && at.has(k) ? { value: read(k), writable: true, enumerable: true, configurable: true } : undefined),
  });
}

const isIndex = (k: string): boolean => /^(?:0|[1-9]\d{0,9})$/.test(k) && Number(k) < 4294967295;
