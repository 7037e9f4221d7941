import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { b58Field, b58Decode32, b58Decode32Into, toB58, nodesField, u32Field, uintField } from '../../src/merkle/fields.js';
import { b58Decode32Bytes, b58Decode32IntoJs } from '../../src/solana/base58.js';
import { BatchWriter } from '../../src/merkle/records/batch-writer.js';
import { RecordReader } from '../../src/merkle/records/record-reader.js';
import { below248, bigintToBe, beToBigint, inField, BN254_R } from '../../src/crypto/bytes.js';
import { parseJsonLossless } from '../../src/merkle/input.js';
import { unwrapItems } from '../../src/merkle/kinds/envelopes.js';
import type { Projection } from '../../src/merkle/records/projection.js';
import fc from 'fast-check';
import { CairnError, InputError, PackedFieldError, FieldError } from '../../src/errors/index.js';
import { MAX_DEPTH, MAX_NUMBER_CHARS } from '../../src/json/tape-format.js';

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
  });
  it('a null result is "not found", never an empty success', () => {
    expect(() => unwrapItems({ jsonrpc: '2.0', id: 1, result: null }, isProof)).toThrow(expect.objectContaining({ context: expect.objectContaining({ field: 'result' }) }));
    expect(() => unwrapItems({ context: { slot: 1 }, value: null }, isProof)).toThrow(/not found/);
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
  it('unsigned integers: a huge value is refused with a short message, never printed whole', () => {
    for (const huge of [10n ** 20_000n, '9'.repeat(20_000_000), '1'.repeat(41)]) {
      let e: FieldError | undefined;
      try {
        uintField(huge, 'lamports', 64);
      } catch (x) {
        e = x as FieldError;
      }
      expect(e).toBeInstanceOf(FieldError);
      expect(e!.message).toMatch(/^"lamports": /);
      expect(e!.message.length).toBeLessThan(200);
      expect(JSON.stringify(e!.context).length).toBeLessThan(200);
    }
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

  // the limits every JSON reader holds a text to (tape-format.ts): a hostile text is refused before
  // megabytes of digits become a string or a bigint
  it('refuses numbers over 40 characters and nesting over MAX_DEPTH with INPUT_TOO_LARGE, quoting a short prefix', () => {
    expect(parseJsonLossless(`[${'7'.repeat(40)}]`)).toEqual(['7'.repeat(40)]);
    for (const [text, limit] of [
      [`{"lamports":${'9'.repeat(41)}}`, MAX_NUMBER_CHARS],
      [`{"lamports":${'9'.repeat(20_000_000)}}`, MAX_NUMBER_CHARS],
      [`[0.${'1'.repeat(39)}]`, MAX_NUMBER_CHARS],
      ['['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1), MAX_DEPTH],
      ['['.repeat(100_000) + '12345678901234567890' + ']'.repeat(100_000), MAX_DEPTH],
    ] as const) {
      let e: CairnError | undefined;
      try {
        parseJsonLossless(text);
      } catch (x) {
        e = x as CairnError;
      }
      expect(e, text.slice(0, 30)).toBeInstanceOf(CairnError);
      expect(e!.code).toBe('INPUT_TOO_LARGE');
      expect(e!.context).toMatchObject({ field: 'json', limit });
      expect(e!.message.length).toBeLessThan(200);
    }
  });
  it('leaves invalid JSON invalid: leading zeros and numbers as keys are not quoted into strings', () => {
    for (const text of ['[00000000000000000001]', '{12345678901234567890:1}']) expect(() => parseJsonLossless(text), text).toThrow(SyntaxError);
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

describe('b58Decode32Into: the native decoder (when it loads) and the JS one give the same answers', () => {
  const both = (s: string): [Uint8Array | null, Uint8Array | null] => {
    const a = new Uint8Array(34).fill(0xee);
    const b = new Uint8Array(34).fill(0xee);
    const okA = b58Decode32Into(s, a, 1);
    const okB = b58Decode32IntoJs(s, b, 1);
    if (okA) expect([a[0], a[33]]).toEqual([0xee, 0xee]);
    return [okA ? a.subarray(1, 33) : null, okB ? b.subarray(1, 33) : null];
  };
  it('on random values of 0–40 bytes with leading zeros, and on edge strings', async () => {
    const fc = (await import('fast-check')).default;
    const bs58 = (await import('bs58')).default;
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 40 }), fc.nat({ max: 40 }), (b, zeros) => {
        const v = Uint8Array.from(b);
        v.fill(0, 0, zeros);
        const [n, j] = both(bs58.encode(v));
        expect(n).toEqual(j);
        expect(n === null).toBe(v.length !== 32);
      }),
      { numRuns: 400 },
    );
    const good = bs58.encode(new Uint8Array(32).fill(9));
    for (const s of ['', '1'.repeat(32), '1'.repeat(33), 'z'.repeat(44), 'z'.repeat(45), '0' + good.slice(1), good + ' ', good.slice(0, 31)]) {
      const [n, j] = both(s);
      expect(n, s).toEqual(j);
    }
  });
  it('on random alphabet text of 30–46 characters (mostly not 32 bytes), and values next to 2^256', async () => {
    const fc = (await import('fast-check')).default;
    const bs58 = (await import('bs58')).default;
    const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    // High digits first make most 44-character strings overflow 256 bits: the carry check decides.
    const digit = fc.oneof(fc.constantFrom(...alphabet), fc.constantFrom('1', 'x', 'y', 'z'));
    fc.assert(
      fc.property(fc.array(digit, { minLength: 30, maxLength: 46 }), (chars) => {
        const [n, j] = both(chars.join(''));
        expect(n).toEqual(j);
      }),
      { numRuns: 2000 },
    );
    const big = (v: bigint): Uint8Array => Uint8Array.from(Buffer.from(v.toString(16).padStart(2 * Math.ceil(v.toString(16).length / 2), '0'), 'hex'));
    const top = (1n << 256n) - 1n;
    for (const v of [top, top - 1n, top - 57n, 1n << 255n, 1n << 256n, (1n << 256n) + 1n, (1n << 256n) + 58n ** 5n]) {
      const s = bs58.encode(big(v));
      const [n, j] = both(s);
      expect(n, s).toEqual(j);
      expect(n === null, s).toBe(v >= 1n << 256n);
    }
  });
  it('never reads a character outside ASCII as the byte it ends in', () => {
    const good = 'So11111111111111111111111111111111111111112';
    // U+0131 and U+0531 end in 0x31 ('1'); U+0141 in 0x41 ('A'); a surrogate pair; Latin-1 é.
    for (const c of ['\u0131', '\u0531', '\u0141', '\ud83d\ude00', 'é']) {
      const s = good.slice(0, 5) + c + good.slice(5 + c.length);
      expect(both(s), JSON.stringify(s)).toEqual([null, null]);
    }
  });
});

describe('b58Decode32Bytes (the worker-side decoder) agrees with bs58', () => {
  const ascii = (s: string) => new TextEncoder().encode(s);
  it('random 32-byte values, leading zeros included, decode from bytes at any offset', async () => {
    const fc = (await import('fast-check')).default;
    const bs58 = (await import('bs58')).default;
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.nat({ max: 32 }), fc.nat({ max: 7 }), (b, zeros, pad) => {
        const v = Uint8Array.from(b);
        v.fill(0, 0, zeros);
        const src = ascii('x'.repeat(pad) + bs58.encode(v) + 'y');
        const out = new Uint8Array(40).fill(0xee);
        expect(b58Decode32Bytes(src, pad, src.length - 1, out, 4)).toBe(true);
        expect(out.subarray(4, 36)).toEqual(v);
        expect(out[3]).toBe(0xee);
        expect(out[36]).toBe(0xee);
      }),
      { numRuns: 300 },
    );
  });
  it('rejects what is not exactly 32 bytes of base58, as bs58 would', async () => {
    const fc = (await import('fast-check')).default;
    const bs58 = (await import('bs58')).default;
    const out = new Uint8Array(32);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 40 }), (b) => {
        const src = ascii(bs58.encode(b));
        expect(b58Decode32Bytes(src, 0, src.length, out, 0)).toBe(b.length === 32);
      }),
      { numRuns: 300 },
    );
    for (const s of ['z'.repeat(44), '1'.repeat(33), '0' + '1'.repeat(40), 'l'.repeat(40), bs58.encode(new Uint8Array(32).fill(255)).replace(/.$/, 'I')]) {
      expect(b58Decode32Bytes(ascii(s), 0, s.length, out, 0)).toBe(false);
    }
    const max = bs58.encode(new Uint8Array(32).fill(255));
    expect(b58Decode32Bytes(ascii(max), 0, max.length, out, 0)).toBe(true);
    expect(out).toEqual(new Uint8Array(32).fill(255));
  });
});

describe('packed batches: BatchWriter → RecordReader', () => {
  const node = (i: number) => toB58(new Uint8Array(32).fill(i));
  it('round-trips every op, record by record, into one transferable buffer', () => {
    const w = new BatchWriter(3, 8); // a tiny first guess: the buffer must grow
    w.begin();
    w.b58(node(1), 'root');
    w.nodes([node(2), node(3)], 'proof');
    w.u8(7);
    w.u32(0xdeadbeef);
    w.u64(2 ** 53 - 1);
    w.u64(2n ** 64n - 1n);
    w.none();
    w.begin();
    w.json({ a: [1, 'x'] });
    w.begin();
    w.nodes([], 'proof');
    const buf = w.finish();
    expect(buf).toBeInstanceOf(ArrayBuffer);
    const r = new RecordReader(buf);
    expect(r.count).toBe(3);
    r.select(0);
    expect(r.b58('root')).toEqual(new Uint8Array(32).fill(1));
    expect(r.nodes('proof')).toEqual(Uint8Array.from([...new Uint8Array(32).fill(2), ...new Uint8Array(32).fill(3)]));
    expect([r.u8(), r.u32(), r.u64(), r.u64(), r.optB58('address')]).toEqual([7, 0xdeadbeef, 2n ** 53n - 1n, 2n ** 64n - 1n, null]);
    expect(() => r.u8('flags')).toThrow(/truncated record reading flags/);
    expect(r.select(1).json()).toEqual({ a: [1, 'x'] });
    expect(r.select(2).nodes('proof')).toHaveLength(0);
    // A spent buffer is written into again when it is large enough.
    const again = new BatchWriter(1, 8, buf);
    again.begin();
    again.u8(1);
    expect(again.finish()).toBe(buf);
  });
  it('bad values decode in the worker with the parser\'s message; FAIL ops surface in order', () => {
    const w = new BatchWriter(5);
    w.begin();
    w.b58('abc', 'root');
    w.begin();
    w.nodes([node(4), 'héllo', node(7)], 'proof'); // a non-ASCII string among good ones
    w.begin();
    w.b58(node(5), 'hash');
    w.fail('"leafIndex": expected an integer, got 1.5');
    w.begin();
    w.nodes([node(8), '2'.repeat(300)], 'proof'); // too long for one-byte lengths
    w.begin();
    expect(() => w.b58(42, 'owner')).toThrow(FieldError);
    const r = new RecordReader(w.finish());
    expect(() => r.select(0).b58('root')).toThrow(/^"root": expected 32 bytes, got 3$/);
    expect(() => r.select(1).nodes('proof')).toThrow(/^"proof\[1\]": not valid base58$/);
    r.select(2);
    expect(r.b58('hash')).toHaveLength(32);
    expect(() => r.u32('leafIndex')).toThrow(PackedFieldError);
    expect(() => r.select(2).b58('hash') && r.u32('leafIndex')).toThrow('"leafIndex": expected an integer, got 1.5');
    // Reading an op other than the one written is a corrupt record, not a verdict.
    expect(() => r.select(2).u8('flags')).toThrow(/expected a u8 reading flags, found tag/);
    expect(() => r.select(3).nodes('proof')).toThrow(/^"proof\[1\]": expected 32 bytes, got \d+$/);
  });
  it('the element that is not a string is reported after the strings before it', async () => {
    const w = new BatchWriter(1);
    w.begin();
    try {
      w.nodes([node(6), null], 'proof');
    } catch (e) {
      expect(e).toBeInstanceOf(FieldError);
      w.fail((e as Error).message);
    }
    const r = new RecordReader(w.finish()).select(0);
    expect(() => r.nodes('proof')).toThrow('"proof[1]": expected a base58 string, got null');
  });
  it('b58Run: two fields and a list in one run of text, read as b58, b58 and nodes read them one by one', () => {
    const lists = [[], [node(3)], Array.from({ length: 30 }, (_, i) => node(i)), Array.from({ length: 253 }, (_, i) => node(i % 256))];
    const w = new BatchWriter(2 * lists.length, 8); // a tiny first guess: the buffer must grow
    for (const list of lists) {
      w.begin();
      expect(w.b58Run(node(1), node(2), list)).toBe(true);
      w.u8(9);
      w.begin();
      w.b58(node(1), 'root');
      w.b58(node(2), 'leaf');
      w.nodes(list, 'proof');
      w.u8(9);
    }
    const r = new RecordReader(w.finish());
    lists.forEach((list, i) => {
      const one = r.select(2 * i).b58Run('root', 'leaf', 'proof');
      expect(r.u8(), `list of ${list.length}: the op after it`).toBe(9);
      r.select(2 * i + 1);
      expect(one).toEqual([r.b58('root'), r.b58('leaf'), r.nodes('proof')]);
      // Another op: nothing read, null.
      expect(r.select(2 * i + 1).b58Run('root', 'leaf', 'proof')).toBeNull();
      expect(r.b58('root')).toHaveLength(32);
    });
  });
  it('b58Run declines, writing nothing, anything but ASCII strings shorter than 256 characters', () => {
    const good = [node(4), node(5)];
    const declined: Array<[unknown, unknown, unknown]> = [
      [42, node(2), good],
      [node(1), null, good],
      [node(1), node(2), 'not a list'],
      [node(1), node(2), [node(4), 7]],
      [node(1), node(2), [node(4), '2'.repeat(256)]],
      ['2'.repeat(256), node(2), good],
      [node(1) + 'é', node(2), good],
      [node(1), node(2), [node(4), '€' + node(5)]],
      [node(1), node(2), [node(4), '\ud800']],
      [node(1), node(2), Array.from({ length: 254 }, () => node(4))],
    ];
    for (const [a, b, list] of declined) {
      const w = new BatchWriter(1, 8);
      w.begin();
      const before = w.length;
      expect(w.b58Run(a, b, list), JSON.stringify([a, b, list]).slice(0, 80)).toBe(false);
      expect(w.length).toBe(before);
      w.u8(3);
      expect(new RecordReader(w.finish()).select(0).u8()).toBe(3);
    }
  });
  it('b58Run: bad text is reported as b58 and nodes report it, first bad field first', () => {
    const cases: Array<[string, string, string[], RegExp]> = [
      ['abc', 'l' + node(2).slice(1), [node(3)], /^"root": expected 32 bytes, got 3$/],
      [node(1), '0' + node(2).slice(1), [node(3)], /^"leaf": not valid base58$/],
      [node(1), node(2), [node(3), '1' + node(4)], /^"proof\[1\]": expected 32 bytes, got 33$/],
      [node(1), node(2), [node(3), node(4), 'I'], /^"proof\[2\]": not valid base58$/],
    ];
    for (const [a, b, list, error] of cases) {
      const w = new BatchWriter(2);
      w.begin();
      expect(w.b58Run(a, b, list)).toBe(true);
      w.begin();
      w.b58(a, 'root');
      w.b58(b, 'leaf');
      w.nodes(list, 'proof');
      const r = new RecordReader(w.finish());
      expect(() => r.select(0).b58Run('root', 'leaf', 'proof')).toThrow(error);
      expect(() => r.select(1) && [r.b58('root'), r.b58('leaf'), r.nodes('proof')]).toThrow(error);
    }
  });
  it('a corrupt header is a typed error', () => {
    expect(() => new RecordReader(new ArrayBuffer(4))).toThrow(InputError);
    const buf = new BatchWriter(1);
    buf.begin();
    const ab = buf.finish();
    new DataView(ab).setUint32(8, 1e6, true); // record 0 ends past the buffer
    expect(() => new RecordReader(ab).select(0)).toThrow(/record 0 out of bounds/);
    new DataView(ab).setUint32(0, 1e6, true);
    expect(() => new RecordReader(ab)).toThrow(/header claims/);
  });
});

describe('projected values: BatchWriter.projected → RecordReader.projected', () => {
  // Every kind of projection node, nested: members, a list of objects with a nested object, a list of
  // values, and a member listed at two depths.
  const P: Projection = { a: true, b: { c: true, d: [{ e: true, f: { g: true } }] }, h: [true], i: { j: true, a: true } };
  /** What the worker must see: the value at every listed path, the whole value where the shape differs. */
  const whole = (v: unknown): unknown => (v !== null && typeof v === 'object' ? JSON.parse(JSON.stringify(v)) : v);
  const expected = (v: unknown, p: Projection): unknown => {
    if (p === true || v === null || typeof v !== 'object') return whole(v);
    if (Array.isArray(p)) return Array.isArray(v) ? v.map((e) => expected(e, p[0] as Projection)) : whole(v);
    if (Array.isArray(v)) return whole(v);
    const out: Record<string, unknown> = {};
    for (const [k, q] of Object.entries(p)) {
      const x = expected((v as Record<string, unknown>)[k], q);
      if (x !== undefined) out[k] = x;
    }
    return out;
  };
  const roundTrip = (v: unknown): unknown => {
    const w = new BatchWriter(1);
    w.begin();
    w.projected(v, P);
    return new RecordReader(w.finish()).select(0).projected(P, 'value');
  };
  const any = fc.jsonValue({ maxDepth: 2, stringUnit: 'grapheme' });
  const opt = { requiredKeys: [] as never[] };
  const f = fc.oneof(any, fc.record({ g: any, y: any }, opt));
  const elem = fc.oneof(any, fc.record({ e: any, f, x: any }, opt));
  const b = fc.oneof(any, fc.record({ c: any, d: fc.oneof(any, fc.array(elem, { maxLength: 3 })), z: any }, opt));
  const value = fc.oneof(
    any,
    fc.array(any, { maxLength: 2 }),
    fc.record({ a: any, b, h: fc.oneof(any, fc.array(any, { maxLength: 3 })), i: fc.oneof(any, fc.record({ j: any, a: any }, opt)), extra: any }, opt),
  );

  it('rebuilds the value at every listed path and nothing else, whatever its shape', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(roundTrip(v)).toEqual(expected(v, P));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps non-ASCII strings, numbers, booleans and null at their paths', () => {
    const v = { a: 'Żółw 🐢', b: { c: -0.5, d: [{ e: null, f: { g: true } }, 'x', { e: 'é' }] }, h: [1, 'two', null, false], i: { j: [1, { k: 2 }] } };
    expect(roundTrip(v)).toEqual(expected(v, P));
    expect(roundTrip(v)).toEqual({ a: 'Żółw 🐢', b: { c: -0.5, d: [{ e: null, f: { g: true } }, 'x', { e: 'é' }] }, h: [1, 'two', null, false], i: { j: [1, { k: 2 }] } });
  });
});
