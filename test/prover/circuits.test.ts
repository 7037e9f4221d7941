/**
 * Every v1 shape: the witness for real devnet trees satisfies the constraint system, and its public
 * inputs are exactly the vector `validityPublicInputs` (src/merkle/validity.ts) derives for the same
 * roots, leaves and addresses — the one `verifyValidityProof` checks real and devnet proofs against.
 */
import { describe, expect, it } from 'vitest';
import { circuitFor, publicInputsOf, V1_SHAPES, witnessFor, type CircuitShape } from '../../src/prover/circuits/index.js';
import { defineCircuit } from '../../src/prover/circuits/define.js';
import { buildR1cs, firstUnsatisfied } from '../../src/prover/r1cs.js';
import { validityPublicInputs } from '../../src/merkle/validity.js';
import { fromBytes32 } from '../../src/devnet/merkle-tree.js';
import { buildFixture } from './circuits-fixture.js';

const label = (s: CircuitShape): string => `${s.kind} ${s.accounts}/${s.addresses}`;

describe('v1 circuits', () => {
  it.each(V1_SHAPES.map((s) => [label(s), s] as const))('%s: witness satisfies, public inputs are validity.ts\'s', (_, shape) => {
    const r1cs = circuitFor(shape);
    const { inputs, state, addrs } = buildFixture(shape);
    const w = witnessFor(shape, inputs);
    expect(firstUnsatisfied(r1cs, w)).toBe(-1);

    const pub = validityPublicInputs(state, addrs);
    expect(r1cs.name).toBe(pub.circuit);
    expect(r1cs.nPublic).toBe(pub.inputs.length);
    expect(w.slice(1, 1 + r1cs.nPublic)).toEqual(pub.inputs.map(fromBytes32));
    expect(publicInputsOf(inputs)).toEqual(pub.inputs.map(fromBytes32));
  });

  it('memoises per shape and builds deterministically', () => {
    const shape = V1_SHAPES[0];
    expect(circuitFor({ ...shape })).toBe(circuitFor(shape));
    const again = buildR1cs('again', defineCircuit(shape, 26));
    const r1cs = circuitFor(shape);
    expect(again.nVars).toBe(r1cs.nVars);
    expect(again.constraints.length).toBe(r1cs.constraints.length);
    for (const i of [0, 1, 100, r1cs.constraints.length - 1]) expect(again.constraints[i]).toEqual(r1cs.constraints[i]);
  });

  it('rejects shapes no v1 circuit has', () => {
    for (const bad of [
      { kind: 'inclusion', height: 26, accounts: 5, addresses: 0 },
      { kind: 'inclusion', height: 32, accounts: 1, addresses: 0 },
      { kind: 'non-inclusion', height: 26, accounts: 0, addresses: 3 },
      { kind: 'combined', height: 26, accounts: 8, addresses: 1 },
    ]) expect(() => circuitFor(bad as CircuitShape), JSON.stringify(bad)).toThrow(/"shape"/);
  });
});
