/**
 * `inlineUpTo` (the proxy's small answers): an input of at most that many items of a kind is verified
 * on the calling thread — no batch reaches the pool — with the verdicts the pool gives; a larger one,
 * or another kind, goes to the pool; `completed` counts both, and `close` stops both.
 */
import { describe, expect, it } from 'vitest';
import { createVerifierWithTestOptions as createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { itemsOf } from '../support/merkle-json-fixtures.js';

const proofs = itemsOf('asset-proof');
const body = (items: unknown[]) => new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id: 1, result: items }));

describe('inlineUpTo', () => {
  it('keeps small inputs off the pool, with the same verdicts', async () => {
    const many = Array.from({ length: 40 }, (_, i) => proofs[i % proofs.length]);
    const few = many.slice(0, 6);
    const pooled = createVerifier({ threads: 1 });
    const mixed = createVerifier({ threads: 1, inlineUpTo: { 'asset-proof': few.length } });
    try {
      for (const input of [few, body(few), body([...few.slice(0, 3), null, { ...(few[0] as object), root: 'x' }])]) {
        expect(await mixed.verify('asset-proof', input)).toEqual(await pooled.verify('asset-proof', input));
      }
      expect(mixed.completed).toBe(few.length * 2 + 5);
      // nothing reached the pool yet
      expect(mixed.utilization).toBe(0);
      expect(await mixed.verify('asset-proof', body(many))).toEqual(await pooled.verify('asset-proof', body(many)));
      expect(mixed.completed).toBe(few.length * 2 + 5 + many.length);
      expect(mixed.utilization).toBeGreaterThan(0);
    } finally {
      await pooled.close();
      await mixed.close();
    }
    await expect(mixed.verify('asset-proof', few)).rejects.toThrow(/closed/);
  });
});
