/**
 * The devnet's `getValidityProof` with real Groth16 proofs (prover thread, cairn-devnet@1 keys):
 * over HTTP, for inclusion and non-inclusion, each proof verified by cairn's verifier against the
 * SHIPPED devnet verifying keys; a proof bound to one tree state fails against the next state's
 * roots; other requests are answered while a proof is being made; `validityProofs: 'fake'` keeps the
 * stand-in bytes. Proving keys are cached in node_modules/.cache/cairn, shared by every test file.
 */
import { join } from 'node:path';
import bs58 from 'bs58';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { ADDRESS_TREE_V1 } from '../../src/devnet/compression/store.js';
import { initGroth16, verifyGroth16 } from '../../src/merkle/groth16/verify.js';
import { unpackKeySet } from '../../src/merkle/groth16/keys/key-set.js';
import { CAIRN_DEVNET_1 } from '../../src/merkle/groth16/keys/cairn-devnet-1.js';

const CACHE = join(process.cwd(), 'node_modules', '.cache', 'cairn');
const devnetKeys = unpackKeySet(CAIRN_DEVNET_1);
const addr = () => Keypair.generate().publicKey.toBase58();

interface V1Answer {
  compressedProof: { a: number[]; b: number[]; c: number[] };
  roots: string[];
  leaves: string[];
}

async function rpc(devnet: Devnet, method: string, params: unknown): Promise<{ result?: { value: unknown }; error?: { message: string } }> {
  const res = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await res.json()) as { result?: { value: unknown }; error?: { message: string } };
}

/** Light's public-input order: account roots, leaves, then address roots, addresses. */
function verifies(v: V1Answer, name: string, accounts: number, roots = v.roots): boolean {
  const b = (s: string) => bs58.decode(s);
  const pub = [...roots.slice(0, accounts), ...v.leaves.slice(0, accounts), ...roots.slice(accounts), ...v.leaves.slice(accounts)].map(b);
  const p = v.compressedProof;
  return verifyGroth16({ a: Uint8Array.from(p.a), b: Uint8Array.from(p.b), c: Uint8Array.from(p.c) }, pub, devnetKeys.get(name)!);
}

let devnet: Devnet;
beforeAll(async () => {
  await initGroth16();
  devnet = await startDevnet({ slotMs: 20, seed: 23, proverCacheDir: CACHE });
});
afterAll(async () => {
  await devnet?.stop();
});

describe('devnet getValidityProof: real proofs', () => {
  it('answers other requests while a proof is being made, then the inclusion proof verifies', async () => {
    const zk = devnet.compression!;
    const { account } = await zk.createCompressedAccount({ owner: addr(), lamports: 1_000n });
    const order: string[] = [];
    const proving = rpc(devnet, 'getValidityProof', { hashes: [account.hash] }).then((r) => (order.push('validity'), r));
    // The first proof starts the thread and loads (or makes) the key: seconds during which the
    // devnet must keep serving.
    const slot = await rpc(devnet, 'getSlot', []).then((r) => (order.push('getSlot'), r));
    const health = await rpc(devnet, 'getHealth', []).then((r) => (order.push('getHealth'), r));
    expect(slot.error).toBeUndefined();
    expect(health.error).toBeUndefined();
    const r = await proving;
    expect(order).toEqual(['getSlot', 'getHealth', 'validity']);
    expect(r.error).toBeUndefined();
    const v = r.result!.value as V1Answer;
    expect(verifies(v, 'v1_inclusion_26_1', 1)).toBe(true);

    // The next state: a new account moves the root; the old proof does not verify against it.
    const { account: next } = await zk.createCompressedAccount({ owner: addr(), lamports: 2_000n });
    const later = (await rpc(devnet, 'getValidityProof', { hashes: [next.hash] })).result!.value as V1Answer;
    expect(later.roots[0]).not.toBe(v.roots[0]);
    expect(verifies(later, 'v1_inclusion_26_1', 1)).toBe(true);
    expect(verifies(v, 'v1_inclusion_26_1', 1, later.roots)).toBe(false);
    expect(verifies(later, 'v1_inclusion_26_1', 1, v.roots)).toBe(false);

    // Single-bit changes of the proof or a public input: 24 bits of each, spread over the bytes.
    const flip = (bytes: number[] | Uint8Array, bit: number): Uint8Array => {
      const out = Uint8Array.from(bytes);
      out[bit >> 3] ^= 1 << (bit & 7);
      return out;
    };
    const safely = (f: () => boolean): boolean => {
      try {
        return f();
      } catch {
        return false; // not a point / not a field element any more: refused, never valid
      }
    };
    for (let k = 0; k < 24; k++) {
      for (const part of ['a', 'b', 'c'] as const) {
        const p = v.compressedProof[part];
        const bit = (k * 37 + 11) % (p.length * 8);
        const bad = { ...v, compressedProof: { ...v.compressedProof, [part]: Array.from(flip(p, bit)) } };
        expect(safely(() => verifies(bad, 'v1_inclusion_26_1', 1)), `${part} bit ${bit}`).toBe(false);
      }
      const bit = (k * 41 + 5) % 256;
      const root = bs58.encode(flip(bs58.decode(v.roots[0]!), bit));
      const leaf = bs58.encode(flip(bs58.decode(v.leaves[0]!), bit));
      expect(safely(() => verifies({ ...v, roots: [root] }, 'v1_inclusion_26_1', 1)), `root bit ${bit}`).toBe(false);
      expect(safely(() => verifies({ ...v, leaves: [leaf] }, 'v1_inclusion_26_1', 1)), `leaf bit ${bit}`).toBe(false);
    }
  }, 120_000);

  it('proves a new address absent from the v1 address tree', async () => {
    const address = devnet.compression!.deriveAddress([new TextEncoder().encode('validity-test')], addr());
    const r = await rpc(devnet, 'getValidityProof', { newAddressesWithTrees: [{ address, tree: ADDRESS_TREE_V1 }] });
    expect(r.error).toBeUndefined();
    const v = r.result!.value as V1Answer;
    expect(verifies(v, 'v1_non_inclusion_26_1', 0)).toBe(true);
    // Single-bit changes of the address (the answer's leaf) or its root: 24 bits of each, spread
    // over the bytes; a value flipped past the field is refused, never valid.
    for (let k = 0; k < 24; k++) {
      const bit = (k * 41 + 5) % 256;
      for (const field of ['leaves', 'roots'] as const) {
        const bytes = bs58.decode(v[field][0]!);
        bytes[bit >> 3] ^= 1 << (bit & 7);
        let ok: boolean;
        try {
          ok = verifies({ ...v, [field]: [bs58.encode(bytes)] }, 'v1_non_inclusion_26_1', 0);
        } catch {
          ok = false;
        }
        expect(ok, `${field} bit ${bit}`).toBe(false);
      }
    }
  }, 120_000);

  it('stop() while a proof is being made ends the prover thread and settles the request', async () => {
    const other = await startDevnet({ slotMs: 20, seed: 25, proverCacheDir: CACHE });
    const { account } = await other.compression!.createCompressedAccount({ owner: addr(), lamports: 1_000n });
    const asked = rpc(other, 'getValidityProof', { hashes: [account.hash] }).then(
      (r) => (r.error ? 'error' : 'answered'),
      () => 'connection closed',
    );
    await new Promise((r) => setTimeout(r, 200)); // the job is on the prover thread (a proof takes seconds)
    await other.stop(); // the server drops the connection; the prover thread is terminated, its job rejected
    expect(['error', 'connection closed']).toContain(await asked);
  });

  it("validityProofs: 'fake' answers at once with bytes that never verify", async () => {
    const fake = await startDevnet({ slotMs: 20, seed: 24, validityProofs: 'fake' });
    try {
      const { account } = await fake.compression!.createCompressedAccount({ owner: addr(), lamports: 1_000n });
      const v = (await rpc(fake, 'getValidityProof', { hashes: [account.hash] })).result!.value as V1Answer;
      expect(v.compressedProof.a).toHaveLength(32);
      expect(verifies(v, 'v1_inclusion_26_1', 1)).toBe(false);
    } finally {
      await fake.stop();
    }
  });
});
