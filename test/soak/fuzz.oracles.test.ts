/**
 * The fuzz oracles catch what they are there to catch (so a green campaign means something): a
 * validator that takes a string where it checks a number, or 2^64 for a u64, is flagged; a verifier's
 * checked field is told apart from a benign edit (a dropped `lamports` of 0, an extra member).
 */
import { describe, expect, it } from 'vitest';
import { v, type Validator } from '../../src/rpc/validate.js';
import { factsOf, mustRefuse } from '../../soak/fuzz/rpc-targets.js';
import { changedChecked } from '../../soak/fuzz/verifier-targets.js';
import { setAt } from '../../soak/fuzz/mutate.js';

describe('response validator oracle', () => {
  // a u64 that forgets the upper bound: what the u64-range check exists to catch
  const lenientU64: Validator = (x) => ((typeof x === 'number' && Number.isInteger(x) && x >= 0) || (typeof x === 'bigint' && x >= 0n) ? undefined : { path: [], expected: 'u64', got: x });
  const shape = v.object({ slot: lenientU64, name: v.string }, { note: v.unknown });
  const base = { slot: 5, name: 'x', note: 'anything' };
  const facts = factsOf((x) => shape(x) === undefined, base);
  const checks = new Set(['u64-range']);

  it('knows which fields are checked and which hold a u64', () => {
    expect([...facts.checked].sort()).toEqual(['["name"]', '["slot"]']);
    expect([...facts.u64]).toEqual(['["slot"]']);
  });

  it('flags a u64 past 2^64 and a type change of a checked field, not the benign edits', () => {
    expect(mustRefuse(facts, base, setAt(base, ['slot'], 2n ** 64n), ['slot'], checks)).toContain('u64 ← 18446744073709551616');
    expect(mustRefuse(facts, base, setAt(base, ['name'], 7), ['name'], checks)).toContain('string → number');
    expect(mustRefuse(facts, base, setAt(base, ['note'], 7), ['note'], checks)).toBeNull();
    expect(mustRefuse(facts, base, setAt(base, ['slot'], 2n ** 64n - 1n), ['slot'], checks)).toBeNull();
    expect(mustRefuse(facts, base, setAt(base, ['slot'], 2n ** 64n), ['slot'], new Set())).toBeNull();
  });
});

describe('verifier oracle', () => {
  const account = { hash: 'H', owner: 'O', tree: 'T', leafIndex: 3, lamports: 0, address: null, data: null };

  it('a changed checked field is a change', () => {
    expect(changedChecked('account-hash', account, { ...account, owner: 'P' })).toEqual(['owner']);
    expect(changedChecked('asset-proof', { root: 'r', leaf: 'l', proof: ['a'], node_index: 9 }, { root: 'r', leaf: 'l', proof: ['b'], node_index: 9 })).toEqual(['proof']);
  });

  it('an edit the format reads as the same value is not', () => {
    const { lamports: _l, address: _a, ...bare } = account;
    expect(changedChecked('account-hash', account, bare)).toEqual([]);
    expect(changedChecked('account-hash', account, { ...account, leafIndex: 3n, extra: 1 })).toEqual([]);
    // u64s may come as decimal strings (the e2e vector's lamports do)
    expect(changedChecked('account-hash', account, { ...account, leafIndex: '3' })).toEqual([]);
    expect(changedChecked('account-hash', account, { ...account, leafIndex: '4' })).toEqual(['leafIndex']);
  });
});
