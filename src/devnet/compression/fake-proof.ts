/**
 * Stand-in proof bytes for the devnet's `getValidityProof(V2)` when it runs with `validityProofs:
 * 'fake'` (by default it proves for real, src/prover/): answered at once, for tests that do not look
 * at the proof. What it can make honestly without a prover is a proof that is well formed — `a`,
 * `b`, `c` are valid compressed points, on the curve and in the prime-order subgroups, of the right
 * lengths — and that does NOT verify under any key. Clients exercise their whole decode path on it, and
 * `verifyValidityProof` reports it as "not verified" rather than crashing or passing.
 *
 * `a` and `c` are curve points hashed from a seed (SHA-256, domain separated, try-and-increment), `b` is
 * the G2 generator, so the same request gets the same bytes. Forging a verifying proof this way would need
 * the circuit's toxic waste; the chance of an accidental pass is about 1/r.
 */
import { bn254 } from '@noble/curves/bn254.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { beToBig, BN254_R, g1ToCompressed, g2ToCompressed, type G1Point } from '../../crypto/index.js';

/** A compressed proof as bytes: `a` 32 (stands for −A), `b` 64, `c` 32. */
export interface CompressedProofBytes {
  a: Uint8Array;
  b: Uint8Array;
  c: Uint8Array;
}

const enc = new TextEncoder();

function scalar(seed: Uint8Array, label: string): bigint {
  const tag = enc.encode(`cairn/devnet-fake-proof/${label}`);
  const buf = new Uint8Array(tag.length + 1 + seed.length);
  buf.set(tag, 0);
  buf[tag.length] = 0;
  buf.set(seed, tag.length + 1);
  // 256 bits mod r is close enough to uniform here; 0 is mapped away so no point is the identity.
  const s = beToBig(sha256(buf)) % BN254_R;
  return s === 0n ? 1n : s;
}

/**
 * A well-formed, non-verifying compressed proof, deterministic in `seed` (bytes or a string, e.g. the
 * request's hashes joined).
 *
 * @example
 * const { a, b, c } = fakeCompressedProof('hash1,hash2');
 * // a.length === 32, b.length === 64, c.length === 32; every point decodes; the proof never verifies
 */
export function fakeCompressedProof(seed: Uint8Array | string = ''): CompressedProofBytes {
  const s = typeof seed === 'string' ? enc.encode(seed) : seed;
  return { a: g1ToCompressed(hashToG1(s, 'a')), b: fixedB(), c: g1ToCompressed(hashToG1(s, 'c')) };
}

/**
 * Try-and-increment onto G1: x from the seed, y = sqrt(x³ + 3) when it exists (about every second x).
 * BN254's G1 has cofactor 1, so every curve point is in the prime-order group. One square root
 * (~0.1 ms) instead of a scalar multiplication (~5 ms in pure JS): the devnet pays this per request.
 */
function hashToG1(seed: Uint8Array, label: string): G1Point {
  const { Fp } = bn254.fields;
  for (let ctr = 0; ; ctr++) {
    const x = Fp.create(scalar(seed, `${label}/${ctr}`));
    const rhs = Fp.add(Fp.mul(Fp.sqr(x), x), 3n);
    let y: bigint;
    try {
      y = Fp.sqrt(rhs);
    } catch {
      continue; // not a square: next x
    }
    return bn254.G1.Point.fromAffine({ x, y });
  }
}

// A G2 scalar multiplication costs ~25 ms in pure JS: B is the G2 generator, a valid subgroup point.
// a and c still vary with the seed, and the proof still never verifies.
function fixedB(): Uint8Array {
  return g2ToCompressed(bn254.G2.Point.BASE);
}

/**
 * The same proof in the indexer's JSON shape (`compressedProof` with byte arrays).
 *
 * @example
 * res.value.compressedProof = fakeCompressedProofJson(hashes.join(','));
 */
export function fakeCompressedProofJson(seed: Uint8Array | string = ''): { a: number[]; b: number[]; c: number[] } {
  const p = fakeCompressedProof(seed);
  return { a: Array.from(p.a), b: Array.from(p.b), c: Array.from(p.c) };
}
