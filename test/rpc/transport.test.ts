import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  BadResponseError,
  ForbiddenError,
  HttpError,
  NetworkError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../src/errors/index.js';
import { createTransport, type Transport } from '../../src/rpc/transport/create-transport.js';
import { parseRetryAfter } from '../../src/rpc/transport/response.js';
import { API_KEY } from '../support/rpc-fixtures.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

let srv: TestServer;
let currentClient: 'lean' | 'node:http' = 'lean';
const open: Transport[] = [];
/** Requests to `path`: tests that stall use their own paths, so a late-recorded stalled request never skews a count. */
const hits = (path = '/') => srv.requests.filter((r) => r.path === path);
function transport(opts: Parameters<typeof createTransport>[0] = {}): Transport {
  const t = createTransport({ apiKey: API_KEY, retry: { delay: () => 5 }, client: currentClient, ...opts });
  open.push(t);
  return t;
}

beforeAll(async () => {
  srv = await startServer();
});
afterEach(async () => {
  srv.requests.length = 0;
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((t) => t.close()));
});
afterAll(() => srv.close());

// every behaviour holds for both HTTP clients: the lean pool (default for http:) and node:http (https:, or on request)
describe.each(['lean', 'node:http'] as const)('transport over %s', (client) => {
  beforeAll(() => {
    currentClient = client;
  });

  describe('transport: the key and the wire', () => {
    it('sends the API key only as the api-key query parameter', async () => {
      srv.handler = () => ({ body: { ok: true } });
      const r = await transport().request({ url: `${srv.url}/v0/x`, method: 'POST', body: '{"a":1}', query: { limit: 5, cursor: undefined } });
      expect(r.body).toEqual({ ok: true });
      const req = srv.requests[0];
      expect(req.query).toEqual({ 'api-key': API_KEY, limit: '5' });
      expect(JSON.stringify(req.headers)).not.toContain(API_KEY);
      expect(req.raw).not.toContain(API_KEY);
      expect(req.headers['content-type']).toBe('application/json');
    });

    it('leaves the key off when auth is false, and refuses a key inside the URL', async () => {
      srv.handler = () => ({ body: 'ok', headers: { 'content-type': 'text/plain' } });
      const r = await transport().request({ url: `${srv.url}/ping`, method: 'GET', auth: false, responseType: 'text' });
      expect(r.body).toBe('ok');
      expect(srv.requests[0].query).toEqual({});
      await expect(transport().request({ url: `${srv.url}/?api-key=zzz`, method: 'GET' })).rejects.toMatchObject({
        code: 'INPUT_INVALID',
        context: { field: 'url' },
      });
    });

    it('reuses one keep-alive connection for sequential calls', async () => {
      srv.handler = () => ({ body: 1 });
      const t = transport();
      for (let i = 0; i < 5; i++) await t.request({ url: srv.url, method: 'POST', body: '{}' });
      expect(new Set(srv.requests.map((r) => r.remotePort)).size).toBe(1);
    });

    it('opens a fresh connection per call with keepAlive: false', async () => {
      srv.handler = () => ({ body: 1 });
      const t = transport({ keepAlive: false });
      for (let i = 0; i < 3; i++) await t.request({ url: srv.url, method: 'POST', body: '{}' });
      expect(new Set(srv.requests.map((r) => r.remotePort)).size).toBe(3);
    });

    it('parses integers beyond 2^53 as bigint', async () => {
      srv.handler = () => ({ body: '{"amount":18446744073709551615,"small":42}' });
      const r = await transport().request({ url: srv.url, method: 'GET' });
      expect(r.body).toEqual({ amount: 18446744073709551615n, small: 42 });
    });
  });

  describe('transport: status mapping', () => {
    const cases: [number, new (...a: any[]) => Error, string][] = [
      [401, UnauthorizedError, 'RPC_UNAUTHORIZED'],
      [403, ForbiddenError, 'RPC_FORBIDDEN'],
      [404, HttpError, 'RPC_HTTP'],
    ];
    for (const [status, cls, code] of cases) {
      it(`${status} → ${cls.name}, not retried`, async () => {
        srv.handler = () => ({ status, body: { error: 'invalid API key' } });
        const e = await transport({ retry: { retries: 3, delay: () => 1 } })
          .request({ url: srv.url, method: 'POST', body: '{}' })
          .catch((x) => x);
        expect(e).toBeInstanceOf(cls);
        expect(e.code).toBe(code);
        expect(e.context.status).toBe(status);
        expect(e.message).toContain('invalid API key');
        expect(hits()).toHaveLength(1);
      });
    }

    it('5xx is retried with the policy, then succeeds', async () => {
      let n = 0;
      srv.handler = () => (++n < 3 ? { status: 503, body: { error: 'busy' } } : { body: { fine: 1 } });
      const r = await transport().request({ url: srv.url, method: 'POST', body: '{}' });
      expect(r.body).toEqual({ fine: 1 });
      expect(r.attempts).toBe(3);
    });

    it('5xx past the budget → ServerError with attempts', async () => {
      srv.handler = () => ({ status: 500, body: 'boom' });
      const e = await transport({ retry: { retries: 2, delay: () => 1 } }).request({ url: srv.url, method: 'GET' }).catch((x) => x);
      expect(e).toBeInstanceOf(ServerError);
      expect(e.context).toMatchObject({ status: 500, attempts: 3 });
      expect(hits()).toHaveLength(3);
    });

    it('429 past the budget → RateLimitedError carrying Retry-After', async () => {
      srv.handler = () => ({ status: 429, headers: { 'retry-after': '0' }, body: { jsonrpc: '2.0', error: { code: -32005, message: 'Too many requests' } } });
      const e = await transport({ retry: { retries: 1 } }).request({ url: srv.url, method: 'GET' }).catch((x) => x);
      expect(e).toBeInstanceOf(RateLimitedError);
      expect(e.code).toBe('RPC_RATE_LIMITED');
      expect(e.context).toMatchObject({ status: 429, retryAfterMs: 0, attempts: 2 });
      expect(hits()).toHaveLength(2);
    });

    it('a 429 with Retry-After: 2 waits exactly 2 s (fake timers) and then succeeds', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      let n = 0;
      srv.handler = () => (n++ === 0 ? { status: 429, headers: { 'retry-after': '2' }, body: { error: 'slow down' } } : { body: { ok: 1 } });
      let retryScheduled!: () => void;
      const scheduled = new Promise<void>((r) => (retryScheduled = r));
      // the default policy: Retry-After honoured instead of backoff
      const t = createTransport({ apiKey: API_KEY, client: currentClient, logger: (l) => l.includes('retrying in') && retryScheduled() });
      open.push(t);
      let done = false;
      const p = t.request({ url: srv.url, method: 'GET' }).then((r) => ((done = true), r));
      await scheduled;
      expect(hits()).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1_999);
      expect(done).toBe(false);
      expect(hits()).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      vi.useRealTimers();
      const r = await p;
      expect(r.body).toEqual({ ok: 1 });
      expect(r.attempts).toBe(2);
      expect(hits()).toHaveLength(2);
    });

    it('a Retry-After longer than the deadline leaves fails at once with RPC_DEADLINE (the 429 as cause), no hour-long hang', async () => {
      srv.handler = () => ({ status: 429, headers: { 'retry-after': '86400' }, body: { error: 'come back tomorrow' } });
      const t = createTransport({ apiKey: API_KEY, client: currentClient });
      open.push(t);
      const t0 = Date.now();
      const e = await t.request({ url: srv.url, method: 'GET' }).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'RPC_DEADLINE', context: { deadlineMs: 60_000, attempts: 1 } });
      const cause = (e as Error).cause;
      expect(cause).toBeInstanceOf(RateLimitedError);
      expect((cause as RateLimitedError).context.retryAfterMs).toBe(86_400_000);
      expect(hits()).toHaveLength(1);
      expect(Date.now() - t0).toBeLessThan(5_000);
    });

    it('parses Retry-After as seconds or an HTTP date', () => {
      expect(parseRetryAfter('2')).toBe(2_000);
      expect(parseRetryAfter('1.5')).toBe(1_500);
      expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
      expect(parseRetryAfter('soon')).toBeUndefined();
      expect(parseRetryAfter(undefined)).toBeUndefined();
    });

    it('network errors are retried and typed', async () => {
      const t = transport({ retry: { retries: 2, delay: () => 1 } });
      const e = await t.request({ url: 'http://127.0.0.1:1/', method: 'GET' }).catch((x) => x);
      expect(e).toBeInstanceOf(NetworkError);
      expect(e.code).toBe('RPC_NETWORK');
      expect(e.context.attempts).toBe(3);
    });
  });

  describe('transport: abort, timeout, bad bodies', () => {
    it('abort mid-retry stops at once and is never retried', async () => {
      srv.handler = () => ({ status: 503, body: 'down' });
      const ac = new AbortController();
      const t = createTransport({
        apiKey: API_KEY,
        retry: { retries: 5, delay: () => 30_000 }, // a long wait that fits the default 60 s deadline
        logger: (l) => l.includes('retrying in') && ac.abort(new Error('user gave up')),
      });
      open.push(t);
      const t0 = performance.now();
      const e = await t.request({ url: srv.url, method: 'GET', signal: ac.signal }).catch((x) => x);
      expect(performance.now() - t0).toBeLessThan(2_000);
      expect(e).toBeInstanceOf(AbortError);
      expect(e.code).toBe('RPC_ABORTED');
      expect(e.message).toContain('user gave up');
      expect(hits()).toHaveLength(1);
    });

    it('abort during a request in flight rejects at once', async () => {
      srv.handler = () => new Promise(() => {}); // never answers
      const ac = new AbortController();
      const p = transport().request({ url: `${srv.url}/stall`, method: 'GET', signal: ac.signal });
      setTimeout(() => ac.abort(), 20);
      await expect(p).rejects.toMatchObject({ code: 'RPC_ABORTED' });
    });

    it('an already-aborted signal sends nothing', async () => {
      await expect(transport().request({ url: srv.url, method: 'GET', signal: AbortSignal.abort() })).rejects.toBeInstanceOf(AbortError);
      expect(hits()).toHaveLength(0);
    });

    it('per-request timeout → TimeoutError (retried per policy)', async () => {
      srv.handler = () => new Promise(() => {});
      const e = await transport({ retry: { retries: 1, delay: () => 1 } })
        .request({ url: `${srv.url}/timeout`, method: 'GET', timeoutMs: 50 })
        .catch((x) => x);
      expect(e).toBeInstanceOf(TimeoutError);
      expect(e.code).toBe('RPC_TIMEOUT');
      // count by path: a stalled request of the previous test may be recorded late on a loaded machine
      expect(srv.requests.filter((r) => r.path === '/timeout')).toHaveLength(2);
    });

    it('a body that is not JSON → BadResponseError, not retried', async () => {
      srv.handler = () => ({ body: '<html>oops</html>' });
      const e = await transport().request({ url: srv.url, method: 'GET' }).catch((x) => x);
      expect(e).toBeInstanceOf(BadResponseError);
      expect(e.code).toBe('RPC_BAD_RESPONSE');
      expect(e.message).toMatch(/not JSON/);
      expect(hits()).toHaveLength(1);
    });

    it('a truncated body (connection cut before content-length) → typed error', async () => {
      srv.handler = (_r, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"jsonrpc":"2.0","res');
        setTimeout(() => res.socket?.destroy(), 10);
        return undefined;
      };
      const e = await transport().request({ url: srv.url, method: 'GET' }).catch((x) => x);
      expect(e).toBeInstanceOf(BadResponseError);
      expect(e.code).toBe('RPC_BAD_RESPONSE');
      expect(e.context.detail).toBe('truncated');
    });

    it('a response over the size cap → RPC_RESPONSE_TOO_LARGE (declared or streamed)', async () => {
      srv.handler = () => ({ body: { data: 'x'.repeat(5_000) } });
      const e1 = await transport({ maxResponseBytes: 1_000 }).request({ url: srv.url, method: 'GET' }).catch((x) => x);
      expect(e1.code).toBe('RPC_RESPONSE_TOO_LARGE');
      srv.handler = (_r, res) => {
        res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length up front
        for (let i = 0; i < 10; i++) res.write('x'.repeat(500));
        res.end();
        return undefined;
      };
      const e2 = await transport({ maxResponseBytes: 1_000 }).request({ url: srv.url, method: 'GET' }).catch((x) => x);
      expect(e2.code).toBe('RPC_RESPONSE_TOO_LARGE');
    });

    it('rejects bad options with a typed error naming the field', () => {
      expect(() => createTransport({ timeoutMs: -1 })).toThrow(/"timeoutMs"/);
      // beyond setTimeout's range a timer fires at once: refused rather than timing out every request
      expect(() => createTransport({ timeoutMs: 2 ** 31 })).toThrow(/"timeoutMs"/);
      expect(() => createTransport({ retry: { retries: 1.5 } })).toThrow(/"retry.retries"/);
    });

    it('a closed transport refuses requests', async () => {
      const t = transport();
      await t.close();
      await expect(t.request({ url: srv.url, method: 'GET' })).rejects.toMatchObject({ code: 'RPC_NETWORK' });
    });
  });
});
