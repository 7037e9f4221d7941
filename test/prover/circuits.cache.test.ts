/**
 * `circuitFor` memoises the systems it builds, but only the six most recently used: a devnet asked
 * for every shape must not keep ~33 systems of up to 40 MB each.
 */
import { describe, expect, it } from 'vitest';
import { circuitFor, type CircuitShape } from '../../src/prover/circuits/index.js';

const inclusion = (n: number): CircuitShape => ({ kind: 'inclusion', height: 26, accounts: n, addresses: 0 });
const nonInclusion = (m: number): CircuitShape => ({ kind: 'non-inclusion', height: 26, accounts: 0, addresses: m });
const combined: CircuitShape = { kind: 'combined', height: 26, accounts: 1, addresses: 1 };

describe('circuitFor memo', () => {
  it('answers the same system for a recent shape, rebuilds (identically) one pushed out', () => {
    const first = circuitFor(inclusion(1));
    expect(circuitFor(inclusion(1))).toBe(first);
    // four other shapes, then it is used again: it stays
    for (const s of [nonInclusion(1), inclusion(2), nonInclusion(2), inclusion(3)]) circuitFor(s);
    expect(circuitFor(inclusion(1))).toBe(first);
    // six other shapes after its last use: it is pushed out
    for (const s of [inclusion(4), nonInclusion(1), inclusion(2), nonInclusion(2), inclusion(3), combined]) circuitFor(s);
    const again = circuitFor(inclusion(1));
    expect(again).not.toBe(first);
    expect(again.name).toBe(first.name);
    expect(again.nVars).toBe(first.nVars);
    expect(again.nPublic).toBe(first.nPublic);
    expect(again.constraints.length).toBe(first.constraints.length);
    expect(again.constraints[100]).toEqual(first.constraints[100]);
  });
});
