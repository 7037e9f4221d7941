import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  b58Field,
  b58Decode32,
  below248,
  bigintToBe,
  beToBigint,
  ByteReader,
  ByteWriter,
  decodeBatch,
  encodeBatch,
  FieldError,
  inField,
  BN254_R,
  nodesField,
  parseJsonLossless,
  u32Field,
  uintField,
  unwrapItems,
} from '../../src/merkle/codec.js';
import { CairnError, InputError } from '../../src/errors.js';

const isProof = (v: Record<string, unknown>) => Array.isArray(v.proof) && 'root' in v;
const p1 = { proof: ['a'], root: 'r1' };
const p2 = { proof: ['b'], root: 'r2' };

describe('unwrapItems: every envelope the service uses', () => {
  it('bare result array', () => {
    expect(unwrapItems([p1, p2], isProof)).toEqual([{ item: p1 }, { item: p2 }]);
  });
  it('{context, value}', () => {
    expect(unwrapItems({ context: { slot: 1 }, value: [p1] }, isProof)).toEqual([{ item: p1 }]);
  });
  it('a whole JSON-RPC response around {context, value}', () => {
    expect(unwrapItems({ jsonrpc: '2.0', id: 7, result: { context: { slot: 1 }, value: [p1, p2] } }, isProof).map((x) => x.item)).toEqual([p1, p2]);
  });
  it('a single item, bare and inside a response', () => {
    expect(unwrapItems(p1, isProof)).toEqual([{ item: p1 }]);
    expect(unwrapItems({ jsonrpc: '2.0', id: 1, result: p2 }, isProof)).toEqual([{ item: p2 }]);
  });
  it('paged lists (compression {items, cursor} inside value; DAS {total, items})', () => {
    expect(unwrapItems({ context: { slot: 0 }, value: { items: [p1, p2], cursor: null } }, isProof).length).toBe(2);
    expect(unwrapItems({ total: 1, limit: 10, page: 1, items: [p2] }, isProof)).toEqual([{ item: p2 }]);
  });
  it('an object keyed by id (getAssetProofBatch), keys kept', () => {
    expect(unwrapItems({ jsonrpc: '2.0', id: 1, result: { A: p1, B: p2 } }, isProof)).toEqual([
      { item: p1, key: 'A' },
      { item: p2, key: 'B' },
    ]);
  });
  it('an empty page has no items', () => {
    expect(unwrapItems({ context: { slot: 3 }, value: { items: [], cursor: null } }, isProof)).toEqual([]);
    expect(unwrapItems({ jsonrpc: '2.0', id: 1, result: null }, isProof)).toEqual([]);
  });
  it('a JSON-RPC error response is unusable input, with the server message', () => {
    const e = (() => {
      try {
        unwrapItems({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad params' } }, isProof);
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(InputError);
    expect((e as Error).message).toMatch(/-32602: bad params/);
  });
  it('an object that holds no item of the kind is rejected naming its keys', () => {
    expect(() => unwrapItems({ foo: 1, bar: 'x' }, isProof)).toThrow(/found no item.*foo, bar/);
    expect(() => unwrapItems(42, isProof)).toThrow(CairnError);
  });
  it('works on a shipped vector file', () => {
    const j = JSON.parse(readFileSync('test/vectors/photon/e2e_tests__e2e_mint_and_transfer-bob-proofs.json', 'utf8'));
    expect(unwrapItems(j, (v) => Array.isArray(v.proof) && typeof v.hash === 'string')).toHaveLength(2);
  });
});

describe('field decoders name the field', () => {
  it('base58 of the wrong length / not base58 / not a string', () => {
    expect(() => b58Field('abc', 'root')).toThrow(/"root": expected 32 bytes/);
    expect(() => b58Field('0OIl', 'root')).toThrow(/"root": not valid base58/);
    expect(() => b58Field(12, 'proof[3]')).toThrow(FieldError);
    expect(b58Field('11111111111111111111111111111111', 'x')).toEqual(new Uint8Array(32));
  });
  it('nodes concatenate and name the index', () => {
    expect(nodesField(['11111111111111111111111111111111', '11111111111111111111111111111111'], 'proof')).toHaveLength(64);
    expect(() => nodesField(['11111111111111111111111111111111', 'zz'], 'proof')).toThrow(/"proof\[1\]"/);
  });
  it('unsigned integers: range, type, decimal strings', () => {
    expect(u32Field(7, 'leafIndex')).toBe(7);
    expect(() => u32Field(2 ** 32, 'leafIndex')).toThrow(/"leafIndex"/);
    expect(() => u32Field(-1, 'leafIndex')).toThrow(/"leafIndex"/);
    expect(() => u32Field(1.5, 'leafIndex')).toThrow(/"leafIndex"/);
    expect(uintField('18446744073709551615', 'lamports', 64)).toBe(2n ** 64n - 1n);
    expect(() => uintField('18446744073709551616', 'lamports', 64)).toThrow(/"lamports"/);
    expect(() => uintField(2 ** 60, 'lamports', 64)).toThrow(/"lamports": expected an integer/);
  });
});

describe('lossless JSON', () => {
  it('keeps u64 numbers exact and leaves strings and small numbers alone', () => {
    const v = parseJsonLossless('{"lamports":18446744073709551615,"s":"12345678901234567890","n":42,"f":1.5e3,"neg":-1}') as Record<string, unknown>;
    expect(v).toEqual({ lamports: '18446744073709551615', s: '12345678901234567890', n: 42, f: 1500, neg: -1 });
    expect(uintField(v.lamports, 'lamports', 64)).toBe(18446744073709551615n);
  });
  it('handles escaped quotes inside strings', () => {
    expect(parseJsonLossless('{"a":"x\\"1234567890123456789","b":1234567890123456789}')).toEqual({ a: 'x"1234567890123456789', b: '1234567890123456789' });
  });
});

describe('batch framing', () => {
  it('round-trips records, including empty ones, without copying', () => {
    const recs = [new Uint8Array([1, 2, 3]), new Uint8Array(0), new Uint8Array(70).fill(9)];
    const buf = encodeBatch(recs);
    const out = decodeBatch(buf);
    expect(out.map((r) => Array.from(r))).toEqual(recs.map((r) => Array.from(r)));
    expect(out[2]!.buffer).toBe(buf);
  });
  it('rejects a corrupt frame with a typed error', () => {
    const buf = encodeBatch([new Uint8Array(10)]);
    new DataView(buf).setUint32(8, 9999, true);
    expect(() => decodeBatch(buf)).toThrow(InputError);
    expect(() => decodeBatch(new ArrayBuffer(3))).toThrow(InputError);
  });
  it('reader/writer round-trip and bounds checks', () => {
    const rec = new ByteWriter(2).u8(5).u32(0xdeadbeef).u64(2n ** 64n - 1n).bytes(new Uint8Array([7, 8])).finish();
    const r = new ByteReader(rec);
    expect([r.u8(), r.u32(), r.u64(), Array.from(r.bytes(2))]).toEqual([5, 0xdeadbeef, 2n ** 64n - 1n, [7, 8]]);
    expect(() => r.u8('flags')).toThrow(/truncated record reading flags/);
  });
});

describe('field bounds on bytes', () => {
  it('r itself and above are out of the field, r-1 is in', () => {
    const r = beToBigint(BN254_R);
    expect(inField(bigintToBe(r - 1n))).toBe(true);
    expect(inField(bigintToBe(r))).toBe(false);
    expect(inField(new Uint8Array(32).fill(255))).toBe(false);
  });
  it('2^248 boundary', () => {
    expect(below248(bigintToBe(2n ** 248n - 1n))).toBe(true);
    expect(below248(bigintToBe(2n ** 248n))).toBe(false);
  });
});

describe('b58Decode32 agrees with bs58 on every input', () => {
  it('random 32-byte values, including leading zero bytes, round-trip', async () => {
    const fc = (await import('fast-check')).default;
    const bs58 = (await import('bs58')).default;
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.nat({ max: 32 }), (b, zeros) => {
        const v = Uint8Array.from(b);
        v.fill(0, 0, zeros);
        const s = bs58.encode(v);
        expect(b58Decode32(s)).toEqual(v);
      }),
      { numRuns: 200 },
    );
  });
  it('rejects what bs58 would not decode to exactly 32 bytes', async () => {
    const fc = (await import('fast-check')).default;
    const bs58 = (await import('bs58')).default;
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 40 }), (b) => {
        const s = bs58.encode(b);
        const got = b58Decode32(s);
        if (b.length === 32) expect(got).toEqual(b);
        else expect(got).toBeNull();
      }),
      { numRuns: 200 },
    );
    expect(b58Decode32('0' + '1'.repeat(40))).toBeNull();
    expect(b58Decode32('1'.repeat(32))).toEqual(new Uint8Array(32));
    expect(b58Decode32('1'.repeat(33))).toBeNull();
    expect(b58Decode32('zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz')).toBeNull();
  });
});
