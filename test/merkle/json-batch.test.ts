/**
 * Direct tests of src/merkle/verifier/raw/batch.ts on small JSON texts: `packJsonBatch`'s layout (count,
 * flags, byte offsets of keys and values, reuse) and `verifyJsonBatch`'s answers for each of its
 * paths — asset-proof (packed straight from the text), asset-leaf (verified parsed), account-proof
 * (parsed and packed) — valid and broken items, null items, keyed batches and items that are not of
 * the kind. The items are the repository's vectors (test/vectors).
 */
import { describe, expect, it } from 'vitest';
import { extractJson, type JsonItems } from '../../src/merkle/verifier/raw/extract.js';
import { NO_ID, packJsonBatch, verifyJsonBatch, type JsonBatchResult } from '../../src/merkle/verifier/raw/batch.js';
import { kinds, type KindName } from '../../src/merkle/kinds/index.js';
import { NO_DATA, verifyParsedItem } from '../../src/merkle/kinds/verify-batch.js';
import { itemsOf, mutate } from '../support/merkle-json-fixtures.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array, a: number, z: number): string => new TextDecoder().decode(b.subarray(a, z));
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

/** The items of `kind` in `text`, as tape entries (never the parsed fallback). */
function found(kind: KindName, text: string): { bytes: Uint8Array; items: JsonItems } {
  const bytes = enc(text);
  const r = extractJson(kinds[kind], bytes, { parseBelow: 0 });
  if (Array.isArray(r)) throw new Error('expected tape entries');
  return { bytes, items: r };
}

/** Pack all items of `text` and verify them. */
function run(kind: KindName, text: string): JsonBatchResult {
  const { bytes, items } = found(kind, text);
  return verifyJsonBatch(kind, packJsonBatch(items, 0, items.values.length), bytes);
}

function ok(r: JsonBatchResult): Extract<JsonBatchResult, { valid: Uint8Array }> {
  if ('bad' in r) throw new Error(`item ${r.bad} is bad`);
  return r;
}

/** The ids of a result, one per item (undefined: NO_ID). */
function idsOf(r: Extract<JsonBatchResult, { valid: Uint8Array }>): (string | undefined)[] {
  const out: (string | undefined)[] = [];
  let at = 0;
  for (const len of r.idLens) {
    if (len === NO_ID) out.push(undefined);
    else {
      out.push(r.ids.slice(at, at + len));
      at += len;
    }
  }
  return out;
}

const proofs = itemsOf('asset-proof');
// Some asset-leaf vectors are meant not to verify: the ones that do, as the object path says.
const leaves = itemsOf('asset-leaf').filter((x) => verifyParsedItem(kinds['asset-leaf'], x).valid);
const accountProofs = itemsOf('account-proof');

describe('packJsonBatch', () => {
  it('writes n, flags and each value’s byte range; a key of an unkeyed batch is [0, 0)', () => {
    const text = JSON.stringify(proofs);
    const { bytes, items } = found('asset-proof', text);
    const head = new Uint32Array(packJsonBatch(items, 0, proofs.length));
    expect(head[0]).toBe(proofs.length);
    expect(head[1]).toBe(0);
    for (let i = 0; i < proofs.length; i++) {
      const [ks, ke, vs, ve] = head.subarray(2 + 4 * i, 6 + 4 * i);
      expect([ks, ke]).toEqual([0, 0]);
      expect(JSON.parse(dec(bytes, vs!, ve!))).toEqual(proofs[i]);
    }
  });

  it('a sub-range a..b, and `reuse` is used only when large enough', () => {
    const { bytes, items } = found('asset-proof', JSON.stringify(proofs));
    const big = new ArrayBuffer(1024);
    const ab = packJsonBatch(items, 1, 2, big);
    expect(ab).toBe(big);
    const head = new Uint32Array(ab);
    expect(head[0]).toBe(1);
    expect(JSON.parse(dec(bytes, head[4]!, head[5]!))).toEqual(proofs[1]);
    const small = new ArrayBuffer(8);
    const fresh = packJsonBatch(items, 0, 2, small);
    expect(fresh).not.toBe(small);
    expect(fresh.byteLength).toBe(8 + 16 * 2);
  });

  it('a keyed batch: flag 1 and the key ranges, quotes included', () => {
    const keyed = Object.fromEntries(proofs.map((p) => [kinds['asset-proof'].id(p)!, p]));
    const { bytes, items } = found('asset-proof', JSON.stringify(keyed));
    expect(items.keys).not.toBeNull();
    const head = new Uint32Array(packJsonBatch(items, 0, items.values.length));
    expect(head[1]! & 1).toBe(1);
    const keys = Object.keys(keyed);
    for (let i = 0; i < keys.length; i++) expect(dec(bytes, head[2 + 4 * i]!, head[3 + 4 * i]!)).toBe(JSON.stringify(keys[i]));
  });

  it('flag 2 when an item holds a number of 16+ digits, not otherwise', () => {
    const plain = found('account-proof', JSON.stringify(accountProofs.slice(0, 2)));
    expect(new Uint32Array(packJsonBatch(plain.items, 0, 2))[1]! & 2).toBe(0);
    const text = JSON.stringify(accountProofs.slice(0, 2)).replace(/^\[\{/, '[{"big":12345678901234567890,');
    const long = found('account-proof', text);
    expect(new Uint32Array(packJsonBatch(long.items, 0, 2))[1]! & 2).toBe(2);
  });
});

describe('verifyJsonBatch', () => {
  for (const [kind, items] of [
    ['asset-proof', proofs],
    ['asset-leaf', leaves],
    ['account-proof', accountProofs],
  ] as const) {
    it(`${kind}: the vectors verify, named by the kind's id`, () => {
      expect(items.length).toBeGreaterThan(1);
      const r = ok(run(kind, JSON.stringify(items)));
      expect([...r.valid].map((v) => v & 1)).toEqual(items.map(() => 1));
      expect(idsOf(r)).toEqual(items.map((x) => kinds[kind].id(x)));
    });

    it(`${kind}: a broken item is invalid, the others still valid`, () => {
      const broken = clone(items);
      mutate(broken[1]);
      const r = ok(run(kind, JSON.stringify(broken)));
      expect([...r.valid].map((v) => v & 1)).toEqual(items.map((_, i) => (i === 1 ? 0 : 1)));
      const extra = r.extras.find(([i]) => i === 1);
      expect(extra?.[1].valid).toBe(false);
    });
  }

  it('a null item is invalid with NO_DATA and no id; its neighbours keep their verdicts and ids', () => {
    for (const [kind, items] of [
      ['asset-proof', proofs],
      ['account-proof', accountProofs],
    ] as const) {
      const text = JSON.stringify([items[0], null, items[1]]);
      const r = ok(run(kind, text));
      expect([...r.valid].map((v) => v & 1)).toEqual([1, 0, 1]);
      expect(r.extras).toContainEqual([1, { valid: false, reason: NO_DATA }]);
      expect(r.idLens[1]).toBe(NO_ID);
      expect(idsOf(r)).toEqual([kinds[kind].id(items[0]), undefined, kinds[kind].id(items[1])]);
    }
  });

  it('a keyed batch is named by its keys', () => {
    // the key holds a backslash, not é: quote-props would unquote it into the identifier escape `key\u00e9` (é)
    // eslint-disable-next-line @stylistic/quote-props
    const keyed: Record<string, unknown> = { 'first-key': proofs[0], 'key\\u00e9': proofs[1] };
    const text = JSON.stringify(keyed).replace('key\\\\u00e9', 'key\\u00e9');
    const r = ok(run('asset-proof', text));
    expect([...r.valid].map((v) => v & 1)).toEqual([1, 1]);
    expect(idsOf(r)).toEqual(['first-key', 'keyé']);
  });

  it('an item not of the kind, or not JSON, answers { bad: i }', () => {
    expect(run('account-proof', JSON.stringify([accountProofs[0], { nothing: 'here' }]))).toEqual({ bad: 1 });
    expect(run('asset-proof', JSON.stringify([proofs[0], 42]))).toEqual({ bad: 1 });
    // Offsets into text that is not JSON (the main thread skims some items rather than scan them).
    const response = enc('[xyz]');
    const buf = new ArrayBuffer(8 + 16);
    new Uint32Array(buf).set([1, 0, 0, 0, 1, 4]);
    expect(verifyJsonBatch('account-proof', buf, response)).toEqual({ bad: 0 });
  });

  it('an empty batch answers nothing', () => {
    const buf = new ArrayBuffer(8);
    const r = ok(verifyJsonBatch('account-proof', buf, enc('[]')));
    expect(r.valid.length).toBe(0);
    expect(r.ids).toBe('');
  });
});
