/**
 * The proxy's upstream client (proxy/upstream.ts) does what `fetch` did for it: follows redirects
 * (a POST becomes a GET on 301/302/303, keeps its body on 307/308), decodes a compressed answer,
 * refuses one past the size cap (announced or not), and fails without showing the URL (its api-key).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUpstream } from '../../src/proxy/upstream.js';

let server: Server;
let base: string;
const routes: Record<string, (req: IncomingMessage, body: string, res: ServerResponse) => void> = {
  '/echo': (req, body, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ method: req.method, body, type: req.headers['content-type'] ?? null }));
  },
  '/moved': (_req, _body, res) => {
    res.writeHead(302, { location: '/echo' });
    res.end('moved to http://secret/?api-key=k');
  },
  '/kept': (_req, _body, res) => {
    res.writeHead(307, { location: `${base}/echo` });
    res.end();
  },
  '/loop': (_req, _body, res) => {
    res.writeHead(301, { location: '/loop' });
    res.end();
  },
  '/gzip': (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    res.end(gzipSync('{"zipped":true}'));
  },
  '/big': (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 2000 });
    res.end('x'.repeat(2000));
  },
  '/chunked': (_req, _body, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    for (let i = 0; i < 20; i++) res.write('y'.repeat(100));
    res.end();
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => routes[new URL(req.url ?? '/', 'http://x').pathname]!(req, Buffer.concat(parts).toString(), res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('the proxy upstream client', () => {
  const signal = new AbortController().signal;
  const json = { 'content-type': 'application/json' };

  it('sends and reads, follows redirects as fetch does, and decodes gzip', async () => {
    const up = createUpstream(1000);
    try {
      const body = Buffer.from('{"a":1}');
      const direct = await up.send(new URL(`${base}/echo`), 'POST', json, body, signal);
      expect(direct.status).toBe(200);
      expect(JSON.parse(direct.bytes.toString())).toEqual({ method: 'POST', body: '{"a":1}', type: 'application/json' });
      expect(JSON.parse((await up.send(new URL(`${base}/moved`), 'POST', json, body, signal)).bytes.toString())).toEqual({ method: 'GET', body: '', type: null });
      expect(JSON.parse((await up.send(new URL(`${base}/kept`), 'POST', json, body, signal)).bytes.toString())).toEqual({ method: 'POST', body: '{"a":1}', type: 'application/json' });
      expect(JSON.parse((await up.send(new URL(`${base}/gzip`), 'GET', {}, null, signal)).bytes.toString())).toEqual({ zipped: true });
      await expect(up.send(new URL(`${base}/loop`), 'GET', {}, null, signal)).rejects.toThrow(/too many redirects/);
    } finally {
      up.close();
    }
  });

  it('refuses an answer past the cap, announced or not, and never shows the URL', async () => {
    const up = createUpstream(1000);
    try {
      await expect(up.send(new URL(`${base}/big`), 'GET', {}, null, signal)).rejects.toThrow(/2000 bytes is over 1000/);
      await expect(up.send(new URL(`${base}/chunked`), 'GET', {}, null, signal)).rejects.toThrow(/over 1000/);
      const err = await up.send(new URL('http://127.0.0.1:1/?api-key=secret'), 'GET', {}, null, signal).catch((e: Error) => e);
      expect(String((err as Error).message)).not.toMatch(/secret|127\.0\.0\.1/);
      const roomy = createUpstream(5000);
      expect((await roomy.send(new URL(`${base}/chunked`), 'GET', {}, null, signal)).bytes.length).toBe(2000);
      roomy.close();
    } finally {
      up.close();
    }
  });

  it('rejects with the abort reason when the call is aborted', async () => {
    const up = createUpstream(1000);
    try {
      const ac = new AbortController();
      ac.abort(new Error('client went away'));
      await expect(up.send(new URL(`${base}/echo`), 'GET', {}, null, ac.signal)).rejects.toThrow(/client went away/);
    } finally {
      up.close();
    }
  });
});
