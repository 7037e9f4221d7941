/**
 * Regression the fuzzer found (soak/fuzz.ts, target verify:asset-leaf, op "huge"): a `leaf_id` that
 * arrives as a bigint — what `parseJsonLossless` makes of any integer past 2^53 — crashed
 * verifyAssetLeaf with a TypeError (the error message JSON.stringify'd the bigint) instead of being
 * read as the u64 it is, or refused naming the field when it is not one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifyAssetLeaf } from '../../src/merkle/cnft/asset-leaf.js';

const bundle = JSON.parse(readFileSync(new URL('../vectors/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json', import.meta.url), 'utf8'));
const withLeafId = (leafId: unknown) => ({ ...bundle.getAsset, compression: { ...bundle.getAsset.compression, leaf_id: leafId } });

describe('verifyAssetLeaf reads a bigint leaf_id', () => {
  it('a bigint of the right value verifies as the number does', () => {
    expect(verifyAssetLeaf(bundle.getAsset)).toMatchObject({ valid: true, status: 'matches' });
    expect(verifyAssetLeaf(withLeafId(BigInt(bundle.getAsset.compression.leaf_id)), bundle.getAssetProof)).toMatchObject({ valid: true, status: 'matches' });
  });

  it('a u64 past 2^53 is a wrong leaf, not a crash', () => {
    expect(verifyAssetLeaf(withLeafId(2n ** 60n))).toMatchObject({ valid: false, status: 'mismatch', reason: expect.stringContaining('leaf_id 1152921504606846976') });
  });

  it('a bigint outside the u64 range is refused naming the field', () => {
    for (const bad of [2n ** 64n, -1n]) {
      expect(verifyAssetLeaf(withLeafId(bad))).toMatchObject({ valid: false, status: 'mismatch', reason: expect.stringContaining('"compression.leaf_id": expected a u64') });
    }
  });
});

describe('verifyAssetLeaf reads a bigint flags', () => {
  const v2 = JSON.parse(readFileSync(new URL('../vectors/das/cnft_tests_v2_leaf_schema__delegate_v2.json', import.meta.url), 'utf8'));
  it('a V2 asset whose flags arrive as a huge bigint is a mismatch naming the field, not a crash', () => {
    expect(v2.compression.flags).toBeTypeOf('number');
    const bad = { ...v2, compression: { ...v2.compression, flags: 2n ** 64n } };
    expect(verifyAssetLeaf(bad)).toMatchObject({ valid: false, status: 'mismatch', reason: expect.stringContaining('"compression.flags": expected 0..7') });
  });
});
