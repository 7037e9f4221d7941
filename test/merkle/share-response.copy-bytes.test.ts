/**
 * The addon's copy into shared memory (native/copy_stream.c): the calling thread copies a response
 * body for the workers part by part as it scans it, with streaming stores for a response of 8 MiB or
 * more. Every length and alignment must copy exactly the bytes asked for and nothing beside them, and a
 * large response verified from a Buffer must give the answer of the same response read in place.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadNative } from '../../src/addon.js';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { mulberry32 } from '../../src/devnet/chain/mulberry32.js';
import { bytes, itemsOf, mutate } from '../support/merkle-json-fixtures.js';

const copy = loadNative()?.copyBytes;

describe.skipIf(!copy)('copyBytes', () => {
  const rand = mulberry32(7);
  const src = Buffer.from(Array.from({ length: 4096 }, () => Math.floor(rand() * 256)));

  for (const stream of [false, true]) {
    for (const shared of [false, true]) {
      it(`${stream ? 'streaming' : 'plain'} stores into ${shared ? 'shared' : 'plain'} memory: every length to 300 at 19 alignments, exactly`, () => {
        const size = 1024;
        const dst = new Uint8Array(shared ? new SharedArrayBuffer(size) : new ArrayBuffer(size));
        for (let n = 0; n <= 300; n++) {
          for (let da = 0; da < 19; da++) {
            const sa = (n * 7 + da * 3) % 23;
            dst.fill(0xa5);
            copy!(dst, da, src, sa, n, stream);
            expect(Buffer.from(dst.subarray(da, da + n)).equals(src.subarray(sa, sa + n))).toBe(true);
            // Nothing before or after the range is touched.
            expect(dst.subarray(0, da).every((b) => b === 0xa5)).toBe(true);
            expect(dst.subarray(da + n).every((b) => b === 0xa5)).toBe(true);
          }
        }
      });
    }
  }

  it('a few MiB at an odd offset, streaming', () => {
    const big = Buffer.from(Array.from({ length: (3 << 20) + 77 }, (_, i) => (i * 131 + (i >> 9)) & 255));
    const dst = new Uint8Array(new SharedArrayBuffer(big.length + 64));
    copy!(dst, 13, big, 5, big.length - 5, true);
    expect(Buffer.from(dst.subarray(13, 13 + big.length - 5)).equals(big.subarray(5))).toBe(true);
    expect(dst[12]).toBe(0);
    expect(dst[13 + big.length - 5]).toBe(0);
  });

  it('refuses ranges outside either buffer, overlapping ranges and wrong types, naming the argument', () => {
    const a = new Uint8Array(64);
    const b = new Uint8Array(64);
    expect(() => copy!(a, 60, b, 0, 5, false)).toThrow(/"dstAt", "srcAt", "n"/);
    expect(() => copy!(a, 0, b, 60, 5, false)).toThrow(/"dstAt", "srcAt", "n"/);
    expect(() => copy!(a, -1, b, 0, 5, false)).toThrow(/"dstAt", "srcAt", "n"/);
    expect(() => copy!(a, 0, a, 8, 16, false)).toThrow(/overlap/);
    expect(() => copy!(a.subarray(8), 0, a, 0, 16, true)).toThrow(/overlap/);
    expect(() => copy!(new Uint16Array(8) as never, 0, b, 0, 4, false)).toThrow(/"dst": expected Uint8Array/);
    expect(() => copy!(a, 0, 'x' as never, 0, 4, false)).toThrow(/"src": expected Uint8Array/);
    expect(() => copy!(a, 0, b, 0, 4, 1 as never)).toThrow(/"stream": expected a boolean/);
    // Next to each other is not overlapping.
    copy!(a, 0, a, 16, 16, false);
  });
});

describe('a response over the streaming-copy size', () => {
  const v = createVerifier({ threads: 2 });
  afterAll(() => v.close());

  it('verified from a Buffer (copied to shared memory as it is scanned) gives the in-place answer', async () => {
    const base = itemsOf('asset-proof');
    // ~10 MiB of proofs, a few of them broken, the last one near the end.
    const n = 12_000;
    const broken = new Set([5, 4_321, 9_876, n - 2]);
    const items = Array.from({ length: n }, (_, i) => (broken.has(i) ? mutate(structuredClone(base[i % base.length])) : base[i % base.length]));
    const body = bytes({ jsonrpc: '2.0', id: 1, result: items });
    expect(body.length).toBeGreaterThan(8 << 20);
    const inPlace = new Uint8Array(new SharedArrayBuffer(body.length));
    inPlace.set(body);
    const fromBuffer = await v.verify('asset-proof', body);
    expect(fromBuffer).toEqual(await v.verify('asset-proof', inPlace));
    expect(fromBuffer.flatMap((x, i) => (x.valid ? [] : [i]))).toEqual([...broken]);
  });
});
