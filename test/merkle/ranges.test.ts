/**
 * The range path (verifier/raw/ranges.ts): a large response's items found by the workers in byte
 * ranges the calling thread cut without reading them. Whatever the text, the answer must be the parsed
 * path's — the same verdicts, ids and errors — and the range path must answer only when it read the
 * text exactly as a scan would: on plain lists and objects keyed by ids it answers (the counter says
 * so), and on texts that could fool it (strings and nested values that read as item boundaries, short
 * or escaped keys, a decoy list, text after the container, a broken tail) it hands the response back.
 * `jsonHeadStart` and `batchSize: 3` make small inputs take the path, cut into many small ranges.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifierWithTestOptions as createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { rangeCounts } from '../../src/merkle/verifier/raw/ranges.js';
import { rangesAvailable } from '../../src/merkle/verifier/raw/range-batch.js';
import { loadNative } from '../../src/addon.js';
import { bytes, itemsOf, mutate, outcome } from '../support/merkle-json-fixtures.js';

const inline = createVerifier({ threads: 0 });
const ranged = createVerifier({ threads: 2, batchSize: 3, jsonParseBelow: 0, jsonHeadStart: { from: 0, firstPart: 2048 } });
afterAll(async () => {
  await inline.close();
  await ranged.close();
});

const available = rangesAvailable();
const repeat = <T>(xs: T[], n: number): T[] => Array.from({ length: n }, (_, i) => xs[i % xs.length]!);
const proofs = (n: number): unknown[] => {
  const base = itemsOf('asset-proof');
  return repeat([...base, ...base.map((x) => mutate(structuredClone(x)))], n);
};
/** An asset id shaped key (base58, 32+ characters): one the ranges take. */
const id = (i: number): string => `Asset${String(i).padStart(6, '1')}BNVsWe8jrfRhWn3ujnzWkKvm9ZhBXWXk`;

/** `verify` of `body` against the parsed path, and whether the range path answered it. */
async function check(input: unknown, body: Buffer): Promise<boolean> {
  const want = await outcome(inline.verify('asset-proof', input));
  const before = rangeCounts.answered;
  const got = await outcome(ranged.verify('asset-proof', body));
  expect(got).toEqual(want);
  return rangeCounts.answered > before;
}

describe.skipIf(!available)('range path: the parsed answers, and answered only when read exactly', () => {
  it('plain lists and objects keyed by ids, compact and pretty-printed: answered', async () => {
    const items = proofs(90).map((x, i) => (i % 11 === 5 ? null : x));
    const keyed = Object.fromEntries(items.map((x, i) => [id(i), x]));
    const shapes: Record<string, unknown> = {
      array: items,
      rpc: { jsonrpc: '2.0', id: 1, result: items },
      paged: { jsonrpc: '2.0', id: 1, result: { total: items.length, limit: 1000, page: 1, items } },
      value: { context: { slot: 7 }, value: items },
      keyed,
      rpcKeyed: { jsonrpc: '2.0', result: keyed, id: 2 },
    };
    for (const [shape, input] of Object.entries(shapes)) {
      expect(await check(input, bytes(input)), shape).toBe(true);
      expect(await check(input, Buffer.from(JSON.stringify(input, null, 2))), `${shape} pretty`).toBe(true);
      expect(await check(input, Buffer.from(JSON.stringify(input, null, '\t').replace(/\n/g, '\r\n'))), `${shape} tabs, CRLF`).toBe(true);
    }
  });

  it('a table counts what verify answers, and the items once', async () => {
    const items = proofs(70);
    const before = ranged.completed;
    const table = await ranged.verifyTable('asset-proof', bytes(items));
    expect(table.toArray()).toEqual(await inline.verify('asset-proof', items));
    expect(ranged.completed - before).toBe(70);
  });

  it('strings and nested values that read as item boundaries: the parsed answers', async () => {
    const tricky = ['},{', '} , {"root":"x"}', 'null,{', '},"Asset1111111111111111111111111111": {', '\\"},{\\"', ']', '}'];
    const extra = (i: number): unknown => (i % 3 === 0 ? [null, null, { a: [{}, null] }] : { b: null });
    const items = proofs(80).map((x, i) => ({ ...(x as object), note: tricky[i % tricky.length], extra: extra(i) }));
    const keyed = Object.fromEntries(items.map((x, i) => [id(i), x]));
    for (const input of [items, keyed, { jsonrpc: '2.0', id: 1, result: keyed }]) {
      await check(input, bytes(input));
      await check(input, Buffer.from(JSON.stringify(input, null, 3)));
    }
  });

  it('keys it does not take (short, escaped, envelope words) and members that are not items: handed back', async () => {
    const items = proofs(60);
    const cases: unknown[] = [
      Object.fromEntries(items.map((x, i) => [`k${i}`, x])),
      Object.fromEntries(items.map((x, i) => [`${id(i)}\\u0041`, x])),
      Object.fromEntries(items.map((x, i) => [i === 40 ? 'jsonrpc' : id(i), i === 40 ? null : x])),
      { ...Object.fromEntries(items.map((x, i) => [id(i), x])), jsonrpc: '2.0', result: null },
      Object.fromEntries(items.map((x, i) => [id(i), i === 45 ? 5 : x])),
      [...items.slice(0, 40), 7, ...items.slice(40)],
      [...items.slice(0, 40), { hello: 1 }, ...items.slice(40)],
      [...items.slice(0, 40), [items[0]], ...items.slice(40)],
    ];
    for (const input of cases) {
      const want = await outcome(inline.verify('asset-proof', input));
      expect(await outcome(ranged.verify('asset-proof', bytes(input)))).toEqual(want);
    }
  });

  it('a decoy list, an error member, text after the container: the parsed answers', async () => {
    const good = proofs(50);
    const decoy = good.map((x) => mutate(structuredClone(x)));
    for (const input of [
      { jsonrpc: '2.0', id: 1, result: { decoy, items: good } },
      { jsonrpc: '2.0', id: 1, result: good, error: { code: -32000, message: 'late' } },
      { jsonrpc: '2.0', result: good, id: 1, tail: { items: decoy, more: [1, 2, { x: '},{' }] } },
    ]) {
      await check(input, bytes(input));
    }
  });

  it('text that breaks after the items, or closes the list with the wrong bracket: the syntax error', async () => {
    const raw = JSON.stringify(proofs(60));
    for (const broken of [raw.slice(0, -1), raw.slice(0, -30) + ']', raw.replace(/\]$/, ',]'), raw.replace(/\]$/, '}'), raw + ' x', raw.replace(/\]$/, ']]')]) {
      const got = await outcome(ranged.verify('asset-proof', Buffer.from(broken)));
      expect(got).toEqual({ error: ['InputError', 'INPUT_INVALID', expect.stringMatching(/^"json": not valid JSON: .* at byte \d+$/)] });
    }
  });

  it('seeded random whitespace, nulls and members: the parsed answers', async () => {
    let x = 0x9e3779b9;
    const rnd = (n: number): number => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % n;
    };
    const ws = [' ', '\n', '\t', '\r\n', '  '];
    let answered = 0;
    for (let round = 0; round < 12; round++) {
      const items = proofs(30 + rnd(60)).map((p) => (rnd(9) === 0 ? null : rnd(5) === 0 ? { ...(p as object), memo: '},{'.repeat(rnd(3)) } : p));
      const input = rnd(2) ? items : Object.fromEntries(items.map((p, i) => [id(i), p]));
      // Whitespace after structural characters outside strings (the texts hold no escaped quote).
      let inString = false;
      let text = '';
      for (const c of JSON.stringify(input)) {
        text += c;
        if (c === '"') inString = !inString;
        else if (!inString && ',:[{'.includes(c) && rnd(3) === 0) text += ws[rnd(ws.length)];
      }
      if (await check(input, Buffer.from(text))) answered++;
    }
    expect(answered).toBeGreaterThan(6);
  });
});

describe.skipIf(!available)('jsonItemsInRange (native/json_ranges.c)', () => {
  // looked up when a test runs: a describe's body runs at collection even when it is skipped (no addon built)
  const find: NonNullable<NonNullable<ReturnType<typeof loadNative>>['jsonItemsInRange']> = (...args) => loadNative()!.jsonItemsInRange!(...args);
  const run = (text: string, from: number, to: number, exact: boolean, keyed: boolean): { status: number; meta: number[]; rows: number[][] } => {
    const b = Buffer.from(text);
    const table = new Uint32Array(64);
    const meta = new Uint32Array(4);
    const status = find(b, b.length, from, to, exact, keyed, table, meta);
    return { status, meta: [...meta], rows: Array.from({ length: meta[3]! }, (_, k) => [...table.subarray(4 * k, 4 * k + 4)]) };
  };

  it('from right after an item: the items up to the range end, then where the next one starts', () => {
    const t = '[{"a":1},{"b":"}"} , null,{"c":[{}]}]';
    expect(run(t, 8, 12, true, false)).toEqual({ status: 0, meta: [0, 9, 21, 1], rows: [[0, 0, 9, 18]] });
    expect(run(t, 8, t.length, true, false)).toEqual({ status: 1, meta: [1, 9, 36, 3], rows: [[0, 0, 9, 18], [0, 0, 21, 25], [0, 0, 26, 36]] });
  });

  it('from anywhere: the first boundary at or past it, or none', () => {
    const t = '[{"a":1},{"b":"}"} , null,{"c":[{}]}]';
    expect(run(t, 3, 12, false, false).meta).toEqual([0, 9, 21, 1]);
    expect(run(t, 12, t.length, false, false).meta).toEqual([1, 21, 36, 2]);
    expect(run(t, 27, 30, false, false).status).toBe(2);
  });

  it('keyed: long plain keys only', () => {
    const k = '{"aaaaaaaaaaaaaaaa":{"x":1},"bbbbbbbbbbbbbbbbbb": null}';
    expect(run(k, 27, k.length, true, true)).toEqual({ status: 1, meta: [1, 28, 54, 1], rows: [[28, 48, 50, 54]] });
    expect(run(k, 1, k.length, false, true).meta).toEqual([1, 28, 54, 1]);
    for (const bad of ['{"aaaaaaaaaaaaaaaa":{},"short":{}}', '{"aaaaaaaaaaaaaaaa":{},"bbbbbbbbbbbbbbb\\u0041":{}}', '{"aaaaaaaaaaaaaaaa":{},"bbbbbbbbbbbbbbbbbb":5}']) {
      expect(run(bad, 22, bad.length, true, true).status, bad).toBe(3);
    }
  });

  it('a value that is not an object or null, or text that ends (or stops at the limit) first: a misfit', () => {
    for (const t of ['[{},5]', '[{},"x"]', '[{},[]]', '[{},{"a":1}', '[{}, nul]']) expect(run(t, 3, t.length, true, false).status, t).toBe(3);
    const b = Buffer.from('[{},{"a":1},{"b":2}]');
    const table = new Uint32Array(16);
    const meta = new Uint32Array(4);
    expect(find(b, 14, 3, b.length, true, false, table, meta)).toBe(3);
  });
});
