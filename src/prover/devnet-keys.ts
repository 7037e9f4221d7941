/**
 * The devnet's key set `cairn-devnet@1`: every key's toxic waste is derived from a public seed,
 * SHA-256("cairn-devnet@1/" + key name), so the verifying keys shipped in
 * src/merkle/groth16/keys/cairn-devnet-1.ts can be rebuilt by anyone (scripts/devnet-keys.ts does, and a
 * test holds them equal) and the proving keys never need a download: they are made on first use
 * and cached (key-cache.ts). Anyone can forge proofs under these keys: verifiers only try them when
 * asked to by name.
 */
import { createHash } from 'node:crypto';
import { circuitFor, type CircuitShape } from './circuits/index.js';
import { loadOrCreateKey, type KeySource } from './key-cache.js';
import type { ProvingKey } from './proving-key.js';

/** The key-set version the devnet proves under (bump when a circuit or the seed rule changes). */
export const DEVNET_KEY_SET = 'cairn-devnet@1';

/**
 * The public seed of one devnet key.
 *
 * @example
 * devnetSeed('v1_inclusion_26_1'); // 32 bytes, the same everywhere
 */
export function devnetSeed(name: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`${DEVNET_KEY_SET}/${name}`).digest());
}

/** The devnet's proving key for `shape`, from the cache in `dir` or made now. */
export function devnetProvingKey(shape: CircuitShape, dir: string): Promise<{ pk: ProvingKey; source: KeySource }> {
  const r1cs = circuitFor(shape);
  return loadOrCreateKey(r1cs, { dir, keySet: DEVNET_KEY_SET, seed: devnetSeed(r1cs.name) });
}
