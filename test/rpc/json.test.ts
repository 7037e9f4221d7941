import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
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
