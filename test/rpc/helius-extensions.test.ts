// The typed client's provider extensions against the devnet: searchAssets, getSignaturesForAsset,
// getNftEditions, getProgramAccountsV2, getTokenAccountsByOwnerV2, getTransactionsForAddress and
// sendBundle; their iterators on client.paginate walked to the end; InputError naming the field before
// anything is sent; the devnet's −32602 surfacing as an RpcError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { InputError, RpcError } from '../../src/errors/index.js';
import { generateSigner } from '../../src/solana/signer.js';
import { newAddress } from '../support/devnet.js';
import { setUpToken, TOKEN_PROGRAM } from '../support/spl.js';

let devnet: Devnet;
let client: CairnClient;
const payer = generateSigner();
const owner = newAddress();
const collection = newAddress();
const ids: string[] = [];
const sigs: string[] = [];

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, seed: 11, wsPortPlusOne: false, fundedAccounts: [{ address: payer.address, lamports: 100n * 10n ** 9n }] });
  client = createClient({ url: devnet.url, logger: () => {} });
  for (let i = 0; i < 3; i++) {
    const r = await devnet.das!.mintCompressedNft({ name: `C${i}`, symbol: 'C', description: '', owner, collection, confirmTransaction: true });
    ids.push(r.assetId);
    sigs.push(r.signature);
  }
  await setUpToken(devnet.url, payer);
  await setUpToken(devnet.url, payer);
}, 60_000);
afterAll(async () => {
  await client?.close();
  await devnet?.stop();
});

describe('typed client: DAS extensions', () => {
  it('searchAssets one page and every page through client.paginate', async () => {
    const page = await client.searchAssets({ ownerAddress: owner, grouping: ['collection', collection], page: 1, limit: 2 });
    expect(page.items).toHaveLength(2);
    const all: string[] = [];
    for await (const a of client.paginate.searchAssets({ ownerAddress: owner, limit: 1 })) all.push(a.id);
    expect(all.sort()).toEqual([...ids].sort());
    await expect(client.searchAssets({ ownerAddress: 'x' })).rejects.toThrow(InputError);
    await expect(client.searchAssets({ ownerAddress: owner, grouping: ['collection'] as never })).rejects.toMatchObject({ code: 'INPUT_INVALID', message: expect.stringMatching(/params\.grouping/) });
    await expect(client.searchAssets({ ownerAddress: owner, supply: 1 } as never)).rejects.toThrow(/params\.supply/);
    await expect(client.searchAssets({ ownerAddress: owner, tokenType: 'nft' as never })).rejects.toThrow(/params\.tokenType/);
  });

  it('getSignaturesForAsset and getNftEditions', async () => {
    const r = await client.getSignaturesForAsset({ id: ids[1]!, page: 1 });
    expect(r.items).toEqual([[sigs[1], 'MintToCollectionV1']]);
    const walked: [string, string][] = [];
    for await (const it of client.paginate.getSignaturesForAsset({ id: ids[0]!, limit: 1 })) walked.push(it);
    expect(walked).toEqual([[sigs[0], 'MintToCollectionV1']]);
    await expect(client.getSignaturesForAsset({ id: ids[0]!, page: 1, before: sigs[0] })).rejects.toThrow(/params\.page/);
    const e = await client.getNftEditions({ mint: ids[0]! });
    expect(e).toMatchObject({ total: 0, editions: [] });
    await expect(client.getNftEditions({ mint: ids[0]!, limit: 0 })).rejects.toThrow(/params\.limit/);
  });
});

describe('typed client: RPC extensions', () => {
  it('getProgramAccountsV2 and getTokenAccountsByOwnerV2: a page, and the iterator to a null key', async () => {
    const v1 = await client.getProgramAccounts(TOKEN_PROGRAM);
    const page = await client.getProgramAccountsV2(TOKEN_PROGRAM, { limit: 2, filters: [{ dataSize: 165 }] });
    expect(page.context.slot).toBeGreaterThan(0);
    expect(page.value.accounts).toHaveLength(2);
    expect(page.value.paginationKey).toBe(page.value.accounts[1]!.pubkey);
    const all: string[] = [];
    for await (const a of client.paginate.getProgramAccountsV2(TOKEN_PROGRAM, { limit: 2 })) all.push(a.pubkey);
    expect(all).toEqual(v1.map((a) => a.pubkey).sort());
    const mine: string[] = [];
    for await (const a of client.paginate.getTokenAccountsByOwnerV2(payer.address, { programId: TOKEN_PROGRAM }, { limit: 1 })) mine.push(a.pubkey);
    expect(mine).toHaveLength(2);
    await expect(client.getProgramAccountsV2(TOKEN_PROGRAM, { limit: 10_001 })).rejects.toThrow(/params\.limit/);
    await expect(client.getTokenAccountsByOwnerV2(payer.address, {} as never)).rejects.toThrow(/filter/);
    const refused = await client.getProgramAccountsV2(TOKEN_PROGRAM, { changedSinceSlot: 1 }).catch((x: unknown) => x);
    expect(refused).toBeInstanceOf(RpcError);
    expect(String((refused as Error).message)).toMatch(/changedSinceSlot/);
  });

  it('getTransactionsForAddress: a page, and the iterator in ascending order', async () => {
    const page = await client.getTransactionsForAddress(payer.address, { commitment: 'confirmed' });
    expect(page.data).toHaveLength(4);
    const asc: string[] = [];
    for await (const t of client.paginate.getTransactionsForAddress(payer.address, { commitment: 'confirmed', sortOrder: 'asc', limit: 1 })) asc.push(t.signature!);
    expect(asc).toEqual(page.data.map((t) => t.signature).reverse());
    await expect(client.getTransactionsForAddress(payer.address, { transactionDetails: 'full', limit: 101 })).rejects.toThrow(/params\.limit/);
    await expect(client.getTransactionsForAddress(payer.address, { filters: { slot: { near: 1 } as never } })).rejects.toThrow(/params\.filters\.slot\.near/);
  });

  it('sendBundle checks its input before sending', async () => {
    await expect(client.sendBundle([])).rejects.toThrow(/wires/);
    await expect(client.sendBundle(Array(6).fill('AAAA'))).rejects.toThrow(/at most 5/);
    await expect(client.sendBundle(['not base64!'])).rejects.toThrow(/wires\[0\]/);
  });
});
