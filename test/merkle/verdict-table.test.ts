/**
 * `verifyTable`: the same verdicts as `verify`, made on demand. Every kind, from parsed items and from
 * bytes, inline and on workers, with several batches, some items invalid, ids from the items and from
 * the keys of a keyed response, null entries; and the errors of both calls and of a bad index.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifierWithTestOptions as createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { VerdictTable } from '../../src/merkle/verifier/verdict-table.js';
import { KIND_NAMES, getKind, type KindName } from '../../src/merkle/kinds/index.js';
import type { Verdict } from '../../src/merkle/verdict.js';
import { InputError } from '../../src/errors/index.js';
import { bytes, itemsOf, mutate, outcome } from '../support/merkle-json-fixtures.js';

const inline = createVerifier({ threads: 0, batchSize: 3, jsonParseBelow: 0 });
const pooled = createVerifier({ threads: 2, batchSize: 3, jsonParseBelow: 0, jsonHeadStart: { from: 64, firstPart: 256 } });
afterAll(async () => {
  await inline.close();
  await pooled.close();
});

/** `kind`'s vector items (repeated up to 12), every third one mutated so it fails. */
function mixedItems(kind: KindName): unknown[] {
  const base = itemsOf(kind);
  const out: unknown[] = [];
  for (let i = 0; i < Math.max(12, base.length); i++) {
    const copy = structuredClone(base[i % base.length]);
    out.push(i % 3 === 2 ? mutate(copy) : copy);
  }
  return out;
}

/** Everything a table says, checked against `verify`'s verdicts for the same input. */
function expectSame(table: VerdictTable, verdicts: Verdict[]): void {
  expect(table.length).toBe(verdicts.length);
  expect(table.toArray()).toEqual(verdicts);
  expect([...table]).toEqual(verdicts);
  const invalid = verdicts.flatMap((v, index) => (v.valid ? [] : [{ index, ...v }]));
  expect(table.invalid()).toEqual(invalid);
  expect(table.invalidCount).toBe(invalid.length);
  expect(table.validCount).toBe(verdicts.length - invalid.length);
  expect(table.allValid).toBe(invalid.length === 0);
  // By index, in an order that is not the input's, so no lookup leans on the one before.
  for (let i = verdicts.length - 1; i >= 0; i--) {
    expect(table.at(i)).toEqual(verdicts[i]);
    expect(table.isValid(i)).toBe(verdicts[i]!.valid);
    expect(table.id(i)).toBe(verdicts[i]!.id);
  }
}

describe('verifyTable', () => {
  for (const [name, v] of [['inline', inline], ['2 threads', pooled]] as const) {
    for (const kind of KIND_NAMES) {
      it(`${kind}, ${name}: the verdicts verify gives, from parsed items and from bytes`, async () => {
        const items = mixedItems(kind);
        const verdicts = await v.verify(kind, items);
        expect(verdicts.some((x) => !x.valid)).toBe(true);
        expect(verdicts.some((x) => x.valid)).toBe(true);
        const parsed = await v.verifyTable(kind, items);
        expect(parsed).toBeInstanceOf(VerdictTable);
        expect(parsed.kind).toBe(kind);
        expectSame(parsed, verdicts);
        const fromBytes = await v.verifyTable(kind, bytes({ jsonrpc: '2.0', id: 1, result: { items } }));
        expectSame(fromBytes, await v.verify(kind, bytes(items)));
        expect(fromBytes.toArray()).toEqual(verdicts);
      });
    }

    it(`${name}: a response keyed by id names its items by key, and a null entry is an invalid item`, async () => {
      const proofs = mixedItems('asset-proof');
      const keyed: Record<string, unknown> = {};
      proofs.forEach((p, i) => (keyed[`Asset${i}`] = i === 4 ? null : p));
      for (const input of [keyed, bytes(keyed)]) {
        const table = await v.verifyTable('asset-proof', input);
        expectSame(table, await v.verify('asset-proof', input));
        expect(table.id(4)).toBe('Asset4');
        expect(table.isValid(4)).toBe(false);
        expect(table.invalid().map((x) => x.index)).toContain(4);
      }
    });
  }

  it('null entries in a list have no id, and the ids after them stay in place', async () => {
    const proofs = mixedItems('account-proof');
    const list = proofs.flatMap((p, i) => (i % 4 === 1 ? [null, p] : [p]));
    for (const v of [inline, pooled]) {
      for (const input of [list, bytes(list)]) {
        const table = await v.verifyTable('account-proof', input);
        const verdicts = await v.verify('account-proof', input);
        expect(verdicts.filter((x) => x.id === undefined).length).toBe(list.filter((x) => x === null).length);
        expectSame(table, verdicts);
      }
    }
  });

  it('counts as invalid only the invalid verdicts among the detailed ones', () => {
    // A valid verdict with details (a reason or a root) travels in the extras too.
    const parts = [
      { n: 2, codes: Uint8Array.of(1, 0), extras: [[0, { valid: true, computedRoot: 'ab' }], [1, { valid: false, reason: 'no' }]] as Array<[number, Verdict]>, items: [{ item: null, key: 'a' }, { item: null, key: 'b' }] },
      { n: 1, codes: Uint8Array.of(1), extras: [], items: [{ item: null, key: 'c' }] },
    ];
    const table = new VerdictTable(getKind('asset-proof'), parts);
    expect([table.length, table.validCount, table.invalidCount]).toEqual([3, 2, 1]);
    expect(table.invalid()).toEqual([{ index: 1, id: 'b', valid: false, reason: 'no' }]);
    expect(table.at(0)).toEqual({ id: 'a', valid: true, computedRoot: 'ab' });
    expect(table.at(2)).toEqual({ id: 'c', valid: true });
  });

  it('an empty input gives an empty table, and every lookup names the index', async () => {
    const table = await pooled.verifyTable('account-proof', { context: { slot: 1 }, value: [] });
    expect(table.length).toBe(0);
    expect(table.allValid).toBe(true);
    expect([...table]).toEqual([]);
    expect(() => table.at(0)).toThrow(/"index": expected no index \(the table is empty\), got 0/);
    const full = await inline.verifyTable('account-hash', mixedItems('account-hash'));
    for (const bad of [-1, full.length, 1.5, Number.NaN]) {
      expect(() => full.at(bad)).toThrow(InputError);
      expect(() => full.isValid(bad)).toThrow(new RegExp(`"index": expected an integer 0–${full.length - 1}, got ${String(bad)}`));
      expect(() => full.id(bad)).toThrow(InputError);
    }
  });

  it('aborts mid-run and up front with MERKLE_ABORTED, and the verifier keeps working', async () => {
    // one mixed set repeated (copying and mutating 21,600 items took most of this test's time)
    const mixed = mixedItems('account-hash');
    const items = Array.from({ length: 600 }, () => mixed).flat();
    const ac = new AbortController();
    const p = pooled.verifyTable('account-hash', bytes(items), { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('stop')), 0);
    await expect(p).rejects.toMatchObject({ code: 'MERKLE_ABORTED', context: { reason: 'stop' } });
    await expect(inline.verifyTable('account-hash', items.slice(0, 3), { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'MERKLE_ABORTED' });
    expect((await pooled.verifyTable('account-hash', items.slice(0, 6))).length).toBe(6);
  });

  it('rejects exactly as verify does on unusable input', async () => {
    const asset = mixedItems('asset-proof')[0];
    for (const input of [Buffer.from('{"items": [1, 2'), bytes({ items: [asset, { nope: 1 }] }), [asset, 7], 'text']) {
      for (const v of [inline, pooled]) {
        const want = await outcome(v.verify('asset-proof', input));
        expect(want).toHaveProperty('error');
        expect(await outcome(v.verifyTable('asset-proof', input))).toEqual(want);
      }
    }
    await expect(pooled.verifyTable('nope' as KindName, [])).rejects.toThrow(/kind/);
  });
});
