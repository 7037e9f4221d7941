/**
 * The proving-key cache: a key is made once and then read back; a file with a flipped byte (body or
 * header), another system under the same name, or a truncated file is rebuilt, never used, and the
 * rebuilt key still proves; two builders racing on one file leave one whole file and no temp files.
 */
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initGroth16, parseVerifyingKey, verifyGroth16 } from '../../src/merkle/groth16/verify.js';
import { prove } from '../../src/prover/groth16-prove.js';
import { setup } from '../../src/prover/groth16-setup.js';
import { defaultCacheDir, keyFile, loadOrCreateKey } from '../../src/prover/key-cache.js';
import { buildR1cs, computeWitness, type CircuitDefinition } from '../../src/prover/r1cs.js';

const seed = new TextEncoder().encode('key-cache-test');
const R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

function squarings(x: bigint, steps: number): CircuitDefinition {
  let y = x;
  for (let i = 0; i < steps; i++) y = (y * y) % R;
  return (cs) => {
    const xv = cs.publicInput(() => x, 'x');
    const yv = cs.publicInput(() => y, 'y');
    let acc = xv;
    for (let i = 0; i < steps; i++) acc = cs.mul(acc, acc);
    cs.assertEqual(acc, yv, 'y');
  };
}

let dir: string;
beforeAll(async () => {
  await initGroth16();
  dir = await mkdtemp(join(tmpdir(), 'cairn-keys-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('proving-key cache', () => {
  const def = squarings(3n, 200);
  const r1cs = buildR1cs('toy_chain', def);
  const w = computeWitness(def);
  const opts = () => ({ dir, keySet: 'test@1', seed });

  async function provesUnder(pk: Awaited<ReturnType<typeof loadOrCreateKey>>['pk']): Promise<boolean> {
    const { vk } = await setup(r1cs, seed);
    return verifyGroth16(await prove(pk, r1cs, w), [w[1]!, w[2]!], parseVerifyingKey(vk));
  }

  it('builds once, then reads the file back', async () => {
    expect((await loadOrCreateKey(r1cs, opts())).source).toBe('built');
    const again = await loadOrCreateKey(r1cs, opts());
    expect(again.source).toBe('cache');
    expect(await provesUnder(again.pk)).toBe(true);
  });

  it('rebuilds a file with a flipped byte in its body or header, or truncated, and never uses it', async () => {
    const file = keyFile(dir, 'test@1', r1cs.name);
    const good = await readFile(file);
    const nl = good.indexOf(10);
    for (const at of [nl + 1 + 200, good.length - 1, nl - 5, 3]) {
      const bad = Buffer.from(good);
      bad[at] ^= 0x01;
      await writeFile(file, bad);
      const k = await loadOrCreateKey(r1cs, opts());
      expect(k.source, `byte ${at}`).toBe('rebuilt');
      expect(await provesUnder(k.pk)).toBe(true);
      expect((await readFile(file)).equals(good)).toBe(true); // setup is deterministic
    }
    await writeFile(file, good.subarray(0, good.length >> 1));
    expect((await loadOrCreateKey(r1cs, opts())).source).toBe('rebuilt');
  });

  it('rebuilds when the file was made for another system of the same name', async () => {
    const other = buildR1cs('toy_chain', squarings(3n, 201));
    const k = await loadOrCreateKey(other, opts());
    expect(k.source).toBe('rebuilt');
    expect(k.pk.nVars).toBe(other.nVars);
    expect((await loadOrCreateKey(r1cs, opts())).source).toBe('rebuilt');
  });

  it('two builders racing on one key: one builds, the other waits for its file; no temp or lock file stays', async () => {
    const racing = await mkdtemp(join(tmpdir(), 'cairn-keys-race-'));
    try {
      const [a, b] = await Promise.all([loadOrCreateKey(r1cs, { ...opts(), dir: racing }), loadOrCreateKey(r1cs, { ...opts(), dir: racing })]);
      expect([a.source, b.source].sort()).toEqual(['built', 'cache']);
      expect(Buffer.from(b.pk.h).equals(Buffer.from(a.pk.h))).toBe(true);
      expect(await readdir(racing)).toEqual([`test_1.toy_chain.pk`]);
      expect((await loadOrCreateKey(r1cs, { ...opts(), dir: racing })).source).toBe('cache');
    } finally {
      await rm(racing, { recursive: true, force: true });
    }
  });

  it('takes over a lock a dead builder left (older than ten minutes)', async () => {
    const dead = await mkdtemp(join(tmpdir(), 'cairn-keys-dead-'));
    try {
      const lock = `${keyFile(dead, 'test@1', r1cs.name)}.lock`;
      await writeFile(lock, '1');
      const old = new Date(Date.now() - 11 * 60_000);
      await utimes(lock, old, old);
      expect((await loadOrCreateKey(r1cs, { ...opts(), dir: dead })).source).toBe('built');
      expect(await readdir(dead)).toEqual([`test_1.toy_chain.pk`]);
    } finally {
      await rm(dead, { recursive: true, force: true });
    }
  });

  it('finds its directory in the environment', () => {
    expect(defaultCacheDir({ CAIRN_CACHE_DIR: '/x' })).toBe('/x');
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/y' })).toBe('/y/cairn');
    expect(defaultCacheDir({})).toMatch(/\.cache\/cairn$/);
  });
});
