/**
 * Property tests: every Poseidon backend that loads gives byte-identical output to the BigInt
 * reference on random field elements (1–12 inputs, values spread over the whole field including
 * the edges 0 and r − 1), on random Merkle paths, and on batches; and a value ≥ r anywhere is
 * rejected by name instead of being reduced.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BN254_R,
  poseidon,
  poseidonBatch,
  poseidonPathRoot,
  setPoseidonBackend,
  type PoseidonBackend,
} from '../../src/crypto/poseidon.js';
import { loadNative } from '../../src/addon.js';

const be = (x: bigint): Uint8Array => new Uint8Array(Buffer.from(x.toString(16).padStart(64, '0'), 'hex'));
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(32 * parts.length);
  parts.forEach((p, i) => out.set(p, 32 * i));
  return out;
};

/** Field elements, biased towards the edges where carries and reductions go wrong. */
const element = fc.oneof(
  { weight: 6, arbitrary: fc.bigInt({ min: 0n, max: BN254_R - 1n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: BN254_R - 1000n, max: BN254_R - 1n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 1000n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: (1n << 248n) - 1n }) },
);

function under<T>(b: PoseidonBackend, fn: () => T): T {
  setPoseidonBackend(b);
  try {
    return fn();
  } finally {
    setPoseidonBackend('auto');
  }
}

const fast: PoseidonBackend[] = loadNative() ? ['native', 'wasm'] : ['wasm'];

afterAll(() => setPoseidonBackend('auto'));

describe.each(fast)('%s matches the BigInt reference', (b) => {
  it('on random inputs of every width', () => {
    fc.assert(
      fc.property(fc.array(element, { minLength: 1, maxLength: 12 }), (xs) => {
        const inputs = xs.map(be);
        expect(hex(under(b, () => poseidon(inputs)))).toBe(hex(under('js', () => poseidon(inputs))));
      }),
      { numRuns: 60 },
    );
  });

  it('on random Merkle paths', () => {
    fc.assert(
      fc.property(element, fc.array(element, { minLength: 0, maxLength: 6 }), fc.nat(), (leaf, sibs, seed) => {
        const proof = concat(sibs.map(be));
        const index = sibs.length === 0 ? 0 : seed % 2 ** sibs.length;
        expect(hex(under(b, () => poseidonPathRoot(be(leaf), proof, index)))).toBe(
          hex(under('js', () => poseidonPathRoot(be(leaf), proof, index))),
        );
      }),
      { numRuns: 25 },
    );
  });

  it('on batches', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.array(element, { minLength: 0, maxLength: 12 }), (width, xs) => {
        const packed = concat(xs.slice(0, xs.length - (xs.length % width)).map(be));
        expect(hex(under(b, () => poseidonBatch(packed, width)))).toBe(hex(under('js', () => poseidonBatch(packed, width))));
      }),
      { numRuns: 25 },
    );
  });
});

describe('native and wasm agree on many inputs', () => {
  it.skipIf(!loadNative())('2-input hashes and a height-26 path', () => {
    fc.assert(
      fc.property(element, element, (a, c) => {
        const inputs = [be(a), be(c)];
        expect(hex(under('native', () => poseidon(inputs)))).toBe(hex(under('wasm', () => poseidon(inputs))));
      }),
      { numRuns: 300 },
    );
    fc.assert(
      // the leaf is its own field element (deriving it from a sibling, e.g. sibs[0] ^ 1, can step onto r itself)
      fc.property(element, fc.array(element, { minLength: 26, maxLength: 26 }), fc.integer({ min: 0, max: 2 ** 26 - 1 }), (leafValue, sibs, index) => {
        const proof = concat(sibs.map(be));
        const leaf = be(leafValue);
        expect(hex(under('native', () => poseidonPathRoot(leaf, proof, index)))).toBe(
          hex(under('wasm', () => poseidonPathRoot(leaf, proof, index))),
        );
      }),
      { numRuns: 20 },
    );
  });
});

describe.each(['native', 'wasm', 'js'] as PoseidonBackend[])('%s rejects values ≥ r by name', (b) => {
  it.skipIf(b === 'native' && !loadNative())('anywhere in the inputs or the path', () => {
    fc.assert(
      fc.property(
        fc.array(element, { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.bigInt({ min: BN254_R, max: (1n << 256n) - 1n }),
        (xs, pos, big) => {
          const at = pos % xs.length;
          const inputs = xs.map(be);
          inputs[at] = be(big);
          under(b, () => {
            expect(() => poseidon(inputs)).toThrow(
              expect.objectContaining({ code: 'MERKLE_FIELD_OVERFLOW', context: expect.objectContaining({ field: `inputs[${at}]` }) }),
            );
            expect(() => poseidonPathRoot(be(1n), concat(inputs), 0)).toThrow(
              expect.objectContaining({ code: 'MERKLE_FIELD_OVERFLOW', context: expect.objectContaining({ field: `proof[${at}]` }) }),
            );
          });
        },
      ),
      { numRuns: 50 },
    );
  });
});
