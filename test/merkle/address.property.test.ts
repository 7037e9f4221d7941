import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { parseNewAddressProof, verifyNewAddressProof, type NewAddressProof } from '../../src/merkle/compressed/address.js';
import { kinds } from '../../src/merkle/kinds/index.js';
import { beToBigint, bigintToBe } from '../../src/crypto/bytes.js';

const load = (f: string) => JSON.parse(readFileSync(`test/vectors/photon/${f}`, 'utf8'));
const proofs = [
  'e2e_tests__nullfiier_and_address_queue_transactions-proof-address.json',
  'mock_tests__get_multiple_new_address_proofs_interop.json',
].flatMap((f) => kinds['address-proof'].extract(load(f)).map(({ item }) => parseNewAddressProof(item)));

const flip = (b: Uint8Array, bit: number): Uint8Array => {
  const c = Uint8Array.from(b);
  c[bit >> 3]! ^= 0x80 >> (bit & 7);
  return c;
};

describe('new-address proof: flipping any bit of a bound, node, root or index is rejected', () => {
  it('starts from valid proofs', () => {
    expect(proofs).toHaveLength(2);
    for (const p of proofs) expect(verifyNewAddressProof(p).valid).toBe(true);
  });
  it('property', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: proofs.length - 1 }),
        fc.constantFrom('lowerRangeAddress', 'higherRangeAddress', 'root', 'proof', 'lowElementLeafIndex', 'nextIndex'),
        fc.nat(),
        (which, field, r) => {
          const p = proofs[which]!;
          let m: NewAddressProof;
          if (field === 'lowElementLeafIndex') m = { ...p, lowElementLeafIndex: (p.lowElementLeafIndex ^ (1 << r % 32)) >>> 0 };
          else if (field === 'nextIndex') m = { ...p, nextIndex: p.nextIndex ^ (1n << BigInt(r % 64)) };
          else if (field === 'proof') m = { ...p, proof: flip(p.proof, r % (p.proof.length * 8)) };
          else m = { ...p, [field]: flip((p as any)[field], r % 256) };
          const v = verifyNewAddressProof(m);
          return v.valid === false && typeof v.reason === 'string';
        },
      ),
      { numRuns: 100 },
    );
  });
  it('any address outside the open range, or ≥ 2^248, is rejected with a reason', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: proofs.length - 1 }), fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), (which, a) => {
        const p = proofs[which]!;
        const lo = beToBigint(p.lowerRangeAddress);
        const hi = beToBigint(p.higherRangeAddress);
        const v = verifyNewAddressProof({ ...p, address: bigintToBe(a) });
        const inside = a > lo && a < hi && a < 1n << 248n;
        if (inside) return v.valid;
        return !v.valid && /2\^248|range/.test(v.reason ?? '');
      }),
      { numRuns: 200 },
    );
  });
});
