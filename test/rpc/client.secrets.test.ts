/**
 * The API key must never appear in an error's message, stack, JSON, inspect output or cause chain,
 * nor in any log line, whatever goes wrong. The server here is hostile: it echoes the request URL
 * (with the key) back in bodies, error messages and JSON-RPC errors.
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CairnError } from '../../src/errors/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { findSecret, recordingLogger } from '../support/secret-scan.js';
import { addr, API_KEY, sig } from '../support/rpc-fixtures.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

let srv: TestServer;
let client: CairnClient;
const logger = recordingLogger();

beforeAll(async () => {
  srv = await startServer();
  client = createClient({ url: srv.url, apiKey: API_KEY, logger: logger.log, retry: { retries: 1, delay: () => 1 }, timeoutMs: 300, maxResponseBytes: 10_000 });
});
afterAll(async () => {
  await client.close();
  await srv.close();
});

const echo = (req: { path: string; query: Record<string, string> }) => `${req.path}?api-key=${req.query['api-key']} (key ${req.query['api-key']})`;

type Scenario = [name: string, handler: TestServer['handler'], call: () => Promise<unknown>];
const scenarios: Scenario[] = [
  ['401', (r) => ({ status: 401, body: { error: `invalid API key ${echo(r)}` } }), () => client.getSlot()],
  ['403', (r) => ({ status: 403, body: { error: { message: `forbidden for ${echo(r)}` } } }), () => client.getSlot()],
  ['429 exhausted', (r) => ({ status: 429, headers: { 'retry-after': '0' }, body: `slow down ${echo(r)}` }), () => client.getSlot()],
  ['500 exhausted', (r) => ({ status: 500, body: `internal ${echo(r)}` }), () => client.getSlot()],
  ['404 REST', (r) => ({ status: 404, body: `no route ${echo(r)}` }), () => client.getWalletTransfers({ wallet: addr(1) })],
  ['JSON-RPC error', (r) => ({ body: { jsonrpc: '2.0', id: r.body.id, error: { code: -32602, message: `bad ${echo(r)}`, data: echo(r) } } }), () => client.getSlot()],
  ['400 JSON-RPC error', (r) => ({ status: 400, body: { jsonrpc: '2.0', id: r.body.id, error: { code: -32602, message: echo(r) } } }), () => client.getSlot()],
  ['not JSON', (r) => ({ body: `<html>${echo(r)}</html>` }), () => client.getSlot()],
  ['wrong id', (r) => ({ body: { jsonrpc: '2.0', id: echo(r), result: 1 } }), () => client.getSlot()],
  ['schema', (r) => ({ body: { jsonrpc: '2.0', id: r.body.id, result: echo(r) } }), () => client.getSlot()],
  ['schema REST', (r) => ({ body: { data: [{ signature: echo(r) }], pagination: { hasMore: false } } }), () => client.getWalletTransfers({ wallet: addr(1) })],
  ['too large', (r) => ({ body: echo(r).repeat(1_000) }), () => client.getSlot()],
  ['truncated', (r, res) => {
    res.writeHead(200, { 'content-length': '1000' });
    res.write(echo(r));
    setTimeout(() => res.socket?.destroy(), 5);
    return undefined;
  }, () => client.getSlot()],
  ['timeout', () => new Promise(() => {}), () => client.getSlot()],
  ['abort', () => new Promise(() => {}), () => client.getSlot({}, { signal: AbortSignal.timeout(30) })],
  ['webhook bad shape', (r) => ({ body: { webhookID: echo(r) } }), () => client.setWebhookActive({ webhookID: '3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f', active: true })],
  ['getAssetBatch chunk failing', (r) => ({ status: 503, body: echo(r) }), () => client.getAssetBatch({ ids: [addr(1)] })],
  ['statuses', (r) => ({ status: 502, body: echo(r) }), () => client.getSignatureStatuses([sig(1)])],
  ['JSON-RPC error.data echoing the key 30 levels deep', (r) => ({ body: { jsonrpc: '2.0', id: r.body.id, error: { code: -32000, message: 'nested', data: nest(30, { key: r.query['api-key'] }) } } }), () => client.getSlot()],
  ['JSON-RPC error.data with the key as a property name', (r) => ({ body: { jsonrpc: '2.0', id: r.body.id, error: { code: -32000, message: 'named', data: { [r.query['api-key']]: 'yes', list: [{ [`x-${r.query['api-key']}`]: 1 }] } } } }), () => client.getSlot()],
  // the echo cut inside the key by the transport's snippets (200 characters of a message, 80 of a non-JSON body, 2,000 of an error body)
  ['500 whose text is cut inside the key', (r) => ({ status: 500, body: `${'x'.repeat(190)}${r.query['api-key']}` }), () => client.getSlot()],
  ['non-JSON body cut inside the key', (r) => ({ body: `${'x'.repeat(70)}${r.query['api-key']}` }), () => client.getSlot()],
  ['404 body cut inside the key', (r) => ({ status: 404, body: `${'x'.repeat(1_990)}${r.query['api-key']}` }), () => client.getWalletTransfers({ wallet: addr(1) })],
  ['echo base64 and lower-case percent-encoded', (r) => ({ status: 500, body: `b64 ${Buffer.from(r.query['api-key']).toString('base64')} pct ${encodeURIComponent(r.query['api-key']).toLowerCase()}` }), () => client.getSlot()],
];

function nest(depth: number, leaf: object): object {
  let v: object = leaf;
  for (let i = 0; i < depth; i++) v = { level: i, inner: v };
  return v;
}

describe('the API key never leaks', () => {
  for (const [name, handler, call] of scenarios) {
    it(`${name}: error and logs are clean`, async () => {
      logger.lines.length = 0;
      srv.requests.length = 0;
      srv.handler = handler;
      const e = await call().then(
        () => undefined,
        (x) => x,
      );
      expect(e, 'the call must fail').toBeInstanceOf(CairnError);
      expect(srv.requests.length).toBeGreaterThan(0);
      expect(srv.requests[0].query['api-key']).toBe(API_KEY); // the key was really on the wire
      expect(findSecret(e, API_KEY)).toEqual([]);
      expect(inspect(e, { depth: 10 })).not.toContain(API_KEY);
      expect(findSecret(logger.lines.join('\n'), API_KEY)).toEqual([]);
    });
  }

  it('a key with ~ ( ) ! and a space, echoed the form way (URLSearchParams), percent-encoded, raw and cut', async () => {
    const odd = "odd~(key w)!'-3c9b8a7d6e5f";
    const form = new URLSearchParams([['k', odd]]).toString().slice(2);
    expect(form).not.toBe(encodeURIComponent(odd)); // the two encodings differ for this key
    const c = createClient({ url: srv.url, apiKey: odd, logger: logger.log, retry: { retries: 1, delay: () => 1 } });
    logger.lines.length = 0;
    srv.requests.length = 0;
    srv.handler = (r) => ({
      status: 500,
      body: { error: { message: `form ${form} uri ${encodeURIComponent(odd)} raw ${r.query['api-key']} cut ${odd.slice(0, 12)}` }, data: { [form]: odd } },
    });
    const e = await c.getSlot().catch((x) => x);
    await c.close();
    expect(srv.requests[0].query['api-key']).toBe(odd);
    expect(e.code).toBe('RPC_SERVER');
    expect(findSecret(e, odd)).toEqual([]);
    expect(findSecret(logger.lines.join('\n'), odd)).toEqual([]);
    expect(logger.lines.length).toBeGreaterThan(0);
  });

  it('an API key that cannot be kept out of logs (not a string, or under 4 characters) is refused, naming apiKey, never echoed', () => {
    for (const bad of [123456789, { key: 'obj-key-1234' }, 'abc']) {
      let e: unknown;
      try {
        void createClient({ url: srv.url, apiKey: bad as unknown as string }).close();
      } catch (x) {
        e = x;
      }
      expect(e, JSON.stringify(bad)).toMatchObject({ code: 'INPUT_INVALID', context: { field: 'apiKey' } });
      expect(JSON.stringify(e)).not.toContain('123456789');
      expect(inspect(e)).not.toContain('obj-key-1234');
    }
  });

  it('network failure (nothing listening)', async () => {
    const c = createClient({ url: 'http://127.0.0.1:1', apiKey: API_KEY, logger: logger.log, retry: { retries: 1, delay: () => 1 } });
    logger.lines.length = 0;
    const e = await c.getSlot().catch((x) => x);
    await c.close();
    expect(e.code).toBe('RPC_NETWORK');
    expect(findSecret(e, API_KEY)).toEqual([]);
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.join('\n')).not.toContain(API_KEY);
  });

  it('the client object and its endpoints do not expose the key', () => {
    expect(JSON.stringify(client.endpoints)).not.toContain(API_KEY);
    expect(inspect(client, { depth: 5 })).not.toContain(API_KEY);
  });

  it('input errors do not echo a key placed in the URL', () => {
    let e: unknown;
    try {
      createClient({ url: `http://127.0.0.1:1/?api-key=${API_KEY}` });
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(CairnError);
    expect(findSecret(e, API_KEY)).toEqual([]);
  });

  it('the scanner itself finds a planted key (it can fail)', () => {
    const planted = new Error('boom');
    (planted as any).cause = { url: `http://h/?api-key=${API_KEY}` };
    expect(findSecret(planted, API_KEY).length).toBeGreaterThan(0);
  });
});
