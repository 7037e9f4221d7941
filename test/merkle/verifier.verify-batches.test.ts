/**
 * `verifyBatches`: verifyTable's answer a batch at a time, so a caller (cairn verify) holds no more
 * than the batches in flight; and `maxBytes`, the cap on raw JSON input.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { CairnError, InputError } from '../../src/errors/index.js';
import type { Verdict } from '../../src/merkle/verdict.js';

const bundle = JSON.parse(readFileSync('test/vectors/bubblegum/mpl_bubblegum_dasApi_3UowCweY_depth14_canopy9.json', 'utf8'));
const proof = JSON.parse(readFileSync('test/vectors/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json', 'utf8')).getAssetProof;
const v = createVerifier({ threads: 2 });
// Inline batches are the kind's size unless told: small ones, so a short list makes several.
const inline = createVerifier({ threads: 0, batchSize: 128 });
afterAll(async () => {
  await v.close();
  await inline.close();
});

/** n proofs, every 7th with a root from another tree, every 11th null. */
const items = (n: number): unknown[] =>
  Array.from({ length: n }, (_, i) => (i % 11 === 10 ? null : i % 7 === 3 ? { ...proof, root: bundle.getAssetProof.root } : proof));

async function collect(it: AsyncIterable<Iterable<Verdict>>): Promise<{ verdicts: Verdict[]; batches: number }> {
  const verdicts: Verdict[] = [];
  let batches = 0;
  for await (const t of it) {
    batches++;
    verdicts.push(...t);
  }
  return { verdicts, batches };
}

describe('verifyBatches', () => {
  it("gives verify's verdicts, in order, a batch at a time, for parsed input and bytes, on workers and inline", async () => {
    const list = items(600);
    for (const verifier of [v, inline]) {
      const want = await verifier.verify('asset-proof', list);
      for (const input of [list, Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: list }))]) {
        const { verdicts, batches } = await collect(verifier.verifyBatches('asset-proof', input));
        expect(verdicts).toEqual(want);
        expect(batches).toBeGreaterThan(1);
      }
    }
  });

  it('an item that is not of the kind comes as the error after the batches before it', async () => {
    const list = items(3000);
    list[1500] = { bogus: 1 };
    let seen = 0;
    const err = await (async () => {
      for await (const t of v.verifyBatches('asset-proof', Buffer.from(JSON.stringify(list)))) seen += t.length;
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).context.field).toBe('items[1500]');
    expect(seen).toBeLessThanOrEqual(1500);
  });

  it('a consumer that stops early leaves the verifier usable', async () => {
    let n = 0;
    for await (const t of v.verifyBatches('asset-proof', Buffer.from(JSON.stringify(items(3000))))) {
      n += t.length;
      break;
    }
    expect(n).toBeGreaterThan(0);
    expect((await v.verify('asset-proof', [proof])).map((x) => x.valid)).toEqual([true]);
  });
});

describe('maxBytes', () => {
  it('raw JSON over the cap is INPUT_TOO_LARGE naming the limit, from every method; at the cap it is verified', async () => {
    const body = Buffer.from(JSON.stringify([proof, proof]));
    const capped = createVerifier({ threads: 0, maxBytes: body.length - 1 });
    const exact = createVerifier({ threads: 0, maxBytes: body.length });
    try {
      for (const call of [
        () => capped.verify('asset-proof', body),
        () => capped.verifyTable('asset-proof', body.buffer.slice(body.byteOffset, body.byteOffset + body.length)),
        () => collect(capped.verifyBatches('asset-proof', body)),
      ]) {
        const err = await call().then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(CairnError);
        expect(err).toMatchObject({ code: 'INPUT_TOO_LARGE', context: { field: 'input', limit: body.length - 1, got: body.length } });
        expect((err as Error).message).toMatch(new RegExp(`limit of ${body.length - 1} bytes`));
      }
      expect((await exact.verify('asset-proof', body)).map((x) => x.valid)).toEqual([true, true]);
      // Parsed input is in memory already: no cap applies.
      expect(await capped.verify('asset-proof', [proof, proof])).toHaveLength(2);
    } finally {
      await capped.close();
      await exact.close();
    }
  });

  it('a bad maxBytes is refused naming the option', () => {
    for (const bad of [0, -1, 1.5, 2 ** 32, Number.NaN]) {
      expect(() => createVerifier({ threads: 0, maxBytes: bad }), String(bad)).toThrow(InputError);
      expect(() => createVerifier({ threads: 0, maxBytes: bad })).toThrow(/"maxBytes"/);
    }
  });
});
