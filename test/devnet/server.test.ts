/**
 * Direct tests of src/devnet/http/server.ts: `startDevnetServer` with small modules of the test's own
 * (as src/devnet/start.ts mounts the real ones), on loopback: JSON-RPC dispatch, -32601 for an unknown
 * method, REST route matching (params, 404, 405), a later module's method replacing an earlier one's,
 * the request log, `methods()`, and `close()`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../src/devnet/http/auth.js';
import { createChain } from '../../src/devnet/chain/chain.js';
import type { DevnetChain } from '../../src/devnet/chain/contract.js';
import { resolveFastRules } from '../../src/devnet/http/fast.js';
import { createFaults } from '../../src/devnet/faults/endpoints.js';
import { startDevnetServer, REQUEST_LOG_CAPACITY, type DevnetServer } from '../../src/devnet/http/server.js';
import { createSolanaMethods } from '../../src/devnet/methods/solana.js';
import { DevnetRpcError, type DevnetModule, type RestRequest } from '../../src/devnet/types.js';
import { rpc } from '../support/devnet.js';

let chain: DevnetChain;
let server: DevnetServer;
const seen: RestRequest[] = [];

const first: DevnetModule = {
  methods: {
    echo: (params) => ({ echoed: params }),
    shadowed: () => 'first',
    fails: () => {
      throw new DevnetRpcError(-32602, 'Invalid params: params[0] is wrong');
    },
  },
  routes: {
    'GET /v0/things/:id': (req) => {
      seen.push(req);
      return { id: req.params.id, q: req.query.get('q') };
    },
    'POST /v0/things': (req) => ({ posted: req.body }),
  },
};
const second: DevnetModule = {
  methods: { shadowed: () => 'second' },
  routes: { 'GET /v1/wallet/:wallet/things': (req) => ({ wallet: req.params.wallet }) },
};

beforeAll(async () => {
  chain = createChain({ seed: 3, slotMs: 50, verifierThread: false });
  server = await startDevnetServer({
    chain,
    auth: createAuth([]),
    faults: createFaults(3),
    fastRules: resolveFastRules(),
    modules: [createSolanaMethods({ chain }), first, second],
  });
});
afterAll(async () => {
  await server?.close();
  await chain?.stop();
});

describe('startDevnetServer', () => {
  it('listens on loopback with an ephemeral port; wsUrl is the same port without wsPortPlusOne', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = new URL(server.url).port;
    expect(server.wsUrl).toBe(`ws://127.0.0.1:${port}`);
    expect(REQUEST_LOG_CAPACITY).toBe(50_000);
  });

  it('methods(): every mounted module’s methods, sorted, once each', () => {
    const ms = server.methods();
    expect(ms).toEqual([...ms].sort());
    for (const name of ['echo', 'shadowed', 'fails', 'getHealth', 'getSlot']) expect(ms).toContain(name);
    expect(ms.filter((m) => m === 'shadowed')).toHaveLength(1);
  });

  it('dispatches JSON-RPC to the handler with its params; a later module replaces an earlier method', async () => {
    const r = await rpc(server.url, 'echo', [1, 'two']);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ jsonrpc: '2.0', id: '1', result: { echoed: [1, 'two'] } });
    expect((await rpc(server.url, 'shadowed', [])).body.result).toBe('second');
    expect((await rpc(server.url, 'getHealth', [])).body.result).toBe('ok');
  });

  it('an unknown method is -32601; a handler error keeps its code', async () => {
    const r = await rpc(server.url, 'noSuchMethod', []);
    expect(r.body.error.code).toBe(-32601);
    const f = await rpc(server.url, 'fails', []);
    expect(f.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/params\[0\]/) });
  });

  it('REST routes: params decoded, query passed, POST body, /v1/wallet, 404 and 405', async () => {
    const g = await fetch(`${server.url}/v0/things/a%20b?q=7`);
    expect(g.status).toBe(200);
    expect(await g.json()).toEqual({ id: 'a b', q: '7' });
    expect(seen.at(-1)!.params).toEqual({ id: 'a b' });

    const p = await fetch(`${server.url}/v0/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ x: 1 }) });
    expect(p.status).toBe(200);
    expect(await p.json()).toEqual({ posted: { x: 1 } });

    const w = await fetch(`${server.url}/v1/wallet/abc/things`);
    expect(await w.json()).toEqual({ wallet: 'abc' });

    const missing = await fetch(`${server.url}/v0/nothing/here`);
    expect(missing.status).toBe(404);
    await missing.body?.cancel();
    const wrong = await fetch(`${server.url}/v0/things/1`, { method: 'DELETE' });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('GET');
    await wrong.body?.cancel();
  });

  it('the request log records each request (REST by its route pattern) and can be cleared', async () => {
    server.clearRequestLog();
    expect(server.requestLog()).toEqual([]);
    await rpc(server.url, 'echo', []);
    await rpc(server.url, 'noSuchMethod', []);
    await (await fetch(`${server.url}/v0/things/secret-id`)).json();
    await (await fetch(`${server.url}/v1/wallet/w1/things`)).json();
    const log = server.requestLog();
    expect(log.map((e) => [e.endpoint, e.method])).toEqual([
      ['rpc', 'echo'],
      ['rpc', 'noSuchMethod'],
      ['rest', 'GET /v0/things/:id'],
      ['wallet', 'GET /v1/wallet/:wallet/things'],
    ]);
    expect(log.every((e) => typeof e.at === 'number' && typeof e.status === 'number')).toBe(true);
    // a copy: changing it does not change the server's log
    log.length = 0;
    expect(server.requestLog()).toHaveLength(4);
    server.clearRequestLog();
    expect(server.requestLog()).toHaveLength(0);
  });

  it('close() stops listening and can be called twice', async () => {
    const s = await startDevnetServer({ chain, auth: createAuth([]), faults: createFaults(1), fastRules: resolveFastRules(), modules: [first] });
    expect((await rpc(s.url, 'echo', [])).body.result).toEqual({ echoed: [] });
    expect(s.methods()).toEqual(['echo', 'fails', 'shadowed']);
    await s.close();
    await s.close();
    await expect(fetch(s.url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });
});
