/**
 * The https path (undici) against a loopback TLS server with the fixed self-signed test certificate
 * of test/support/tls: keep-alive reuse, abort, timeout, the size cap, 429 Retry-After, the key's
 * one place (the `api-key` query parameter) and its absence from every error, and close().
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, BadResponseError, NetworkError, RateLimitedError, ServerError, TimeoutError } from '../../src/errors/index.js';
import { createTransportWith, type Transport, type TransportOptions } from '../../src/rpc/transport/create-transport.js';

const KEY = 'undici-test-key-4f1c9a7e2b';
const tlsDir = new URL('../support/tls/', import.meta.url);
const cert = readFileSync(new URL('cert.pem', tlsDir));
const key = readFileSync(new URL('key.pem', tlsDir));

interface Seen {
  path: string;
  headers: import('node:http').IncomingMessage['headers'];
}
const seen: Seen[] = [];
let connections = 0;
let server: https.Server;
let base: string;
/** Per-path answers; a path not listed answers a small JSON body. */
const routes = new Map<string, (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, n: number) => void>();
const count = new Map<string, number>();

beforeAll(async () => {
  server = https.createServer({ key, cert }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    seen.push({ path: req.url ?? '', headers: req.headers });
    const n = (count.get(path) ?? 0) + 1;
    count.set(path, n);
    req.resume();
    req.on('end', () => {
      const route = routes.get(path);
      if (route) return route(req, res, n);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true,"n":1}');
    });
  });
  server.on('secureConnection', () => connections++);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const open: Transport[] = [];
function transport(opts: TransportOptions = {}): Transport {
  const t = createTransportWith({ apiKey: KEY, retry: { delay: () => 5 }, ...opts }, { tls: { ca: cert } });
  open.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
  seen.length = 0;
  count.clear();
  routes.clear();
  server.closeAllConnections();
  connections = 0;
});

/** Everything an error shows: message, context and causes, as text. */
function shown(e: unknown): string {
  const parts: string[] = [];
  for (let x = e as { message?: string; context?: unknown; cause?: unknown; stack?: string } | undefined, i = 0; x && i < 5; x = x.cause as typeof x, i++) {
    parts.push(String(x.message), String(x.stack), JSON.stringify(x.context ?? null));
  }
  return parts.join('\n');
}

describe('transport over https (undici)', () => {
  it('answers, sends the key only as the api-key parameter and reuses one connection', async () => {
    const t = transport();
    for (let i = 0; i < 5; i++) {
      const r = await t.request({ url: `${base}/`, method: 'POST', body: '{"x":1}' });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true, n: 1 });
      expect(r.attempts).toBe(1);
    }
    const text = await t.request({ url: `${base}/`, method: 'GET', responseType: 'text' });
    expect(text.body).toBe('{"ok":true,"n":1}');
    const bytes = await t.request({ url: `${base}/`, method: 'GET', responseType: 'bytes' });
    expect(Buffer.from(bytes.body as Uint8Array).toString()).toBe('{"ok":true,"n":1}');
    // a request sent in the same turn the previous answer ended may find its connection not yet
    // back in the pool and open a second; after that, calls in sequence open none
    expect(connections).toBeLessThanOrEqual(2);
    const warm = connections;
    for (let i = 0; i < 10; i++) await t.request({ url: `${base}/`, method: 'GET' });
    expect(connections).toBe(warm);
    for (const s of seen) {
      expect(new URL(s.path, base).searchParams.get('api-key')).toBe(KEY);
      expect(JSON.stringify(s.headers)).not.toContain(KEY);
    }
    expect(seen[0]!.headers['content-type']).toBe('application/json');
  });

  it('keepAlive: false opens a connection per request', async () => {
    const t = transport({ keepAlive: false });
    for (let i = 0; i < 3; i++) await t.request({ url: `${base}/`, method: 'GET' });
    expect(connections).toBe(3);
  });

  it('an abort ends a stalled request at once with RPC_ABORTED', async () => {
    routes.set('/stall', () => {});
    const t = transport();
    const ac = new AbortController();
    const p = t.request({ url: `${base}/stall`, method: 'GET', signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    const e = await p.catch((x) => x);
    expect(e).toBeInstanceOf(AbortError);
    expect(e.code).toBe('RPC_ABORTED');
    const pre = await t.request({ url: `${base}/`, method: 'GET', signal: AbortSignal.abort() }).catch((x) => x);
    expect(pre.code).toBe('RPC_ABORTED');
  });

  it('a stalled answer times out with RPC_TIMEOUT and is retried', async () => {
    routes.set('/stall', () => {});
    const t = transport({ timeoutMs: 100, retry: { retries: 1, delay: () => 5 } });
    const t0 = performance.now();
    const e = await t.request({ url: `${base}/stall`, method: 'GET' }).catch((x) => x);
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.code).toBe('RPC_TIMEOUT');
    expect(e.context.attempts).toBe(2);
    expect(count.get('/stall')).toBe(2);
    expect(performance.now() - t0).toBeLessThan(2_000);
  });

  it('a body over maxResponseBytes fails with RPC_RESPONSE_TOO_LARGE, declared or streamed', async () => {
    routes.set('/big', (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`"${'a'.repeat(5_000)}"`);
    });
    routes.set('/stream', (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 10; i++) res.write('a'.repeat(1_000));
      res.end();
    });
    const t = transport({ maxResponseBytes: 1_000 });
    for (const path of ['/big', '/stream']) {
      const e = await t.request({ url: `${base}${path}`, method: 'GET' }).catch((x) => x);
      expect(e).toBeInstanceOf(BadResponseError);
      expect(e.code).toBe('RPC_RESPONSE_TOO_LARGE');
    }
    // the connection cut mid-body does not break the next request
    expect((await t.request({ url: `${base}/`, method: 'GET' })).status).toBe(200);
  });

  it('429 with Retry-After is waited out and retried', async () => {
    routes.set('/limited', (_q, res, n) => {
      if (n === 1) {
        res.writeHead(429, { 'retry-after': '0.2', 'content-type': 'application/json' });
        return res.end('{"error":"slow down"}');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    const t = transport({ retry: { retries: 2 } });
    const t0 = performance.now();
    const r = await t.request({ url: `${base}/limited`, method: 'GET' });
    expect(r.attempts).toBe(2);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
    const once = transport({ retry: { retries: 0 } });
    routes.set('/always', (_q, res) => {
      res.writeHead(429, { 'retry-after': '3' });
      res.end();
    });
    const e = await once.request({ url: `${base}/always`, method: 'GET' }).catch((x) => x);
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.context.retryAfterMs).toBe(3_000);
  });

  it('no error carries the key: a server echoing the URL, a refused connection, a timeout', async () => {
    routes.set('/echo', (q, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `bad request ${q.url}` }));
    });
    routes.set('/stall', () => {});
    const t = transport({ retry: { retries: 0 }, timeoutMs: 100 });
    const echo = await t.request({ url: `${base}/echo`, method: 'GET', query: { a: 'b' } }).catch((x) => x);
    expect(echo).toBeInstanceOf(ServerError);
    const slow = await t.request({ url: `${base}/stall`, method: 'GET' }).catch((x) => x);
    expect(slow.code).toBe('RPC_TIMEOUT');
    const refused = await t.request({ url: 'https://127.0.0.1:1/', method: 'GET' }).catch((x) => x);
    expect(refused).toBeInstanceOf(NetworkError);
    expect(refused.code).toBe('RPC_NETWORK');
    for (const e of [echo, slow, refused]) {
      expect(shown(e)).not.toContain(KEY);
      expect(e.context.url).not.toContain('api-key');
    }
  });

  it('an untrusted certificate is a typed network error', async () => {
    const t = createTransportWith({ apiKey: KEY, retry: { retries: 0 } }, {});
    open.push(t);
    const e = await t.request({ url: `${base}/`, method: 'GET' }).catch((x) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect(shown(e)).not.toContain(KEY);
  });

  it('close() settles with a request in flight, leaves no socket and refuses further requests', async () => {
    routes.set('/stall', () => {});
    const t = transport();
    await t.request({ url: `${base}/`, method: 'GET' });
    const inflight = t.request({ url: `${base}/stall`, method: 'GET' }).catch((x) => x);
    await new Promise((r) => setTimeout(r, 30));
    await t.close();
    const e = await inflight;
    expect(e.code).toMatch(/^RPC_/);
    await new Promise((r) => setTimeout(r, 50));
    const n = await new Promise<number>((r, j) => server.getConnections((err, c) => (err ? j(err) : r(c))));
    expect(n).toBe(0);
    const after = await t.request({ url: `${base}/`, method: 'GET' }).catch((x) => x);
    expect(after.code).toBe('RPC_NETWORK');
  });
});
