/**
 * `jsonShape` reads depth and batch length off raw bytes; it must agree with what `JSON.parse`
 * builds for every JSON text, strings with brackets, quotes, escapes and non-ASCII included.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonShape } from '../../src/devnet/http/json-shape.js';

function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  const kids = Array.isArray(v) ? v : Object.values(v);
  return 1 + kids.reduce<number>((m, k) => Math.max(m, depthOf(k)), 0);
}

describe('jsonShape', () => {
  it('agrees with JSON.parse on depth and top-level array length', () => {
    const text = fc.string({ unit: 'binary' }).map((s) => `${s}[]{}",\\"`);
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, text, fc.integer(), fc.constant(null), fc.array(tie('node')), fc.dictionary(text, tie('node'))),
    })).node;
    fc.assert(
      fc.property(value, fc.boolean(), (v, pretty) => {
        const json = pretty ? JSON.stringify(v, null, 2) : JSON.stringify(v);
        const bytes = Buffer.from(json, 'utf8');
        const depth = depthOf(v);
        const shape = jsonShape(bytes, 1000);
        expect(shape).toEqual({ tooDeep: false, elements: Array.isArray(v) ? v.length : 0 });
        if (depth > 0) expect(jsonShape(bytes, depth - 1).tooDeep).toBe(true);
        expect(jsonShape(bytes, depth).tooDeep).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('counts a 2M-element batch and stops at once on deep input', () => {
    expect(jsonShape(Buffer.from(`[${Array(2_000_000).fill('0').join(',')}]`), 64)).toEqual({ tooDeep: false, elements: 2_000_000 });
    expect(jsonShape(Buffer.from(' [ ] '), 64).elements).toBe(0);
    expect(jsonShape(Buffer.from('['.repeat(100_000)), 64).tooDeep).toBe(true);
    // an unterminated string swallows the rest, as JSON.parse would refuse it anyway
    expect(jsonShape(Buffer.from('["\\"[[[['), 2)).toEqual({ tooDeep: false, elements: 1 });
  });
});
