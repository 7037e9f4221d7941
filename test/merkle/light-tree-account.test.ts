// Light tree account layouts: what encodeLightTreeAccount writes, parseLightTreeAccount reads back —
// the root history newest first across the ring's wrap, the kinds by discriminator and tree type —
// and the byte positions the programs use (Anchor discriminators, BatchMta, root index = seq mod capacity).
import { describe, expect, it } from 'vitest';
import { sha256 } from '@noble/hashes/sha2.js';
import { encodeLightTreeAccount, lightTreeKindOf, parseLightTreeAccount } from '../../src/merkle/compressed/light-tree-account.js';
import { isCairnError } from '../../src/errors/index.js';

const root = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i === 31 ? n & 0xff : i === 30 ? n >> 8 : 0));

describe('Light tree accounts', () => {
  it('v1 state: Anchor discriminator, fixed fields and the roots ring read back newest first after wrapping', () => {
    const roots = Array.from({ length: 12 }, (_, s) => ({ seq: s, root: root(s) }));
    const bytes = encodeLightTreeAccount({ kind: 'light-v1-state', height: 26, roots, rootHistoryCapacity: 5, sequenceNumber: 11, nextIndex: 7, changelogCapacity: 4, canopyDepth: 2 });
    expect([...bytes.subarray(0, 8)]).toEqual([...sha256(new TextEncoder().encode('account:StateMerkleTreeAccount')).subarray(0, 8)]);
    const dv = new DataView(bytes.buffer);
    expect(dv.getBigUint64(8 + 216, true)).toBe(26n); // height right after the 216-byte metadata
    const t = parseLightTreeAccount(bytes);
    expect(t).toMatchObject({ kind: 'light-v1-state', height: 26, sequenceNumber: 11n, nextIndex: 7n, rootHistoryCapacity: 5 });
    expect(t.roots.map((r) => r[31])).toEqual([11, 10, 9, 8, 7]);
    // root 11 sits at index 11 mod 5 = 1 of the ring (Light's root index)
    const ringAt = 8 + 216 + 160 + 32 * 26 + 4 * (Math.ceil((33 * 26) / 8) * 8 + 8);
    expect(bytes[ringAt + 32 * 1 + 31]).toBe(11);
  });

  it('v1 address and v2 state/address kinds read back', () => {
    const one = [{ seq: 0, root: root(1) }, { seq: 1, root: root(2) }];
    const a = encodeLightTreeAccount({ kind: 'light-v1-address', height: 26, roots: one, rootHistoryCapacity: 8, sequenceNumber: 1, nextIndex: 2, changelogCapacity: 2, canopyDepth: 0 });
    expect(lightTreeKindOf(a)).toBe('v1-address');
    expect(parseLightTreeAccount(a).roots.map((r) => r[31])).toEqual([2, 1]);
    for (const kind of ['light-v2-state', 'light-v2-address'] as const) {
      const many = Array.from({ length: 30 }, (_, s) => ({ seq: s, root: root(s + 1) }));
      const b = encodeLightTreeAccount({ kind, height: kind === 'light-v2-state' ? 32 : 40, roots: many, rootHistoryCapacity: 20, sequenceNumber: 29, nextIndex: 30, bloomFilterBytes: 64, zkpBatches: 2 });
      expect(new TextDecoder().decode(b.subarray(0, 8))).toBe('BatchMta');
      const p = parseLightTreeAccount(b);
      expect(p).toMatchObject({ kind, rootHistoryCapacity: 20, sequenceNumber: 29n });
      expect(p.roots).toHaveLength(20);
      expect(p.roots[0]![31]).toBe(30);
      expect(p.roots[19]![31]).toBe(11);
    }
  });

  it('refuses other accounts and truncated bytes with a field-naming error', () => {
    const bad = (b: Uint8Array) => {
      try {
        parseLightTreeAccount(b);
      } catch (e) {
        return isCairnError(e) ? (e.context as { field?: string }).field : 'not a cairn error';
      }
      return 'parsed';
    };
    expect(bad(new Uint8Array(100))).toBe('discriminator');
    const b = encodeLightTreeAccount({ kind: 'light-v2-state', height: 32, roots: [{ seq: 0, root: root(1) }], rootHistoryCapacity: 4, sequenceNumber: 0, nextIndex: 0, bloomFilterBytes: 8, zkpBatches: 1 });
    expect(bad(b.subarray(0, 600))).toBe('bytes');
  });
});
