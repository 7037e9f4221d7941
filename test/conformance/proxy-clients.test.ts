// The real clients pointed at `cairn proxy` instead of the service, unchanged: helius-sdk (DAS, with
// its api-key, which the proxy drops in favour of its own upstream's), @lightprotocol/stateless.js
// (compression proofs) and @solana/web3.js (pass-through: slot, accounts, the tree accounts). Each
// gets the devnet's real answers through, and the proxy's error for the devnet's lies (`lie` fault).
import { HELIUS_SDK_HOSTS, redirectToLoopback } from '../support/redirect-fetch.js';
import { createHelius } from 'helius-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { bn, createRpc } from '@lightprotocol/stateless.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { startProxy, PROOF_REJECTED_CODE, type Proxy } from '../../src/proxy/proxy-server.js';
import { SPL_ACCOUNT_COMPRESSION_PROGRAM } from '../../src/devnet/trees/accounts.js';

const KEY = 'proxy-clients-conformance';
const addr = () => Keypair.generate().publicKey.toBase58();
let devnet: Devnet;
let proxy: Proxy;
let assetId: string;
let hash: string;

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, seed: 51, validityProofs: 'fake', wsPortPlusOne: false, keys: [{ key: KEY, name: 'clients' }] });
  assetId = (await devnet.das!.mintCompressedNft({ name: 'C', symbol: 'C', description: '', owner: addr(), confirmTransaction: true })).assetId;
  hash = ((await devnet.compression!.createCompressedAccount({ owner: addr() })).account as any).hash;
  proxy = await startProxy({ upstream: `${devnet.url}/?api-key=${KEY}`, threads: 1 });
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await devnet?.stop();
});

describe('clients through the proxy', () => {
  it('helius-sdk: getAssetProof(Batch) pass verified; a lie is the proxy error', async () => {
    const redirect = redirectToLoopback({ target: proxy.url, hosts: HELIUS_SDK_HOSTS });
    try {
      const helius = createHelius({ apiKey: KEY, network: 'mainnet' });
      devnet.control.setFaults('rpc', { lieRate: 0 });
      const proof = await helius.getAssetProof({ id: assetId });
      expect(proof.tree_id).toEqual(expect.any(String));
      const batch = await helius.getAssetProofBatch({ ids: [assetId] });
      expect(batch[assetId]?.root).toBe(proof.root);
      devnet.control.setFaults('rpc', { lieRate: 1 });
      await expect(helius.getAssetProof({ id: assetId })).rejects.toThrow(/failed verification|-32040/);
      expect(redirect.refused).toEqual([]);
    } finally {
      devnet.control.setFaults('rpc', { lieRate: 0 });
      redirect.restore();
    }
  });

  it('stateless.js: compressed account proofs pass verified; a lie is the proxy error', async () => {
    try {
      const rpc = createRpc(proxy.url, proxy.url, proxy.url);
      const p = await rpc.getCompressedAccountProof(bn(bs58.decode(hash)));
      expect(bs58.encode(Uint8Array.from((p.hash as unknown as { toArray(e: 'be', n: number): number[] }).toArray('be', 32)))).toBe(hash);
      const [np] = await rpc.getMultipleNewAddressProofs([bn(Uint8Array.from(bs58.decode(addr()), (b, i) => (i === 0 ? 0 : b)))]);
      expect(np!.root).toBeDefined();
      devnet.control.setFaults('rpc', { lieRate: 1 });
      const err = await rpc.getCompressedAccountProof(bn(bs58.decode(hash))).then(() => null, (e: Error) => e);
      expect(String(err?.message)).toMatch(new RegExp(`${PROOF_REJECTED_CODE}|failed verification`));
    } finally {
      devnet.control.setFaults('rpc', { lieRate: 0 });
    }
  });

  it('web3.js: everything else passes through, the tree accounts included', async () => {
    const conn = new Connection(proxy.url, 'confirmed');
    expect(await conn.getSlot()).toBeGreaterThan(0);
    const proof = (await (await fetch(proxy.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getAssetProof', params: { id: assetId } }) })).json()) as any;
    const tree = await conn.getAccountInfo(new PublicKey(proof.result.tree_id));
    expect(tree?.owner.toBase58()).toBe(SPL_ACCOUNT_COMPRESSION_PROGRAM);
    const { blockhash } = await conn.getLatestBlockhash();
    expect(blockhash).toEqual(expect.any(String));
  });
});
