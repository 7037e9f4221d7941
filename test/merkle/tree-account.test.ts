/**
 * The concurrent Merkle tree account reader on the spl-account-compression fixture (depth 10,
 * buffer 32, no canopy): header fields, the change-log roots, and the current root re-derived from
 * the rightmost proof. Then encode/parse round trips and malformed accounts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import fc from 'fast-check';
import { encodeTreeAccount, parseTreeAccount, verifyTreeAccount } from '../../src/merkle/cnft/tree-account.js';
import { emptyNode } from '../../src/merkle/cnft/empty-node.js';
import { InputError } from '../../src/errors/index.js';

const fixture = JSON.parse(readFileSync(new URL('../vectors/bubblegum/spl_ac_fixture_pre-batch-init-tree-account.json', import.meta.url), 'utf8'));
const data = Uint8Array.from(Buffer.from(fixture.account.data[0], 'base64'));

describe('spl-account-compression fixture', () => {
  const t = parseTreeAccount(data);

  it('reads the header', () => {
    expect(data.length).toBe(fixture.account.space);
    expect(t).toMatchObject({ maxDepth: 10, maxBufferSize: 32, canopyDepth: 0, isBatchInitialized: false });
    expect(t.canopy.length).toBe(0);
    expect(t.sequenceNumber).toBe(9n);
    expect(t.activeIndex).toBe(9);
    expect(t.bufferSize).toBe(10);
    expect(t.creationSlot).toBeGreaterThan(0n);
  });

  it('lists the accepted roots newest first, ending with the empty tree root', () => {
    expect(t.roots).toHaveLength(10);
    expect(t.roots[0]).toEqual(t.currentRoot);
    // sequence 0 was the initialisation: the root of an empty depth-10 tree
    expect(bs58.encode(t.roots[9]!)).toBe(bs58.encode(emptyNode(10)));
    expect(new Set(t.roots.map((r) => bs58.encode(r))).size).toBe(10);
  });

  it('the rightmost proof walks up to the current root', () => {
    expect(t.rightmostProof.index).toBe(9); // nine leaves appended
    expect(verifyTreeAccount(t)).toMatchObject({ valid: true, computedRoot: bs58.encode(t.currentRoot) });
  });

  it('any bit flip in the rightmost proof, its leaf or the current root is caught', () => {
    fc.assert(
      fc.property(fc.constantFrom('proof', 'leaf', 'root'), fc.nat(), (what, r) => {
        const bytes = data.slice();
        const changeLogSize = 32 + 32 * 10 + 8;
        const rightmostAt = 80 + 32 * changeLogSize;
        const at = what === 'root' ? 80 + 9 * changeLogSize : what === 'proof' ? rightmostAt : rightmostAt + 320;
        const len = what === 'proof' ? 320 : 32;
        const bit = r % (len * 8);
        bytes[at + (bit >> 3)]! ^= 1 << (bit & 7);
        return !verifyTreeAccount(parseTreeAccount(bytes)).valid;
      }),
      { numRuns: 300 },
    );
  });

  it('returns views of its own copy: later changes to the input do not leak in', () => {
    const bytes = data.slice();
    const parsed = parseTreeAccount(bytes);
    const before = bs58.encode(parsed.currentRoot);
    bytes.fill(0);
    expect(bs58.encode(parsed.currentRoot)).toBe(before);
  });
});

describe('encodeTreeAccount round trip', () => {
  it('parse(encode(x)) gives x back, canopy included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 14 }),
        fc.integer({ min: 1, max: 16 }),
        fc.nat(),
        fc.integer({ min: 1, max: 16 }),
        (maxDepth, maxBufferSize, c, nRoots) => {
          const canopyDepth = c % (Math.min(maxDepth, 6) + 1);
          const roots = Array.from({ length: Math.min(nRoots, maxBufferSize) }, (_, k) => new Uint8Array(32).fill(k + 1));
          const canopy = new Uint8Array(32 * (2 ** (canopyDepth + 1) - 2)).map((_, i) => i % 251);
          const activeIndex = (nRoots * 7) % maxBufferSize;
          const t = parseTreeAccount(encodeTreeAccount({ maxDepth, maxBufferSize, canopyDepth, roots, canopy, activeIndex }));
          expect(t).toMatchObject({ maxDepth, maxBufferSize, canopyDepth, activeIndex, bufferSize: roots.length });
          expect(t.roots).toEqual(roots);
          expect(t.canopy).toEqual(canopy);
          expect(t.currentRoot).toEqual(roots[0]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('an empty tree verifies against its empty root', () => {
    const t = parseTreeAccount(encodeTreeAccount({ maxDepth: 14, maxBufferSize: 64, canopyDepth: 3 }));
    expect(verifyTreeAccount(t).valid).toBe(true);
    expect(t.currentRoot).toEqual(emptyNode(14));
  });
});

describe('malformed accounts are InputErrors naming the field', () => {
  const cases: [string, () => Uint8Array, string][] = [
    ['too short', () => data.slice(0, 60), 'bytes'],
    ['wrong account type', () => Object.assign(data.slice(), { 0: 2 }), 'accountType'],
    ['wrong version', () => Object.assign(data.slice(), { 1: 1 }), 'version'],
    ['depth 0', () => { const b = data.slice(); new DataView(b.buffer).setUint32(6, 0, true); return b; }, 'maxDepth'],
    ['depth 31', () => { const b = data.slice(); new DataView(b.buffer).setUint32(6, 31, true); return b; }, 'maxDepth'],
    ['buffer larger than the data', () => { const b = data.slice(); new DataView(b.buffer).setUint32(2, 2048, true); return b; }, 'bytes'],
    ['activeIndex past the buffer', () => { const b = data.slice(); new DataView(b.buffer).setBigUint64(64, 32n, true); return b; }, 'activeIndex'],
    ['bufferSize past the buffer', () => { const b = data.slice(); new DataView(b.buffer).setBigUint64(72, 33n, true); return b; }, 'bufferSize'],
    ['a canopy of a wrong size', () => Uint8Array.from([...data, ...new Uint8Array(32 * 3)]), 'canopy'],
    ['a ragged tail', () => Uint8Array.from([...data, 1, 2, 3]), 'canopy'],
  ];
  for (const [name, make, field] of cases) {
    it(name, () => {
      let err: unknown;
      try {
        parseTreeAccount(make());
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).context.field).toBe(field);
    });
  }
  it('not bytes at all', () => {
    expect(() => parseTreeAccount('abc' as unknown as Uint8Array)).toThrow(InputError);
  });
});
