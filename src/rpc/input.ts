/**
 * Checks on caller input, run before anything is sent. Each throws `InputError` naming the field
 * (`"ids[3]": expected a base58 address …`), in the noble style: the wrong thing, what was
 * expected, what was found.
 */
import { InputError } from '../errors.js';

/** The spec's pattern for wallet addresses (and every base58 account id). */
export const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** Transaction signatures: 64 bytes in base58. */
export const BASE58_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

function show(x: unknown): string {
  if (typeof x === 'string') return JSON.stringify(x.length > 60 ? `${x.slice(0, 60)}…` : x);
  if (x === null) return 'null';
  if (Array.isArray(x)) return `an array of ${x.length}`;
  return typeof x === 'object' ? 'an object' : `${typeof x} ${String(x)}`;
}

export function assertObject(field: string, x: unknown): asserts x is Record<string, unknown> {
  if (x === null || typeof x !== 'object' || Array.isArray(x)) {
    throw new InputError(field, `expected an object, got ${show(x)}`, { expected: 'object', got: show(x) });
  }
}

export function assertString(field: string, x: unknown, opts: { nonEmpty?: boolean } = {}): asserts x is string {
  if (typeof x !== 'string' || (opts.nonEmpty && x.length === 0)) {
    throw new InputError(field, `expected a ${opts.nonEmpty ? 'non-empty ' : ''}string, got ${show(x)}`, {
      expected: 'string',
      got: show(x),
    });
  }
}

export function assertAddress(field: string, x: unknown): asserts x is string {
  if (typeof x !== 'string' || !BASE58_ADDRESS.test(x)) {
    throw new InputError(field, `expected a base58 address (32-44 characters of the base58 alphabet), got ${show(x)}`, {
      expected: 'base58 address',
      got: show(x),
    });
  }
}

export function assertSignature(field: string, x: unknown): asserts x is string {
  if (typeof x !== 'string' || !BASE58_SIGNATURE.test(x)) {
    throw new InputError(field, `expected a base58 transaction signature (64-88 characters), got ${show(x)}`, {
      expected: 'base58 signature',
      got: show(x),
    });
  }
}

export function assertBool(field: string, x: unknown): asserts x is boolean {
  if (typeof x !== 'boolean') throw new InputError(field, `expected a boolean, got ${show(x)}`, { expected: 'boolean', got: show(x) });
}

export function assertInt(field: string, x: unknown, min: number, max: number): asserts x is number {
  if (!Number.isInteger(x) || (x as number) < min || (x as number) > max) {
    throw new InputError(field, `expected an integer in ${min}..${max}, got ${show(x)}`, {
      expected: `integer ${min}..${max}`,
      got: show(x),
    });
  }
}

export function assertOneOf<T extends string>(field: string, x: unknown, values: readonly T[]): asserts x is T {
  if (typeof x !== 'string' || !(values as readonly string[]).includes(x)) {
    throw new InputError(field, `expected one of ${values.join(', ')}, got ${show(x)}`, { expected: values.join('|'), got: show(x) });
  }
}

/** An array of `min`.. items, each checked by `item(field[i], value)`. `max` is not enforced (callers split). */
export function assertArray<T>(field: string, x: unknown, item: (f: string, v: unknown) => void, min = 0): asserts x is T[] {
  if (!Array.isArray(x)) throw new InputError(field, `expected an array, got ${show(x)}`, { expected: 'array', got: show(x) });
  if (x.length < min) throw new InputError(field, `expected at least ${min} item(s), got ${x.length}`, { expected: `>= ${min} items`, got: x.length });
  for (let i = 0; i < x.length; i++) item(`${field}[${i}]`, x[i]);
}

/** Check an optional field only when it is present. */
export function optional(field: string, x: unknown, check: (f: string, v: unknown) => void): void {
  if (x !== undefined) check(field, x);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A signed transaction as bytes, or as a base64 string; returns base64. */
export function wireToBase64(field: string, wire: unknown): string {
  if (wire instanceof Uint8Array) {
    if (wire.length === 0) throw new InputError(field, 'expected a non-empty transaction, got 0 bytes', { expected: 'bytes', got: 0 });
    return Buffer.from(wire.buffer, wire.byteOffset, wire.byteLength).toString('base64');
  }
  if (typeof wire === 'string' && wire.length > 0 && wire.length % 4 === 0 && BASE64.test(wire)) return wire;
  throw new InputError(field, `expected the signed transaction as a Uint8Array or a base64 string, got ${show(wire)}`, {
    expected: 'Uint8Array | base64',
    got: show(wire),
  });
}

/** Split `items` into chunks of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Map `items` through `fn` with at most `limit` in flight, results in input order. Each call gets a
 * signal linked to the caller's: the first failure rejects at once AND aborts the calls still in
 * flight (and their retries), so nothing keeps running after the caller has its error.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal | undefined,
  fn: (item: T, index: number, signal: AbortSignal) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  const ac = new AbortController();
  const onAbort = () => ac.abort(signal?.reason);
  if (signal?.aborted) ac.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!ac.signal.aborted && next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i, ac.signal);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
    if (ac.signal.aborted) throw ac.signal.reason ?? new Error('aborted');
    return out;
  } catch (e) {
    ac.abort(new Error('a sibling request failed'));
    throw e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
