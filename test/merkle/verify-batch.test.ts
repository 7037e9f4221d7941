/**
 * verifyBatch: a kind that verifies a whole batch at once (`verifyMany`, asset-proof) gives exactly the
 * verdicts its record-by-record `verify` gives, in order, for a batch mixing valid proofs, wrong ones,
 * fields that do not decode, nulls, short proofs and proofs of another depth.
 */
import { readFileSync } from 'node:fs';
import bs58 from 'bs58';
import { describe, expect, it } from 'vitest';
import { BatchWriter } from '../../src/merkle/records/batch-writer.js';
import { decodeVerdict, packItem, verifyBatch } from '../../src/merkle/kinds/verify-batch.js';
import { kinds } from '../../src/merkle/kinds/index.js';

const load = (n: string) => JSON.parse(readFileSync(new URL(`../vectors/bubblegum/${n}.json`, import.meta.url), 'utf8'));
const proofs = ['mpl_bubblegum_dasApi_3UowCweY_depth14_canopy9', 'mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0'].map((n) => load(n).getAssetProof);
type P = Record<string, any>;
const flip = (s: string): string => {
  const b = bs58.decode(s);
  b[5]! ^= 1;
  return bs58.encode(b);
};

function mixed(): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < 40; i++) {
    const p: P = structuredClone(proofs[i % 2]);
    switch (i % 10) {
      case 1:
        p.proof[3] = flip(p.proof[3]);
        break;
      case 2:
        p.root = 'not base58 0OIl';
        break;
      case 3:
        p.proof = p.proof.slice(0, 9); // truncated, no canopy given
        break;
      case 4:
        p.node_index = p.node_index * 2; // implies another depth
        break;
      case 5:
        out.push(null);
        continue;
      case 6:
        p.leaf = flip(p.leaf);
        break;
      case 7:
        p.proof[0] = 42;
        break;
    }
    out.push(p);
  }
  return out;
}

describe('verifyBatch with a batch kernel (asset-proof verifyMany)', () => {
  it('gives the verdicts of verify record by record, in order', () => {
    const spec = kinds['asset-proof'];
    expect(spec.verifyMany).toBeTypeOf('function');
    const items = mixed();
    const w = new BatchWriter(items.length);
    for (const it of items) packItem(spec, it, w);
    const buf = w.finish();
    const batched = verifyBatch('asset-proof', buf.slice(0));
    const single = (() => {
      const k = spec as { verifyMany?: unknown };
      const saved = k.verifyMany;
      k.verifyMany = undefined;
      try {
        return verifyBatch('asset-proof', buf.slice(0));
      } finally {
        k.verifyMany = saved;
      }
    })();
    const decode = (r: typeof batched) => {
      const extra = new Map(r.extras);
      return items.map((_, i) => decodeVerdict(spec, r.valid[i]!, extra.get(i), undefined));
    };
    const got = decode(batched);
    expect(got).toEqual(decode(single));
    // the mix really is mixed: valid ones, and each kind of failure with its reason
    expect(got.filter((v) => v.valid).length).toBe(12);
    expect(got.map((v) => v.reason ?? '').join('\n')).toMatch(/walks up to/);
    expect(got.map((v) => v.reason ?? '').join('\n')).toMatch(/"root"/);
    expect(got.map((v) => v.reason ?? '').join('\n')).toMatch(/truncated/);
    expect(got.map((v) => v.reason ?? '').join('\n')).toMatch(/no data for this id/);
    expect(got.map((v) => v.reason ?? '').join('\n')).toMatch(/proof\[0\]/);
  });
});
