// Every DAS and compression method of the devnet, over HTTP, through the typed client (whose own
// response validation checks the spec's shapes), plus the Merkle engine on what comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair } from '@solana/web3.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { verifyAccountProof } from '../../src/merkle/compressed/account.js';
import { parseAccountProof } from '../../src/merkle/compressed/account-parse.js';
import { parseNewAddressProof, verifyNewAddressProof } from '../../src/merkle/compressed/address.js';
import { verifyAssetProofJson } from '../../src/merkle/cnft/asset-proof.js';
import { RpcError } from '../../src/errors/index.js';
import { ADDRESS_TREE_V1 } from '../../src/devnet/compression/store.js';

const addr = () => Keypair.generate().publicKey.toBase58();
let devnet: Devnet;
let client: CairnClient;

beforeAll(async () => {
  // The stand-in proof: the validity proof's shape is checked here, not the proof (made and verified in
  // test/devnet/validity-proofs*.test.ts); a real one costs seconds of proving.
  devnet = await startDevnet({ slotMs: 20, seed: 11, validityProofs: 'fake' });
  await devnet.ready();
  client = createClient({ url: devnet.url, logger: () => {} });
});
afterAll(async () => {
  await client?.close();
  await devnet?.stop();
});

describe('devnet over HTTP, typed client', () => {
  it('serves the nine compression methods in the spec shapes', async () => {
    const zk = devnet.compression!;
    expect(zk).not.toBeNull();
    const owner = addr();
    const mint = addr();
    const minted = await zk.mintCompressedTokens({ mint, recipients: [{ owner, amount: 10n }, { owner, amount: 20n }] });

    const page = await client.getCompressedTokenAccountsByOwner({ owner, limit: 1 });
    expect(page.value.items).toHaveLength(1);
    const page2 = await client.getCompressedTokenAccountsByOwner({ owner, limit: 1, cursor: page.value.cursor! });
    expect(page2.value.cursor).toBeNull();
    expect((await client.getCompressedTokenAccountsByDelegate({ delegate: owner })).value.items).toEqual([]);

    const hash = page.value.items[0].account.hash;
    const acc = await client.getCompressedAccount({ hash });
    expect(acc.value?.hash).toBe(hash);
    const proof = await client.getCompressedAccountProof({ hash });
    expect(verifyAccountProof(parseAccountProof(proof.value)).valid).toBe(true);

    const newAddr = zk.deriveAddress([new TextEncoder().encode('seed')], addr());
    const na = await client.getMultipleNewAddressProofs([newAddr]);
    expect(verifyNewAddressProof(parseNewAddressProof(na.value[0])).valid).toBe(true);

    const vp = await client.getValidityProof({ hashes: [hash], newAddressesWithTrees: [{ address: newAddr, tree: ADDRESS_TREE_V1 }] });
    expect(vp.value.leaves).toHaveLength(2);

    const latest = await client.getLatestCompressionSignatures({ limit: 5 });
    expect(latest.value.items[0].signature).toBe(minted.signature);
    const forOwner = await client.getCompressionSignaturesForTokenOwner({ owner });
    expect(forOwner.value.items.map((i) => i.signature)).toEqual([minted.signature]);
    const info = await client.getTransactionWithCompressionInfo({ signature: minted.signature });
    expect(JSON.stringify(info)).toContain(hash);

    const err = await client.getCompressedAccountProof({ hash: '11111111111111111111111111111111' }).then(() => null, (e) => e);
    expect(err).toBeInstanceOf(RpcError);
  });

  it('serves the DAS methods in the spec shapes, with proofs the engine verifies', async () => {
    const owner = addr();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await client.mintCompressedNft({ name: `A${i}`, symbol: 'A', description: '', owner, confirmTransaction: true })).assetId);
    const list = await client.getAssetsByOwner({ ownerAddress: owner, page: 1, limit: 2 });
    expect(list.items).toHaveLength(2);
    const batch = await client.getAssetBatch({ ids });
    expect(batch.map((a) => a?.id)).toEqual(ids);
    const proofs = await client.getAssetProofBatch({ ids });
    for (const id of ids) expect(verifyAssetProofJson(proofs[id], { label: id }).valid).toBe(true);
    const byAuth = await client.getAssetsByAuthority({ authorityAddress: devnet.chain.authority.address, limit: 1 });
    expect(byAuth.items).toHaveLength(1);
    const byCreator = await client.getAssetsByCreator({ creatorAddress: addr() });
    expect(byCreator.items).toEqual([]);
    const byGroup = await client.getAssetsByGroup({ groupKey: 'collection', groupValue: addr() });
    expect(byGroup.items).toEqual([]);
    const tokens = await client.getTokenAccounts({ owner });
    expect(tokens.token_accounts).toEqual([]);
    const bad = await client.getAsset({ id: addr() }).then(() => null, (e) => e);
    expect(bad).toBeInstanceOf(RpcError);
  });
});
