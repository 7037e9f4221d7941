/**
 * The provider's extension methods on a devnet, over HTTP: getProgramAccountsV2 and
 * getTokenAccountsByOwnerV2 paged to the end by paginationKey (the same accounts as the V1 methods),
 * both response shapes; getTransactionsForAddress in either order, paged, filtered, as signatures and
 * full; searchAssets, getSignaturesForAsset, getNftEditions on minted cNFTs; and /fast sendBundle's
 * checks (fastSendBundle), each refusal naming what is wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { fastSendBundle, resolveFastRules } from '../../src/devnet/http/fast.js';
import { DevnetRpcError } from '../../src/devnet/types.js';
import { generateSigner } from '../../src/solana/signer.js';
import { buildTx, newAddress, newKeypair, rpc } from '../support/devnet.js';
import { setUpToken, TOKEN_PROGRAM, type TokenSetup } from '../support/spl.js';

const payer = generateSigner();
let devnet: Devnet;
let tok1: TokenSetup;
let tok2: TokenSetup;
const owner = newAddress();
const collection = newAddress();
const creator = newAddress();
const assets: { assetId: string; signature: string }[] = [];
const call = async (method: string, params: unknown) => (await rpc(devnet.url, method, params)).body;
const result = async (method: string, params: unknown) => {
  const b = await call(method, params);
  if (b.error) throw new Error(`${method}: ${JSON.stringify(b.error)}`);
  return b.result;
};
const invalid = async (method: string, params: unknown, message: RegExp) => {
  const b = await call(method, params);
  expect(b.error?.code, JSON.stringify(b)).toBe(-32602);
  expect(b.error.message).toMatch(message);
};

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, wsPortPlusOne: false, fundedAccounts: [{ address: payer.address, lamports: 100n * 10n ** 9n }] });
  tok1 = await setUpToken(devnet.url, payer);
  tok2 = await setUpToken(devnet.url, payer);
  for (let i = 0; i < 3; i++) {
    assets.push(
      await devnet.das!.mintCompressedNft({ name: `S${i}`, symbol: 'S', description: '', owner, collection: i < 2 ? collection : undefined, uri: `https://example.invalid/${i}.json`, creators: [{ address: creator, share: 100 }], confirmTransaction: true }),
    );
  }
});
afterAll(async () => {
  await devnet?.stop();
});

describe('getProgramAccountsV2', () => {
  it('pages the getProgramAccounts matches by paginationKey until null, in both shapes', async () => {
    const all = (await result('getProgramAccounts', [TOKEN_PROGRAM, { encoding: 'base64' }])) as { pubkey: string }[];
    expect(all.length).toBeGreaterThanOrEqual(6); // two mints, four token accounts, and the state modules' own
    const seen: string[] = [];
    let key: string | null = null;
    for (let i = 0; i < 10; i++) {
      const r = await result('getProgramAccountsV2', [TOKEN_PROGRAM, { encoding: 'base64', limit: 3, ...(key ? { paginationKey: key } : {}) }]);
      expect(r.totalResults).toBe(all.length);
      seen.push(...r.accounts.map((a: { pubkey: string }) => a.pubkey));
      key = r.paginationKey;
      if (key === null) break;
    }
    expect(seen).toEqual(all.map((a) => a.pubkey).sort());
    const wrapped = await result('getProgramAccountsV2', [TOKEN_PROGRAM, { limit: 1, withContext: true, filters: [{ dataSize: 82 }] }]);
    expect(wrapped.context.slot).toBeGreaterThan(0);
    expect(wrapped.value.accounts).toHaveLength(1);
    expect(wrapped.value.paginationKey).toBe(wrapped.value.accounts[0].pubkey);
    expect(wrapped.value.accounts[0].account).toMatchObject({ owner: TOKEN_PROGRAM, lamports: expect.any(Number), data: [expect.any(String), 'base64'] });
  });

  it('refuses what it cannot answer, naming the field', async () => {
    await invalid('getProgramAccountsV2', [TOKEN_PROGRAM, { limit: 0 }], /params\[1\]\.limit must be an integer in 1\.\.10000/);
    await invalid('getProgramAccountsV2', [TOKEN_PROGRAM, { limit: 10_001 }], /params\[1\]\.limit/);
    await invalid('getProgramAccountsV2', [TOKEN_PROGRAM, { paginationKey: 'nope!' }], /params\[1\]\.paginationKey/);
    await invalid('getProgramAccountsV2', [TOKEN_PROGRAM, { changedSinceSlot: 1 }], /params\[1\]\.changedSinceSlot is not served/);
    await invalid('getProgramAccountsV2', [TOKEN_PROGRAM, { filters: [{ nope: 1 }] }], /params\[1\]\.filters\[0\]/);
  });
});

describe('getTokenAccountsByOwnerV2', () => {
  it('pages the owner\'s accounts; without withContext `value` is the array, with it an object', async () => {
    const v1 = await result('getTokenAccountsByOwner', [payer.address, { programId: TOKEN_PROGRAM }, { encoding: 'base64' }]);
    const want = v1.value.map((a: { pubkey: string }) => a.pubkey).sort();
    expect(want).toEqual([tok1.a.address, tok2.a.address].sort());
    const p1 = await result('getTokenAccountsByOwnerV2', [payer.address, { programId: TOKEN_PROGRAM }, { encoding: 'base64', limit: 1 }]);
    expect(Array.isArray(p1.value)).toBe(true);
    expect(p1.value).toHaveLength(1);
    expect(p1.paginationKey).toBe(p1.value[0].pubkey);
    const p2 = await result('getTokenAccountsByOwnerV2', [payer.address, { programId: TOKEN_PROGRAM }, { encoding: 'base64', limit: 1, paginationKey: p1.paginationKey }]);
    expect(p2.paginationKey).toBeNull();
    expect([p1.value[0].pubkey, p2.value[0].pubkey]).toEqual(want);
    const wrapped = await result('getTokenAccountsByOwnerV2', [payer.address, { mint: tok2.mint.address }, { encoding: 'jsonParsed', withContext: true }]);
    expect(wrapped.value.accounts.map((a: { pubkey: string }) => a.pubkey)).toEqual([tok2.a.address]);
    expect(wrapped.value.accounts[0].account.data.parsed.info.tokenAmount.amount).toBe('1000000');
    expect(wrapped.value).toMatchObject({ paginationKey: null, totalResults: 1 });
    await invalid('getTokenAccountsByOwnerV2', [payer.address, {}], /params\[1\] must be \{ mint \} or \{ programId \}/);
    await invalid('getTokenAccountsByOwnerV2', [payer.address, { programId: TOKEN_PROGRAM }, { changedSinceSlot: 5 }], /params\[2\]\.changedSinceSlot/);
  });
});

describe('getTransactionsForAddress', () => {
  it('lists the address\'s transactions newest first, pages them by token, and asc is the reverse', async () => {
    const desc = await result('getTransactionsForAddress', [payer.address, { commitment: 'confirmed' }]);
    expect(desc.paginationToken).toBeNull();
    expect(desc.data).toHaveLength(4); // two setUpToken calls, two transactions each
    const slots = desc.data.map((d: { slot: number }) => d.slot);
    expect([...slots].sort((a, b) => b - a)).toEqual(slots);
    expect(desc.data[0]).toEqual({ signature: expect.any(String), slot: expect.any(Number), transactionIndex: expect.any(Number), err: null, memo: null, blockTime: expect.any(Number), confirmationStatus: expect.stringMatching(/confirmed|finalized/) });
    const sigs: string[] = [];
    let token: string | null = null;
    do {
      const r = await result('getTransactionsForAddress', [payer.address, { commitment: 'confirmed', limit: 3, sortOrder: 'asc', ...(token ? { paginationToken: token } : {}) }]);
      sigs.push(...r.data.map((d: { signature: string }) => d.signature));
      token = r.paginationToken;
    } while (token);
    expect(sigs).toEqual(desc.data.map((d: { signature: string }) => d.signature).reverse());
    const last = desc.data[0];
    const bySlot = await result('getTransactionsForAddress', [payer.address, { commitment: 'confirmed', filters: { slot: { gte: last.slot }, status: 'succeeded' } }]);
    expect(bySlot.data.map((d: { signature: string }) => d.signature)).toEqual([last.signature]);
    expect((await result('getTransactionsForAddress', [payer.address, { commitment: 'confirmed', filters: { status: 'failed' } }])).data).toEqual([]);
    const full = await result('getTransactionsForAddress', [payer.address, { commitment: 'confirmed', transactionDetails: 'full', limit: 1 }]);
    expect(full.data[0]).toMatchObject({ slot: last.slot, transactionIndex: last.transactionIndex, meta: expect.any(Object), transaction: expect.any(Object) });
    expect(full.paginationToken).toBe(`${last.slot}:${last.transactionIndex}`);
  });

  it('refuses what it cannot answer, naming the field', async () => {
    await invalid('getTransactionsForAddress', [payer.address, { filters: { tokenAccounts: 'balanceChanged' } }], /filters\.tokenAccounts balanceChanged is not served/);
    await invalid('getTransactionsForAddress', [payer.address, { filters: { slot: { near: 1 } } }], /filters\.slot\.near/);
    await invalid('getTransactionsForAddress', [payer.address, { transactionDetails: 'full', limit: 101 }], /params\[1\]\.limit must be an integer in 1\.\.100/);
    await invalid('getTransactionsForAddress', [payer.address, { paginationToken: 'abc' }], /paginationToken/);
    await invalid('getTransactionsForAddress', [payer.address, { sortOrder: 'up' }], /sortOrder/);
  });
});

describe('searchAssets, getSignaturesForAsset, getNftEditions', () => {
  it('searchAssets applies the common filters and pages like the getAssetsBy* lists', async () => {
    const ids = (r: { items: { id: string }[] }) => r.items.map((a) => a.id).sort();
    expect(ids(await result('searchAssets', { ownerAddress: owner, page: 1 }))).toEqual(assets.map((a) => a.assetId).sort());
    expect(ids(await result('searchAssets', { ownerAddress: owner, grouping: ['collection', collection], compressed: true, tokenType: 'compressedNft', burnt: false }))).toEqual(assets.slice(0, 2).map((a) => a.assetId).sort());
    expect((await result('searchAssets', { creatorAddress: creator, creatorVerified: true })).items).toEqual([]);
    expect((await result('searchAssets', { ownerAddress: owner, tokenType: 'fungible' })).items).toEqual([]);
    expect((await result('searchAssets', { ownerAddress: owner, interface: 'ProgrammableNFT' })).items).toEqual([]);
    const page = await result('searchAssets', { ownerAddress: owner, limit: 2, page: 2, sortBy: { sortBy: 'created', sortDirection: 'asc' } });
    expect(page).toMatchObject({ total: 1, limit: 2, page: 2, last_indexed_slot: expect.any(Number) });
    expect(page.items[0].id).toBe(assets[2]!.assetId);
    const err = await call('searchAssets', { ownerAddress: owner, supply: 1, royaltyAmount: 5 });
    expect(err.error).toMatchObject({ code: -32602, message: expect.stringMatching(/"supply".*does not apply.*supply, royaltyAmount/) });
    expect((await call('searchAssets', { ownerAdress: owner })).error.message).toMatch(/unknown searchAssets parameter\(s\) ownerAdress/);
  });

  it('getSignaturesForAsset lists the mint, as [signature, type]', async () => {
    const r = await result('getSignaturesForAsset', { id: assets[0]!.assetId, page: 1 });
    expect(r).toMatchObject({ total: 1, limit: 1000, page: 1, items: [[assets[0]!.signature, 'MintToCollectionV1']] });
    expect((await result('getSignaturesForAsset', { id: assets[2]!.assetId, page: 1 })).items).toEqual([[assets[2]!.signature, 'MintV1']]);
    expect((await result('getSignaturesForAsset', { id: newAddress(), page: 1 })).items).toEqual([]);
    await invalid('getSignaturesForAsset', { id: assets[0]!.assetId, limit: 0 }, /"limit"/);
    await invalid('getSignaturesForAsset', { id: 'x' }, /"id"/);
  });

  it('getNftEditions: no master editions on the devnet, an empty list in the provider\'s shape', async () => {
    const r = await result('getNftEditions', { mint: assets[0]!.assetId, page: 1, limit: 10 });
    expect(r).toEqual({ last_indexed_slot: expect.any(Number), total: 0, limit: 10, page: 1, supply: 0, max_supply: 0, editions: [] });
    await invalid('getNftEditions', { mint: 'nope' }, /"mint"/);
  });
});

describe('/fast sendBundle (fastSendBundle)', () => {
  const rules = resolveFastRules();
  const kp = newKeypair();
  const blockhash = '11111111111111111111111111111111';
  const b64 = (w: Uint8Array) => Buffer.from(w).toString('base64');
  const refused = (params: unknown): DevnetRpcError => {
    try {
      fastSendBundle(params, rules, () => '');
    } catch (e) {
      expect(e).toBeInstanceOf(DevnetRpcError);
      return e as DevnetRpcError;
    }
    throw new Error('expected a refusal');
  };

  it('submits every transaction in order when each has a priority fee and one carries the tip', () => {
    const txs = [
      buildTx({ payer: kp, blockhash, cuPrice: 1 }),
      buildTx({ payer: kp, blockhash, cuPrice: 1, tip: 1_000_000 }),
      buildTx({ payer: kp, blockhash, cuPrice: 1, lamports: 7 }),
    ];
    const submitted: string[] = [];
    const id = fastSendBundle([txs.map(b64), { encoding: 'base64' }], rules, (_w, _p, sig) => (submitted.push(sig), sig));
    expect(submitted).toHaveLength(3);
    expect(new Set(submitted).size).toBe(3);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses the whole bundle, submitting nothing, on any broken rule', () => {
    const tipped = b64(buildTx({ payer: kp, blockhash, cuPrice: 1, tip: 1_000_000 }));
    expect(refused([[b64(buildTx({ payer: kp, blockhash, cuPrice: 1 }))], { encoding: 'base64' }]).message).toMatch(/bundle is missing a tip/);
    expect(refused([[tipped, b64(buildTx({ payer: kp, blockhash, lamports: 9 }))], { encoding: 'base64' }]).message).toMatch(/params\[0\]\[1\] is missing a priority fee/);
    expect(refused([[tipped, 'AAAA'], { encoding: 'base64' }]).message).toMatch(/params\[0\]\[1\] is not a transaction/);
    expect(refused([Array(6).fill(tipped), { encoding: 'base64' }]).message).toMatch(/1\.\.5 transactions, got 6/);
    expect(refused([[], { encoding: 'base64' }]).message).toMatch(/got 0/);
    expect(refused([[tipped, tipped], { encoding: 'base64' }]).message).toMatch(/same transaction twice/);
    expect(refused(['x']).httpStatus).toBe(400);
  });
});
