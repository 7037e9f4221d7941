/**
 * Response validation at the boundary, hand-written for speed. A validator is a function
 * `(value) => Failure | undefined`; it allocates nothing on success, and on failure the path of the
 * bad field is assembled while the failure travels back up (so `result[3].ownership.owner` costs
 * nothing until something is wrong). A 1,000-asset batch validates in about a millisecond (see
 * bench/results/rpc.md), well below what a schema library with per-field path tracking costs.
 *
 * The spec marks few fields as required, so object validators check the type of every field that is
 * present and require only the fields the spec (or the protocol) guarantees.
 */
import { BadResponseError, ErrorCodes } from '../errors/index.js';

/** Where and why a value did not match. `path` is built innermost first, then reversed. */
export interface Failure {
  path: (string | number)[];
  expected: string;
  got: unknown;
}

export type Validator<T = unknown> = ((v: unknown) => Failure | undefined) & { readonly __type?: T };

/** The TypeScript type a validator checks for. */
export type Infer<V> = V extends Validator<infer T> ? T : never;

function fail(expected: string, got: unknown): Failure {
  return { path: [], expected, got };
}

const stringV: Validator<string> = (v) => (typeof v === 'string' ? undefined : fail('string', v));
const numberV: Validator<number> = (v) => (typeof v === 'number' && Number.isFinite(v) ? undefined : fail('number', v));
/**
 * An integer JS number, exactly as sent: a safe integer (so within i64 too). 2^53 and beyond may be
 * the rounding of another value, and 1e300 is an integer to `Number.isInteger` but no slot or count.
 */
const intV: Validator<number> = (v) => (Number.isSafeInteger(v) ? undefined : fail('integer', v));
const U64_END = 2n ** 64n;
/**
 * u64: 0 ≤ v < 2^64, as a safe integer number or as a bigint (json.ts gives integers beyond 2^53 as
 * bigint). An unsafe number (written with a fraction or an exponent) may be the rounding of another
 * value, so it is refused too.
 */
const u64V: Validator<number | bigint> = (v) =>
  ((typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'bigint' && v >= 0n && v < U64_END)
    ? undefined
    : fail('unsigned integer below 2^64', v));
const boolV: Validator<boolean> = (v) => (typeof v === 'boolean' ? undefined : fail('boolean', v));
const unknownV: Validator<unknown> = () => undefined;
const objectV: Validator<Record<string, unknown>> = (v) =>
  (v !== null && typeof v === 'object' && !Array.isArray(v) ? undefined : fail('object', v));

export const v = {
  string: stringV,
  number: numberV,
  int: intV,
  u64: u64V,
  bool: boolV,
  unknown: unknownV,
  /** Any JSON object, fields unchecked. */
  anyObject: objectV,

  /** One of the given string literals. */
  literal<T extends string>(...values: T[]): Validator<T> {
    const set = new Set<string>(values);
    const expected = values.map((x) => JSON.stringify(x)).join(' | ');
    return (x) => (typeof x === 'string' && set.has(x) ? undefined : fail(expected, x));
  },

  nullable<T>(inner: Validator<T>): Validator<T | null> {
    return (x) => (x === null ? undefined : inner(x));
  },

  /** Either of two validators (the first failure is reported when both fail). */
  or<A, B>(a: Validator<A>, b: Validator<B>): Validator<A | B> {
    return (x) => {
      const f = a(x);
      if (!f) return undefined;
      return b(x) ? f : undefined;
    };
  },

  array<T>(item: Validator<T>): Validator<T[]> {
    return (x) => {
      if (!Array.isArray(x)) return fail('array', x);
      for (let i = 0; i < x.length; i++) {
        const f = item(x[i]);
        if (f) {
          f.path.push(i);
          return f;
        }
      }
      return undefined;
    };
  },

  /** An object keyed by arbitrary strings, every value checked. */
  record<T>(item: Validator<T>): Validator<Record<string, T>> {
    return (x) => {
      const f0 = objectV(x);
      if (f0) return f0;
      for (const k in x as Record<string, unknown>) {
        const f = item((x as Record<string, unknown>)[k]);
        if (f) {
          f.path.push(k);
          return f;
        }
      }
      return undefined;
    };
  },

  /**
   * An object: `required` fields must be present (and match), `optional` ones match when present
   * (an explicit `null` is accepted only where the validator says `nullable`). Unknown fields pass.
   */
  object<R extends Record<string, Validator>, O extends Record<string, Validator> = {}>(
    required: R,
    optional?: O,
  ): Validator<{ [K in keyof R]: Infer<R[K]> } & { [K in keyof O]?: Infer<O[K]> }> {
    // parallel arrays: the hot loop reads two arrays by index instead of destructuring tuples
    const reqKeys = Object.keys(required);
    const reqVals = reqKeys.map((k) => required[k]);
    const optKeys = Object.keys(optional ?? {});
    const optVals = optKeys.map((k) => (optional as Record<string, Validator>)[k]);
    const nReq = reqKeys.length;
    const nOpt = optKeys.length;
    return (x) => {
      if (x === null || typeof x !== 'object' || Array.isArray(x)) return fail('object', x);
      const o = x as Record<string, unknown>;
      for (let i = 0; i < nReq; i++) {
        const fv = o[reqKeys[i]];
        const f = fv === undefined ? fail('a value (required field)', undefined) : reqVals[i](fv);
        if (f) {
          f.path.push(reqKeys[i]);
          return f;
        }
      }
      for (let i = 0; i < nOpt; i++) {
        const fv = o[optKeys[i]];
        if (fv === undefined) continue;
        const f = optVals[i](fv);
        if (f) {
          f.path.push(optKeys[i]);
          return f;
        }
      }
      return undefined;
    };
  },
};

/** `a.b[3].c` from path segments collected innermost first. */
export function formatPath(root: string, segs: (string | number)[]): string {
  let out = root;
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i];
    out += typeof s === 'number' ? `[${s}]` : /^[A-Za-z_$][\w$]*$/.test(s) ? `.${s}` : `[${JSON.stringify(s)}]`;
  }
  return out;
}

function show(x: unknown): string {
  if (x === undefined) return 'nothing';
  if (typeof x === 'bigint') return showBig(x);
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x);
  if (Array.isArray(x)) return 'an array';
  if (x === null) return 'null';
  if (typeof x === 'object') return 'an object';
  return `${typeof x} ${String(x)}`;
}

/** A bigint as its digits, or (printing a huge one is quadratic) as its first digits and its size. */
function showBig(x: bigint): string {
  if (x > -(10n ** 40n) && x < 10n ** 40n) return `${x}n`;
  const hex = (x < 0n ? -x : x).toString(16);
  return `${x < 0n ? '-' : ''}0x${hex.slice(0, 16)}…n (${hex.length} hex digits)`;
}

/**
 * Check `value` against `validator`; throw `BadResponseError` (code `RPC_SCHEMA`) naming the path.
 *
 * @example
 * assertShape(v.object({ id: v.string }), body, 'result', 'getAsset'); // ok, or throws "result.id: expected string, got number 5"
 */
export function assertShape<T>(validator: Validator<T>, value: unknown, root: string, method: string): T {
  const f = validator(value);
  if (!f) return value as T;
  const path = formatPath(root, f.path);
  throw new BadResponseError(ErrorCodes.RPC_SCHEMA, `${method}: ${path}: expected ${f.expected}, got ${show(f.got)}`, {
    context: { method, path, detail: `expected ${f.expected}` },
  });
}
