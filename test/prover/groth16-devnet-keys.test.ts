/**
 * The shipped cairn-devnet@1 verifying keys (src/merkle/groth16/keys/cairn-devnet-1.ts) are what a fresh
 * setup from the public seed gives, for the circuits as they are now (their R1CS hashes match the
 * ones recorded beside the keys; a changed circuit must bump the key-set version). Every shape is
 * checked by `npx tsx scripts/devnet-keys.ts --check`; here the four the tests prove with (v1 and
 * v2 inclusion-1 and non-inclusion-1) and a v1 combined one, to keep npm test short.
 * `verifyingKeyFor` equals `setup`'s verifying key.
 */
import { describe, expect, it } from 'vitest';
import { g1FromBytes, g1ToCompressed, g2FromBytes, g2ToCompressed } from '../../src/crypto/bn254.js';
import { CAIRN_DEVNET_1, CAIRN_DEVNET_1_R1CS } from '../../src/merkle/groth16/keys/cairn-devnet-1.js';
import { unpackKeySet } from '../../src/merkle/groth16/keys/key-set.js';
import { circuitFor, circuitName, V1_SHAPES, V2_SHAPES, type CircuitShape } from '../../src/prover/circuits/index.js';
import { DEVNET_KEY_SET, devnetSeed } from '../../src/prover/devnet-keys.js';
import { setup, verifyingKeyFor, type VerifyingKeyJson } from '../../src/prover/groth16-setup.js';
import { r1csHash } from '../../src/prover/proving-key.js';
import { buildR1cs } from '../../src/prover/r1cs.js';

const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));
const c1 = (s: string) => Buffer.from(g1ToCompressed(g1FromBytes(hex(s)))).toString('hex');
const c2 = (s: string) => Buffer.from(g2ToCompressed(g2FromBytes(hex(s)))).toString('hex');
const b = (u: Uint8Array) => Buffer.from(u).toString('hex');

describe('cairn-devnet@1 shipped verifying keys', () => {
  const set = unpackKeySet(CAIRN_DEVNET_1);

  it('names every v1 and v2 shape, under its version', () => {
    expect(set.version).toBe(DEVNET_KEY_SET);
    expect(set.names().sort()).toEqual(Object.keys(CAIRN_DEVNET_1_R1CS).sort());
    expect(set.names().sort()).toEqual([...V1_SHAPES, ...V2_SHAPES].map(circuitName).sort());
  });

  const shapes: CircuitShape[] = [
    { kind: 'inclusion', height: 26, accounts: 1, addresses: 0 },
    { kind: 'non-inclusion', height: 26, accounts: 0, addresses: 1 },
    { kind: 'combined', height: 26, accounts: 1, addresses: 1 },
    { kind: 'inclusion', height: 32, accounts: 1, addresses: 0 },
    { kind: 'non-inclusion', height: 40, accounts: 0, addresses: 1 },
  ];
  for (const shape of shapes) {
    it(`equal a fresh setup: ${shape.kind} ${shape.accounts}/${shape.addresses}`, async () => {
      const r1cs = circuitFor(shape);
      expect(r1csHash(r1cs)).toBe(CAIRN_DEVNET_1_R1CS[r1cs.name]);
      const fresh = await verifyingKeyFor(r1cs, devnetSeed(r1cs.name));
      const shipped = set.get(r1cs.name)!;
      expect(b(shipped.alpha)).toBe(c1(fresh.vk_alpha_g1));
      expect([b(shipped.beta), b(shipped.gamma), b(shipped.delta)]).toEqual([c2(fresh.vk_beta_g2), c2(fresh.vk_gamma_g2), c2(fresh.vk_delta_g2)]);
      expect(shipped.ic.map(b)).toEqual(fresh.vk_ic.map(c1));
      expect(shipped.ic).toHaveLength(r1cs.nPublic + 1);
    }, 60_000);
  }

  it('verifyingKeyFor equals the verifying key of a full setup', async () => {
    const r1cs = buildR1cs('toy', (cs) => {
      const x = cs.publicInput(() => 3n, 'x');
      const y = cs.privateInput(() => 4n, 'y');
      cs.assertEqual(cs.mul(x, y), cs.constant(12n), 'xy');
    });
    const s = new Uint8Array([1, 2, 3]);
    const full: VerifyingKeyJson = (await setup(r1cs, s)).vk;
    expect(await verifyingKeyFor(r1cs, s)).toEqual(full);
  });
});
