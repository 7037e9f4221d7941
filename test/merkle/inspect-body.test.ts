/**
 * `inspectBody` (src/merkle/verifier/inspect-body.ts): the items of a kind a raw response holds, found as
 * `verify` finds them (the same errors for unusable input), and the inspection taken by the
 * verifier as its input with the same verdicts as the bytes themselves.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createVerifier, inspectBody, InputTooLargeError, type BodyInspection } from '../../src/merkle/index.js';
import { InputError } from '../../src/errors/index.js';
import { flip } from '../support/merkle-json-fixtures.js';
import { inspectScanned } from '../../src/merkle/verifier/inspect-body.js';
import { scanJson } from '../../src/json/index.js';

const proof = JSON.parse(readFileSync('test/vectors/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json', 'utf8')).getAssetProof;
const bytesOf = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));
/** A list long enough (~100 KB) to be read through the tape, not parsed whole; item 3 is invalid. */
const list = Array.from({ length: 120 }, (_, i) => (i === 3 ? { ...proof, root: flip(proof.root) } : proof));

const inline = createVerifier({ threads: 0 });
const pooled = createVerifier({ threads: 2 });
afterAll(async () => {
  await inline.close();
  await pooled.close();
});

describe('inspectBody: what a body holds', () => {
  it.each([
    ['a bare list', list, 120],
    ['a JSON-RPC response', { jsonrpc: '2.0', id: '1', result: list }, 120],
    ['{context, value}', { context: { slot: 1 }, value: list.slice(0, 5) }, 5],
    ['a single item', proof, 1],
    ['an object keyed by id (nulls count)', { a: proof, b: null }, 2],
    ['an empty list', [], 0],
  ])('%s', (_label, value, items) => {
    const body = bytesOf(value);
    const seen = inspectBody('asset-proof', body);
    expect(seen).toMatchObject({ kind: 'asset-proof', items, bytes: body.length, batches: Math.ceil(items / 2048) });
    expect(seen.body).toBe(body);
  });

  it('takes an ArrayBuffer as its bytes', () => {
    const body = bytesOf(list);
    const seen = inspectBody('asset-proof', body.buffer.slice(body.byteOffset, body.byteOffset + body.length) as ArrayBuffer);
    expect(seen).toMatchObject({ items: 120, bytes: body.length });
  });

  it('batches: of the kind default size', () => {
    const seen = inspectBody('asset-proof', bytesOf(Array.from({ length: 2049 }, () => null)));
    expect(seen).toMatchObject({ items: 2049, batches: 2 });
  });

  it('refuses what verify refuses, with the same error', async () => {
    for (const text of ['{"items": [', '{"bogus": 1}', 'null', '[{"bogus":1}]']) {
      const body = new TextEncoder().encode(text);
      const fromVerify = await inline.verify('asset-proof', body).then(
        () => null,
        (e: unknown) => e,
      );
      expect(fromVerify).toBeInstanceOf(InputError);
      expect(() => inspectBody('asset-proof', body)).toThrow((fromVerify as Error).message);
    }
    expect(() => inspectBody('asset-proof', new TextEncoder().encode('{"a":'))).toThrow(expect.objectContaining({ code: 'INPUT_INVALID', context: expect.objectContaining({ field: 'json' }) }));
  });

  it('names the field for bytes that are not bytes, and an unknown kind', () => {
    expect(() => inspectBody('asset-proof', '[]' as never)).toThrow(expect.objectContaining({ code: 'INPUT_INVALID', context: expect.objectContaining({ field: 'body' }) }));
    expect(() => inspectBody('nope' as never, bytesOf([]))).toThrow(expect.objectContaining({ code: 'INPUT_INVALID', context: expect.objectContaining({ field: 'kind' }) }));
  });
});

describe('the verifier takes an inspection as its input', () => {
  it.each([
    ['inline', inline],
    ['2 threads', pooled],
  ])('%s: the verdicts of the bytes, on every call, whatever the kind asked', async (_label, v) => {
    const body = bytesOf({ jsonrpc: '2.0', id: '1', result: list });
    const want = await v.verify('asset-proof', body);
    expect(want.filter((x) => !x.valid).length).toBe(1);
    const seen: BodyInspection = inspectBody('asset-proof', body);
    expect(await v.verify('asset-proof', seen)).toEqual(want);
    // Its scan was handed out (and released) once: the next call scans the body again.
    expect(await v.verify('asset-proof', seen)).toEqual(want);
    const table = await v.verifyTable('asset-proof', inspectBody('asset-proof', body));
    expect([table.length, table.invalidCount]).toEqual([120, 1]);
    let total = 0;
    for await (const t of v.verifyBatches('asset-proof', inspectBody('asset-proof', body))) total += t.length;
    expect(total).toBe(120);
    // Inspected as another kind: the body is read again as the kind asked (an asset-leaf is not a proof).
    await expect(v.verify('asset-leaf', seen)).rejects.toThrow(await v.verify('asset-leaf', body).catch((e: Error) => e.message));
  });

  it('a small body (parsed whole) too', async () => {
    const body = bytesOf(list.slice(0, 4));
    expect(await inline.verify('asset-proof', inspectBody('asset-proof', body))).toEqual(await inline.verify('asset-proof', body));
  });

  it("the verifier's maxBytes applies to an inspected body", async () => {
    const small = createVerifier({ threads: 0, maxBytes: 100 });
    try {
      await expect(small.verify('asset-proof', inspectBody('asset-proof', bytesOf(list)))).rejects.toBeInstanceOf(InputTooLargeError);
    } finally {
      await small.close();
    }
  });
});

describe('inspectScanned: a value inside a body scanned already', () => {
  it("answers the verdicts and errors of that value's own bytes, small and large, keyed and listed", async () => {
    const values = [list, { context: { slot: 1 }, value: list.slice(0, 5) }, Object.fromEntries(list.map((p, i) => [`k${i}`, i === 7 ? null : p])), proof];
    for (const value of values) {
      const answer = bytesOf({ jsonrpc: '2.0', id: 3, result: value });
      const tape = scanJson(answer);
      const seen = inspectScanned('asset-proof', tape, tape.member(0, 'result'));
      const alone = bytesOf(value);
      expect(seen.items).toBe(inspectBody('asset-proof', alone).items);
      for (const v of [inline, pooled]) expect(await v.verify('asset-proof', seen)).toEqual(await v.verify('asset-proof', alone));
    }
    const tape = scanJson(bytesOf({ jsonrpc: '2.0', id: 3, result: { hello: 'world' } }));
    expect(() => inspectScanned('asset-proof', tape, tape.member(0, 'result'))).toThrow(InputError);
  });
});
