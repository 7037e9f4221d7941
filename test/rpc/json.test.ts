import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CairnError } from '../../src/errors/index.js';
import { MAX_DEPTH, MAX_NUMBER_CHARS } from '../../src/json/tape-format.js';
import { parseJson, stringifyJson } from '../../src/rpc/json.js';

// Any value with u64-sized integers (as bigint when unsafe), digit-heavy strings and nesting survives
// stringifyJson → parseJson exactly: the fast pre-filter never hides a big number, and digits inside
// strings never turn into numbers.
const big = fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map((b) => (Number.isSafeInteger(Number(b)) ? Number(b) : b));
const digits = fc.stringMatching(/^[0-9:,[\] x-]{0,40}$/);
const value = fc.letrec((tie) => ({
  // doubles stay below 2^53 (an integral double above it is written as an integer and comes back as
  // bigint, by design), and -0 is folded to 0 (JSON has no -0)
  leaf: fc.oneof(big, digits, fc.boolean(), fc.constant(null), fc.double({ min: -1e15, max: 1e15, noNaN: true }).map((x) => x + 0)),
  node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 5 }), fc.dictionary(digits, tie('node'), { maxKeys: 5 })),
})).node;

describe('parseJson / stringifyJson', () => {
  it('round-trip any value exactly, big integers included', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(parseJson(stringifyJson(v))).toEqual(v);
      }),
      { numRuns: 1_000 },
    );
  });
});

/** What `f` threw (or `undefined`), for checks on the error itself. */
function thrown(f: () => unknown): CairnError | undefined {
  try {
    f();
  } catch (e) {
    return e as CairnError;
  }
  return undefined;
}

// A hostile server must not be able to stall the client: numbers longer than any u64/i64 or any
// float a server prints (40 characters, tape-format.ts MAX_NUMBER_CHARS) and nesting deeper than
// MAX_DEPTH are refused with a typed error quoting a short prefix, before any bigint is built.
describe('parseJson limits', () => {
  it('a 40-character number parses; one character more is refused with INPUT_TOO_LARGE', () => {
    const i40 = '1'.repeat(40);
    expect(parseJson(`{"a":${i40}}`)).toEqual({ a: BigInt(i40) });
    expect(parseJson(`[-${'2'.repeat(39)}]`)).toEqual([-BigInt('2'.repeat(39))]);
    expect(parseJson(`[1.${'5'.repeat(38)}]`)).toEqual([1.5555555555555556]);
    for (const lit of ['1'.repeat(41), `-${'1'.repeat(40)}`, `1.${'0'.repeat(39)}`, `1e${'0'.repeat(39)}`, `0.${'1'.repeat(39)}`, '-123456789012345.123456789012345e+123456789']) {
      const e = thrown(() => parseJson(`{"result":{"value":${lit}}}`));
      expect(e, lit).toBeInstanceOf(CairnError);
      expect(e!.code).toBe('INPUT_TOO_LARGE');
      expect(e!.context).toMatchObject({ field: 'json', limit: MAX_NUMBER_CHARS, got: lit.length, at: 19 });
    }
  });

  it('a 20 MB integer literal is refused, its message quoting only a short prefix', () => {
    const lit = '9'.repeat(20_000_000);
    for (const text of [`{"jsonrpc":"2.0","id":"1","result":{"context":{"slot":1},"value":${lit}}}`, `[1.${lit}]`, `-${lit}`]) {
      const e = thrown(() => parseJson(text));
      expect(e).toBeInstanceOf(CairnError);
      expect(e!.code).toBe('INPUT_TOO_LARGE');
      expect(e!.message.length).toBeLessThan(200);
      expect(e!.message).toContain('9'.repeat(20));
      expect(e!.message).not.toContain('9'.repeat(40));
      expect(JSON.stringify(e!.context).length).toBeLessThan(200);
    }
  });

  it('nesting deeper than MAX_DEPTH is refused with INPUT_TOO_LARGE, with or without big integers inside', () => {
    const deep = (d: number, inner = ''): string => '['.repeat(d) + inner + ']'.repeat(d);
    expect(thrown(() => parseJson(deep(MAX_DEPTH, '12345678901234567890')))).toBeUndefined();
    expect(thrown(() => parseJson(deep(MAX_DEPTH)))).toBeUndefined();
    for (const text of [deep(MAX_DEPTH + 1), deep(100_000), deep(100_000, '12345678901234567890'), '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)]) {
      const e = thrown(() => parseJson(text));
      expect(e).toBeInstanceOf(CairnError);
      expect(e!.code).toBe('INPUT_TOO_LARGE');
      expect(e!.context).toMatchObject({ field: 'json', limit: MAX_DEPTH });
    }
  });

  it('a string that only looks like the bigint marker stays a string, and a long one never becomes a bigint', () => {
    const mark = '\\u0000cairn-bigint:';
    expect(parseJson(`{"s":"${mark}5","n":12345678901234567890}`)).toEqual({ s: '\u0000cairn-bigint:5', n: 12345678901234567890n });
    const long = parseJson(`{"s":"${mark}${'9'.repeat(2_000_000)}","n":12345678901234567890}`) as { s: unknown };
    expect(typeof long.s).toBe('string');
  });

  it('huge strings parse in one pass; an unterminated one is a short SyntaxError', () => {
    const s = 'x'.repeat(20_000_000);
    expect((parseJson(`{"a":"${s}","n":12345678901234567890}`) as { a: string }).a.length).toBe(s.length);
    const e = thrown(() => parseJson(`{"n":12345678901234567890,"a":"${s}`));
    expect(e).toBeInstanceOf(SyntaxError);
    expect(e!.message.length).toBeLessThan(200);
  });

  it('invalid JSON stays invalid: a long integer in key position or with leading zeros is not quoted into validity', () => {
    for (const text of ['{12345678901234567890:1}', '{"a":1,12345678901234567890:2}', '[00000000000000000001]', '-00000000000000000001']) {
      expect(thrown(() => parseJson(text)), text).toBeInstanceOf(SyntaxError);
    }
  });
});
