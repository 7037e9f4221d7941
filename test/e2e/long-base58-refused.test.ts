/**
 * Regressions the fuzzer found (soak/fuzz.ts, op "long"): bs58's decoder is quadratic in the text's
 * length, so a long string where 32 bytes (or one transaction) are expected held the thread for
 * seconds — 88,000 characters in getBalance's address blocked the devnet for every client for ~14 s.
 * A string longer than any base58 text of the field's size is refused before it is decoded.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { verifyAssetProofJson } from '../../src/merkle/cnft/asset-proof.js';
import { verifyValidityProofSync } from '../../src/merkle/groth16/validity.js';
import { maxBase58Length } from '../../src/base58-bound.js';
import { rpc } from '../support/devnet.js';

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** 60,000 base58 characters: ~4 s through bs58.decode on the reference machine. */
const LONG = B58.repeat(1100).slice(0, 60_000);
const ADDR = 'F9Lw3ki3hJ7PF9HQXsBzoY8GyE6sPoEZZdXJBsTTD2rk';
const photonValidity = JSON.parse(readFileSync(new URL('../vectors/photon/e2e_tests__e2e_mint_and_transfer-bob-validity-proof.json', import.meta.url), 'utf8'));
/** Well under what decoding LONG takes, well over what refusing it takes on a loaded 2-core box. */
const FAST_MS = 400;

async function timed<T>(fn: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

describe('maxBase58Length', () => {
  it('is the length of the longest base58 text of n bytes', () => {
    expect(maxBase58Length(32)).toBe(44);
    expect(maxBase58Length(64)).toBe(88);
    expect(maxBase58Length(1232)).toBe(1683);
    // all-0xff is the longest value of its size; all-zero bytes are one '1' each
    for (const n of [1, 2, 5, 31, 32, 33, 64, 100]) {
      expect(maxBase58Length(n)).toBeGreaterThanOrEqual(bs58len(new Uint8Array(n).fill(255)));
      expect(maxBase58Length(n)).toBeGreaterThanOrEqual(n);
    }
  });
});

/** Digits of the base58 text of `b` (as a number; leading zero bytes aside). */
function bs58len(b: Uint8Array): number {
  let n = 0n;
  for (const x of b) n = n * 256n + BigInt(x);
  let len = 0;
  while (n > 0n) {
    n /= 58n;
    len++;
  }
  return len;
}

describe('merkle verifiers refuse a long base58 field at once', () => {
  it('verifyValidityProof: a 60,000-character root is malformed, not decoded', async () => {
    const value = { compressedProof: null, roots: [LONG], rootIndices: [0], leafIndices: [0], leaves: [ADDR], merkleTrees: [ADDR] };
    const { value: v, ms } = await timed(() => verifyValidityProofSync(value));
    expect(v).toMatchObject({ valid: false, status: 'malformed', reason: expect.stringContaining('roots[0]') });
    expect(ms).toBeLessThan(FAST_MS);
  });

  it('verifyValidityProof: a 60,000-character proof part is malformed, not decoded', async () => {
    // a photon response whose structure is valid (proof bytes redacted), with a long proof part
    const value = { ...photonValidity, compressedProof: { a: LONG, b: LONG, c: LONG } };
    expect(verifyValidityProofSync(photonValidity)).toMatchObject({ status: 'proof-absent' });
    const { value: v, ms } = await timed(() => verifyValidityProofSync(value));
    expect(v).toMatchObject({ valid: false, status: 'malformed', reason: expect.stringContaining('compressedProof.a') });
    expect(ms).toBeLessThan(FAST_MS);
  });

  it('verifyAssetProofJson: a 60,000-character root is refused naming it', async () => {
    const { ms } = await timed(() => {
      expect(() => verifyAssetProofJson({ root: LONG, leaf: ADDR, proof: [], node_index: 1 })).toThrow(/root/);
    });
    expect(ms).toBeLessThan(FAST_MS);
  });
});

describe('the devnet refuses a long base58 param at once', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ wsPortPlusOne: false, waitForModules: true });
  });
  afterAll(async () => {
    await devnet?.stop();
  });

  const cases: Array<[string, string, unknown, string?]> = [
    ['getBalance (address)', 'getBalance', [LONG]],
    ['getAsset (id)', 'getAsset', { id: LONG }],
    ['getAssetsByOwner (ownerAddress)', 'getAssetsByOwner', { ownerAddress: LONG }],
    ['sendTransaction (base58 wire)', 'sendTransaction', [LONG, { encoding: 'base58' }]],
    ['/fast sendTransaction (base58 wire)', 'sendTransaction', [LONG, { encoding: 'base58', skipPreflight: true, maxRetries: 0 }], '/fast'],
  ];
  for (const [name, method, params, path] of cases) {
    it(`${name}: an error naming the param, answered at once`, async () => {
      const { value: r, ms } = await timed(() => rpc(devnet.url, method, params, path));
      expect(r.body.error).toMatchObject({ message: expect.stringMatching(/params|id|owner|address|transaction/i) });
      expect([-32602, -32600, -32003]).toContain(r.body.error.code);
      expect(ms).toBeLessThan(FAST_MS);
    });
  }

  it('token metadata (REST): a long mint account is refused at once', async () => {
    const t0 = performance.now();
    const res = await fetch(new URL('/v0/token-metadata', devnet.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mintAccounts: [LONG] }) });
    await res.text();
    expect(res.status).toBe(400);
    expect(performance.now() - t0).toBeLessThan(FAST_MS);
  });
});
