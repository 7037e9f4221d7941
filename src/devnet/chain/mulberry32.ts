/**
 * The devnet's seeded randomness: one small deterministic PRNG behind its keys, blockhashes and
 * fault decisions, so that a given seed replays the same devnet.
 */

/** mulberry32: a small deterministic PRNG for seeded keys and blockhashes. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 32 bytes drawn from `rand` (a seed, a blockhash). */
export function randomBytes32(rand: () => number): Uint8Array {
  const b = new Uint8Array(32);
  for (let i = 0; i < 32; i++) b[i] = Math.floor(rand() * 256);
  return b;
}
