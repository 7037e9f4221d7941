import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { resetDeprecationWarnings } from '../../src/rpc/deprecation.js';
import { addr, API_KEY } from '../support/rpc-fixtures.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

let srv: TestServer;
let client: CairnClient;
const logs: string[] = [];

beforeAll(async () => {
  srv = await startServer();
  // separate hosts per the spec: same server, different path prefixes prove which host is used
  client = createClient({
    baseUrl: `${srv.url}/rpc`,
    restUrl: `${srv.url}/rest`,
    walletUrl: `${srv.url}/wallet`,
    senderUrl: `${srv.url}/sender`,
    apiKey: API_KEY,
    logger: (l) => logs.push(l),
  });
});
afterEach(() => {
  srv.requests.length = 0;
  logs.length = 0;
});
afterAll(async () => {
  await client.close();
  await srv.close();
});

const transfer = (i: number) => ({
  signature: `sig${i}`,
  timestamp: 1_700_000_000 + i,
  direction: i % 2 ? 'in' : 'out',
  counterparty: addr(i),
  mint: addr(99),
  amount: 1.5,
  amountRaw: '1500000',
  decimals: 6,
  symbol: 'USDC',
});

describe('wallet transfers (GET {walletUrl}/v1/wallet/{wallet}/transfers)', () => {
  it('sends wallet in the path, limit and cursor in the query, key as api-key', async () => {
    srv.handler = () => ({ body: { data: [transfer(1)], pagination: { hasMore: false, nextCursor: null } } });
    const wallet = addr(7);
    const page = await client.getWalletTransfers({ wallet, limit: 100, cursor: 'abc' });
    const r = srv.requests[0];
    expect(r.method).toBe('GET');
    expect(r.path).toBe(`/wallet/v1/wallet/${wallet}/transfers`);
    expect(r.query).toEqual({ limit: '100', cursor: 'abc', 'api-key': API_KEY });
    expect(page.data[0].amountRaw).toBe('1500000');
  });

  it('checks the wallet pattern and the limit range before sending', async () => {
    await expect(client.getWalletTransfers({ wallet: '0OIl' + 'a'.repeat(40) })).rejects.toMatchObject({ context: { field: 'params.wallet' } });
    await expect(client.getWalletTransfers({ wallet: addr(1), limit: 0 })).rejects.toMatchObject({ context: { field: 'params.limit' } });
    await expect(client.getWalletTransfers({ wallet: addr(1), limit: 101 })).rejects.toMatchObject({ context: { field: 'params.limit' } });
    expect(srv.requests).toHaveLength(0);
  });

  it('a page without pagination is a schema error naming it', async () => {
    srv.handler = () => ({ body: { data: [] } });
    await expect(client.getWalletTransfers({ wallet: addr(1) })).rejects.toMatchObject({ code: 'RPC_SCHEMA', context: { path: 'body.pagination' } });
  });
});

describe('legacy token metadata (POST {restUrl}/v0/token-metadata)', () => {
  const record = (m: string) => ({
    account: m,
    onChainAccountInfo: { accountInfo: { key: m }, error: '' },
    onChainMetadata: { metadata: { mint: m }, error: '' },
    offChainMetadata: { metadata: null, uri: '', error: 'not requested' },
    legacyMetadata: null,
  });

  it('splits 250 mints into 3 requests of ≤100 and keeps the order', async () => {
    srv.handler = async (req) => {
      await new Promise((r) => setTimeout(r, req.body.mintAccounts.length === 100 && req.body.mintAccounts[0] === addr(0) ? 25 : 0));
      return { body: req.body.mintAccounts.map(record) };
    };
    const mints = Array.from({ length: 250 }, (_, i) => addr(i));
    const out = await client.getTokenMetadata({ mintAccounts: mints, includeOffChain: true, disableCache: false });
    expect(srv.requests).toHaveLength(3);
    expect(srv.requests.map((r) => r.body.mintAccounts.length).sort()).toEqual([100, 100, 50]);
    for (const r of srv.requests) {
      expect(r.method).toBe('POST');
      expect(r.path).toBe('/rest/v0/token-metadata');
      expect(r.query).toEqual({ 'api-key': API_KEY });
      expect(r.body).toMatchObject({ includeOffChain: true, disableCache: false });
    }
    expect(out.map((x) => x.account)).toEqual(mints);
  });

  it('warns once per process that it is deprecated, in its own words (to the logger, else stderr), never as a Node DeprecationWarning', async () => {
    resetDeprecationWarnings();
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    srv.handler = (req) => ({ body: req.body.mintAccounts.map(record) });
    await client.getTokenMetadata({ mintAccounts: [addr(1)] });
    await client.getTokenMetadata({ mintAccounts: [addr(2)] });
    expect(warn).not.toHaveBeenCalled();
    const said = logs.filter((l) => l.includes('deprecated'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^cairn: .*deprecated.*getAssetBatch/);
    warn.mockRestore();
  });

  it('says it on stderr without a logger, and nothing with deprecationWarnings: false', async () => {
    srv.handler = (req) => ({ body: req.body.mintAccounts.map(record) });
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      for (const [options, times] of [[{}, 1], [{ deprecationWarnings: false }, 0]] as const) {
        resetDeprecationWarnings();
        stderr.mockClear();
        const c = createClient({ baseUrl: `${srv.url}/rpc`, restUrl: `${srv.url}/rest`, walletUrl: `${srv.url}/wallet`, senderUrl: `${srv.url}/sender`, apiKey: API_KEY, ...options });
        await c.getTokenMetadata({ mintAccounts: [addr(1)] });
        await c.getTokenMetadata({ mintAccounts: [addr(2)] });
        await c.close();
        const lines = stderr.mock.calls.map((x) => String(x[0])).filter((l) => l.includes('deprecated'));
        expect(lines).toHaveLength(times);
        if (times) expect(lines[0]).toMatch(/^cairn: the token-metadata lookup .* is deprecated.*\n$/);
        expect(stderr.mock.calls.map((x) => String(x[0])).join('')).not.toMatch(/DeprecationWarning|trace-deprecation/);
      }
    } finally {
      stderr.mockRestore();
    }
  });

  it('a missing record is an error, never a silently dropped item', async () => {
    srv.handler = (req) => ({ body: req.body.mintAccounts.slice(1).map(record) });
    await expect(client.getTokenMetadata({ mintAccounts: [addr(1), addr(2)] })).rejects.toMatchObject({ code: 'RPC_SCHEMA' });
  });
});

describe('webhooks (PATCH {restUrl}/v0/webhooks/{webhookID})', () => {
  const id = '3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f';
  it('sends {active} and returns the Webhook', async () => {
    srv.handler = (req) => ({
      body: { webhookID: id, wallet: addr(1), webhookURL: 'https://example.test/h', transactionTypes: ['ANY'], accountAddresses: [addr(2)], webhookType: 'enhanced', active: req.body.active },
    });
    const w = await client.setWebhookActive({ webhookID: id, active: false });
    const r = srv.requests[0];
    expect(r.method).toBe('PATCH');
    expect(r.path).toBe(`/rest/v0/webhooks/${id}`);
    expect(r.body).toEqual({ active: false });
    expect(r.query).toEqual({ 'api-key': API_KEY });
    expect(w.active).toBe(false);
  });

  it('requires a UUIDv4 id and a boolean', async () => {
    await expect(client.setWebhookActive({ webhookID: '3f2b8c1e-4d5a-1b6c-9e7f-0a1b2c3d4e5f', active: true })).rejects.toMatchObject({
      context: { field: 'params.webhookID' },
    });
    await expect(client.setWebhookActive({ webhookID: id, active: 'yes' as any })).rejects.toMatchObject({ context: { field: 'params.active' } });
    expect(srv.requests).toHaveLength(0);
  });
});

describe('hosts are configured separately', () => {
  it('JSON-RPC goes to baseUrl, /fast and /ping to senderUrl', async () => {
    srv.handler = (req) =>
      (req.path === '/sender/ping'
        ? { body: 'ok', headers: { 'content-type': 'text/plain' } }
        : { body: { jsonrpc: '2.0', id: req.body.id, result: req.body.method === 'getSlot' ? 1 : 'sig' } });
    await client.getSlot();
    await client.sendTransaction('AQID');
    await client.ping();
    expect(srv.requests.map((r) => r.path)).toEqual(['/rpc', '/sender/fast', '/sender/ping']);
  });
});

describe('mintCompressedNft (deprecated JSON-RPC on the base host)', () => {
  it('sends the params as given and validates the result', async () => {
    srv.rpc({ mintCompressedNft: () => ({ signature: 'sig', minted: true, assetId: addr(3) }) });
    const params = { name: 'N', symbol: 'S', description: 'd', owner: addr(1), creators: [{ address: addr(2), share: 100 }], confirmTransaction: true };
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const r = await client.mintCompressedNft(params);
    warn.mockRestore();
    expect(srv.requests[0].path).toBe('/rpc');
    expect(srv.requests[0].body).toMatchObject({ method: 'mintCompressedNft', params });
    expect(r.assetId).toBe(addr(3));
  });

  it('names the bad field', async () => {
    const base = { name: 'N', symbol: 'S', description: 'd', owner: addr(1) };
    await expect(client.mintCompressedNft({ ...base, owner: 'x' })).rejects.toMatchObject({ context: { field: 'params.owner' } });
    await expect(client.mintCompressedNft({ ...base, creators: [{ address: addr(2), share: 60 }] })).rejects.toMatchObject({ context: { field: 'params.creators' } });
    await expect(client.mintCompressedNft({ ...base, sellerFeeBasisPoints: 1e6 })).rejects.toMatchObject({ context: { field: 'params.sellerFeeBasisPoints' } });
  });
});
