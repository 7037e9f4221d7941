/**
 * Bad items inside a list, in every form the verifier takes: each one is an invalid verdict (null:
 * the service knew nothing of that id) or a typed error naming it, never dropped, and never slow.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { NO_DATA } from '../../src/merkle/kinds/verify-batch.js';
import { InputError } from '../../src/errors/index.js';

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
    // CPU time of the whole process (the workers' too): other processes on the host do not add to it.
    const cpu0 = process.cpuUsage();
    const table = await v.verifyTable('asset-proof', list(100_000, 'null'));
    const cpu = process.cpuUsage(cpu0);
    const ms = (cpu.user + cpu.system) / 1000;
    expect(table.length).toBe(100_000);
    expect(table.invalidCount).toBe(100_000);
    expect(table.at(99_999)).toMatchObject({ valid: false, reason: NO_DATA });
    // Each null item's reason is an error, which was built with a stack trace (source-mapped under
    // tsx): ~30 µs of CPU per item, 3.3–3.5 s here; ~0.7 s without.
    expect(ms).toBeLessThan(1500);
  });
});

describe('a list of things that are not items', () => {
  it('a million {} in 3 MB of bytes: items[0] named at once, not after a walk of the list per part scanned', async () => {
    const body = list(1_000_000, '{}');
    const cpu0 = process.cpuUsage();
    const err = await v.verifyTable('asset-proof', body).catch((e: unknown) => e);
    const cpu = process.cpuUsage(cpu0);
    const ms = (cpu.user + cpu.system) / 1000;
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ code: 'INPUT_INVALID', context: { field: 'items[0]' } });
    // The head start's guess looked at every item scanned so far again after each part: 2–5 s.
    expect(ms).toBeLessThan(1000);
  });
});

describe('every bad item in every form: an invalid verdict or a typed error naming it', () => {
  const good = JSON.stringify(proof);
  const forms = {
    parsed: (items: unknown[]) => items,
    bytes: (items: unknown[]) => Buffer.from(JSON.stringify(items)),
  };
  for (const [form, make] of Object.entries(forms)) {
    for (const [label, bad] of [
      ['{}', {}],
      ['a number', 5],
      ['a string', 'x'],
      ['an array', []],
      ['an object of another kind', { hash: 'x', root: 'y' }],
    ] as const) {
      it(`${form}: ${label} after 1,500 good items is items[1500], from verify and verifyTable, inline and on workers`, async () => {
        const items: unknown[] = [...Array.from({ length: 1500 }, () => JSON.parse(good)), bad, JSON.parse(good)];
        for (const verifier of [v, inline]) {
          for (const call of [(x: unknown) => verifier.verify('asset-proof', x), (x: unknown) => verifier.verifyTable('asset-proof', x)]) {
            const err = await call(make(items)).then(
              () => null,
              (e: unknown) => e,
            );
            expect(err).toBeInstanceOf(InputError);
            expect((err as InputError).context.field).toBe('items[1500]');
          }
        }
      });
    }
  }

  it('verifyStream: a null item is an invalid verdict (as in verify), anything else not an item stops it naming the item', async () => {
    const got: unknown[] = [];
    const err = await (async () => {
      for await (const x of v.verifyStream('asset-proof', [proof, null, proof, 7, proof])) got.push(x);
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(got).toHaveLength(3);
    expect(got[1]).toMatchObject({ valid: false, reason: NO_DATA });
    expect(got.map((x) => (x as { valid: boolean }).valid)).toEqual([true, false, true]);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).context.field).toBe('items[3]');
    // The same input to verify: the same null verdict, the same error.
    await expect(v.verify('asset-proof', [proof, null, proof])).resolves.toMatchObject([{ valid: true }, { valid: false, reason: NO_DATA }, { valid: true }]);
    await expect(v.verify('asset-proof', [proof, null, proof, 7, proof])).rejects.toMatchObject({ context: { field: 'items[3]' } });
  });
});
