/**
 * The bytes path: `verify(kind, rawJsonBytes)` scans the text on the calling thread and lets the
 * workers decode the items. It must give exactly what `verify(kind, JSON.parse(text))` gives — the
 * same verdicts with the same ids, in order, and the same errors for unusable input — for every
 * vector file of every kind, under every envelope the service uses, with mutations, and on the
 * worker threads as well as inline. `jsonParseBelow: 0` forces the scan on inputs of any size.
 */
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifierWithTestOptions as createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { KIND_NAMES, kinds } from '../../src/merkle/kinds/index.js';
import { parseJsonLossless } from '../../src/merkle/input.js';
import { extractJson } from '../../src/merkle/verifier/raw/extract.js';
import { bytes, files, itemsOf, mutate, outcome, text } from '../support/merkle-json-fixtures.js';

const inline = createVerifier({ threads: 0, jsonParseBelow: 0 });
const pooled = createVerifier({ threads: 2, jsonParseBelow: 0 });
afterAll(async () => {
  await inline.close();
  await pooled.close();
});

describe('bytes path = parsed path', () => {
  it('every vector file, as shipped, for every kind: same verdicts or the same error', async () => {
    let compared = 0;
    for (const f of files) {
      const raw = text(f);
      for (const kind of KIND_NAMES) {
        const a = await outcome(inline.verify(kind, parseJsonLossless(raw)));
        const b = await outcome(inline.verify(kind, Buffer.from(raw)));
        expect(b, `${kind} ${f}`).toEqual(a);
        if ('ok' in (a as object)) compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  for (const kind of KIND_NAMES) {
    it(`${kind}: arrays, envelopes, keyed objects and single items, valid and mutated, inline and on 2 threads`, async () => {
      const base = itemsOf(kind);
      expect(base.length).toBeGreaterThan(0);
      const items = [...base, null, ...base.map((x) => mutate(structuredClone(x)))];
      const shapes: Record<string, unknown> = {
        array: items,
        result: { context: { slot: 7 }, value: items },
        rpc: { jsonrpc: '2.0', id: 1, result: { context: { slot: 7 }, value: { items, cursor: null } } },
        keyed: Object.fromEntries(items.map((x, i) => [`id-${i}-\u00e9\\"`, x])),
        single: base[0],
        rpcSingle: { jsonrpc: '2.0', id: 'x', result: { context: { slot: 1 }, value: base[0] } },
      };
      for (const [shape, input] of Object.entries(shapes)) {
        const want = await outcome(inline.verify(kind, input));
        expect(want, shape).toHaveProperty('ok');
        expect(await outcome(inline.verify(kind, bytes(input))), `${shape} inline`).toEqual(want);
        expect(await outcome(pooled.verify(kind, bytes(input))), `${shape} 2 threads`).toEqual(want);
        // Pretty-printed text (whitespace everywhere) reads the same.
        expect(await outcome(inline.verify(kind, Buffer.from(JSON.stringify(input, null, 2)))), `${shape} pretty`).toEqual(want);
      }
    });
  }

  it('a large response on the default settings (scanned, not parsed) gives the parsed verdicts', async () => {
    const v = createVerifier({ threads: 2 });
    try {
      const base = itemsOf('asset-proof');
      const items = Array.from({ length: 3000 }, (_, i) => (i % 7 === 3 ? mutate(structuredClone(base[i % base.length])) : base[i % base.length]));
      const body = bytes({ jsonrpc: '2.0', id: 1, result: items });
      expect(body.length).toBeGreaterThan(64 * 1024);
      const found = extractJson(kinds['asset-proof'], body);
      expect(Array.isArray(found)).toBe(false); // the scan path, not a parse
      const want = await v.verify('asset-proof', items);
      expect(await v.verify('asset-proof', body)).toEqual(want);
      expect(await v.verify('asset-proof', body.buffer.slice(body.byteOffset, body.byteOffset + body.length))).toEqual(want);
      expect(want.filter((x) => !x.valid).length).toBe(Math.floor((3000 - 4) / 7) + 1);
    } finally {
      await v.close();
    }
  });

  it('bytes already in shared memory are read in place, at any offset, and left as they were', async () => {
    const base = itemsOf('asset-proof');
    const items = Array.from({ length: 3000 }, (_, i) => (i % 5 === 2 ? mutate(structuredClone(base[i % base.length])) : base[i % base.length]));
    const text = bytes({ jsonrpc: '2.0', id: 1, result: { items } });
    const want = await pooled.verify('asset-proof', items);
    const v = createVerifier({ threads: 2 });
    try {
      for (const at of [0, 13]) {
        // Larger than any copy the verifier keeps for reuse, so it would be the one kept if it were kept.
        const sab = new SharedArrayBuffer(8 * text.length + at);
        const input = new Uint8Array(sab, at, text.length);
        input.set(text);
        const digest = (): string => createHash('sha256').update(new Uint8Array(sab)).digest('hex');
        const before = digest();
        expect(await v.verify('asset-proof', input), `at ${at}`).toEqual(want);
        expect(await inline.verify('asset-proof', input), `at ${at} inline`).toEqual(want);
        // Another response afterwards must not be written into the caller's memory.
        expect(await v.verify('asset-proof', bytes(items.slice(0, 2000)))).toEqual(want.slice(0, 2000));
        expect(digest()).toBe(before);
      }
    } finally {
      await v.close();
    }
  });

  it('u64 numbers beyond 2^53 are read exactly, as the CLI reads files', async () => {
    const accounts = itemsOf('account-hash') as Array<Record<string, unknown>>;
    const big = accounts.map((a) => JSON.stringify(a)).map((s) => s.replace(/"lamports":\s*\d+/, '"lamports":18446744073709551615'));
    const raw = `[${big.join(',')}]`;
    const want = await outcome(inline.verify('account-hash', parseJsonLossless(raw)));
    expect(await outcome(inline.verify('account-hash', Buffer.from(raw)))).toEqual(want);
  });
});

describe('bytes path: unusable input', () => {
  const proof = itemsOf('asset-proof')[0] as Record<string, unknown>;
  const cases: Record<string, unknown> = {
    'an item of another kind in an array': [proof, { hello: 1 }, proof],
    'a scalar in an array': [proof, 5],
    'a keyed object with a stranger': { a: proof, b: { hello: 1 } },
    'a keyed object with a scalar': { a: proof, b: 'x' },
    'a JSON-RPC error': { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad params' } },
    'a null result': { jsonrpc: '2.0', id: 1, result: null },
    'a string': 'hello',
    'an empty object': {},
  };
  for (const [name, input] of Object.entries(cases)) {
    it(`${name}: the parsed path's error`, async () => {
      const want = await outcome(inline.verify('asset-proof', input));
      expect(want).toHaveProperty('error');
      expect(await outcome(inline.verify('asset-proof', bytes(input)))).toEqual(want);
      expect(await outcome(pooled.verify('asset-proof', bytes(input)))).toEqual(want);
    });
  }

  it('text that is not JSON: an InputError naming the byte', async () => {
    for (const [raw, at] of [
      ['[{"a":1},', 9],
      ['{"a" 1}', 5],
      ['[1,2]]', 5],
      ['', 0],
    ] as const) {
      const e = await outcome(inline.verify('asset-proof', Buffer.from(raw)));
      expect(e).toEqual({ error: ['InputError', 'INPUT_INVALID', expect.stringContaining(`at byte ${at}`)] });
    }
  });

  it('an empty array has no items, as parsed', async () => {
    expect(await inline.verify('asset-proof', bytes([]))).toEqual([]);
  });
});
