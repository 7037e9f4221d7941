/**
 * Poseidon against every public vector (light_hash_vectors.json: the circom/light-poseidon values,
 * the 41-entry zero-node table, the indexed address tree roots) on every backend that loads here,
 * plus input validation: out-of-field values and wrong shapes are rejected, never reduced.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BN254_R,
  poseidon,
  poseidonBackend,
  poseidonBatch,
  poseidonPathRoot,
  poseidonVerifyPaths,
  setPoseidonBackend,
  type PoseidonBackend,
} from '../../src/crypto/poseidon.js';
import { loadNativeWithReason } from '../../src/addon.js';
import { loadPoseidonWasm } from '../../src/crypto/_poseidon-wasm.js';
import { CairnError } from '../../src/errors/index.js';

const vectors = JSON.parse(readFileSync(new URL('../vectors/light_hash_vectors.json', import.meta.url), 'utf8'));

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const fromHex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));
const filled = (v: number): Uint8Array => new Uint8Array(32).fill(v);
const be = (x: bigint): Uint8Array => fromHex(x.toString(16).padStart(64, '0'));
const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};

const native = loadNativeWithReason();
const wasm = loadPoseidonWasm();
const backends: { name: PoseidonBackend; available: boolean; why: string }[] = [
  { name: 'native', available: native.bindings !== null, why: native.reason ?? '' },
  { name: 'wasm', available: wasm.kernel !== null, why: wasm.reason },
  { name: 'js', available: true, why: '' },
];

afterAll(() => setPoseidonBackend('auto'));

it('the committed WASM kernel always loads (it is the portable fallback)', () => {
  expect(wasm.reason).toBe('');
  expect(wasm.kernel).not.toBeNull();
});

it('auto picks the fastest backend that loads', () => {
  setPoseidonBackend('auto');
  expect(poseidonBackend()).toBe(native.bindings ? 'native' : 'wasm');
});

it('BN254_R is the scalar field modulus of the vectors', () => {
  expect(BN254_R.toString()).toBe(vectors.light_constants.BN254_Fr_modulus_dec);
});

for (const b of backends) {
  describe.skipIf(!b.available)(`backend ${b.name}${b.available ? '' : ` (unavailable: ${b.why})`}`, () => {
    const use = (): void => {
      setPoseidonBackend(b.name);
      expect(poseidonBackend()).toBe(b.name);
    };

    it('every poseidon_bn254_circom vector', () => {
      use();
      const v = vectors.poseidon_bn254_circom;
      let checked = 0;
      for (const [label, c] of Object.entries<{ inputs?: string[]; out: string }>(v)) {
        let got: Uint8Array;
        if (c.inputs) got = poseidon(c.inputs.map(fromHex));
        else if (label === 'P(P(4,5),[6u8;32]) (hash chain of [4,5,6])') got = poseidon([poseidon([filled(4), filled(5)]), filled(6)]);
        else if (label === 'P(1,2) small ints') got = poseidon([be(1n), be(2n)]);
        else if (label === 'P(0,0)') got = poseidon([filled(0), filled(0)]);
        else if (label === 'P(0,0,0)') got = poseidon([filled(0), filled(0), filled(0)]);
        else if (label === 'P1([2u8;31]||[0])') got = poseidon([concat([new Uint8Array(31).fill(2), new Uint8Array(1)])]);
        else throw new Error(`unhandled vector ${label}`);
        const want = /^[0-9]+$/.test(c.out) ? be(BigInt(c.out)) : fromHex(c.out);
        expect(hex(got), label).toBe(hex(want));
        checked++;
      }
      expect(checked).toBe(Object.keys(v).length);
    });

    it('the 41-entry zero-node table: Z[i] = P(Z[i-1], Z[i-1])', () => {
      use();
      const z: string[] = vectors.poseidon_zero_bytes_0_to_40;
      expect(z).toHaveLength(41);
      expect(z[0]).toBe('00'.repeat(32));
      for (let i = 1; i < z.length; i++) expect(hex(poseidon([fromHex(z[i - 1]), fromHex(z[i - 1])])), `Z[${i}]`).toBe(z[i]);
    });

    it('a path of zeros climbs the zero table', () => {
      use();
      const z: string[] = vectors.poseidon_zero_bytes_0_to_40;
      const proof = concat(z.slice(0, 40).map(fromHex));
      for (const depth of [0, 1, 26, 32, 40]) {
        const root = poseidonPathRoot(filled(0), proof.subarray(0, 32 * depth), depth === 0 ? 0 : 2 ** Math.min(depth, 30) - 1);
        expect(hex(root), `depth ${depth}`).toBe(z[depth]);
      }
    });

    it('the v1 indexed address tree roots (height 26), via hashes and via paths', () => {
      use();
      const z = (vectors.poseidon_zero_bytes_0_to_40 as string[]).map(fromHex);
      const HIGH = (1n << 248n) - 1n;
      const cases = Object.entries<{ elements: [string, number][]; root: string }>(vectors.v1_indexed_address_tree_h26_roots).filter(
        ([k]) => !k.startsWith('_'),
      );
      expect(cases.length).toBe(4);
      for (const [label, c] of cases) {
        const value = (s: string): bigint => (s === 'HIGH' ? HIGH : BigInt(s));
        const leaves = c.elements.map(([v, next]) => poseidon([be(value(v)), be(BigInt(next)), be(value(c.elements[next][0]))]));
        if (label === 'init') expect(hex(leaves[0])).toBe(vectors.light_constants.indexed_leaf_v1_H_0_1_HIGH);
        // Build the sparse tree level by level, keeping every level for the proofs.
        const levels: Uint8Array[][] = [leaves];
        for (let h = 0; h < 26; h++) {
          const cur = levels[h];
          const next: Uint8Array[] = [];
          for (let i = 0; i < cur.length; i += 2) next.push(poseidon([cur[i], cur[i + 1] ?? z[h]]));
          levels.push(next);
        }
        expect(hex(levels[26][0]), `${label} root`).toBe(c.root);
        // Every leaf's path gives the same root.
        for (let i = 0; i < leaves.length; i++) {
          const proof = concat(levels.slice(0, 26).map((lv, h) => lv[(i >> h) ^ 1] ?? z[h]));
          expect(hex(poseidonPathRoot(leaves[i], proof, i)), `${label} leaf ${i}`).toBe(c.root);
        }
      }
    });

    it('poseidonBatch equals one poseidon per group', () => {
      use();
      const groups = [0, 1, 2, 3, 4].map((k) => [be(BigInt(k)), be(BigInt(k * 7 + 1)), be(BN254_R - 1n - BigInt(k))]);
      const out = poseidonBatch(concat(groups.flat()), 3);
      expect(out.length).toBe(32 * groups.length);
      groups.forEach((g, k) => expect(hex(out.subarray(32 * k, 32 * k + 32))).toBe(hex(poseidon(g))));
    });

    it('poseidonVerifyPaths: 1 valid, 0 wrong root, 2 out-of-field node', () => {
      use();
      const depth = 5;
      const m = 4;
      const leaves = concat([0, 1, 2, 3].map((k) => be(BigInt(k * 1000 + 17))));
      const proofs = concat(Array.from({ length: depth * m }, (_, k) => be(BigInt(k) * 123456789n)));
      const idx = [0, 31, 10, 21];
      const roots = concat(idx.map((i, k) => poseidonPathRoot(leaves.subarray(32 * k, 32 * k + 32), proofs.subarray(32 * depth * k, 32 * depth * (k + 1)), i)));
      expect([...poseidonVerifyPaths(leaves, proofs, idx, depth, roots)]).toEqual([1, 1, 1, 1]);
      roots[32 * 1 + 31] ^= 1; // wrong root for path 1
      proofs.set(be(BN254_R), 32 * (depth * 2 + 3)); // out-of-field node in path 2
      leaves.set(be(BN254_R + 5n), 32 * 3); // out-of-field leaf in path 3
      expect([...poseidonVerifyPaths(leaves, proofs, Float64Array.from(idx), depth, roots)]).toEqual([1, 0, 2, 2]);
      expect(poseidonVerifyPaths(new Uint8Array(0), new Uint8Array(0), [], depth, new Uint8Array(0))).toHaveLength(0);
    });

    it('rejects out-of-field inputs, naming the input, on this backend too', () => {
      use();
      const r = be(BN254_R);
      const ok = be(BN254_R - 1n);
      expect(() => poseidon([ok, r])).toThrow(expect.objectContaining({ code: 'MERKLE_FIELD_OVERFLOW', context: expect.objectContaining({ field: 'inputs[1]' }) }));
      expect(() => poseidon([filled(0xff)])).toThrow(expect.objectContaining({ code: 'MERKLE_FIELD_OVERFLOW', context: expect.objectContaining({ field: 'inputs[0]' }) }));
      expect(() => poseidonPathRoot(r, new Uint8Array(0), 0)).toThrow(expect.objectContaining({ code: 'MERKLE_FIELD_OVERFLOW', context: expect.objectContaining({ field: 'leaf' }) }));
      expect(() => poseidonPathRoot(ok, concat([ok, ok, r]), 0)).toThrow(
        expect.objectContaining({ code: 'MERKLE_FIELD_OVERFLOW', context: expect.objectContaining({ field: 'proof[2]' }) }),
      );
      expect(() => poseidonBatch(concat([ok, ok, ok, r]), 2)).toThrow(
        expect.objectContaining({ code: 'MERKLE_FIELD_OVERFLOW', context: expect.objectContaining({ field: 'inputs[3]' }) }),
      );
      // r − 1 is the largest accepted value.
      expect(poseidon([ok, ok])).toHaveLength(32);
    });
  });
}

describe('shape validation', () => {
  const field = (fn: () => unknown): { code: string; field: string | undefined } => {
    try {
      fn();
    } catch (e) {
      expect(e).toBeInstanceOf(CairnError);
      const ce = e as CairnError<'MERKLE_INVALID_INPUT'>;
      return { code: ce.code, field: ce.context.field };
    }
    throw new Error('expected a throw');
  };

  it('wrong lengths and counts', () => {
    expect(field(() => poseidon([new Uint8Array(31)]))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'inputs[0]' });
    expect(field(() => poseidon([filled(0), new Uint8Array(33)]))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'inputs[1]' });
    expect(field(() => poseidon([]))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'inputs' });
    expect(field(() => poseidon(new Array(13).fill(filled(0))))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'inputs' });
    expect(poseidon(new Array(12).fill(filled(1)))).toHaveLength(32);
    expect(field(() => poseidon(['00'.repeat(32)] as unknown as Uint8Array[]))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'inputs[0]' });
    expect(field(() => poseidon('x' as unknown as Uint8Array[]))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'inputs' });
  });

  it('bad paths', () => {
    const leaf = filled(0);
    expect(field(() => poseidonPathRoot(new Uint8Array(31), new Uint8Array(32), 0))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'leaf' });
    expect(field(() => poseidonPathRoot(leaf, new Uint8Array(33), 0))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'proof' });
    expect(field(() => poseidonPathRoot(leaf, new Uint8Array(64), -1))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'index' });
    expect(field(() => poseidonPathRoot(leaf, new Uint8Array(64), 1.5))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'index' });
    expect(field(() => poseidonPathRoot(leaf, new Uint8Array(64), 4))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'index' });
    expect(poseidonPathRoot(leaf, new Uint8Array(64), 3)).toHaveLength(32);
    expect(field(() => poseidonPathRoot(leaf, new Uint8Array(32 * 1025), 0))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'proof' });
  });

  it('bad verify batches', () => {
    const z = (n: number): Uint8Array => new Uint8Array(n);
    expect(field(() => poseidonVerifyPaths(z(64), z(64 * 3), [0, 1], 4, z(64)))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'proofs' });
    expect(field(() => poseidonVerifyPaths(z(32), z(32 * 4 * 2), [0, 1], 4, z(64)))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'leaves' });
    expect(field(() => poseidonVerifyPaths(z(64), z(32 * 4 * 2), [0, 1], 4, z(32)))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'roots' });
    expect(field(() => poseidonVerifyPaths(z(64), z(32 * 4 * 2), [0, 16], 4, z(64)))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'indices[1]' });
    expect(field(() => poseidonVerifyPaths(z(64), z(32 * 4 * 2), [0, 1], 65, z(64)))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'depth' });
  });

  it('bad batches and backend names', () => {
    expect(field(() => poseidonBatch(new Uint8Array(96), 2))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'inputs' });
    expect(field(() => poseidonBatch(new Uint8Array(64), 0))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'width' });
    expect(field(() => poseidonBatch(new Uint8Array(64), 13))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'width' });
    expect(poseidonBatch(new Uint8Array(0), 2)).toHaveLength(0);
    expect(field(() => setPoseidonBackend('gpu' as 'js'))).toEqual({ code: 'MERKLE_INVALID_INPUT', field: 'backend' });
  });
});

describe.skipIf(!native.bindings)('the addon checks its own arguments (no crash on misuse)', () => {
  it('throws TypeError/RangeError with code MERKLE_INVALID_INPUT naming the argument', () => {
    const a = native.bindings!;
    const out = new Uint8Array(32);
    const bad = (fn: () => unknown, kind: typeof TypeError, arg: string): void => {
      expect(fn).toThrow(kind);
      expect(fn).toThrow(expect.objectContaining({ code: 'MERKLE_INVALID_INPUT', message: expect.stringContaining(`"${arg}"`) }));
    };
    bad(() => a.poseidonInto('x' as unknown as Uint8Array, out), TypeError, 'inputs');
    bad(() => a.poseidonInto(new Uint8Array(33), out), RangeError, 'inputs');
    bad(() => a.poseidonInto(new Uint8Array(32 * 13), out), RangeError, 'inputs');
    bad(() => a.poseidonInto(new Uint8Array(32), new Uint8Array(31)), RangeError, 'out');
    bad(() => a.poseidonBatch(new Uint8Array(64), 13, out), RangeError, 'width');
    bad(() => a.poseidonPathRootInto(new Uint8Array(32), new Uint8Array(32), -1, out), RangeError, 'index');
    bad(() => a.poseidonVerifyBatch(new Uint8Array(32), new Uint8Array(32), new Uint32Array(1) as unknown as Float64Array, 1, new Uint8Array(32), new Uint8Array(1)), TypeError, 'indices');
    bad(() => a.poseidonVerifyBatch(new Uint8Array(32), new Uint8Array(32), Float64Array.of(0.5), 1, new Uint8Array(32), new Uint8Array(1)), RangeError, 'indices');
    // The element check reports the index instead of hashing a reduced value.
    const two = new Uint8Array(64).fill(0xff, 32);
    expect(a.poseidonInto(two, out)).toBe(1);
    expect(a.poseidonBatch(concat([filled(0), filled(0), filled(0), filled(0xff)]), 2, new Uint8Array(64))).toBe(3);
  });
});

describe('backend selection in a fresh process', () => {
  const run = (env: Record<string, string>): string => {
    const code = "import('./src/crypto/poseidon.ts').then((m) => { const one = new Uint8Array(32); one[31] = 1; m.poseidon([one, one]); console.log(m.poseidonBackend()); })";
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (r.status !== 0) throw new Error(r.stderr);
    return r.stdout.trim();
  };

  it('falls back to wasm when the addon is unavailable, and honours CAIRN_POSEIDON', () => {
    expect(run({ CAIRN_NATIVE: '0', CAIRN_POSEIDON: '' })).toBe('wasm');
    expect(run({ CAIRN_POSEIDON: 'js' })).toBe('js');
  });
});
