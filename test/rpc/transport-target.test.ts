/**
 * Direct tests of where a request goes (src/rpc/transport/target.ts) and of what the transport
 * refuses before anything is sent: a URL that is not http(s), a method that is not a token, a body
 * that is not a string — each as an `InputError` naming the field, on both HTTP clients.
 */
import http from 'node:http';
import https from 'node:https';
import { describe, expect, it } from 'vitest';
import { InputError, NetworkError } from '../../src/errors/index.js';
import { buildTarget, TargetCache } from '../../src/rpc/transport/target.js';
import { viaNodeHttp } from '../../src/rpc/transport/via-node-http.js';
import { createTransport, type TransportRequest } from '../../src/rpc/transport/create-transport.js';

const KEY = 'k-0123456789abcdef';

describe('transport-target', () => {
  it('puts the key in the URL as sent only, never in the one shown', () => {
    const t = buildTarget({ url: 'http://127.0.0.1:8899/v0/x?a=1', query: { limit: 5, skip: undefined } }, KEY, false);
    expect(t.display).toBe('http://127.0.0.1:8899/v0/x?a=1&limit=5');
    expect(t.path).toBe(`/v0/x?a=1&limit=5&api-key=${KEY}`);
    expect(t.href).toBe(`http://127.0.0.1:8899/v0/x?a=1&limit=5&api-key=${KEY}`);
    expect([t.protocol, t.hostname, t.port, t.host]).toEqual(['http:', '127.0.0.1', 8899, '127.0.0.1:8899']);
  });

  it('default ports, and an IPv6 host without its brackets for connecting', () => {
    expect(buildTarget({ url: 'https://example.com/' }, undefined, false).port).toBe(443);
    const v6 = buildTarget({ url: 'http://[::1]/' }, KEY, false);
    expect([v6.hostname, v6.port, v6.host]).toEqual(['::1', 80, '[::1]']);
  });

  it('refuses a scheme other than http: and https:, a key in the URL, and a URL that does not parse', () => {
    for (const [url, message] of [
      ['ftp://127.0.0.1/', /expected an http: or https: URL, got "ftp:"/],
      ['ws://127.0.0.1/', /expected an http: or https: URL, got "ws:"/],
      ['http://127.0.0.1/?api-key=x', /must come from the apiKey option/],
      ['not a url', /expected an absolute URL/],
    ] as const) {
      const e = (() => {
        try {
          return buildTarget({ url }, KEY, false);
        } catch (x) {
          return x;
        }
      })();
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).context.field).toBe('url');
      expect((e as InputError).message).toMatch(message);
    }
  });

  it('caches per URL and per key presence; requests with a query are built each time', () => {
    const cache = new TargetCache(false);
    const a = cache.get({ url: 'http://127.0.0.1:1/' }, KEY);
    expect(cache.get({ url: 'http://127.0.0.1:1/' }, KEY)).toBe(a);
    const anon = cache.get({ url: 'http://127.0.0.1:1/' }, undefined);
    expect(anon).not.toBe(a);
    expect(anon.path).toBe('/');
    const q = { url: 'http://127.0.0.1:1/', query: { n: 1 } };
    expect(cache.get(q, KEY)).not.toBe(cache.get(q, KEY));
  });
});

describe('transport: what it refuses before sending', () => {
  for (const client of ['lean', 'node:http'] as const) {
    it(`${client}: a bad scheme, method or body is an InputError naming the field, not a TypeError`, async () => {
      const t = createTransport({ apiKey: KEY, client, retry: { retries: 0 } });
      try {
        const cases: [Partial<TransportRequest>, string][] = [
          [{ url: 'ftp://127.0.0.1/' }, 'url'],
          [{ method: 'GET /x HTTP/1.1\r\nx-evil: 1\r\n' as 'GET' }, 'method'],
          [{ method: '' as 'GET' }, 'method'],
          [{ method: 'POST', body: { a: 1 } as unknown as string }, 'body'],
        ];
        for (const [patch, field] of cases) {
          const e = await t.request({ url: 'http://127.0.0.1:1/', method: 'GET', ...patch }).catch((x) => x);
          expect(e).toBeInstanceOf(InputError);
          expect(e.context.field).toBe(field);
          expect(e.message).not.toContain(KEY);
        }
      } finally {
        await t.close();
      }
    });
  }
});

describe('transport-via-node-http', () => {
  it('node:http refusing its arguments is a typed error, and no timer is left to fire', async () => {
    const agents = { http: new http.Agent(), https: new https.Agent() };
    const target = buildTarget({ url: 'http://127.0.0.1:1/' }, undefined, false);
    const e = await viaNodeHttp(agents, target, { method: 'NOT A TOKEN' }, 20, 1_000).catch((x) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.code).toBe('RPC_NETWORK');
    expect(e.cause.code).toBe('ERR_INVALID_HTTP_TOKEN');
    // before, a timer armed ahead of the request fired into a half-built closure and crashed the process
    await new Promise((r) => setTimeout(r, 60));
    agents.http.destroy();
    agents.https.destroy();
  });
});
