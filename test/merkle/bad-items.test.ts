/**
 * Bad items inside a list, in every form the verifier takes: each one is an invalid verdict (null:
 * the service knew nothing of that id) or a typed error naming it, never dropped, and never slow.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createVerifier } from '../../src/merkle/verifier.js';
import { NO_DATA } from '../../src/merkle/kinds.js';
import { InputError } from '../../src/errors.js';

const proof = JSON.parse(readFileSync('test/vectors/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json', 'utf8')).getAssetProof;
const v = createVerifier({ threads: 2 });
const inline = createVerifier({ threads: 0 });
afterAll(async () => {
  await v.close();
  await inline.close();
});

const list = (n: number, item: string): Uint8Array => Buffer.from(`[${Array.from({ length: n }, () => item).join(',')}]`);

describe('bad items in a list', () => {
  it('100,000 null items: each an invalid verdict, counted, quickly', async () => {
    // Workers started first: their start-up is not what is timed.
    await v.verify('asset-proof', list(64, JSON.stringify(proof)));
    const t0 = performance.now();
    const table = await v.verifyTable('asset-proof', list(100_000, 'null'));
    const ms = performance.now() - t0;
    expect(table.length).toBe(100_000);
    expect(table.invalidCount).toBe(100_000);
    expect(table.at(99_999)).toMatchObject({ valid: false, reason: NO_DATA });
    // Each null item's reason is an error, which was built with a stack trace (source-mapped under
    // tsx): ~20 µs of a worker per item, 1.8–3.5 s here on a busy 2-core host; 0.4–0.6 s without.
    expect(ms).toBeLessThan(1500);
  });
});

describe('a list of things that are not items', () => {
  it('a million {} in 3 MB of bytes: items[0] named at once, not after a walk of the list per part scanned', async () => {
    const body = list(1_000_000, '{}');
    const t0 = performance.now();
    const err = await v.verifyTable('asset-proof', body).catch((e: unknown) => e);
    const ms = performance.now() - t0;
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ code: 'INPUT_INVALID', context: { field: 'items[0]' } });
    // The head start's guess looked at every item scanned so far again after each part: 2+ s.
    expect(ms).toBeLessThan(700);
  });
});
