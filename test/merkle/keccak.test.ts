/**
 * Keccak kernels: every backend that loads here (native addon, WASM, JS) against @noble/hashes as an
 * independent reference, on single hashes of every block-boundary length, on whole paths, on the
 * spl-concurrent-merkle-tree empty-node table, and on batches. Plus argument checks and the
 * CAIRN_KECCAK override.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi, afterEach } from 'vitest';
import bs58 from 'bs58';
import { keccak_256 } from '@noble/hashes/sha3.js';
import {
  availableKeccakKernels,
  hashToField,
  keccak256,
  keccak256Into,
  keccakBackend,
  keccakPathRoot,
  keccakPathRootInto,
  keccakVerifyBatch,
  type KeccakKernel,
} from '../../src/crypto/keccak.js';
import { InputError } from '../../src/errors/index.js';

const vectors = JSON.parse(readFileSync(new URL('../vectors/light_hash_vectors.json', import.meta.url), 'utf8'));
const emptyNodes: string[] = vectors.keccak_cmt_empty_nodes_0_to_31_base58;
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const kernels: KeccakKernel[] = availableKeccakKernels();

/** Deterministic pseudo-random bytes (xorshift), so failures reproduce. */
function bytes(n: number, seed: number): Uint8Array {
  let x = seed * 2654435761 + 1;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** Reference walk with @noble/hashes, one node at a time. */
function referenceRoot(leaf: Uint8Array, proof: Uint8Array, index: number): Uint8Array {
  let node = leaf;
  let idx = BigInt(index);
  for (let i = 0; i < proof.length / 32; i++) {
    const sib = proof.subarray(32 * i, 32 * i + 32);
    const pair = new Uint8Array(64);
    if (idx & 1n) {
      pair.set(sib, 0);
      pair.set(node, 32);
    } else {
      pair.set(node, 0);
      pair.set(sib, 32);
    }
    node = keccak_256(pair);
    idx >>= 1n;
  }
  return node;
}

describe('keccak backends', () => {
  it('loads the JS kernel at least, and names the selected backend', () => {
    expect(kernels.map((k) => k.name)).toContain('js');
    expect(['native', 'wasm', 'js']).toContain(keccakBackend());
    // without an override the fastest available one is selected; with one, that one
    const forced = process.env.CAIRN_KECCAK;
    expect(keccakBackend()).toBe(forced ? forced : kernels[0]!.name);
  });

  for (const k of kernels) {
    describe(k.name, () => {
      it('hashes the FIPS/Keccak known answers', () => {
        expect(hex(k.keccak256(new Uint8Array()))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
        expect(hex(k.keccak256(new TextEncoder().encode('abc')))).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
      });

      it('matches @noble/hashes on every length around the 136-byte block boundary', () => {
        // 59840 = the WASM kernel's input chunk (440 blocks): cross it too
        for (const n of [1, 31, 32, 63, 64, 65, 134, 135, 136, 137, 169, 234, 271, 272, 273, 1000, 4096, 59840, 59841, 2 * 59840 + 137]) {
          const d = bytes(n, n);
          expect(hex(k.keccak256(d)), `length ${n}`).toBe(hex(keccak_256(d)));
        }
      });

      it('reproduces the concurrent-merkle-tree empty-node table (levels 0..31)', () => {
        for (let level = 1; level < emptyNodes.length; level++) {
          const prev = bs58.decode(emptyNodes[level - 1]!);
          const pair = new Uint8Array(64);
          pair.set(prev, 0);
          pair.set(prev, 32);
          expect(bs58.encode(k.keccak256(pair)), `level ${level}`).toBe(emptyNodes[level]);
        }
        // and a whole all-empty path from a zero leaf gives empty(depth)
        const out = new Uint8Array(32);
        k.pathRootInto(new Uint8Array(32), Uint8Array.from(emptyNodes.slice(0, 26).flatMap((n) => [...bs58.decode(n)])), 12345, out);
        expect(bs58.encode(out)).toBe(emptyNodes[26]);
      });

      it('walks paths like the reference for depths 0..32 and indices beyond 2^32', () => {
        const out = new Uint8Array(32);
        for (let t = 0; t < 120; t++) {
          const depth = t % 33;
          const leaf = bytes(32, 1000 + t);
          const proof = bytes(32 * depth, 2000 + t);
          const index = t % 3 === 0 ? 2 ** 40 + t * 7919 : (t * 2654435761) % 2 ** Math.min(depth, 31);
          k.pathRootInto(leaf, proof, index, out);
          expect(hex(out), `depth ${depth} index ${index}`).toBe(hex(referenceRoot(leaf, proof, index)));
        }
      });

      it('walks paths longer than 64 levels (index bits above 63 are zero)', () => {
        const out = new Uint8Array(32);
        for (const depth of [63, 64, 65, 130]) {
          const leaf = bytes(32, depth);
          const proof = bytes(32 * depth, depth + 1);
          k.pathRootInto(leaf, proof, 2 ** 52 + 12345, out);
          expect(hex(out), `depth ${depth}`).toBe(hex(referenceRoot(leaf, proof, 2 ** 52 + 12345)));
        }
      });
    });
  }
});

describe('public keccak API', () => {
  it('keccakPathRoot and keccakPathRootInto agree with the reference', () => {
    const leaf = bytes(32, 7);
    const proof = bytes(32 * 20, 8);
    const want = hex(referenceRoot(leaf, proof, 0xabcde));
    expect(hex(keccakPathRoot(leaf, proof, 0xabcde))).toBe(want);
    const out = new Uint8Array(40);
    expect(hex(keccakPathRootInto(leaf, proof, 0xabcde, out).subarray(0, 32))).toBe(want);
  });

  it('returns plain Uint8Arrays from keccak256', () => {
    expect(Object.getPrototypeOf(keccak256(new Uint8Array(3)))).toBe(Uint8Array.prototype);
  });

  it('keccak256Into writes the digest at any offset, leaves the rest alone, and reads data that overlaps out first', () => {
    for (const len of [0, 1, 31, 64, 135, 136, 137, 300]) {
      const data = bytes(len, len + 1);
      const want = hex(keccak_256(data));
      for (const at of [0, 1, 7, 32]) {
        const out = new Uint8Array(at + 40).fill(0xaa);
        expect(keccak256Into(data, out, at)).toBe(out);
        expect(hex(out.subarray(at, at + 32)), `len ${len} at ${at}`).toBe(want);
        expect(out.subarray(0, at).every((x) => x === 0xaa) && out.subarray(at + 32).every((x) => x === 0xaa)).toBe(true);
      }
      // data and out share memory: the digest of the data as it was
      const shared = new Uint8Array(len + 32);
      shared.set(data);
      keccak256Into(shared.subarray(0, len), shared, 0);
      expect(hex(shared.subarray(0, 32))).toBe(want);
    }
    expect(() => keccak256Into(new Uint8Array(4), new Uint8Array(40), 9)).toThrow(InputError);
  });

  it('keccakVerifyBatch marks exactly the paths that reach their roots', () => {
    const m = 50;
    const depth = 14;
    const leaves = bytes(32 * m, 11);
    const proofs = bytes(32 * depth * m, 12);
    const indices = Uint32Array.from({ length: m }, (_, k) => (k * 977) % 2 ** depth);
    const roots = new Uint8Array(32 * m);
    for (let k = 0; k < m; k++) {
      roots.set(referenceRoot(leaves.subarray(32 * k, 32 * k + 32), proofs.subarray(32 * depth * k, 32 * depth * (k + 1)), indices[k]!), 32 * k);
    }
    for (const k of [3, 17, 49]) roots[32 * k + 5]! ^= 0x10;
    const verdicts = new Uint8Array(m);
    expect(keccakVerifyBatch(leaves, proofs, indices, depth, roots, verdicts)).toBe(m - 3);
    expect([...verdicts].flatMap((v, k) => (v ? [] : [k]))).toEqual([3, 17, 49]);
  });

  it('keccakVerifyBatch agrees with the reference for every batch size and depth (4-wide SIMD groups and the rest)', () => {
    for (const depth of [0, 1, 14, 33]) {
      for (const m of [1, 3, 4, 5, 63, 64, 65, 130]) {
        const leaves = bytes(32 * m, depth * 1000 + m);
        const proofs = bytes(32 * depth * m, depth * 1000 + m + 1);
        const indices = Uint32Array.from({ length: m }, (_, k) => (k * 2654435761) >>> 0);
        const roots = new Uint8Array(32 * m);
        const wrong = new Set<number>();
        for (let k = 0; k < m; k++) {
          roots.set(referenceRoot(leaves.subarray(32 * k, 32 * k + 32), proofs.subarray(32 * depth * k, 32 * depth * (k + 1)), indices[k]!), 32 * k);
          if ((k * 7) % 5 === 1) {
            roots[32 * k + (k % 32)]! ^= 1;
            wrong.add(k);
          }
        }
        const verdicts = new Uint8Array(m);
        expect(keccakVerifyBatch(leaves, proofs, indices, depth, roots, verdicts), `depth ${depth} m ${m}`).toBe(m - wrong.size);
        for (let k = 0; k < m; k++) expect(verdicts[k], `depth ${depth} m ${m} path ${k}`).toBe(wrong.has(k) ? 0 : 1);
      }
    }
  });

  it('hashToField is keccak256(data ‖ 0xFF) with byte 0 cleared', () => {
    for (const n of [0, 1, 32, 200]) {
      const d = bytes(n, 99 + n);
      const want = keccak_256(Uint8Array.from([...d, 0xff]));
      want[0] = 0;
      expect(hex(hashToField(d))).toBe(hex(want));
    }
  });

  it('rejects bad arguments with an InputError naming the parameter', () => {
    const cases: [() => unknown, string][] = [
      [() => keccakPathRoot(new Uint8Array(31), new Uint8Array(32), 0), 'leaf'],
      [() => keccakPathRoot('x' as unknown as Uint8Array, new Uint8Array(32), 0), 'leaf'],
      [() => keccakPathRoot(new Uint8Array(32), new Uint8Array(33), 0), 'proof'],
      [() => keccakPathRoot(new Uint8Array(32), new Uint8Array(32), -1), 'index'],
      [() => keccakPathRoot(new Uint8Array(32), new Uint8Array(32), 1.5), 'index'],
      [() => keccakPathRoot(new Uint8Array(32), new Uint8Array(32), 2 ** 53), 'index'],
      [() => keccakPathRootInto(new Uint8Array(32), new Uint8Array(32), 0, new Uint8Array(31)), 'out'],
      [() => keccak256([1, 2] as unknown as Uint8Array), 'data'],
      [() => keccakVerifyBatch(new Uint8Array(32), new Uint8Array(32), Uint32Array.of(0), 1, new Uint8Array(31), new Uint8Array(1)), 'roots'],
      [() => keccakVerifyBatch(new Uint8Array(32), new Uint8Array(64), Uint32Array.of(0), 1, new Uint8Array(32), new Uint8Array(1)), 'proofs'],
    ];
    for (const [fn, fieldName] of cases) {
      let err: unknown;
      try {
        fn();
      } catch (e) {
        err = e;
      }
      expect(err, fieldName).toBeInstanceOf(InputError);
      expect((err as InputError).context.field).toBe(fieldName);
      expect((err as InputError).message).toContain(`"${fieldName}"`);
    }
  });
});

describe('CAIRN_KECCAK override', () => {
  const saved = process.env.CAIRN_KECCAK;
  afterEach(() => {
    if (saved === undefined) delete process.env.CAIRN_KECCAK;
    else process.env.CAIRN_KECCAK = saved;
    vi.resetModules();
  });

  async function fresh() {
    vi.resetModules();
    return import('../../src/crypto/keccak.js');
  }

  for (const name of ['js', 'wasm'] as const) {
    it(`CAIRN_KECCAK=${name} selects that backend, with identical output`, async () => {
      process.env.CAIRN_KECCAK = name;
      const m = await fresh();
      expect(m.keccakBackend()).toBe(name);
      const leaf = bytes(32, 5);
      const proof = bytes(32 * 14, 6);
      expect(hex(m.keccakPathRoot(leaf, proof, 777))).toBe(hex(referenceRoot(leaf, proof, 777)));
    });
  }

  it('CAIRN_KECCAK=native selects the addon when it loads, else fails loudly', async () => {
    process.env.CAIRN_KECCAK = 'native';
    const hasNative = kernels.some((k) => k.name === 'native');
    if (hasNative) expect((await fresh()).keccakBackend()).toBe('native');
    else await expect(fresh()).rejects.toMatchObject({ code: 'MERKLE_KERNEL_UNAVAILABLE' });
  });

  it('an unknown CAIRN_KECCAK value is an InputError', async () => {
    process.env.CAIRN_KECCAK = 'gpu';
    const err = await fresh().then(
      () => null,
      (e: unknown) => e,
    );
    // a fresh module graph has its own error classes: check the stable code, not the class
    expect(err).toMatchObject({ name: 'InputError', code: 'INPUT_INVALID', context: { field: 'CAIRN_KECCAK' } });
  });
});
