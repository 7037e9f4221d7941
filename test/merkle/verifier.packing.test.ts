/**
 * Regressions the fuzzer found in the verifier's packing and reading (soak/fuzz.ts checks
 * long-base58, bigint-in-items, sparse-arrays and long-integers-scanned), each a crash or a stall
 * where a typed error or a verdict belongs:
 * - a 50,000-character base58 field held the thread for seconds in bs58's quadratic decoder;
 * - a bigint in an item (the lossless parser's reading of any integer past 2^53) threw a TypeError
 *   while the item was packed for the workers;
 * - an array with holes threw a TypeError while its items were listed;
 * - a scanned response whose first item held a long number where a string belongs was rejected
 *   with `null`: the tape's lazy view read the number as a double while its decoded value (and the
 *   parsed path) kept its digits, so two readings disagreed on whether it was of the kind.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { CairnError } from '../../src/errors/index.js';
import { b58Field } from '../../src/merkle/fields.js';
import { createVerifierWithTestOptions as createVerifier } from '../../src/merkle/verifier/create-verifier.js';

const inline = createVerifier({ threads: 0 });
const scanning = createVerifier({ threads: 0, jsonParseBelow: 0, jsonHeadStart: false });
afterAll(async () => {
  await inline.close();
  await scanning.close();
});

describe('found by the fuzzer', () => {
  it('a base58 field longer than any encoding of its size is refused unread, naming the field', () => {
    const t0 = performance.now();
    expect(() => b58Field('z'.repeat(50_000), 'root')).toThrowError(/"root": expected 32 bytes of base58, got 50000 characters/);
    expect(() => b58Field('z'.repeat(50_000), 'sig', 64)).toThrowError(/"sig": expected 64 bytes of base58/);
    expect(performance.now() - t0).toBeLessThan(1_000); // bs58 took ~3 s on one such string
    expect(() => b58Field('z'.repeat(45), 'root')).toThrowError(/"root"/); // one past the longest 32-byte text
  });

  it('an asset whose leaf_id is a bigint is packed and verified, not a TypeError', async () => {
    const bundle = JSON.parse(readFileSync(new URL('../vectors/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json', import.meta.url), 'utf8'));
    const asset = { ...bundle.getAsset, compression: { ...bundle.getAsset.compression, leaf_id: 2n ** 60n } };
    const [v] = await inline.verify('asset-leaf', [asset]);
    expect(v).toMatchObject({ valid: false, status: 'mismatch' });
    // a bigint inside a member that is packed as JSON text (the name here) threw while packing
    const named = {
      ...bundle.getAsset,
      content: { ...bundle.getAsset.content, metadata: { ...bundle.getAsset.content.metadata, name: { deep: [2n ** 70n] } } },
    };
    expect((await inline.verify('asset-leaf', [named]))[0]).toMatchObject({ valid: true, status: 'cannot-derive' }); // the leaf binds data_hash; a name that is no string cannot re-derive it
    const exact = { ...bundle.getAsset, compression: { ...bundle.getAsset.compression, leaf_id: BigInt(bundle.getAsset.compression.leaf_id) } };
    expect((await inline.verify('asset-leaf', [exact]))[0]).toMatchObject({ valid: true });
  });

  it('an array with holes is refused naming the item, not a TypeError', async () => {
    const e = await inline.verify('account-proof', new Array(30)).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(CairnError);
    expect(e).toMatchObject({ code: 'INPUT_INVALID', context: { field: 'items[0]' } });
  });

  it('a long number where a string belongs reads the same scanned as parsed: a verdict naming the field, never a null rejection', async () => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: 1, result: [{ root: '1111', address: 123, lowerRangeAddress: '1', higherRangeAddress: '1', nextIndex: 2, proof: [] }] }).replace('"address":123', '"address":9007199254740991');
    const answers = [];
    for (const v of [inline, scanning]) answers.push(await v.verify('address-proof', Buffer.from(text)).then((r) => r, (x: unknown) => x));
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]).toMatchObject([{ valid: false, reason: expect.stringContaining('"address"') }]);
  });
});
