/**
 * The JSON structure scanners: native/json_scan.c (the addon's `jsonScan`) must return the same value
 * and leave the same tape — every u32 of it, partial entries of a failed scan and tape[0]'s error
 * offset included — as the reference src/json/scan-js.ts; and the reference must accept exactly
 * what `JSON.parse(new TextDecoder().decode(bytes))` accepts (below MAX_DEPTH), with a tape that
 * rebuilds to the same value. Corpora: hand-written edge cases (every error kind in several places,
 * strings whose special bytes fall around every 16-byte boundary of the SIMD path, numbers, literals,
 * nesting at MAX_DEPTH, every small tape size), every JSON file under test/vectors, and a seeded fuzz
 * of generated texts and byte mutations of them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CairnError } from '../../src/errors/index.js';
import { loadNative, nativeLoadError } from '../../src/addon.js';
import { newJsScanState, scanJsonJs } from '../../src/json/scan-js.js';
import { JsonScan, jsonScanBackend, scanJson } from '../../src/json/index.js';
import { ENTRY, F_ESCAPED, MAX_DEPTH, MAX_NUMBER_CHARS, NATIVE_STATE_LONG, NATIVE_STATE_U32S, ScanError, SUSPENDED, T_ARRAY, T_FALSE, T_KEY, T_NULL, T_NUMBER, T_OBJECT, T_STRING, T_TRUE, TAPE_FULL, TYPE_MASK } from '../../src/json/tape-format.js';

// CAIRN_TEST_JSON_SCAN_ADDON=<path of a .node exporting jsonScan> tests another build of json_scan.c
// (e.g. one with -DCAIRN_JSON_NO_SIMD, the portable path) in place of the addon's.
const altAddon = process.env.CAIRN_TEST_JSON_SCAN_ADDON;
const native = altAddon ? (createRequire(import.meta.url)(altAddon) as { jsonScan: Scan }).jsonScan : (loadNative()?.jsonScan ?? null);
const enc = new TextEncoder();
const dec = new TextDecoder();
const err = (e: ScanError): number => -(2 + e);

type Scan = (b: Uint8Array, t: Uint32Array, state?: never, stopAt?: number) => number;
/** A scan on a fresh zeroed tape of `u32s` (default: room for one entry per byte, enough for any text). */
function scan(f: Scan, bytes: Uint8Array, u32s = ENTRY * (bytes.length + 1)): { ret: number; tape: Uint32Array } {
  const tape = new Uint32Array(u32s);
  return { ret: f(bytes, tape), tape };
}

const parses = (bytes: Uint8Array): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(dec.decode(bytes)) as unknown };
  } catch {
    return { ok: false };
  }
};

/** The value the tape describes, checking its depths, ends and subtree indices on the way. */
function rebuild(bytes: Uint8Array, tape: Uint32Array, count: number): unknown {
  const same = (got: unknown, want: unknown, what: string): void => {
    if (got !== want) throw new Error(`tape: ${what} is ${String(got)}, expected ${String(want)}`);
  };
  const text = (a: number, b: number): string => dec.decode(bytes.subarray(a, b));
  const at = (e: number, depth: number): [unknown, number] => {
    same(e < count, true, `entry ${e} < count ${count}`);
    const w = tape[e * ENTRY]!;
    const [start, end, next] = [tape[e * ENTRY + 1]!, tape[e * ENTRY + 2]!, tape[e * ENTRY + 3]!];
    same(w >>> 8, depth, `depth of entry ${e}`);
    const type = w & TYPE_MASK;
    switch (type) {
      case T_OBJECT:
      case T_ARRAY: {
        same(bytes[start], type === T_OBJECT ? 0x7b : 0x5b, `opening byte of entry ${e}`);
        same(bytes[end - 1], type === T_OBJECT ? 0x7d : 0x5d, `closing byte of entry ${e}`);
        const obj: Record<string, unknown> = {};
        const arr: unknown[] = [];
        let k = e + 1;
        while (k < next) {
          if (type === T_OBJECT) {
            same(tape[k * ENTRY]! & TYPE_MASK, T_KEY, `type of key entry ${k}`);
            same(tape[k * ENTRY]! >>> 8, depth + 1, `depth of key entry ${k}`);
            const key = JSON.parse(text(tape[k * ENTRY + 1]!, tape[k * ENTRY + 2]!)) as string;
            same(Boolean(tape[k * ENTRY]! & F_ESCAPED), text(tape[k * ENTRY + 1]!, tape[k * ENTRY + 2]!).includes('\\'), `F_ESCAPED of key entry ${k}`);
            const [v, after] = at(k + 1, depth + 1);
            same(tape[k * ENTRY + 3], after, `next of key entry ${k}`);
            Object.defineProperty(obj, key, { value: v, enumerable: true, configurable: true, writable: true });
            k = after;
          } else {
            const [v, after] = at(k, depth + 1);
            arr.push(v);
            k = after;
          }
        }
        same(k, next, `next of entry ${e}`);
        return [type === T_OBJECT ? obj : arr, next];
      }
      case T_STRING: {
        const s = text(start, end);
        same(Boolean(w & F_ESCAPED), s.includes('\\'), `F_ESCAPED of entry ${e}`);
        same(next, e + 1, `next of entry ${e}`);
        return [JSON.parse(s), next];
      }
      case T_NUMBER:
        same(next, e + 1, `next of entry ${e}`);
        return [JSON.parse(text(start, end)), next];
      case T_TRUE:
      case T_FALSE:
      case T_NULL:
        same(next, e + 1, `next of entry ${e}`);
        same(text(start, end), type === T_TRUE ? 'true' : type === T_FALSE ? 'false' : 'null', `literal entry ${e}`);
        return [type === T_TRUE ? true : type === T_FALSE ? false : null, next];
      default:
        throw new Error(`entry ${e}: type ${type}`);
    }
  };
  const [v, next] = at(0, 0);
  same(next, count, 'next of the root');
  return v;
}

/** The reference against JSON.parse: same validity, and a valid text's tape rebuilds to the same value. */
function checkReference(bytes: Uint8Array, label: string): number {
  const { ret, tape } = scan(scanJsonJs, bytes);
  const p = parses(bytes);
  expect(ret !== TAPE_FULL, label).toBe(true);
  // JSON.parse nests deeper and reads longer numbers; checked by the callers
  if (ret === err(ScanError.TooDeep) || ret === err(ScanError.NumberTooLong)) return ret;
  expect(ret >= 0, `${label}: scan ${ret} @${tape[0]} vs JSON.parse ${p.ok ? 'ok' : 'error'}`).toBe(p.ok);
  if (p.ok) expect(rebuild(bytes, tape, ret), label).toEqual(p.value);
  else expect(tape[0]!, label).toBeLessThanOrEqual(bytes.length);
  return ret;
}

/** Native against the reference: same return value, same tape (every u32). */
function checkNative(bytes: Uint8Array, label: string, u32s?: number): void {
  const a = scan(scanJsonJs, bytes, u32s);
  const b = scan(native!, bytes, u32s);
  if (a.ret !== b.ret) expect(`${b.ret} @${b.tape[0]}`, label).toBe(`${a.ret} @${a.tape[0]}`);
  if (Buffer.compare(Buffer.from(a.tape.buffer), Buffer.from(b.tape.buffer)) !== 0) {
    const i = a.tape.findIndex((v, k) => v !== b.tape[k]);
    expect(`tape[${i}] = ${b.tape[i]}`, label).toBe(`tape[${i}] = ${a.tape[i]}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Corpora

const u8 = (s: string | Uint8Array): Uint8Array => (typeof s === 'string' ? enc.encode(s) : s);
const bytesOf = (...parts: Array<string | number[]>): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...enc.encode(p)] : p)));

/** A fragment in several places: alone, in an array (first, later), as an object member, nested deep. */
const contexts = (x: string): string[] => [x, ` ${x} `, `[${x}]`, `[1, ${x}]`, `{"a": ${x}}`, `{"a":1,"b":${x}}`, `[{"k":[true,${x}]}]`, `\n\t[ [ [ ${x} ] ] ]\r\n`];

const fragments = [
  // scalars and containers, valid
  '0', '-0', '0.5e-3', '1E+2', '1e2', '-1.25E-10', '123456789012345678901234567890', '1e400', 'true', 'false', 'null',
  '""', '"a"', '[]', '{}', '[ ]', '{ }', '[[]]', '{"":{}}', '{"a":{"b":{"c":[]}}}', '[1,[2,[3,{"x":[4]}]]]',
  '{"a":1,"a":2}', '{"__proto__":1}', '"\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\uD83D\\uDE00\\u00e9\\uFFFF\\uabcd"', '"é😀\u0000"',
  '"\\ud800"', '"\u007f"', '"/"', '"\\/"',
  // numbers, invalid
  '01', '00', '-01', '1.', '.5', '-', '--1', '+1', '1e', '1e+', '1E-', '1.e5', '-.5', '0x10', '1_000', 'Infinity', 'NaN', '-Infinity', '1.5.5', '1e5e5', '0.', '-a',
  // literals, truncated or wrong
  't', 'tr', 'tru', 'f', 'fa', 'fal', 'fals', 'n', 'nu', 'nul', 'True', 'nulll', 'truefalse', 'nan', 'undefined',
  // strings, invalid
  '"', '"abc', '"\\', '"\\"', '"\\u', '"\\u1', '"\\u12', '"\\u123', '"\\u1234', '"\\u12G4"', '"\\uZZZZ"', '"\\u12"', '"\\x41"', "\"\\'\"", '"\\U0041"', '"\\ "',
  '"a\u0001b"', '"\u001f"', '"\t"', '"\n"', '"\r"', '"\\\n"',
  // structure, invalid
  '[', ']', '{', '}', '[1', '[1,', '[1,]', '[,1]', '[1 2]', '{"a"}', '{"a":}', '{"a" 1}', '{a:1}', "{'a':1}", '{"a":1,}', '{,}', '{"a":1 "b":2}', '{"a":1]', '[1}',
  ':', ',', '"a":1', '[1]]', '{}}', '[] []', '1 2', '/* c */ 1', '\u00a0 1', '\u2028', '\f1', '\v1',
];

const handCases: Array<[string, Uint8Array]> = [];
const add = (label: string, b: string | Uint8Array): void => void handCases.push([label, u8(b)]);
add('empty', '');
for (const ws of [' ', '\t', '\n', '\r', ' \t\n\r ', ' '.repeat(40)]) add(`whitespace ${JSON.stringify(ws)}`, ws);
for (const f of fragments) for (const c of contexts(f)) add(c, c);
for (const f of fragments) add(`${f} + trailing`, `${f} x`);
// raw bytes: every control byte inside a string, non-ASCII and invalid UTF-8 inside and outside strings
for (let c = 0; c < 0x20; c++) add(`control ${c}`, bytesOf('["ab', [c], 'cd"]'));
for (const bad of [[0x80], [0xff], [0xc0, 0xaf], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xed, 0xa0, 0x80], [0xc3, 0xa9], [0xef, 0xbb, 0xbf]]) {
  add(`in a string ${bad}`, bytesOf('{"k":"x', bad, 'y"}'));
  add(`at the end of a string ${bad}`, bytesOf('"', bad, '"'));
  add(`unterminated ${bad}`, bytesOf('"', bad));
  add(`outside a string ${bad}`, bytesOf('[1,', bad, ']'));
  add(`before a quote ${bad}`, bytesOf('"a', bad, '"'));
}
// a leading byte order mark is what TextDecoder drops; anywhere else it is not whitespace
add('BOM', bytesOf([0xef, 0xbb, 0xbf], '{"a":1}'));
add('BOM only', bytesOf([0xef, 0xbb, 0xbf]));
add('BOM + ws', bytesOf([0xef, 0xbb, 0xbf], ' \n'));
add('BOM twice', bytesOf([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], '1'));
add('ws + BOM', bytesOf(' ', [0xef, 0xbb, 0xbf], '1'));
add('partial BOM', bytesOf([0xef, 0xbb], '1'));
// special bytes at every offset around 16-byte boundaries, with the string at every alignment
for (let pad = 0; pad < 18; pad++) {
  for (let k = 0; k < 36; k++) {
    for (const x of ['\\n', '\\u0041', '\\u004', '\\"', '\\\\', '"', '\x01', '\x1f', ' ', '\x7f', 'é', '\\q']) {
      add(`pad ${pad} k ${k} ${JSON.stringify(x)}`, `${' '.repeat(pad)}"${'a'.repeat(k)}${x}${'b'.repeat(35 - k)}"`);
    }
    add(`unterminated pad ${pad} len ${k}`, `${' '.repeat(pad)}"${'a'.repeat(k)}`);
    add(`unterminated escape pad ${pad} len ${k}`, `${' '.repeat(pad)}"${'a'.repeat(k)}\\`);
    add(`key pad ${pad} len ${k}`, `{${' '.repeat(pad)}"${'a'.repeat(k)}":"${'b'.repeat(k)}"}`);
  }
}
// numbers at and over MAX_NUMBER_CHARS, of every form
for (const lit of ['1'.repeat(40), '1'.repeat(41), `-${'1'.repeat(39)}`, `-${'1'.repeat(40)}`, `1.${'5'.repeat(38)}`, `1.${'5'.repeat(39)}`, `1e${'0'.repeat(38)}`, `1e+${'0'.repeat(38)}`, `0.${'0'.repeat(60)}`, `1${'0'.repeat(40)}.`, `1${'0'.repeat(40)}x`]) {
  for (const c of contexts(lit)) add(`long number ${c}`, c);
}
// long strings, many entries
add('long string', `"${'x'.repeat(5000)}\\n${'y'.repeat(3000)}"`);
add('long array', `[${Array.from({ length: 2000 }, (_, i) => `"${'z'.repeat(i % 50)}"`).join(',')}]`);

const deepArr = (d: number): string => '['.repeat(d) + ']'.repeat(d);
const deepObj = (d: number): string => '{"a":'.repeat(d - 1) + '{}' + '}'.repeat(d - 1);
const deepMixed = (d: number): string => Array.from({ length: d }, (_, i) => (i % 2 ? '{"k":' : '[')).join('') + '0' + Array.from({ length: d }, (_, i) => (i % 2 ? '}' : ']')).reverse().join('');

// ---------------------------------------------------------------------------------------------------
// Fuzz: a seeded generator of JSON texts (whitespace, escapes and numbers of every form) and byte mutations

function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fuzzCorpus(seed: number, count: number): Uint8Array[] {
  const r = rng(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
  const int = (n: number): number => Math.floor(r() * n);
  const ws = (): string => (r() < 0.6 ? '' : Array.from({ length: int(4) }, () => pick([' ', '\n', '\t', '\r', '  '])).join(''));
  const digits = (min: number): string => Array.from({ length: min + int(4) }, () => String(int(10))).join('');
  const number = (): string => {
    let s = (r() < 0.3 ? '-' : '') + (r() < 0.3 ? '0' : String(1 + int(9)) + digits(0));
    if (r() < 0.3) s += '.' + digits(1);
    if (r() < 0.3) s += pick(['e', 'E']) + pick(['', '+', '-']) + digits(1);
    return s;
  };
  const b58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  const string = (): string => {
    if (r() < 0.4) return '"' + Array.from({ length: 32 + int(13) }, () => pick([...b58])).join('') + '"';
    const parts = Array.from({ length: int(24) }, () =>
      pick(['a', 'Z', '0', ' ', '/', 'é', '😀', '\u007f', '\\n', '\\"', '\\\\', '\\/', '\\b', '\\f', '\\r', '\\t', '\\u0041', '\\uD83D\\uDE00', '\\ud800', 'xyzxyzxyzxyz']),
    );
    return '"' + parts.join('') + '"';
  };
  const value = (d: number): string => {
    const k = int(d > 4 ? 6 : 9);
    switch (k) {
      case 0: return number();
      case 1: return pick(['true', 'false', 'null']);
      case 2: case 3: case 4: case 5: return string();
      case 6: return '[' + ws() + Array.from({ length: int(5) }, () => ws() + value(d + 1) + ws()).join(',') + ws() + ']';
      default: return '{' + ws() + Array.from({ length: int(5) }, () => ws() + string() + ws() + ':' + ws() + value(d + 1) + ws()).join(',') + ws() + '}';
    }
  };
  const interesting = [...'{}[],:"\\ \n\t\r0123456789-+.eEtfnrulsa/u'].map((c) => c.charCodeAt(0)).concat([0, 1, 0x1f, 0x7f, 0x80, 0xc3, 0xe2, 0xef, 0xff]);
  const out: Uint8Array[] = [];
  for (let n = 0; n < count; n++) {
    const text = u8(ws() + value(0) + ws());
    out.push(text);
    for (let m = 0; m < 2; m++) {
      const b = [...text];
      for (let e = 1 + int(3); e > 0; e--) {
        const at = int(b.length + 1);
        switch (int(5)) {
          case 0: b.splice(at, 1); break;
          case 1: b.splice(at, 0, pick(interesting)); break;
          case 2: if (at < b.length) b[at] = pick(interesting); break;
          case 3: b.length = at; break;
          default: { const from = int(b.length + 1); b.splice(at, 0, ...b.slice(from, from + int(8))); }
        }
      }
      out.push(Uint8Array.from(b));
    }
  }
  return out;
}
const fuzz = fuzzCorpus(0x5eed, 1500);

// The test vectors: every .json file under test/vectors.
const vectorDir = join(import.meta.dirname, '..', 'vectors');
const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : f.endsWith('.json') ? [join(d, f)] : []));
const vectors = walk(vectorDir).map((p) => [p.slice(vectorDir.length + 1), new Uint8Array(readFileSync(p))] as const);

// ---------------------------------------------------------------------------------------------------

describe('scanJsonJs (the reference) against JSON.parse', () => {
  it('hand-written edge cases: same validity, a valid tape rebuilds the value', () => {
    for (const [label, b] of handCases) checkReference(b, label);
  });

  it('the error kinds and their offsets', () => {
    const cases: Array<[string | Uint8Array, ScanError, number]> = [
      ['', ScanError.UnexpectedEnd, 0],
      ['   ', ScanError.UnexpectedEnd, 3],
      ['[1,', ScanError.UnexpectedEnd, 3],
      ['{"a" ', ScanError.UnexpectedEnd, 5],
      ['[1 2]', ScanError.UnexpectedCharacter, 3],
      ['{"a":1,}', ScanError.UnexpectedCharacter, 7],
      ['[tru]', ScanError.UnexpectedCharacter, 1],
      ['[1, "ab', ScanError.UnterminatedString, 4],
      ['"\\u12', ScanError.UnterminatedString, 0],
      ['{"k": "a\nb"}', ScanError.ControlCharacter, 8],
      ['[ "ab\\x"]', ScanError.BadEscape, 5],
      ['"\\u12G4"', ScanError.BadEscape, 1],
      ['[1, -01]', ScanError.UnexpectedCharacter, 6],
      ['[1, 1.]', ScanError.BadNumber, 4],
      ['  -', ScanError.BadNumber, 2],
      ['{"a":1e+}', ScanError.BadNumber, 5],
      ['01', ScanError.TrailingContent, 1],
      ['{} \n x', ScanError.TrailingContent, 5],
      [deepArr(MAX_DEPTH + 1), ScanError.TooDeep, MAX_DEPTH],
      [deepObj(MAX_DEPTH + 1), ScanError.TooDeep, 5 * MAX_DEPTH],
      [`[${'1'.repeat(MAX_NUMBER_CHARS + 1)}]`, ScanError.NumberTooLong, 1],
      [`{"a": -0.${'1'.repeat(MAX_NUMBER_CHARS)}}`, ScanError.NumberTooLong, 6],
      // the grammar first: a literal that is not a number is that, however long
      [`[1${'0'.repeat(MAX_NUMBER_CHARS)}.]`, ScanError.BadNumber, 1],
    ];
    for (const [text, e, at] of cases) {
      const { ret, tape } = scan(scanJsonJs, u8(text));
      expect(`${ret} @${tape[0]}`, String(text).slice(0, 40)).toBe(`${err(e)} @${at}`);
    }
  });

  it('numbers: MAX_NUMBER_CHARS characters scan, one more is refused, with the literal\'s end in tape[1]', () => {
    for (const lit of ['9'.repeat(MAX_NUMBER_CHARS), `-${'9'.repeat(MAX_NUMBER_CHARS - 1)}`, `1.${'5'.repeat(MAX_NUMBER_CHARS - 2)}`]) {
      expect(checkReference(u8(`[${lit}]`), lit)).toBe(2);
      const { ret, tape } = scan(scanJsonJs, u8(`[${lit}0, 1]`));
      expect([ret, tape[0], tape[1]], lit).toEqual([err(ScanError.NumberTooLong), 1, 2 + lit.length]);
    }
  });

  it('nesting: MAX_DEPTH levels scan, one more is refused', () => {
    for (const f of [deepArr, deepObj, deepMixed]) {
      expect(checkReference(u8(f(MAX_DEPTH)), `${f.name} ${MAX_DEPTH}`)).toBeGreaterThan(0);
      expect(scan(scanJsonJs, u8(f(MAX_DEPTH + 1))).ret).toBe(err(ScanError.TooDeep));
    }
  });

  it('every JSON file under test/vectors scans, and its tape rebuilds the parsed value', () => {
    expect(vectors.length).toBeGreaterThan(50);
    for (const [name, b] of vectors) {
      expect(parses(b).ok, name).toBe(true);
      expect(checkReference(b, name), name).toBeGreaterThan(0);
    }
  });

  it(`seeded fuzz: ${fuzz.length} generated and mutated texts`, () => {
    let valid = 0;
    for (const [k, b] of fuzz.entries()) valid += checkReference(b, `fuzz #${k}: ${JSON.stringify(dec.decode(b)).slice(0, 200)}`) >= 0 ? 1 : 0;
    expect(valid).toBeGreaterThan(fuzz.length / 4);
    expect(valid).toBeLessThan(fuzz.length);
  });

  it('TAPE_FULL while an entry does not fit, the full count once it does', () => {
    for (const text of ['[1,{"a":[true,"x"]},null]', '{"a":"b"}', '"s"', '[[[[]]]]']) {
      const b = u8(text);
      const count = scan(scanJsonJs, b).ret;
      for (let u32s = 0; u32s < ENTRY * count + 6; u32s++) expect(scan(scanJsonJs, b, u32s).ret, `${text} in ${u32s}`).toBe(u32s < ENTRY * count ? TAPE_FULL : count);
    }
  });
});

describe.skipIf(!native)(
  native ? `native jsonScan (native/json_scan.c${altAddon ? ` built as ${altAddon}` : ''}) ≡ scanJsonJs` : `native jsonScan: SKIPPED, the addon is not loadable (${nativeLoadError() ?? 'no jsonScan in it'})`,
  () => {
    it('hand-written edge cases', () => {
      for (const [label, b] of handCases) checkNative(b, label);
    });

    it('nesting at MAX_DEPTH and MAX_DEPTH + 1', () => {
      for (const f of [deepArr, deepObj, deepMixed]) for (const d of [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 7]) checkNative(u8(f(d)), `${f.name} ${d}`);
      checkNative(u8(deepArr(MAX_DEPTH + 1).slice(0, MAX_DEPTH + 1)), 'too deep and truncated');
      checkNative(u8('['.repeat(MAX_DEPTH) + '"unterminated'), 'unterminated at MAX_DEPTH');
    });

    it('every JSON file under test/vectors, whole and truncated', () => {
      for (const [name, b] of vectors) {
        checkNative(b, name);
        for (const cut of [1, 7, 100, Math.floor(b.length / 2)]) checkNative(b.subarray(0, Math.max(0, b.length - cut)), `${name} less ${cut}`);
      }
    });

    it(`seeded fuzz: ${fuzz.length} generated and mutated texts`, () => {
      for (const [k, b] of fuzz.entries()) checkNative(b, `fuzz #${k}: ${JSON.stringify(dec.decode(b)).slice(0, 200)}`);
    });

    it('tapes of every small size (TAPE_FULL, partial entries, tape[0] of an error)', () => {
      const texts = [
        ...['[1,{"a":[true,"x"]},null]', '{"a":"b","c":{}}', '"s"', '[[[[]]]]', '{"a":1,"b":[2,3', '[1,2,"\\q"]', '[1,2,tru]', '{"k":"v"} x', '', ' ', '[-]'],
        ...fuzz.slice(0, 60).map((b) => dec.decode(b)),
      ];
      for (const text of texts) {
        const b = u8(text);
        const max = Math.min(ENTRY * (b.length + 1), 4 * 40);
        for (let u32s = 0; u32s <= max; u32s++) checkNative(b, `${JSON.stringify(text).slice(0, 80)} in ${u32s} u32`, u32s);
      }
    });

    it('an envelope of 500 asset proofs, compact and indented', () => {
      const dir = join(vectorDir, 'bubblegum');
      const items = readdirSync(dir).filter((f) => f.startsWith('mpl_')).map((f) => (JSON.parse(readFileSync(join(dir, f), 'utf8')) as { getAssetProof: unknown }).getAssetProof);
      const result = Array.from({ length: 500 }, (_, i) => items[i % items.length]);
      for (const indent of [0, 2]) {
        const b = u8(JSON.stringify({ jsonrpc: '2.0', result, id: 1 }, null, indent));
        checkNative(b, `indent ${indent}`);
        const { ret, tape } = scan(native!, b);
        expect(rebuild(b, tape, ret)).toEqual({ jsonrpc: '2.0', result, id: 1 });
      }
    });

    it('checks its arguments', () => {
      const call = native as unknown as (...a: unknown[]) => number;
      for (const args of [[], ['[]', new Uint32Array(4)], [new Uint8Array(2), new Uint8Array(16)], [new Uint8Array(2), new Int32Array(4)], [new Uint8Array(2)], [new Uint16Array(2), new Uint32Array(4)]]) {
        let thrown: unknown;
        try {
          call(...args);
        } catch (e) {
          thrown = e;
        }
        expect(thrown).toBeInstanceOf(TypeError);
        expect((thrown as { code?: string }).code).toBe('MERKLE_INVALID_INPUT');
        expect((thrown as Error).message).toMatch(/^"(bytes|tape)": /);
      }
      expect(native!(new Uint8Array(0), new Uint32Array(0))).toBe(err(ScanError.UnexpectedEnd));
      expect(native!(new Uint8ClampedArray(u8('[1]')) as unknown as Uint8Array, new Uint32Array(8))).toBe(2);
    });
  },
);

// ---------------------------------------------------------------------------------------------------
// Resumable scans: stopped at many places and resumed, a scan leaves the one-shot tape; both scanners
// stop at the same values; what a suspended tape shows is complete.

/** Scan in steps (the stops in order), recording each suspension as "count@reached". */
function stepwise(which: 'js' | 'native', b: Uint8Array, stops: number[], u32s = ENTRY * (b.length + 1)): { ret: number; tape: Uint32Array; trail: string[] } {
  const tape = new Uint32Array(u32s);
  const trail: string[] = [];
  const js = newJsScanState();
  const st = new Uint32Array(NATIVE_STATE_U32S);
  for (const stop of [...stops, Infinity]) {
    const ret = which === 'js' ? scanJsonJs(b, tape, js, stop) : native!(b, tape, st as never, stop === Infinity ? Number.MAX_SAFE_INTEGER : stop);
    if (ret !== SUSPENDED) {
      if (ret >= 0) trail.push(`done${(which === 'js' ? js.long : st[NATIVE_STATE_LONG] === 1) ? ' long' : ''}`);
      return { ret, tape, trail };
    }
    const count = which === 'js' ? js.count : st[2]!;
    const reached = which === 'js' ? js.i : st[1]!;
    const long = which === 'js' ? js.long : st[NATIVE_STATE_LONG] === 1;
    trail.push(`${count}@${reached}${long ? ' long' : ''}`);
    expect(reached, `stopped before ${stop}`).toBeGreaterThanOrEqual(stop);
    checkSuspended(b, tape, count);
  }
  throw new Error('unreachable');
}

/** Entries below `count` of a suspended tape: every closed one is as the one-shot tape has it (checked
 * by the callers); open containers end at 0 and hold only entries below `count`. */
function checkSuspended(b: Uint8Array, tape: Uint32Array, count: number): void {
  let open = 0;
  for (let e = 0; e < count; e++) {
    const t = tape[e * ENTRY]! & TYPE_MASK;
    if ((t === T_OBJECT || t === T_ARRAY) && tape[e * ENTRY + 2] === 0) open++;
    else if (t !== T_KEY) expect(tape[e * ENTRY + 2]!, `entry ${e} ends`).toBeGreaterThan(tape[e * ENTRY + 1]!);
  }
  expect(open, 'a suspended scan is inside a container').toBeGreaterThan(0);
}

const stopsFor = (n: number, r: () => number, many: number): number[] => {
  const out: number[] = [];
  for (let at = 0; at < n;) out.push((at += 1 + Math.floor(r() * Math.max(1, (2 * n) / many))));
  return out;
};

function checkResumed(which: 'js' | 'native', b: Uint8Array, label: string, r: () => number, many = 20): string[] {
  const f = which === 'js' ? scanJsonJs : native!;
  const once = scan(f, b);
  for (const stops of [stopsFor(b.length, r, many), [0], [1, 1, 1, 2, 2, 3]]) {
    const got = stepwise(which, b, stops);
    if (got.ret !== once.ret) expect(`${got.ret} @${got.tape[0]}`, `${label} stops ${stops.slice(0, 8)}`).toBe(`${once.ret} @${once.tape[0]}`);
    if (once.ret >= 0) expect(Buffer.compare(Buffer.from(got.tape.buffer, 0, once.ret * 16), Buffer.from(once.tape.buffer, 0, once.ret * 16)), label).toBe(0);
  }
  return stepwise(which, b, stopsFor(b.length, rng(b.length), many)).trail;
}

describe('resumable scans', () => {
  const texts: Array<readonly [string, Uint8Array]> = [...vectors, ...handCases.filter((_, i) => i % 7 === 0), ...fuzz.slice(0, 300).map((b, k) => [`fuzz #${k}`, b] as [string, Uint8Array])];

  it('scanJsonJs: stopped anywhere and resumed, the same tape and result as one scan', () => {
    const r = rng(7);
    for (const [label, b] of texts) checkResumed('js', b, label, r);
  });

  it.skipIf(!native)('native: the same, and it stops at the same values as scanJsonJs', () => {
    const r = rng(7);
    for (const [label, b] of texts) {
      const trail = checkResumed('native', b, label, r);
      expect(trail, label).toEqual(stepwise('js', b, stopsFor(b.length, rng(b.length), 20)).trail);
    }
  });

  it('a resumed scan always makes progress, even asked to stop where it already is', () => {
    const b = u8('[1,2,3,[4,5],{"a":6,"b":[7]}]');
    const one = scan(scanJsonJs, b);
    for (const which of native ? (['js', 'native'] as const) : (['js'] as const)) {
      const got = stepwise(which, b, new Array(40).fill(0));
      expect(got.ret, which).toBe(one.ret);
      expect(got.trail.length, which).toBe(11); // one stop per value inside a container, then done
    }
  });

  it('the scan says whether it saw a number of 16+ characters, as of each stop', () => {
    for (const which of native ? (['js', 'native'] as const) : (['js'] as const)) {
      const b = u8('[1, 2.5, {"a": [123456789012345]}, "12345678901234567890", -1234567890.12345, 7]');
      expect(stepwise(which, b, [3, 8, 34, 60, 80]).trail, which).toEqual(['3@7', '7@31', '8@57', '9@76 long', 'done long']);
      expect(stepwise(which, u8('{"a":1e+1234567890123}'), []).trail, which).toEqual(['done long']);
      expect(stepwise(which, u8('[123456789012345]'), []).trail, which).toEqual(['done']);
    }
    const s = new JsonScan(u8('[1, 12345678901234567, 2]'));
    s.advance(0);
    expect(s.tape.mayHoldLong).toBe(false);
    s.advance(Infinity);
    expect(s.tape.mayHoldLong).toBe(true);
  });

  it('JsonScan: advance in parts; out of tape, it scans again with more room; errors name the byte', () => {
    const items = Array.from({ length: 3000 }, (_, i) => ({ i, s: 'x'.repeat(i % 40) }));
    for (const text of [JSON.stringify({ result: { items } }), `[${'1,'.repeat(5000)}2]`]) {
      const b = u8(text);
      const s = new JsonScan(b);
      let parts = 0;
      while (!s.advance(s.reached + 997)) {
        parts++;
        expect(s.tape.count).toBeGreaterThan(0);
      }
      expect(parts).toBeGreaterThan(8);
      expect(s.reached).toBe(b.length);
      expect(rebuild(b, s.tape.tape, s.tape.count)).toEqual(JSON.parse(text));
    }
    const bad = new JsonScan(u8(JSON.stringify({ result: { items } }).replace(/\}\]\}\}$/, '}]}]')));
    expect(() => {
      while (!bad.advance(bad.reached + 4096));
    }).toThrow(/^"json": not valid JSON: unexpected character at byte \d+/);
  });
});

// A hostile response must not stall the calling thread: a 20 MB number or 100,000 levels of nesting
// are refused by the scan itself, with a typed error that quotes a short prefix.
describe('scanJson limits', () => {
  const refused = (b: Uint8Array): CairnError => {
    try {
      scanJson(b);
    } catch (e) {
      return e as CairnError;
    }
    throw new Error('scanned');
  };

  it('a 20 MB integer literal is INPUT_TOO_LARGE naming its byte and length, quoting 32 characters', () => {
    const lit = '9'.repeat(20_000_000);
    const b = u8(`{"jsonrpc":"2.0","id":1,"result":{"context":{"slot":1},"value":${lit}}}`);
    const at = b.indexOf(0x39);
    const { ret, tape } = scan(scanJsonJs, b, 64);
    expect([ret, tape[0], tape[1]]).toEqual([err(ScanError.NumberTooLong), at, at + lit.length]);
    if (native) expect(scan(native, b, 64).ret).toBe(err(ScanError.NumberTooLong));
    const e = refused(b);
    expect(e).toBeInstanceOf(CairnError);
    expect(e.code).toBe('INPUT_TOO_LARGE');
    expect(e.context).toEqual({ field: 'json', limit: MAX_NUMBER_CHARS, got: lit.length, at });
    expect(e.message).toBe(`"json": the number at byte ${at} is ${lit.length} characters long (at most ${MAX_NUMBER_CHARS}): ${'9'.repeat(32)}…`);
  });

  it('100,000 levels of nesting are INPUT_TOO_LARGE at the level past MAX_DEPTH', () => {
    for (const text of ['['.repeat(100_000) + ']'.repeat(100_000), '{"a":'.repeat(100_000)]) {
      const e = refused(u8(text));
      expect(e.code).toBe('INPUT_TOO_LARGE');
      expect(e.context).toMatchObject({ field: 'json', limit: MAX_DEPTH });
      expect(e.message.length).toBeLessThan(100);
    }
  });
});

describe('JsonTape.elements', () => {
  it('lists every element of an array in order, whatever each holds, skimmed or scanned', () => {
    const lists = [
      [],
      [1],
      [[]],
      [{}, [], 'a', null, true, 2.5],
      [{ a: [1, { b: [2, 3] }] }, [[1], [2, [3]]], 'x', {}, [], { c: null }],
      Array.from({ length: 500 }, (_, i) => (i % 3 === 0 ? { i, p: ['x', 'y'] } : i % 3 === 1 ? [i, [i]] : i)),
    ];
    let skimmed = 0;
    for (const list of lists) {
      const text = u8(JSON.stringify({ result: list }));
      const tape = scanJson(text);
      const e = tape.member(0, 'result');
      const got = tape.elements(e);
      expect(got).toBeInstanceOf(Uint32Array);
      expect([...got].map((k) => tape.value(k)), JSON.stringify(list).slice(0, 60)).toEqual(list);
      tape.release();
      // Objects of the list skimmed (one entry each, no members on the tape): the same elements.
      const s = new JsonScan(text);
      s.advance('{"result":['.length);
      if (s.skimChildrenOf(e)) {
        s.advance(Infinity);
        expect([...s.tape.elements(e)].map((k) => s.tape.value(k))).toEqual(list);
        skimmed++;
      }
    }
    // Skimming is the native scanner's: with it, every list above was skimmed too.
    if (jsonScanBackend() === 'native') expect(skimmed).toBe(lists.length);
  });

  it('memberKeys: every member of an object in order, each value right after its key', () => {
    const objects = [
      {},
      { a: 1 },
      { a: {}, b: [], c: 'x', d: null, e: { f: [1, { g: 2 }] }, h: [[1], [2]] },
      Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, i % 3 === 0 ? { i, p: ['x'] } : i % 3 === 1 ? null : [i, [i]]])),
    ];
    for (const o of objects) {
      const text = u8(JSON.stringify({ result: o }));
      const tape = scanJson(text);
      const keys = tape.memberKeys(tape.member(0, 'result'));
      expect(keys).toBeInstanceOf(Uint32Array);
      expect(Object.fromEntries([...keys].map((k) => [tape.string(k), tape.value(k + 1)]))).toEqual(o);
      expect(keys.length).toBe(Object.keys(o).length);
      tape.release();
    }
  });
});
