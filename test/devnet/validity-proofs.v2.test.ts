/**
 * The devnet's validity proofs on its v2 trees (state height 32, address height 40): real Groth16
 * proofs under cairn-devnet@1 whose one public input is Light's hash chain of the roots and values.
 * Each answer is checked the way a user checks it — `verifyValidityProof(answer, { keySets:
 * ['cairn-devnet-1'] })`, which rebuilds the hash chain from the answer — and then tampered with:
 * single-bit changes of a, b, c and of the public input itself fail, and so does a proof held
 * against another tree state's roots. `getValidityProof` (the v1 method) on a v2 account proves
 * with the v2 circuit too. Proving keys are cached in node_modules/.cache/cairn (first run: a few
 * seconds per key).
 */
import { join } from 'node:path';
import bs58 from 'bs58';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { ADDRESS_TREE_V2 } from '../../src/devnet/compression/store.js';
import { initGroth16, verifyGroth16 } from '../../src/merkle/groth16/verify.js';
import { CAIRN_DEVNET } from '../../src/merkle/groth16/keys/index.js';
import { verifyValidityProof } from '../../src/merkle/groth16/validity.js';

const CACHE = join(process.cwd(), 'node_modules', '.cache', 'cairn');
const addr = () => Keypair.generate().publicKey.toBase58();
const opts = { keySets: ['cairn-devnet-1'] };

interface Proof {
  a: number[];
  b: number[];
  c: number[];
}
interface V2Answer {
  compressedProof: Proof;
  accounts: { hash: string; root: string }[];
  addresses: { address: string; root: string }[];
}

async function rpc(devnet: Devnet, method: string, params: unknown): Promise<{ value: unknown }> {
  const res = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: { value: unknown }; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result!;
}

const flip = (bytes: readonly number[] | Uint8Array, bit: number): Uint8Array => {
  const out = Uint8Array.from(bytes);
  out[bit >> 3] ^= 1 << (bit & 7);
  return out;
};

/** The verdict's pairing outcome, and the circuit and public input it derived. */
async function check(value: unknown): Promise<{ valid: boolean; circuit?: string; input?: string; keySet?: string }> {
  const v = await verifyValidityProof(value, opts);
  return { valid: v.valid, circuit: v.circuit, input: v.publicInputs?.[0], keySet: v.keySet };
}

/** Single-bit changes of a, b and c (12 bits each, spread over the bytes) and of the public input. */
async function tamper(v: V2Answer, circuit: string, publicInput: string): Promise<void> {
  const vk = CAIRN_DEVNET.get(circuit)!;
  const p = v.compressedProof;
  const bytes = { a: Uint8Array.from(p.a), b: Uint8Array.from(p.b), c: Uint8Array.from(p.c) };
  const input = Uint8Array.from(Buffer.from(publicInput.replace(/^0x/, ''), 'hex'));
  expect(verifyGroth16(bytes, [input], vk)).toBe(true);
  for (let k = 0; k < 12; k++) {
    for (const part of ['a', 'b', 'c'] as const) {
      const bit = (k * 37 + 11) % (p[part].length * 8);
      const bad = { ...v, compressedProof: { ...p, [part]: Array.from(flip(p[part], bit)) } };
      expect((await check(bad)).valid, `${part} bit ${bit}`).toBe(false);
    }
    // The public input's low 253 bits (a flip above them leaves the field, refused as malformed).
    const bit = 256 - 253 + ((k * 41 + 5) % 253);
    let ok: boolean;
    try {
      ok = verifyGroth16(bytes, [flip(input, bit)], vk);
    } catch {
      ok = false; // not a field element any more: refused, never valid
    }
    expect(ok, `public input bit ${bit}`).toBe(false);
  }
}

let devnet: Devnet;
beforeAll(async () => {
  await initGroth16();
  devnet = await startDevnet({ slotMs: 20, seed: 32, proverCacheDir: CACHE });
});
afterAll(async () => {
  await devnet?.stop();
});

describe('devnet getValidityProofV2: real proofs on the v2 trees', () => {
  it('inclusion-1 verifies under cairn-devnet@1, fails every bit flip and another state\'s root', async () => {
    const zk = devnet.compression!;
    const { account } = await zk.createCompressedAccount({ owner: addr(), lamports: 1_000n, version: 2 });
    const v = (await rpc(devnet, 'getValidityProofV2', { hashes: [account.hash] })).value as V2Answer;
    const ok = await check(v);
    expect(ok).toMatchObject({ valid: true, circuit: 'v2_inclusion_32_1', keySet: 'cairn-devnet@1' });
    await tamper(v, ok.circuit!, ok.input!);

    // The next state: a new v2 account moves the root. The v1 method proves it with the v2 circuit.
    const { account: next } = await zk.createCompressedAccount({ owner: addr(), lamports: 2_000n, version: 2 });
    const later = (await rpc(devnet, 'getValidityProof', { hashes: [next.hash] })).value as { roots: string[] };
    expect(later.roots[0]).not.toBe(v.accounts[0]!.root);
    expect(await check(later)).toMatchObject({ valid: true, circuit: 'v2_inclusion_32_1' });
    // The first proof against the new state's root (the account is still in the tree, at a new root).
    const moved = { ...v, accounts: [{ ...v.accounts[0]!, root: later.roots[0]! }] };
    expect((await check(moved)).valid).toBe(false);
  }, 120_000);

  it('non-inclusion-1 verifies under cairn-devnet@1, fails every bit flip and another state\'s root', async () => {
    const zk = devnet.compression!;
    const address = zk.deriveAddress([new TextEncoder().encode('validity-v2')], addr(), 2);
    const v = (await rpc(devnet, 'getValidityProofV2', { newAddressesWithTrees: [{ address, tree: ADDRESS_TREE_V2 }] })).value as V2Answer;
    const ok = await check(v);
    expect(ok).toMatchObject({ valid: true, circuit: 'v2_non_inclusion_40_1', keySet: 'cairn-devnet@1' });
    await tamper(v, ok.circuit!, ok.input!);

    // Another address lands in the tree: its root moves, and the proof does not hold against it.
    await zk.createAddress({ seeds: [new TextEncoder().encode('validity-v2-other')], programId: addr(), version: 2 });
    const root = bs58.encode(zk.store.addressTrees[2].merkle.tree.root());
    expect(root).not.toBe(v.addresses[0]!.root);
    const moved = { ...v, addresses: [{ ...v.addresses[0]!, root }] };
    expect((await check(moved)).valid).toBe(false);
    // And the address bit by bit is covered by the hash: one flipped bit fails.
    const a = bs58.decode(v.addresses[0]!.address);
    a[31] ^= 1;
    expect((await check({ ...v, addresses: [{ ...v.addresses[0]!, address: bs58.encode(a) }] })).valid).toBe(false);
  }, 120_000);
});
