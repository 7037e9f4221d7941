/**
 * An API key never goes over plain http to a host that is not loopback: createClient and the
 * transport refuse (RPC_INSECURE_KEY) before any request, unless `allowInsecureKey: true`.
 * Loopback is 127.0.0.0/8, ::1 and localhost. Nothing here leaves 127.0.0.1: 0.0.0.0 (refused, as
 * it is not loopback) reaches the local test server on Linux, which is what the old code did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CairnError } from '../../src/errors/index.js';
import { createClient, type ClientOptions } from '../../src/rpc/client/create-client.js';
import { createTransport } from '../../src/rpc/transport/create-transport.js';
import { findSecret } from '../support/secret-scan.js';
import { API_KEY } from '../support/rpc-fixtures.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

let srv: TestServer;
let port: number;
beforeAll(async () => {
  srv = await startServer(() => ({ body: { jsonrpc: '2.0', id: 'x', result: 1 } }));
  port = Number(new URL(srv.url).port);
});
afterAll(() => srv.close());

function refusal(fn: () => unknown): CairnError {
  let e: unknown;
  try {
    const made = fn() as { close?: () => Promise<void> } | undefined;
    void made?.close?.();
  } catch (x) {
    e = x;
  }
  expect(e, 'expected a refusal').toBeInstanceOf(CairnError);
  return e as CairnError;
}

describe('an API key over plain http to a remote host', () => {
  const remote = ['http://10.1.2.3:8899', 'http://rpc.example.com', 'http://0.0.0.0:8899', 'http://128.0.0.1', 'http://[::2]:80', 'http://127.0.0.1.nip.io', 'http://localhost.example'];

  for (const url of remote) {
    it(`createClient refuses ${url}`, () => {
      const e = refusal(() => createClient({ url, apiKey: API_KEY }));
      expect(e.code).toBe('RPC_INSECURE_KEY');
      expect(e.context).toMatchObject({ field: 'baseUrl' });
      expect(e.message).toMatch(/allowInsecureKey/);
      expect(findSecret(e, API_KEY)).toEqual([]);
    });
  }

  it('names the host that would carry the key: REST and wallet hosts, the sender host only with senderApiKey', () => {
    const safe = 'https://rpc.example.com';
    const bad = 'http://rpc.example.com';
    const base: ClientOptions = { baseUrl: safe, restUrl: safe, walletUrl: safe, senderUrl: safe, apiKey: API_KEY };
    expect(refusal(() => createClient({ ...base, restUrl: bad })).context).toMatchObject({ field: 'restUrl' });
    expect(refusal(() => createClient({ ...base, walletUrl: bad })).context).toMatchObject({ field: 'walletUrl' });
    expect(refusal(() => createClient({ ...base, senderUrl: bad, senderApiKey: true })).context).toMatchObject({ field: 'senderUrl' });
    // the /fast host gets no key without senderApiKey: nothing to refuse
    void createClient({ ...base, senderUrl: bad }).close();
  });

  it('the transport refuses before sending anything', async () => {
    const t = createTransport({ apiKey: API_KEY });
    srv.requests.length = 0;
    await expect(t.request({ url: `http://0.0.0.0:${port}/`, method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'RPC_INSECURE_KEY', context: { field: 'url' } });
    // a request without the key may go there
    await t.request({ url: `http://0.0.0.0:${port}/ping`, method: 'GET', auth: false });
    await t.close();
    expect(srv.requests.map((r) => r.path)).toEqual(['/ping']);
  });

  it('allowInsecureKey: true lets it through (client and transport)', async () => {
    srv.requests.length = 0;
    const c = createClient({ url: `http://0.0.0.0:${port}`, apiKey: API_KEY, allowInsecureKey: true });
    await c.callRaw('getSlot', []).catch(() => undefined);
    await c.close();
    const t = createTransport({ apiKey: API_KEY, allowInsecureKey: true });
    await t.request({ url: `http://0.0.0.0:${port}/t`, method: 'GET' });
    await t.close();
    expect(srv.requests).toHaveLength(2);
    expect(srv.requests[1].query['api-key']).toBe(API_KEY);
  });

  it('loopback, https and key-less clients are not refused', async () => {
    for (const url of ['http://127.0.0.1:1', 'http://127.9.8.7', 'http://[::1]:8899', 'http://localhost:8899', 'http://LOCALHOST', 'http://0x7f.0.0.1', 'https://rpc.example.com']) {
      await createClient({ url, apiKey: API_KEY }).close();
    }
    await createClient({ url: 'http://rpc.example.com' }).close();
  });
});
