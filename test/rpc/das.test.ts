import { describe, expect, it } from 'vitest';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { addr, API_KEY, dasAssets, dasPage, readVector } from '../support/rpc-fixtures.js';
import { useServerAndClient, type TestServer } from '../support/rpc-server.js';

let srv: TestServer;
let client: CairnClient;
const baseAsset = dasAssets()[0].asset; // read the vectors once
const asset = (id: string) => ({ ...baseAsset, id });

useServerAndClient((s, c) => ((srv = s), (client = c)));

function lastCall() {
  const r = srv.requests.at(-1)!;
  expect(r.method).toBe('POST');
  expect(r.path).toBe('/');
  expect(r.query['api-key']).toBe(API_KEY);
  expect(r.body.jsonrpc).toBe('2.0');
  expect(typeof r.body.id).toBe('string');
  return r.body;
}

describe('DAS methods send the exact method and params', () => {
  it('getAsset with its four options', async () => {
    const id = addr(1);
    srv.rpc({ getAsset: (p) => asset(p.id) });
    const options = { showUnverifiedCollections: true, showCollectionMetadata: false, showFungible: true, showInscription: false };
    const a = await client.getAsset({ id, options });
    expect(a.id).toBe(id);
    expect(lastCall()).toMatchObject({ method: 'getAsset', params: { id, options } });
    await expect(client.getAsset({ id, options: { showEverything: true } as any })).rejects.toMatchObject({
      context: { field: 'params.options.showEverything' },
    });
  });

  it('getAssetBatch: the first chunk that fails stops its siblings and their retries', async () => {
    const ids = Array.from({ length: 2_500 }, (_, i) => addr(i));
    const c = createClient({ url: srv.url, apiKey: API_KEY, batchConcurrency: 3, retry: { retries: 5, delay: () => 200 } });
    srv.handler = async (req) => {
      const { id, params } = req.body;
      // chunk 1 is refused for good; chunks 2 and 3 keep answering 503 (retryable)
      if (params.ids[0] === ids[0]) {
        await new Promise((r) => setTimeout(r, 50));
        return { status: 400, body: { jsonrpc: '2.0', id, error: { code: -32602, message: 'bad ids' } } };
      }
      return { status: 503, body: { error: 'busy' } };
    };
    await expect(c.getAssetBatch({ ids })).rejects.toMatchObject({ code: 'RPC_ERROR' });
    const seen = srv.requests.length;
    await new Promise((r) => setTimeout(r, 700));
    // without the sibling abort, chunks 2 and 3 would retry every 200 ms in the background
    expect(srv.requests.length).toBe(seen);
    await c.close();
  });

  it('getAssetBatch splits 2,500 ids into 3 requests and keeps the order', async () => {
    const ids = Array.from({ length: 2_500 }, (_, i) => addr(i));
    // answer out of order in time: the later chunks come back first
    srv.handler = async (req) => {
      const { id, params } = req.body;
      await new Promise((r) => setTimeout(r, params.ids[0] === ids[0] ? 30 : 0));
      return { body: { jsonrpc: '2.0', id, result: params.ids.map((x: string) => asset(x)) } };
    };
    const out = await client.getAssetBatch({ ids });
    expect(srv.requests).toHaveLength(3);
    expect(srv.requests.map((r) => r.body.params.ids.length).sort()).toEqual([1000, 1000, 500]);
    expect(srv.requests.every((r) => r.body.method === 'getAssetBatch')).toBe(true);
    expect(out.map((a) => a!.id)).toEqual(ids);
  });

  it('getAssetBatch keeps nulls for unknown ids and rejects a short answer', async () => {
    srv.rpc({ getAssetBatch: (p) => p.ids.map((x: string, i: number) => (i === 1 ? null : asset(x))) });
    const out = await client.getAssetBatch({ ids: [addr(1), addr(2), addr(3)] });
    expect(out[1]).toBeNull();
    srv.rpc({ getAssetBatch: (p) => p.ids.slice(1).map(asset) });
    await expect(client.getAssetBatch({ ids: [addr(1), addr(2)] })).rejects.toMatchObject({ code: 'RPC_SCHEMA' });
  });

  it('getAssetBatch names the bad id in the input', async () => {
    await expect(client.getAssetBatch({ ids: [addr(1), 'not base58 0OIl'] })).rejects.toMatchObject({
      code: 'INPUT_INVALID',
      context: { field: 'params.ids[1]' },
    });
    expect(srv.requests).toHaveLength(0);
  });

  it('getAssetProofBatch sends ids and returns the keyed object', async () => {
    const v = readVector('bubblegum', 'mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json');
    srv.rpc({ getAssetProofBatch: (p) => Object.fromEntries(p.ids.map((x: string) => [x, v.getAssetProof])) });
    const r = await client.getAssetProofBatch({ ids: [v.assetId] });
    expect(lastCall()).toMatchObject({ method: 'getAssetProofBatch', params: { ids: [v.assetId] } });
    expect(r[v.assetId]!.root).toBe(v.getAssetProof.root);
  });

  const lists = [
    ['getAssetsByOwner', { ownerAddress: addr(5) }],
    ['getAssetsByCreator', { creatorAddress: addr(6), onlyVerified: true }],
    ['getAssetsByAuthority', { authorityAddress: addr(7) }],
    ['getAssetsByGroup', { groupKey: 'collection', groupValue: addr(8) }],
  ] as const;
  for (const [method, base] of lists) {
    it(`${method} with page, limit, sortBy and options`, async () => {
      srv.rpc({ [method]: (p: any) => ({ total: 1, limit: p.limit, page: p.page, items: [asset(addr(9))] }) });
      const params = {
        ...base,
        page: 2,
        limit: 10,
        sortBy: { sortBy: 'recent_action', sortDirection: 'desc' },
        options: { showGrandTotal: true, showUnverifiedCollections: false },
      };
      const r = await (client[method] as any)(params);
      expect(r.items).toHaveLength(1);
      expect(lastCall()).toEqual(expect.objectContaining({ method, params }));
    });
  }

  it('list params are checked before sending', async () => {
    await expect(client.getAssetsByOwner({ ownerAddress: addr(1), limit: 1001 })).rejects.toMatchObject({ context: { field: 'params.limit' } });
    await expect(client.getAssetsByOwner({ ownerAddress: addr(1), page: 0 })).rejects.toMatchObject({ context: { field: 'params.page' } });
    await expect(
      client.getAssetsByCreator({ creatorAddress: addr(1), sortBy: { sortBy: 'newest' as any } }),
    ).rejects.toMatchObject({ context: { field: 'params.sortBy.sortBy' } });
    await expect(client.getAssetsByGroup({ groupKey: '', groupValue: addr(1) })).rejects.toMatchObject({ context: { field: 'params.groupKey' } });
    expect(srv.requests).toHaveLength(0);
  });

  it('getTokenAccounts sends owner/limit/cursor', async () => {
    srv.rpc({ getTokenAccounts: () => ({ total: 1, limit: 5, cursor: 'c1', token_accounts: [{ address: addr(1), mint: addr(2), owner: addr(3), amount: 7, delegated_amount: 0, frozen: false }] }) });
    const r = await client.getTokenAccounts({ owner: addr(3), limit: 5, cursor: 'c0' });
    expect(lastCall()).toMatchObject({ method: 'getTokenAccounts', params: { owner: addr(3), limit: 5, cursor: 'c0' } });
    expect(r.token_accounts[0].amount).toBe(7);
    await expect(client.getTokenAccounts({})).rejects.toMatchObject({ context: { field: 'params.owner' } });
  });
});

describe('DAS responses are validated at the boundary', () => {
  it('every public getAsset vector passes the Asset shape', async () => {
    for (const { name, asset: a } of dasAssets()) {
      srv.rpc({ getAsset: () => a });
      const got = await client.getAsset({ id: a.id });
      expect(got, name).toEqual(a);
    }
  });

  it('the paged DAS snapshot passes the list shape', async () => {
    const page = dasPage();
    srv.rpc({ getAssetsByOwner: () => page });
    expect(await client.getAssetsByOwner({ ownerAddress: addr(1) })).toEqual(page);
  });

  it('a bad field deep inside a batch is named by its path', async () => {
    srv.rpc({
      getAssetBatch: (p) =>
        p.ids.map((x: string, i: number) => {
          const a = structuredClone(asset(x));
          if (i === 3) a.ownership.owner = 42;
          return a;
        }),
    });
    const e = await client.getAssetBatch({ ids: [0, 1, 2, 3, 4].map(addr) }).catch((x) => x);
    expect(e.code).toBe('RPC_SCHEMA');
    expect(e.context.path).toBe('result[3].ownership.owner');
    expect(e.message).toBe('getAssetBatch: result[3].ownership.owner: expected string, got number 42');
  });

  it('a missing required field is reported', async () => {
    srv.rpc({ getAsset: () => ({ interface: 'V1_NFT' }) });
    await expect(client.getAsset({ id: addr(1) })).rejects.toMatchObject({ code: 'RPC_SCHEMA', context: { path: 'result.id' } });
    srv.rpc({ getAssetsByOwner: () => ({ total: 0, limit: 1, page: 1 }) });
    await expect(client.getAssetsByOwner({ ownerAddress: addr(1) })).rejects.toMatchObject({ context: { path: 'result.items' } });
  });
});
