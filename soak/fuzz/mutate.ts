/**
 * Near-miss mutations of real JSON (a vector, a fixture): one to three edits at paths of the value,
 * each drawn by fast-check as a small descriptor and applied deterministically, so a counterexample is
 * "base + edits" (short to print) rather than a megabyte of mutated JSON.
 */
import bs58 from 'bs58';
import fc from 'fast-check';

export type Path = (string | number)[];

/** What one edit does at its path. */
export const OPS = [
  'drop', // delete the member / remove the array element
  'retype', // replace by a value of another JSON type
  'flip', // flip one bit: of a base58 string's bytes, of a number, of a boolean
  'truncate', // cut a string or an array short
  'huge', // an out-of-range number (2^53+1, 2^64, 1e308, -1, 1.5, -0, 10^30)
  'null', // replace by null
  'long', // a very long string (base58 alphabet or not)
  'deep', // deeply nested arrays/objects
  'swap', // swap two elements of an array (or the value with a sibling)
  'junk', // any JSON value
  'extra', // add an unknown member / element beside it
] as const;
export type Op = (typeof OPS)[number];

export interface Edit {
  /** Index into the value's paths (modulo their number). */
  at: number;
  op: Op;
  /** Drives the op's choices (which bit, how long, which type). */
  k: number;
  junk: unknown;
}

/** Edits to apply to a base value; printed as the counterexample. */
export const editsArb: fc.Arbitrary<Edit[]> = fc.array(
  fc.record({ at: fc.nat(), op: fc.constantFrom(...OPS), k: fc.nat(), junk: fc.jsonValue({ maxDepth: 2 }) }),
  { minLength: 1, maxLength: 3 },
);

/** How far the edits go: `FULL`, or held back while an open defect would fail every run. */
export interface Reach {
  /** Longest string the "long" op makes. */
  longMax: number;
  /** Whether the "huge" op may put bigints in (else their nearest numbers). */
  bigints: boolean;
  /** Whether the "huge" op may put integers of 16 digits or more in (else only -1, 1.5, -0, 1e308, 2^32). */
  longIntegers: boolean;
}
export const FULL: Reach = { longMax: 200_000, bigints: true, longIntegers: true };
/** The "long" op's strings when long ones are held back. */
export const LONG_CAPPED = 2_000;

/** Every path of a JSON value (the root included), parents before children. */
export function pathsOf(v: unknown, out: Path[] = [], at: Path = []): Path[] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, out, [...at, i]));
  else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) pathsOf((v as Record<string, unknown>)[k], out, [...at, k]);
  return out;
}

export function getAt(v: unknown, p: Path): unknown {
  let cur = v;
  for (const s of p) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[s];
  }
  return cur;
}

/** A copy of `v` with the value at `p` replaced (`undefined`: removed). */
export function setAt(v: unknown, p: Path, x: unknown): unknown {
  if (p.length === 0) return x;
  const [head, ...rest] = p;
  if (Array.isArray(v)) {
    const out = v.slice();
    if (x === undefined && rest.length === 0) out.splice(head as number, 1);
    else out[head as number] = setAt(v[head as number], rest, x);
    return out;
  }
  if (v !== null && typeof v === 'object') {
    const out = { ...(v as Record<string, unknown>) };
    if (x === undefined && rest.length === 0) delete out[head as string];
    else out[head as string] = setAt(out[head as string], rest, x);
    return out;
  }
  return v;
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HUGE: unknown[] = [2 ** 53 + 1, 2n ** 64n, 2n ** 64n - 1n, 1e308, -1, 1.5, -0, 10n ** 30n, 2 ** 32, -(2n ** 63n), Number.MAX_SAFE_INTEGER];
const SHORT_HUGE: unknown[] = HUGE.filter((h) => String(h).replace('-', '').length < 16);

/** Nested arrays (or objects) `depth` deep around `inner`. */
export function nest(depth: number, inner: unknown, objects = false): unknown {
  let v = inner;
  for (let i = 0; i < depth; i++) v = objects ? { a: v } : [v];
  return v;
}

function flipValue(x: unknown, k: number): unknown {
  if (typeof x === 'string') {
    let bytes: Uint8Array | null = null;
    try {
      // hashes, addresses, signatures; a longer text would cost the mutation itself seconds (bs58 is quadratic)
      if (x.length <= 100) bytes = bs58.decode(x);
    } catch {
      /* not base58: flip a bit of a character instead */
    }
    if (bytes && bytes.length > 0) {
      const b = Uint8Array.from(bytes);
      b[k % b.length]! ^= 1 << (k % 8);
      return bs58.encode(b);
    }
    if (x.length === 0) return 'x';
    const i = k % x.length;
    return x.slice(0, i) + String.fromCharCode(x.charCodeAt(i) ^ (1 << (k % 7))) + x.slice(i + 1);
  }
  if (typeof x === 'number') return Number.isSafeInteger(x) ? x ^ (1 << (k % 31)) : -x;
  if (typeof x === 'bigint') return x ^ (1n << BigInt(k % 64));
  if (typeof x === 'boolean') return !x;
  return x;
}

function retype(x: unknown, k: number): unknown {
  const choices: unknown[] = ['5', 5, true, {}, [], [1, 2], { x: 1 }, '', 0];
  const t = (y: unknown) => (Array.isArray(y) ? 'array' : y === null ? 'null' : typeof y);
  const others = choices.filter((c) => t(c) !== t(x));
  return others[k % others.length];
}

/** Apply one edit; returns the new value and the path it touched. */
function applyEdit(v: unknown, e: Edit, reach: Reach = FULL): { value: unknown; path: Path } {
  const paths = pathsOf(v);
  const path = paths[e.at % paths.length]!;
  const cur = getAt(v, path);
  const k = e.k;
  switch (e.op) {
    case 'drop':
      return { value: path.length ? setAt(v, path, undefined) : null, path };
    case 'retype':
      return { value: setAt(v, path, retype(cur, k)), path };
    case 'flip':
      return { value: setAt(v, path, flipValue(cur, k)), path };
    case 'truncate':
      if (typeof cur === 'string') return { value: setAt(v, path, cur.slice(0, k % Math.max(1, cur.length))), path };
      if (Array.isArray(cur)) return { value: setAt(v, path, cur.slice(0, k % Math.max(1, cur.length))), path };
      return { value: setAt(v, path, ''), path };
    case 'huge': {
      const pool = reach.longIntegers ? HUGE : SHORT_HUGE;
      const h = pool[k % pool.length];
      return { value: setAt(v, path, typeof h === 'bigint' && !reach.bigints ? Number(h) : h), path };
    }
    case 'null':
      return { value: setAt(v, path, null), path };
    case 'long': {
      const n = Math.min(reach.longMax, 1_000 + (k % FULL.longMax));
      const s = k % 2 === 0 ? B58.repeat(Math.ceil(n / 58)).slice(0, n) : '\u00e9'.repeat(n);
      return { value: setAt(v, path, s), path };
    }
    case 'deep':
      return { value: setAt(v, path, nest(100 + (k % 1_900), cur ?? 1, k % 2 === 1)), path };
    case 'swap': {
      if (Array.isArray(cur) && cur.length > 1) {
        const a = k % cur.length;
        const b = (a + 1 + ((k >> 8) % (cur.length - 1))) % cur.length;
        const out = cur.slice();
        [out[a], out[b]] = [out[b], out[a]];
        return { value: setAt(v, path, out), path };
      }
      const sib = paths[(e.at + 1 + k) % paths.length]!;
      return { value: setAt(v, path, structuredClone(getAt(v, sib))), path };
    }
    case 'junk':
      return { value: setAt(v, path, e.junk), path };
    case 'extra':
      if (Array.isArray(cur)) return { value: setAt(v, path, [...cur, e.junk]), path: [...path, cur.length] };
      if (cur !== null && typeof cur === 'object') return { value: setAt(v, path, { ...(cur as object), __fuzz_extra: e.junk }), path: [...path, '__fuzz_extra'] };
      return { value: setAt(v, path, [cur, e.junk]), path };
  }
}

/** Apply edits in order; returns the result and every path touched. */
export function applyEdits(v: unknown, edits: readonly Edit[], reach: Reach = FULL): { value: unknown; paths: Path[] } {
  let cur = v;
  const paths: Path[] = [];
  for (const e of edits) {
    const r = applyEdit(cur, e, reach);
    cur = r.value;
    paths.push(r.path);
  }
  return { value: cur, paths };
}

/** JSON text of a value that may hold bigints (written as exact digits, as the service does). */
export function toJsonText(v: unknown): string {
  return (JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `__big${x}__` : x)) ?? 'null').replace(/"__big(-?\d+)__"/g, '$1');
}

/** Raw-text mutations of a JSON document, for the byte-input forms. */
export const TEXT_OPS = ['cut', 'byte', 'insert', 'bignum', 'nest', 'dup-key', 'utf8'] as const;
export interface TextEdit {
  op: (typeof TEXT_OPS)[number];
  at: number;
  k: number;
}
export const textEditsArb: fc.Arbitrary<TextEdit[]> = fc.array(fc.record({ op: fc.constantFrom(...TEXT_OPS), at: fc.nat(), k: fc.nat() }), {
  minLength: 1,
  maxLength: 2,
});

/**
 * Close what a text leaves open past `depth` levels (brackets outside strings), innermost first: while
 * an open defect hangs the bytes path on a truncated deep text, truncated texts stay shallow.
 */
export function closeDeep(b: Buffer, depth: number): Buffer {
  const open: number[] = [];
  let inString = false;
  for (let i = 0; i < b.length; i++) {
    const c = b[i]!;
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) open.push(c);
    else if (c === 0x5d || c === 0x7d) open.pop();
  }
  if (open.length <= depth) return b;
  const closers = open.reverse().map((c) => (c === 0x5b ? 0x5d : 0x7d));
  return Buffer.concat([b, Buffer.from(closers)]);
}

export function applyTextEdits(text: string, edits: readonly TextEdit[], maxOpenDepth = Infinity): Uint8Array {
  let b: Buffer = Buffer.from(text, 'utf8');
  for (const e of edits) {
    const at = b.length ? e.at % b.length : 0;
    switch (e.op) {
      case 'cut':
        b = b.subarray(0, at);
        break;
      case 'byte': {
        const c = Buffer.from(b);
        if (c.length) c[at] = c[at]! ^ (1 << (e.k % 8));
        b = c;
        break;
      }
      case 'insert':
        b = Buffer.concat([b.subarray(0, at), Buffer.from(['{', '[', ']', '}', ',', ':', '"', '\\', '-', '1e9999', 'null'][e.k % 11]!), b.subarray(at)]);
        break;
      case 'bignum': {
        // the next number literal becomes a very long one (huge integer, long fraction or exponent)
        const s = b.toString('latin1');
        const m = /-?\d+/g;
        m.lastIndex = at;
        const hit = m.exec(s);
        if (!hit) break;
        const big = ['9'.repeat(20 + (e.k % 5_000)), `1e${400 + (e.k % 100_000)}`, `0.${'1'.repeat(50 + (e.k % 5_000))}`, '-0', `1${'0'.repeat(19)}`][e.k % 5]!;
        b = Buffer.concat([b.subarray(0, hit.index), Buffer.from(big), b.subarray(hit.index + hit[0].length)]);
        break;
      }
      case 'nest': {
        const d = 1_000 + (e.k % 200_000);
        b = Buffer.concat([b.subarray(0, at), Buffer.from('['.repeat(d) + ']'.repeat(d)), b.subarray(at)]);
        break;
      }
      case 'dup-key':
        b = Buffer.concat([Buffer.from('{"items":null,'), b.subarray(b[0] === 0x7b ? 1 : 0)]);
        break;
      case 'utf8':
        b = Buffer.concat([b.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff, 0xed, 0xa0, 0x80].slice(e.k % 3)), b.subarray(at)]);
        break;
    }
  }
  if (maxOpenDepth !== Infinity) b = closeDeep(b, maxOpenDepth);
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}
