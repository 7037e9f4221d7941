/**
 * Checks on caller input shared by every part, run before anything is sent or computed. Each throws
 * `InputError` naming the field (`"ids[3]": expected a base58 address …`), in the noble style: the
 * wrong thing, what was expected, what was found.
 */
import { InputError } from './errors/index.js';

/** The spec's pattern for wallet addresses (and every base58 account id). */
export const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** Transaction signatures: 64 bytes in base58. */
const BASE58_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

/** How a value is named in an assertion's message: short strings quoted, others by kind. */
export function show(x: unknown): string {
  if (typeof x === 'string') return JSON.stringify(x.length > 60 ? `${x.slice(0, 60)}…` : x);
  if (x === null) return 'null';
  if (Array.isArray(x)) return `an array of ${x.length}`;
  return typeof x === 'object' ? 'an object' : `${typeof x} ${String(x)}`;
}

/** A plain object: not null, not an array (JSON's `{…}`). */
export function isPlainObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

export function assertObject(field: string, x: unknown): asserts x is Record<string, unknown> {
  if (!isPlainObject(x)) {
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

/**
 * An address as the modules check it, after the client's normaliser (solana/inputs.ts) has turned a
 * web3.js `PublicKey` into text: so the message names the forms a caller may pass.
 */
export function assertAddress(field: string, x: unknown): asserts x is string {
  if (typeof x !== 'string' || !BASE58_ADDRESS.test(x)) {
    throw new InputError(field, `expected a base58 address (32-44 characters of the base58 alphabet; a web3.js PublicKey or a kit Address is taken too), got ${show(x)}`, {
      expected: 'base58 address | PublicKey | kit Address',
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
