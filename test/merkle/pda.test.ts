/**
 * The PDA kernels (native/pda.c in the addon and as WebAssembly, and the node:crypto + @noble/curves
 * reference) against independent implementations: the on-curve test against @noble/curves' ZIP-215
 * decompression (what curve25519-dalek accepts) on random points and on the edges of the field
 * (y = 0, ±1, p − 1, non-canonical y ≥ p, the sign bit), and the whole search against @solana/web3.js
 * `findProgramAddressSync` on random seeds and program ids.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ed25519 } from '@noble/curves/ed25519.js';
import { PublicKey } from '@solana/web3.js';
import { CairnError } from '../../src/errors/index.js';
import { findPdaInto, isOnCurve, pdaBackend, setPdaBackend, MAX_PDA_PREIMAGE, type PdaBackend } from '../../src/crypto/pda.js';
import { loadNative } from '../../src/addon.js';

const P = 2n ** 255n - 19n;
const le = (x: bigint, signBit = false): Uint8Array => {
  const b = new Uint8Array(32);
  for (let i = 0; i < 32; i++, x >>= 8n) b[i] = Number(x & 0xffn);
  if (signBit) b[31]! |= 0x80;
  return b;
};
const nobleOnCurve = (b: Uint8Array): boolean => {
  try {
    ed25519.Point.fromBytes(b, true);
    return true;
  } catch {
    return false;
  }
};
const MARKER = Buffer.from('ProgramDerivedAddress');

function under<T>(b: PdaBackend, fn: () => T): T {
  setPdaBackend(b);
  try {
    return fn();
  } finally {
    setPdaBackend('auto');
  }
}

/** find_program_address through the kernel, from seeds as web3.js takes them. */
function derive(seeds: Uint8Array[], program: Uint8Array): { address: string; bump: number } {
  const pre = Buffer.concat([...seeds, Buffer.alloc(1), program, MARKER]);
  const out = new Uint8Array(32);
  const bump = findPdaInto(pre, pre.length - 1 - 32 - MARKER.length, out);
  return { address: new PublicKey(out).toBase58(), bump };
}

const backends: PdaBackend[] = loadNative()?.findPda ? ['native', 'wasm', 'js'] : ['wasm', 'js'];

afterAll(() => setPdaBackend('auto'));

describe('backend choice', () => {
  it('picks the fastest that loads and honours a forced one', () => {
    expect(pdaBackend()).toBe(backends[0]);
    expect(under('js', () => pdaBackend())).toBe('js');
    expect(under('wasm', () => pdaBackend())).toBe('wasm');
  });

  it('rejects an unknown backend by name', () => {
    expect(() => setPdaBackend('gpu' as PdaBackend)).toThrow(CairnError);
    expect(() => setPdaBackend('gpu' as PdaBackend)).toThrow(/"backend"/);
  });
});

describe.each(backends)('%s', (b) => {
  it('decides on-curve as curve25519-dalek does, on random points', () => {
    const points = Array.from({ length: 600 }, () => new Uint8Array(randomBytes(32)));
    const got = under(b, () => points.map(isOnCurve));
    expect(got).toEqual(points.map(nobleOnCurve));
    // about half of all 32-byte strings are points: both answers occur
    expect(got.filter(Boolean).length).toBeGreaterThan(200);
    expect(got.filter((x) => !x).length).toBeGreaterThan(200);
  });

  it('on the edges: y = 0, ±1, 2, p − 1, p − 2, non-canonical y ≥ p, with and without the sign bit', () => {
    const ys = [0n, 1n, 2n, 3n, P - 1n, P - 2n, P, P + 1n, P + 2n, P + 18n, 2n ** 255n - 1n, 2n ** 254n, 2n ** 128n];
    for (const y of ys) {
      for (const sign of [false, true]) {
        const pt = le(y, sign);
        expect(under(b, () => isOnCurve(pt)), `y = ${y}, sign ${sign}`).toBe(nobleOnCurve(pt));
      }
    }
    // y = ±1 gives x = 0, accepted even with the sign bit set (dalek does not reject "negative zero")
    expect(under(b, () => isOnCurve(le(1n, true)))).toBe(true);
    expect(under(b, () => isOnCurve(le(P - 1n, true)))).toBe(true);
  });

  it('finds the same address and bump as @solana/web3.js', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 0, maxLength: 32 }), { minLength: 0, maxLength: 4 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (seeds, program) => {
          const [pk, bump] = PublicKey.findProgramAddressSync(seeds.map((s) => Buffer.from(s)), new PublicKey(program));
          expect(under(b, () => derive(seeds, program))).toEqual({ address: pk.toBase58(), bump });
        },
      ),
      { numRuns: 120 },
    );
  });

  it('goes past bumps whose hash is on the curve (seed "cairn" under the system program: 253)', () => {
    const r = under(b, () => derive([Buffer.from('cairn')], new Uint8Array(32)));
    expect(r).toEqual({ address: 'FdycevEbDNHAcoATECpSDsDnNXW4W5MDMzwVRtiBRcfr', bump: 253 });
  });

  it('takes the longest preimage (16 seeds of 32 bytes)', () => {
    const seeds = Array.from({ length: 16 }, (_, i) => new Uint8Array(32).fill(i));
    const program = new Uint8Array(32).fill(7);
    const [pk, bump] = PublicKey.findProgramAddressSync(seeds.map((s) => Buffer.from(s)), new PublicKey(program));
    expect(under(b, () => derive(seeds, program))).toEqual({ address: pk.toBase58(), bump });
  });
});

describe('bad input is rejected by name', () => {
  it('preimage too long, bump index outside it, short output, a point that is not 32 bytes', () => {
    expect(() => findPdaInto(new Uint8Array(MAX_PDA_PREIMAGE + 1), 0, new Uint8Array(32))).toThrow(/"preimage"/);
    expect(() => findPdaInto(new Uint8Array(60), 60, new Uint8Array(32))).toThrow(/"bumpAt"/);
    expect(() => findPdaInto(new Uint8Array(60), -1, new Uint8Array(32))).toThrow(/"bumpAt"/);
    expect(() => findPdaInto(new Uint8Array(60), 0, new Uint8Array(31))).toThrow(/"out"/);
    expect(() => isOnCurve(new Uint8Array(31))).toThrow(/"point"/);
  });
});
