// The devnet keeps its trees on chain: getAccountInfo on a DAS tree answers an spl-account-compression
// account that the program's own client library reads back (root, depth, buffer, sequence, canopy),
// and the Light v1/v2 trees answer Light's layouts whose root history holds every root the indexer hands
// out, updated as the trees change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { Keypair } from '@solana/web3.js';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { parseTreeAccount, verifyTreeAccount } from '../../src/merkle/cnft/tree-account.js';
import { parseLightTreeAccount } from '../../src/merkle/compressed/light-tree-account.js';
import { ADDRESS_TREE_V1, ADDRESS_TREE_V2, STATE_TREE_V1, STATE_TREE_V2 } from '../../src/devnet/compression/store.js';
import { LIGHT_ACCOUNT_COMPRESSION_PROGRAM, SPL_ACCOUNT_COMPRESSION_PROGRAM } from '../../src/devnet/trees/accounts.js';

// The package's entry points at dist/cjs/index.js, which it does not ship (its build is in
// dist/cjs/src/): load that file by path, past the exports map.
const splRoot = path.dirname(createRequire(import.meta.url).resolve('@solana/spl-account-compression/idl/spl_account_compression.json'));
const { ConcurrentMerkleTreeAccount } = createRequire(import.meta.url)(path.join(splRoot, '../dist/cjs/src/index.js')) as {
  ConcurrentMerkleTreeAccount: {
    fromBuffer(b: Buffer): {
      getCurrentRoot(): Buffer;
      getMaxDepth(): number;
      getMaxBufferSize(): number;
      getCanopyDepth(): number;
      getCurrentSeq(): { toNumber(): number };
      getCurrentBufferIndex(): number;
      getAuthority(): { toBase58(): string };
    };
  };
};

let devnet: Devnet;
const addr = () => Keypair.generate().publicKey.toBase58();

async function rpc(method: string, params: unknown): Promise<any> {
  const res = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as any;
  if (body.error) throw new Error(JSON.stringify(body.error));
  return body.result;
}
async function accountBytes(address: string): Promise<{ owner: string; data: Buffer }> {
  const r = await rpc('getAccountInfo', [address, { encoding: 'base64' }]);
  expect(r.value, `account ${address}`).not.toBeNull();
  return { owner: r.value.owner, data: Buffer.from(r.value.data[0], 'base64') };
}

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, seed: 5, validityProofs: 'fake', dasTree: { depth: 14, canopyDepth: 3, maxBufferSize: 64 } });
});
afterAll(async () => {
  await devnet.stop();
});

describe('DAS trees on chain (spl-account-compression layout)', () => {
  it('getAccountInfo answers a tree account the program library reads, following each mint', async () => {
    const owner = addr();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await devnet.das!.mintCompressedNft({ name: `T${i}`, symbol: 'T', description: '', owner, confirmTransaction: true });
      ids.push(r.assetId);
      const proof = await rpc('getAssetProof', { id: r.assetId });
      const { owner: programOwner, data } = await accountBytes(proof.tree_id);
      expect(programOwner).toBe(SPL_ACCOUNT_COMPRESSION_PROGRAM);
      const ref = ConcurrentMerkleTreeAccount.fromBuffer(data);
      expect(bs58.encode(ref.getCurrentRoot())).toBe(proof.root);
      expect(ref.getMaxDepth()).toBe(14);
      expect(ref.getMaxBufferSize()).toBe(64);
      expect(ref.getCanopyDepth()).toBe(3);
      expect(ref.getCurrentSeq().toNumber()).toBe(i + 1);
      expect(ref.getCurrentBufferIndex()).toBe((i + 1) % 64);
      expect(ref.getAuthority().toBase58()).toBe(devnet.chain.authority.address);
      const ours = parseTreeAccount(data);
      expect(bs58.encode(ours.currentRoot)).toBe(proof.root);
      expect(ours.roots).toHaveLength(i + 2); // the empty tree's root stays in the buffer
      expect(verifyTreeAccount(ours)).toMatchObject({ valid: true });
      // the canopy is the tree's top levels: the proof's top 3 nodes are in it
      const top = proof.proof.slice(-3).map((n: string) => Buffer.from(bs58.decode(n)).toString('hex'));
      const canopy = Buffer.from(ours.canopy).toString('hex');
      for (const n of top) expect(canopy).toContain(n);
    }
    // An older root is still in the change log after later mints.
    const first = await rpc('getAssetProof', { id: ids[0] });
    const now = parseTreeAccount((await accountBytes(first.tree_id)).data);
    expect(now.roots.map((r) => bs58.encode(r))).toContain(first.root);
  });
});

describe('Light trees on chain', () => {
  it('the v1 state and address trees hold the roots the indexer answers, in the root history', async () => {
    const zk = devnet.compression!;
    const mint = addr();
    await zk.mintCompressedTokens({ mint, recipients: [{ owner: addr(), amount: 3n }] });
    const created = await zk.createCompressedAccount({ owner: addr(), seeds: [new TextEncoder().encode('tree-accounts')], programId: addr() });
    const hash = (created.account as any).hash as string;
    const proof = (await rpc('getCompressedAccountProof', { hash })).value;
    const state = await accountBytes(STATE_TREE_V1);
    expect(state.owner).toBe(LIGHT_ACCOUNT_COMPRESSION_PROGRAM);
    const st = parseLightTreeAccount(state.data);
    expect(st).toMatchObject({ kind: 'light-v1-state', height: 26, rootHistoryCapacity: 2400 });
    expect(bs58.encode(st.roots[0]!)).toBe(proof.root);
    expect(Number(st.sequenceNumber)).toBe(proof.rootSeq);

    const address = bs58.encode(bs58.decode(addr()).map((b, i) => (i === 0 ? 0 : b)));
    const ap = (await rpc('getMultipleNewAddressProofs', [address])).value[0];
    const at = parseLightTreeAccount((await accountBytes(ADDRESS_TREE_V1)).data);
    expect(at.kind).toBe('light-v1-address');
    expect(at.roots.map((r) => bs58.encode(r))).toContain(ap.root);
  });

  it('the v2 batched trees hold their roots too, and a later change keeps the earlier root in history', async () => {
    const zk = devnet.compression!;
    const a = await zk.createCompressedAccount({ owner: addr(), version: 2 });
    const p1 = (await rpc('getCompressedAccountProof', { hash: (a.account as any).hash })).value;
    await zk.createCompressedAccount({ owner: addr(), version: 2 });
    const v2 = parseLightTreeAccount((await accountBytes(STATE_TREE_V2)).data);
    expect(v2).toMatchObject({ kind: 'light-v2-state', height: 32, rootHistoryCapacity: 200 });
    const roots = v2.roots.map((r) => bs58.encode(r));
    expect(roots).toContain(p1.root);
    expect(roots[0]).not.toBe(p1.root);
    const addrV2 = parseLightTreeAccount((await accountBytes(ADDRESS_TREE_V2)).data);
    expect(addrV2).toMatchObject({ kind: 'light-v2-address', height: 40 });
    expect(addrV2.roots.length).toBeGreaterThan(0);
  });
});
