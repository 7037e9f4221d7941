/**
 * The one base58 of the sender and the devnet: the fast encoder equals bs58 byte for byte, and the
 * sized decoder names the field it refuses.
 */
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import fc from 'fast-check';
import { address58, decodeBase58, encodeBase58 } from '../../src/solana/base58.js';
import { InputError } from '../../src/errors/index.js';

describe('encodeBase58', () => {
  it('equals bs58.encode on any bytes, leading zeros included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 80 }), fc.nat({ max: 4 }), (bytes, zeros) => {
        const b = new Uint8Array(zeros + bytes.length);
        b.set(bytes, zeros);
        expect(encodeBase58(b)).toBe(bs58.encode(b));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('address58 and decodeBase58', () => {
  it('a cached key is re-encoded when a different key shares its first 6 bytes', () => {
    const a = new Uint8Array(32).fill(7);
    const b = a.slice();
    b[31] = 8;
    expect(address58(a)).toBe(bs58.encode(a));
    expect(address58(b)).toBe(bs58.encode(b));
    expect(address58(a)).toBe(bs58.encode(a));
  });
  it('decodes exactly the size asked for, else an InputError naming the field', () => {
    const key = new Uint8Array(32).fill(3);
    expect(decodeBase58(bs58.encode(key), 32, 'to')).toEqual(key);
    expect(() => decodeBase58('0OIl', 32, 'to')).toThrow(InputError);
    expect(() => decodeBase58(bs58.encode(new Uint8Array(31).fill(1)), 32, 'to')).toThrow(/to.*|expected 32 bytes/);
  });
});
