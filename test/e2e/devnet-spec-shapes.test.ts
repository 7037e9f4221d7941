/**
 * Every method of the spec, called through the typed client (which validates each answer against
 * the spec's shapes) on a devnet holding real data: minted cNFTs, compressed accounts and tokens,
 * executed transfers, a webhook. A shape mismatch fails here as the client's RPC_SCHEMA error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { parseAssetProof, verifyAssetProof } from '../../src/merkle/cnft/asset-proof.js';
import { buildTx, waitFor, LAMPORTS_PER_SOL, newAddress, newKeypair } from '../support/devnet.js';

let devnet: Devnet;
let client: CairnClient;
const payer = newKeypair();
const owner = newAddress();
const creator = newAddress();
const assetIds: string[] = [];
let mintSignature = '';
let tokenOwner = '';
let accountHash = '';

beforeAll(async () => {
  devnet = await startDevnet({
    slotMs: 10,
    wsPortPlusOne: false,
    // the stand-in proof: getValidityProof's answer is checked for its shape, not the proof (made and
    // verified in test/devnet/validity-proofs*.test.ts); a real one costs seconds of proving
    validityProofs: 'fake',
    waitForModules: true,
    fundedAccounts: [{ address: payer.publicKey.toBase58(), lamports: 10n * BigInt(LAMPORTS_PER_SOL) }],
  });
  client = createClient({ url: devnet.url, retry: { retries: 0 } });
  for (let i = 0; i < 3; i++) {
    const r = await client.mintCompressedNft({
      name: `Shape #${i}`,
      symbol: 'SHP',
      description: 'shape check',
      owner,
      creators: [{ address: creator, share: 100 }],
      confirmTransaction: true,
    });
    assetIds.push(r.assetId);
    mintSignature = r.signature;
  }
  const zk = devnet.compression!;
  tokenOwner = newAddress();
  await zk.mintCompressedTokens({ mint: newAddress(), recipients: [{ owner: tokenOwner, amount: 42n }] });
  const created = await zk.createCompressedAccount({ owner: newAddress(), lamports: 1_000n });
  accountHash = String(created.account.hash);
});
afterAll(async () => {
  await client?.close();
  await devnet?.stop();
});

describe('the devnet answers every method of the spec with the spec’s shape', () => {
  it('DAS methods, and minted proofs verify with the Merkle engine', async () => {
    const asset = await client.getAsset({ id: assetIds[0]! });
    expect(asset.id).toBe(assetIds[0]);
    expect((await client.getAssetBatch({ ids: assetIds })).map((a) => a?.id)).toEqual(assetIds);
    expect((await client.getAssetsByOwner({ ownerAddress: owner })).items).toHaveLength(3);
    expect((await client.getAssetsByCreator({ creatorAddress: creator })).items).toHaveLength(3);
    expect((await client.getAssetsByAuthority({ authorityAddress: asset.authorities![0]!.address })).total).toBeGreaterThanOrEqual(3);
    expect((await client.getAssetsByGroup({ groupKey: 'collection', groupValue: newAddress() })).items).toEqual([]);
    await client.getTokenAccounts({ owner });
    const proofs = await client.getAssetProofBatch({ ids: assetIds });
    for (const id of assetIds) {
      const verdict = verifyAssetProof(parseAssetProof(proofs[id], id));
      expect(verdict.valid).toBe(true);
    }
  });

  it('compression methods', async () => {
    const acc = await client.getCompressedAccount({ hash: accountHash });
    expect(acc.value?.hash).toBe(accountHash);
    expect((await client.getCompressedAccountProof({ hash: accountHash })).value.hash).toBe(accountHash);
    const fresh = devnet.compression!.deriveAddress([new TextEncoder().encode('shape')], newAddress());
    expect((await client.getMultipleNewAddressProofs([fresh])).value).toHaveLength(1);
    expect((await client.getValidityProof({ hashes: [accountHash] })).value.leaves).toHaveLength(1);
    expect((await client.getCompressedTokenAccountsByOwner({ owner: tokenOwner })).value.items).toHaveLength(1);
    await client.getCompressedTokenAccountsByDelegate({ delegate: tokenOwner });
    const latest = await client.getLatestCompressionSignatures({ limit: 10 });
    expect(latest.value.items.length).toBeGreaterThan(0);
    const forOwner = await client.getCompressionSignaturesForTokenOwner({ owner: tokenOwner });
    expect(forOwner.value.items.length).toBe(1);
    const info = await client.getTransactionWithCompressionInfo({ signature: forOwner.value.items[0]!.signature });
    expect(info.compression_info.openedAccounts.length).toBe(1);
  });

  it('REST and deprecated methods', async () => {
    const to = newAddress();
    const { signature } = devnet.chain.submit(buildTx({ payer, to, lamports: LAMPORTS_PER_SOL, blockhash: devnet.chain.latestBlockhash().blockhash }));
    await waitFor(() => devnet.chain.status(signature));
    const page = await client.getWalletTransfers({ wallet: to });
    expect(page.data[0]?.signature).toBe(signature);
    expect(await client.getTokenMetadata({ mintAccounts: assetIds.slice(0, 1) })).toHaveLength(1);
    const hook = devnet.control.createWebhook({ webhookURL: 'http://127.0.0.1:9/none', accountAddresses: [owner] });
    expect((await client.setWebhookActive({ webhookID: hook.webhookID, active: false })).active).toBe(false);
    expect(mintSignature).toBeTruthy();
  });

  it('control.methods() is the dispatch table: every spec area, sorted, each one served', async () => {
    const names = devnet.control.methods();
    expect(names).toEqual([...names].sort());
    for (const m of ['getBalance', 'getLatestBlockhash', 'getAsset', 'getAssetProofBatch', 'getCompressedAccount', 'getValidityProof', 'mintCompressedNft']) expect(names).toContain(m);
    const res = await fetch(devnet.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(names.map((method, id) => ({ jsonrpc: '2.0', id, method, params: [] }))),
    });
    const answers = (await res.json()) as { error?: { code: number } }[];
    expect(answers.filter((a) => a.error?.code === -32601)).toEqual([]);
  });

  it('standard methods and the sender host', async () => {
    const { blockhash, lastValidBlockHeight } = await client.getLatestBlockhash();
    expect(Number(lastValidBlockHeight)).toBeGreaterThan(await client.getBlockHeight({ commitment: 'processed' }));
    expect(await client.getSlot()).toBeGreaterThanOrEqual(0);
    const wire = buildTx({ payer, blockhash, cuPrice: 10_000, tip: 1_000_000 });
    const sim = await client.simulateTransaction(wire);
    expect(sim.err).toBeNull();
    const sig = await client.sendTransaction(wire);
    expect(sig).toBe(bs58.encode(wire.subarray(1, 65)));
    await waitFor(() => devnet.chain.status(sig));
    const [st] = await client.getSignatureStatuses([sig], { searchTransactionHistory: true });
    expect(st?.err).toBeNull();
    expect(await client.getTransaction(sig, { commitment: 'confirmed' })).not.toBeUndefined();
    const est = await client.getPriorityFeeEstimate({ accountKeys: [payer.publicKey.toBase58()], options: { includeAllPriorityFeeLevels: true } });
    expect(est.priorityFeeLevels?.unsafeMax).toBe(10_000);
    expect(await client.ping()).toBeGreaterThanOrEqual(0);
    expect(BigInt(await client.getBalance(payer.publicKey.toBase58()))).toBeGreaterThan(0n);
    expect(await client.getAccountInfo(payer.publicKey.toBase58())).not.toBeNull();
    const air = await client.requestAirdrop(newAddress(), 1_000_000);
    expect(typeof air).toBe('string');
  });
});
