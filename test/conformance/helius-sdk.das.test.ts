/**
 * helius-sdk 3.2's DAS methods against the devnet, on assets it holds: compressed NFTs minted through
 * the devnet's mintCompressedNft (one collection, two creators), and an SPL mint and token account
 * created through the SDK's own sendTransactionWithSender. Each SDK call's answer is checked against
 * what was minted, the provider's extensions (searchAssets, getSignaturesForAsset, getNftEditions, the
 * V2 account methods and their getAll* walkers, getTransactionsForAddress) included; the SDK methods
 * the devnet does not serve are named, each refused with -32601.
 */
import { heliusOnDevnet, type HeliusOnDevnet } from '../support/helius-sdk.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountRole, address, generateKeyPairSigner, getAddressEncoder, type Address, type Instruction, type KeyPairSigner } from '@solana/kit';
import { newAddress } from '../support/devnet.js';

const SYSTEM = address('11111111111111111111111111111111');
const TOKEN = address('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
const enc = getAddressEncoder();
const u64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
};
const cat = (...parts: ArrayLike<number>[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p)));
const signer = (s: KeyPairSigner) => ({ address: s.address, role: AccountRole.WRITABLE_SIGNER, signer: s });
const createAccount = (payer: KeyPairSigner, account: KeyPairSigner, space: number, rent: bigint, owner: Address): Instruction => ({
  programAddress: SYSTEM,
  accounts: [signer(payer), signer(account)],
  data: cat([0, 0, 0, 0], u64(rent), u64(BigInt(space)), enc.encode(owner)),
});

let h: HeliusOnDevnet;
const owner = newAddress();
const collection = newAddress();
const creatorA = newAddress();
const creatorB = newAddress();
const ids: string[] = [];
let mintSig = '';
let splMint: KeyPairSigner;
let splAccount: KeyPairSigner;
let splOwner: string;

beforeAll(async () => {
  h = await heliusOnDevnet({ slotMs: 50 });
  const das = h.devnet.das!;
  for (let i = 0; i < 3; i++) {
    const r = await das.mintCompressedNft({
      name: `Cairn #${i}`,
      symbol: 'CRN',
      description: `asset ${i}`,
      owner,
      collection,
      uri: `https://example.invalid/${i}.json`,
      sellerFeeBasisPoints: 500,
      creators: [
        { address: creatorA, share: 60 },
        { address: creatorB, share: 40 },
      ],
      confirmTransaction: true,
    });
    ids.push(r.assetId);
    mintSig ||= r.signature;
  }
  // an SPL mint and a token account holding 7 tokens, sent through the SDK itself
  const payer = await generateKeyPairSigner();
  await h.devnet.control.airdrop(payer.address, 10n * 10n ** 9n);
  splMint = await generateKeyPairSigner();
  splAccount = await generateKeyPairSigner();
  splOwner = newAddress();
  const rentMint = await h.helius.getMinimumBalanceForRentExemption(82n);
  const rentAccount = await h.helius.getMinimumBalanceForRentExemption(165n);
  await h.helius.tx.sendTransactionWithSender({
    signers: [payer, splMint, splAccount],
    instructions: [
      createAccount(payer, splMint, 82, rentMint, TOKEN),
      { programAddress: TOKEN, accounts: [{ address: splMint.address, role: AccountRole.WRITABLE }], data: cat([20, 0], enc.encode(payer.address), [0]) },
      createAccount(payer, splAccount, 165, rentAccount, TOKEN),
      {
        programAddress: TOKEN,
        accounts: [
          { address: splAccount.address, role: AccountRole.WRITABLE },
          { address: splMint.address, role: AccountRole.READONLY },
        ],
        data: cat([18], enc.encode(address(splOwner))),
      },
      {
        programAddress: TOKEN,
        accounts: [
          { address: splMint.address, role: AccountRole.WRITABLE },
          { address: splAccount.address, role: AccountRole.WRITABLE },
          { ...signer(payer), role: AccountRole.READONLY_SIGNER },
        ],
        data: cat([7], u64(7n)),
      },
    ],
    region: 'Default',
    tipAmount: 1_000_000,
    // the SDK's 10% buffer is short for a transaction of 850–1,500 CUs (it simulates one compute-budget
    // instruction and sends two: helius-sdk.sender.test.ts shows it); 20% covers this one
    bufferPct: 0.2,
    pollIntervalMs: 200,
  });
});
afterAll(async () => {
  expect(h?.redirect.refused ?? []).toEqual([]);
  await h?.stop();
});

describe('helius-sdk DAS against the devnet', () => {
  it('getAsset: the minted cNFT, its content, compression, grouping, creators and royalty', async () => {
    const a = await h.helius.getAsset({ id: ids[0]! });
    expect(a.id).toBe(ids[0]);
    expect(a.interface).toBe('V1_NFT');
    expect(a.content?.metadata?.name).toBe('Cairn #0');
    expect(a.content?.metadata?.symbol).toBe('CRN');
    expect(a.content?.json_uri).toBe('https://example.invalid/0.json');
    expect(a.compression?.compressed).toBe(true);
    expect(a.compression?.leaf_id).toBe(0);
    expect(a.grouping).toEqual([{ group_key: 'collection', group_value: collection }]);
    expect(a.creators?.map((c: { address: string; share: number }) => [c.address, c.share])).toEqual([
      [creatorA, 60],
      [creatorB, 40],
    ]);
    expect(a.royalty?.basis_points).toBe(500);
    expect(a.ownership.owner).toBe(owner);
    expect(a.burnt).toBe(false);
    await expect(h.helius.getAsset({ id: newAddress() })).rejects.toThrow(/RPC error \(getAsset\): Asset Not Found/);
  });

  it('getAssetBatch: every id in order, null for an unknown one', async () => {
    const unknown = newAddress();
    const batch = await h.helius.getAssetBatch({ ids: [ids[2]!, unknown, ids[0]!] });
    expect(batch.map((a: { id: string } | null) => a?.id ?? null)).toEqual([ids[2], null, ids[0]]);
  });

  it('getAssetProof and getAssetProofBatch: the same proof, whose root is the tree the asset names', async () => {
    const asset = await h.helius.getAsset({ id: ids[1]! });
    const proof = await h.helius.getAssetProof({ id: ids[1]! });
    expect(proof.tree_id).toBe(asset.compression!.tree);
    expect(proof.node_index).toBeGreaterThan(0);
    expect(proof.proof.length).toBeGreaterThan(0);
    const batch = await h.helius.getAssetProofBatch({ ids: [ids[1]!, ids[2]!] });
    expect(Object.keys(batch).sort()).toEqual([ids[1], ids[2]].sort());
    expect(batch[ids[1]!]!.root).toBe(proof.root);
    expect(batch[ids[1]!]!.leaf).toBe(proof.leaf);
  });

  it('getAssetsByOwner / ByGroup / ByCreator / ByAuthority: the three, paged', async () => {
    const byOwner = await h.helius.getAssetsByOwner({ ownerAddress: owner, page: 1, limit: 10 });
    expect(byOwner.items.map((a: { id: string }) => a.id).sort()).toEqual([...ids].sort());
    expect(byOwner.total).toBe(3);
    const page1 = await h.helius.getAssetsByOwner({ ownerAddress: owner, page: 1, limit: 2 });
    const page2 = await h.helius.getAssetsByOwner({ ownerAddress: owner, page: 2, limit: 2 });
    expect([...page1.items, ...page2.items].map((a: { id: string }) => a.id).sort()).toEqual([...ids].sort());
    const byGroup = await h.helius.getAssetsByGroup({ groupKey: 'collection', groupValue: collection, page: 1 });
    expect(byGroup.items).toHaveLength(3);
    const byCreator = await h.helius.getAssetsByCreator({ creatorAddress: creatorB, page: 1 });
    expect(byCreator.items).toHaveLength(3);
    expect((await h.helius.getAssetsByCreator({ creatorAddress: creatorB, onlyVerified: true, page: 1 })).items).toHaveLength(0);
    const authority = (await h.helius.getAsset({ id: ids[0]! })).authorities![0]!.address;
    const byAuthority = await h.helius.getAssetsByAuthority({ authorityAddress: authority, page: 1, limit: 1000 });
    expect(byAuthority.items.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining(ids));
  });

  it('getTokenAccounts: the SPL account the SDK created and funded', async () => {
    const r = await h.helius.getTokenAccounts({ owner: splOwner });
    expect(r.token_accounts).toHaveLength(1);
    expect(r.token_accounts![0]).toMatchObject({ address: splAccount.address, mint: splMint.address, owner: splOwner, amount: 7 });
    const byMint = await h.helius.getTokenAccounts({ mint: splMint.address, page: 1, limit: 10 });
    expect(byMint.token_accounts!.map((t: { address: string }) => t.address)).toEqual([splAccount.address]);
  });

  it('getPriorityFeeEstimate: by account keys, with every level', async () => {
    const r = await h.helius.getPriorityFeeEstimate({ accountKeys: [owner], options: { includeAllPriorityFeeLevels: true } });
    expect(r.priorityFeeLevels).toMatchObject({ min: expect.any(Number), medium: expect.any(Number), unsafeMax: expect.any(Number) });
    const rec = await h.helius.getPriorityFeeEstimate({ accountKeys: [owner], options: { recommended: true } });
    expect(rec.priorityFeeEstimate).toEqual(expect.any(Number));
  });

  it('searchAssets, getSignaturesForAsset, getNftEditions: the minted cNFTs, their mint, no editions', async () => {
    const found = await h.helius.searchAssets({ ownerAddress: owner, grouping: ['collection', collection], tokenType: 'compressedNft', page: 1 });
    expect(found.items.map((a: { id: string }) => a.id).sort()).toEqual([...ids].sort());
    expect((await h.helius.searchAssets({ ownerAddress: owner, tokenType: 'fungible', page: 1 })).items).toEqual([]);
    await expect(h.helius.searchAssets({ ownerAddress: owner, supply: 1, page: 1 })).rejects.toThrow(/RPC error \(searchAssets\):.*supply/);
    const history = await h.helius.getSignaturesForAsset({ id: ids[0]!, page: 1 });
    expect(history).toMatchObject({ total: 1, items: [[mintSig, 'MintToCollectionV1']] });
    const editions = await h.helius.getNftEditions({ mint: ids[0]!, page: 1, limit: 10 });
    expect(editions).toMatchObject({ total: 0, limit: 10, page: 1, editions: [] });
  });

  it('getProgramAccountsV2 / getAllProgramAccounts and getTokenAccountsByOwnerV2 / getAllTokenAccountsByOwner', async () => {
    const page = await h.helius.getProgramAccountsV2([TOKEN, { encoding: 'base64', limit: 1, filters: [{ dataSize: 165 }] }]);
    const first = 'value' in page ? page.value : page;
    expect(first.accounts).toHaveLength(1);
    const all = await h.helius.getAllProgramAccounts(TOKEN, { encoding: 'base64', filters: [{ dataSize: 165 }] });
    expect(all.map((a: { pubkey: string }) => a.pubkey)).toContain(splAccount.address);
    // without withContext the provider answers `value` as the account array (its documented shape)
    const v2 = (await h.helius.getTokenAccountsByOwnerV2([splOwner, { programId: TOKEN }, { encoding: 'base64', limit: 10 }])) as unknown as { value: { pubkey: string }[]; paginationKey: null };
    expect(v2.value.map((a) => a.pubkey)).toEqual([splAccount.address]);
    expect(v2.paginationKey).toBeNull();
    // …which getAllTokenAccountsByOwner does not read (it takes `value ?? result` and wants .accounts):
    // with the provider's default shape it throws; with withContext it pages
    await expect(h.helius.getAllTokenAccountsByOwner(splOwner, { programId: TOKEN }, { encoding: 'base64' })).rejects.toThrow(TypeError);
    const mine = await h.helius.getAllTokenAccountsByOwner(splOwner, { programId: TOKEN }, { encoding: 'base64', withContext: true } as never);
    expect(mine.map((a: { pubkey: string }) => a.pubkey)).toEqual([splAccount.address]);
  });

  it('getTransactionsForAddress: the three mints that name the owner, newest first, paged', async () => {
    const r = await h.helius.getTransactionsForAddress([owner, { limit: 2, commitment: 'confirmed' }]);
    expect(r.data).toHaveLength(2);
    expect(r.paginationToken).toEqual(expect.any(String));
    const rest = await h.helius.getTransactionsForAddress([owner, { limit: 2, commitment: 'confirmed', paginationToken: r.paginationToken }]);
    const sigs = [...r.data, ...rest.data].map((d: { signature: string }) => d.signature);
    expect(sigs.at(-1)).toBe(mintSig);
    expect(new Set(sigs).size).toBe(3);
    expect(rest.paginationToken).toBeNull();
  });

  it('names the SDK methods the devnet does not serve, each refused as an unknown method', async () => {
    const served = new Set(h.devnet.control.methods());
    for (const name of ['searchAssets', 'getSignaturesForAsset', 'getNftEditions', 'getProgramAccountsV2', 'getTokenAccountsByOwnerV2', 'getTransactionsForAddress']) expect(served.has(name), name).toBe(true);
    const unserved: [string, () => Promise<unknown>][] = [['getTransfersByAddress', () => h.helius.getTransfersByAddress([owner, { limit: 10 }] as never)]];
    // a method another part of the devnet adds is left to its own tests
    for (const [name, call] of unserved) {
      if (served.has(name)) continue;
      await expect(call(), name).rejects.toThrow(new RegExp(`RPC error \\(${name}\\): .*(not found|not served)`, 'i'));
    }
  });
});
