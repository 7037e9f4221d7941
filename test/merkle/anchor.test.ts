/**
 * Anchored verification against the devnet's trees on chain: real answers are `anchored: true`; a
 * fabricated proof on a real tree (made-up leaf and path, the root they hash to) passes the
 * self-consistency check — the hole this closes — and is `unknown-root` once anchored, for asset,
 * account, address and validity proofs (the validity lie carries a real Groth16 proof over made-up
 * roots); a tree with no account is `tree-not-found`, an account that is no tree `not-a-tree`; one
 * getMultipleAccounts per batch, cached for a slot.
 */
import { join } from 'node:path';
import bs58 from 'bs58';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { ADDRESS_TREE_V1 } from '../../src/devnet/compression/store.js';
import { fabricateAccountProof, fabricateAddressProof, fabricateAssetProof, fabricateValidityProof } from '../../src/devnet/faults/lies.js';
import { mulberry32 } from '../../src/devnet/chain/mulberry32.js';
import { createProverWorker } from '../../src/prover/prover-worker.js';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { createAnchorSource } from '../../src/merkle/anchor/source.js';
import { createClient } from '../../src/rpc/client/create-client.js';

const CACHE = join(process.cwd(), 'node_modules', '.cache', 'cairn');
const addr = () => Keypair.generate().publicKey.toBase58();
const draw = mulberry32(7);

let devnet: Devnet;
async function rpc(method: string, params: unknown): Promise<any> {
  const res = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as any;
  if (body.error) throw new Error(JSON.stringify(body.error));
  return body.result;
}

let assetProof: any;
let accountProof: any;
let addressProof: any;
beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, seed: 31, proverCacheDir: CACHE });
  const { assetId } = await devnet.das!.mintCompressedNft({ name: 'A', symbol: 'A', description: '', owner: addr(), confirmTransaction: true });
  assetProof = await rpc('getAssetProof', { id: assetId });
  const created = await devnet.compression!.createCompressedAccount({ owner: addr() });
  accountProof = (await rpc('getCompressedAccountProof', { hash: (created.account as any).hash })).value;
  const address = bs58.encode(Uint8Array.from(bs58.decode(addr()), (b, i) => (i === 0 ? 0 : b)));
  addressProof = (await rpc('getMultipleNewAddressProofs', [address])).value[0];
}, 60_000);
afterAll(async () => {
  await devnet?.stop();
});

describe('anchored verification', () => {
  it('real answers are anchored: true; fabrications pass unanchored and are unknown-root anchored', async () => {
    const v = createVerifier({ threads: 0, anchor: { rpc: devnet.url } });
    try {
      const cases = [
        ['asset-proof', assetProof, fabricateAssetProof(assetProof, draw)],
        ['account-proof', accountProof, fabricateAccountProof(accountProof, draw)],
        ['address-proof', addressProof, fabricateAddressProof(addressProof, draw)],
      ] as const;
      for (const [kind, real, lie] of cases) {
        // the hole: unanchored, the lie is valid
        expect(await v.verify(kind, [lie], { anchor: false }), kind).toEqual([expect.objectContaining({ valid: true })]);
        const [r, l] = await v.verify(kind, [real, lie]);
        expect(r, kind).toMatchObject({ valid: true, anchored: true });
        expect(l, kind).toMatchObject({ valid: false, anchored: false, status: 'unknown-root' });
        expect(l!.reason).toMatch(/not in tree .* root history on chain/);
      }
    } finally {
      await v.close();
    }
  });

  it('validity proofs: each root the public inputs use must be in its tree root history', async () => {
    const address = bs58.encode(Uint8Array.from(bs58.decode(addr()), (b, i) => (i === 0 ? 0 : b)));
    const real = (await rpc('getValidityProof', { hashes: [accountProof.hash], newAddressesWithTrees: [{ address, tree: ADDRESS_TREE_V1 }] })).value;
    const prover = createProverWorker({ cacheDir: CACHE, slot: () => devnet.chain.slot() });
    let lie;
    try {
      lie = await fabricateValidityProof(real, devnet.compression!.store, prover, draw);
    } finally {
      await prover.close();
    }
    const bundle = (value: unknown) => ({ getValidityProof: value, keySets: ['cairn-devnet-1'] });
    const v = createVerifier({ threads: 0 });
    try {
      expect(await v.verify('validity-proof', [bundle(lie)])).toEqual([expect.objectContaining({ valid: true })]);
      const [r, l] = await v.verify('validity-proof', [bundle(real), bundle(lie)], { anchor: { rpc: createClient({ url: devnet.url }) } });
      expect(r).toMatchObject({ valid: true, anchored: true });
      expect(l).toMatchObject({ valid: false, status: 'unknown-root' });
    } finally {
      await v.close();
    }
  }, 300_000);

  it('tree-not-found, not-a-tree, a Light tree named by an asset proof, and one read per batch', async () => {
    const source = createAnchorSource({ rpc: devnet.url, cacheMs: 60_000 });
    const v = createVerifier({ threads: 0 });
    try {
      const noTree = fabricateAssetProof({ ...assetProof, tree_id: addr() }, draw);
      const system = fabricateAssetProof({ ...assetProof, tree_id: devnet.chain.authority.address }, draw);
      const light = fabricateAssetProof({ ...assetProof, tree_id: accountProof.merkleTree }, draw);
      const rpcSource = { getMultipleAccounts: async (keys: string[], cfg: any) => (await rpc('getMultipleAccounts', [keys, cfg])).value };
      const out = await v.verify('asset-proof', [noTree, system, light, assetProof], { anchor: { rpc: rpcSource } });
      expect(out.map((x) => x.status ?? x.anchored)).toEqual(['tree-not-found', 'not-a-tree', 'not-a-tree', true]);
      // caching: 2 batches over the same trees cost one read
      const items = Array.from({ length: 150 }, () => assetProof);
      const { anchorVerdicts } = await import('../../src/merkle/anchor/verdicts.js');
      const verdicts = await v.verify('asset-proof', items, { anchor: false });
      await anchorVerdicts('asset-proof', items, verdicts, source);
      await anchorVerdicts('asset-proof', items, verdicts, source);
      expect(source.calls).toBe(1);
    } finally {
      await source.close();
      await v.close();
    }
  });

  it('a root newer than the cached tree state is read again once, not called unknown-root; a lie costs that one read and stays unknown-root', async () => {
    const source = createAnchorSource({ rpc: devnet.url, cacheMs: 60_000 });
    const v = createVerifier({ threads: 0 });
    const { anchorVerdicts } = await import('../../src/merkle/anchor/verdicts.js');
    const anchored = async (proof: unknown) => (await anchorVerdicts('asset-proof', [proof], await v.verify('asset-proof', [proof], { anchor: false }), source))[0];
    try {
      expect(await anchored(assetProof)).toMatchObject({ valid: true, anchored: true });
      expect(source.calls).toBe(1);
      // a new leaf in the same tree: a root the cached state (good for a minute here) has never seen
      const { assetId } = await devnet.das!.mintCompressedNft({ name: 'B', symbol: 'B', description: '', owner: addr(), confirmTransaction: true });
      const newer = await rpc('getAssetProof', { id: assetId });
      expect(newer.tree_id).toBe(assetProof.tree_id);
      expect(newer.root).not.toBe(assetProof.root);
      expect(await anchored(newer)).toMatchObject({ valid: true, anchored: true });
      expect(source.calls).toBe(2);
      // read just now, the state is not read again for the same root; a lie on the tree is one read more
      expect(await anchored(newer)).toMatchObject({ valid: true, anchored: true });
      expect(source.calls).toBe(2);
      expect(await anchored(fabricateAssetProof(newer, draw))).toMatchObject({ valid: false, status: 'unknown-root' });
      expect(source.calls).toBe(3);
    } finally {
      await source.close();
      await v.close();
    }
  });

  it('bad anchor options name the field', () => {
    expect(() => createVerifier({ threads: 0, anchor: { rpc: 'ftp://x' } as never })).toThrow(/anchor\.rpc/);
    expect(() => createVerifier({ threads: 0, anchor: { rpc: 'http://127.0.0.1:1', commitment: 'max' } as never })).toThrow(/anchor\.commitment/);
  });
});
