import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bn254 } from '@noble/curves/bn254.js';
import { BN254_P, bigToBe } from '../../src/crypto/bn254-encoding.js';
import { g1FromBytes, g1ToCompressed, g1ToUncompressed, g2FromBytes, g2ToCompressed, g2ToUncompressed, inG2Portable, negateG1Bytes } from '../../src/crypto/bn254.js';
import { loadBn254Wasm, type Bn254Wasm } from '../../src/crypto/bn254-wasm.js';
import { PointError } from '../../src/errors/index.js';

const vec = JSON.parse(readFileSync('test/vectors/groth16/groth16_solana_test_vector.json', 'utf8'));
const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const { Fp, Fp2 } = bn254.fields;
const G2B = Fp2.fromBigTuple([
  19485874751759354771024239261021720505790618469301721065564631296452457478373n,
  266929791119991161246907387137283842545076965332900288569378510910307636690n,
]);

let w: Bn254Wasm;
beforeAll(async () => {
  w = await loadBn254Wasm();
});

/** Both decoders must refuse the bytes with the same failure. */
function rejectsBoth(kind: 'g1' | 'g2', bytes: Uint8Array, reason: string): void {
  const portable = kind === 'g1' ? () => g1FromBytes(bytes, 'pt') : () => g2FromBytes(bytes, 'pt');
  const fast = kind === 'g1' ? () => w.g1(bytes, 'pt') : () => w.g2(bytes, 'pt');
  for (const f of [portable, fast]) {
    let err: unknown;
    try {
      f();
    } catch (e) {
      err = e;
    }
    expect(err, `${kind} ${reason}`).toBeInstanceOf(PointError);
    expect((err as PointError).context).toMatchObject({ field: 'pt', reason });
    expect((err as PointError).code).toBe('MERKLE_INVALID_INPUT');
  }
}

/** An x whose x³ + 3 is not a square: no G1 point has it. */
function g1XOffCurve(): bigint {
  for (let x = 1n; ; x++) {
    try {
      Fp.sqrt(Fp.add(Fp.mul(Fp.sqr(x), x), 3n));
    } catch {
      return x;
    }
  }
}

/** A point on the twist that is not in the r-torsion (the twist's cofactor is huge). */
function g2OffSubgroup(): { x: ReturnType<typeof Fp2.fromBigTuple>; y: ReturnType<typeof Fp2.fromBigTuple> } {
  for (let i = 1n; ; i++) {
    const x = Fp2.fromBigTuple([i, 1n]);
    const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), G2B);
    try {
      const y = Fp2.sqrt(rhs);
      if (Fp2.eql(Fp2.sqr(y), rhs)) return { x, y };
    } catch {
      /* next */
    }
  }
}

describe('bn254 codecs on the groth16-solana vector points', () => {
  const g1s: Array<[string, string]> = [
    ['proof.a', vec.proof_uncompressed.a],
    ['proof.c', vec.proof_uncompressed.c],
    ['vk.alpha', vec.vk.vk_alpha_g1],
    ...vec.vk.vk_ic.map((h: string, i: number): [string, string] => [`vk.ic[${i}]`, h]),
  ];
  const g2s: Array<[string, string]> = [
    ['proof.b', vec.proof_uncompressed.b],
    ['vk.beta', vec.vk.vk_beta_g2],
    ['vk.gamma', vec.vk.vk_gamme_g2],
    ['vk.delta', vec.vk.vk_delta_g2],
  ];

  for (const [label, h] of g1s) {
    it(`G1 ${label}: uncompressed → compressed → back, both backends agree`, () => {
      const p = g1FromBytes(hex(h));
      const c = g1ToCompressed(p);
      expect(c.length).toBe(32);
      expect(toHex(g1ToUncompressed(g1FromBytes(c)))).toBe(h);
      expect(toHex(w.g1ToBytes(w.g1(c), false))).toBe(h);
      expect(toHex(w.g1ToBytes(w.g1(hex(h)), true))).toBe(toHex(c));
      // The sign flag says whether y is the larger of ±y.
      expect((c[0]! & 0x80) !== 0).toBe(p.toAffine().y > (BN254_P - 1n) / 2n);
    });
  }

  for (const [label, h] of g2s) {
    it(`G2 ${label}: uncompressed → compressed → back, both backends agree`, () => {
      const p = g2FromBytes(hex(h));
      const c = g2ToCompressed(p);
      expect(c.length).toBe(64);
      expect(toHex(g2ToUncompressed(g2FromBytes(c)))).toBe(h);
      expect(w.g2(c).isEqual(w.g2(hex(h)))).toBe(true);
    });
  }

  it('negateG1Bytes negates compressed and uncompressed forms alike', () => {
    for (const [, h] of g1s) {
      const u = hex(h);
      const c = g1ToCompressed(g1FromBytes(u));
      const negU = negateG1Bytes(u);
      expect(g1FromBytes(negU).equals(g1FromBytes(u).negate())).toBe(true);
      expect(toHex(g1ToUncompressed(g1FromBytes(negateG1Bytes(c))))).toBe(toHex(negU));
      expect(toHex(w.g1ToBytes(w.g1(negateG1Bytes(c)), false))).toBe(toHex(negU));
    }
  });
});

describe('bn254 codecs: random points (property)', () => {
  const scalar = fc.bigInt({ min: 1n, max: bn254.fields.Fr.ORDER - 1n });
  it('G1: compress/decompress round-trips and the backends agree', () => {
    fc.assert(
      fc.property(scalar, (k) => {
        const p = bn254.G1.Point.BASE.multiply(k);
        const u = g1ToUncompressed(p);
        const c = g1ToCompressed(p);
        expect(g1FromBytes(c).equals(p)).toBe(true);
        expect(toHex(w.g1ToBytes(w.g1(c), false))).toBe(toHex(u));
      }),
      { numRuns: 40 },
    );
  });
  it('G2: compress/decompress round-trips and the backends agree', () => {
    fc.assert(
      fc.property(scalar, (k) => {
        const p = bn254.G2.Point.BASE.multiply(k);
        const c = g2ToCompressed(p);
        expect(toHex(g2ToUncompressed(g2FromBytes(c)))).toBe(toHex(g2ToUncompressed(p)));
        expect(w.g2(c).isEqual(w.g2(g2ToUncompressed(p)))).toBe(true);
      }),
      { numRuns: 6 },
    );
  });
});

describe('bn254 codecs reject what is not a group element', () => {
  it('wrong lengths', () => {
    rejectsBoth('g1', new Uint8Array(31), 'length');
    rejectsBoth('g1', new Uint8Array(33), 'length');
    rejectsBoth('g2', new Uint8Array(32), 'length');
    rejectsBoth('g2', new Uint8Array(127), 'length');
  });

  it('G1 off the curve: compressed x without a square root, uncompressed y tampered', () => {
    const c = bigToBe(g1XOffCurve(), 32);
    rejectsBoth('g1', c, 'not-on-curve');
    const u = hex(vec.proof_uncompressed.a);
    u[63]! ^= 1;
    rejectsBoth('g1', u, 'not-on-curve');
  });

  it('G2 off the curve (uncompressed y tampered)', () => {
    const u = hex(vec.proof_uncompressed.b);
    u[127]! ^= 1;
    rejectsBoth('g2', u, 'not-on-curve');
  });

  it('G2 on the curve but outside the prime-order subgroup, compressed and uncompressed', () => {
    const { x, y } = g2OffSubgroup();
    const u = new Uint8Array(128);
    bigToBe(x.c1, 32, u, 0);
    bigToBe(x.c0, 32, u, 32);
    bigToBe(y.c1, 32, u, 64);
    bigToBe(y.c0, 32, u, 96);
    rejectsBoth('g2', u, 'not-in-subgroup');
    const c = u.slice(0, 64);
    rejectsBoth('g2', c, 'not-in-subgroup');
    c[0]! |= 0x80;
    rejectsBoth('g2', c, 'not-in-subgroup');
  });

  it('coordinates ≥ p', () => {
    const p = bigToBe(BN254_P, 32);
    rejectsBoth('g1', p, 'coordinate');
    const u = new Uint8Array(64);
    u.set(bigToBe(1n, 32));
    u.set(p, 32);
    rejectsBoth('g1', u, 'coordinate');
    const c2 = new Uint8Array(64);
    c2.set(p, 32); // x.c0 = p
    rejectsBoth('g2', c2, 'coordinate');
  });

  it('flag bits: both set, or infinity with a non-zero x', () => {
    const c = g1ToCompressed(g1FromBytes(hex(vec.proof_uncompressed.a)));
    const both = c.slice();
    both[0]! |= 0xc0;
    rejectsBoth('g1', both, 'flags');
    const inf = c.slice();
    inf[0] = (inf[0]! & 0x3f) | 0x40;
    rejectsBoth('g1', inf, 'flags');
    const c2 = g2ToCompressed(g2FromBytes(hex(vec.proof_uncompressed.b)));
    c2[0] = (c2[0]! & 0x3f) | 0x40;
    rejectsBoth('g2', c2, 'flags');
  });

  it('the point at infinity decodes as the identity in both encodings', () => {
    const c1 = new Uint8Array(32);
    c1[0] = 0x40;
    expect(g1FromBytes(c1).is0()).toBe(true);
    expect(w.g1(c1).isZero()).toBe(true);
    expect(g1FromBytes(new Uint8Array(64)).is0()).toBe(true);
    const c2 = new Uint8Array(64);
    c2[0] = 0x40;
    expect(g2FromBytes(c2).is0()).toBe(true);
    expect(w.g2(c2).isZero()).toBe(true);
    expect(toHex(g1ToCompressed(bn254.G1.Point.ZERO))).toBe(toHex(c1));
  });
});

describe('fast G2 subgroup test (ψ endomorphism) agrees with mcl isValidOrder', () => {
  const onTwist = (seed: bigint) => {
    for (let i = seed; ; i++) {
      const x = Fp2.fromBigTuple([i, seed * 7n + 3n]);
      const rhs = Fp2.add(Fp2.mul(Fp2.sqr(x), x), G2B);
      try {
        const y = Fp2.sqrt(rhs);
        if (!Fp2.eql(Fp2.sqr(y), rhs)) continue;
        const u = new Uint8Array(128);
        bigToBe(x.c1, 32, u, 0);
        bigToBe(x.c0, 32, u, 32);
        bigToBe(y.c1, 32, u, 64);
        bigToBe(y.c0, 32, u, 96);
        const p = new w.mcl.G2();
        // Build the raw point without the decoder (which would refuse it).
        const fp = (off: number) => {
          const f = new w.mcl.Fp();
          f.setBigEndianMod(u.subarray(off, off + 32));
          return f;
        };
        const f2 = (off: number) => {
          const f = new w.mcl.Fp2();
          f.set_b(fp(off));
          f.set_a(fp(off + 32));
          return f;
        };
        const one = new w.mcl.Fp2();
        one.setInt(1, 0);
        p.setX(f2(0));
        p.setY(f2(64));
        p.setZ(one);
        return p;
      } catch {
        /* next x */
      }
    }
  };
  const rMinus1 = () => {
    const f = new w.mcl.Fr();
    f.setStr((bn254.fields.Fr.ORDER - 1n).toString(16), 16);
    return f;
  };

  it('random points of the twist, their cofactor parts, subgroup points and sums', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 1n << 64n }), fc.bigInt({ min: 1n, max: bn254.fields.Fr.ORDER - 1n }), (seed, k) => {
        const q = onTwist(seed); // almost surely outside G2
        const t = w.mcl.add(w.mcl.mul(q, rMinus1()), q); // [r]q: a non-zero point of the cofactor part
        const s = w.g2(g2ToCompressed(bn254.G2.Point.BASE.multiply(k))); // in G2
        const mixed = w.mcl.add(s, t);
        for (const [p, label] of [[q, 'twist'], [t, 'cofactor part'], [s, 'subgroup'], [mixed, 'subgroup + cofactor part']] as const) {
          expect(w.inG2(p), label).toBe(p.isValidOrder());
        }
        expect(w.inG2(s)).toBe(true);
        expect(w.inG2(t)).toBe(false);
      }),
      { numRuns: 8 },
    );
  });
});

describe('portable G2 subgroup test agrees with noble isTorsionFree', () => {
  it('on subgroup points, points off the subgroup and their sums', () => {
    const { x, y } = g2OffSubgroup();
    const off = bn254.G2.Point.fromAffine({ x, y });
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: bn254.fields.Fr.ORDER - 1n }), (k) => {
        const s = bn254.G2.Point.BASE.multiply(k);
        const t = off.multiplyUnsafe(k);
        for (const p of [s, t, s.add(t), s.add(off)]) expect(inG2Portable(p)).toBe(p.isTorsionFree());
        expect(inG2Portable(s)).toBe(true);
        expect(inG2Portable(s.add(off))).toBe(false);
      }),
      { numRuns: 3 },
    );
  });
});
