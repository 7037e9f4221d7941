/**
 * A small real HTTP server on 127.0.0.1 (ephemeral port) for the rpc tests. It records every
 * request (method, path, query, headers, raw and parsed body) and answers through a handler the
 * test sets. Handlers may return a reply object or take over the raw response (to truncate a body,
 * stall, or reset the connection).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { API_KEY } from './rpc-fixtures.js';

export interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
  /** Client port: equal ports mean the connection was reused. */
  remotePort: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Sent with JSON.stringify unless it is a string. */
  body?: unknown;
}

export type Handler = (req: Recorded, res: http.ServerResponse) => Reply | undefined | Promise<Reply | undefined>;

export interface TestServer {
  url: string;
  requests: Recorded[];
  handler: Handler;
  /** JSON-RPC convenience: answer every call by method with `result(params, req)`. */
  rpc(results: Record<string, (params: any, req: Recorded) => unknown>): void;
  close(): Promise<void>;
}

export async function startServer(handler: Handler = () => ({ status: 404, body: { error: 'no handler' } })): Promise<TestServer> {
  const requests: Recorded[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const state: { handler: Handler } = { handler };
  // one request's reply; a handler's error becomes a 500 here, so the promise never rejects
  const answer = async (req: http.IncomingMessage, res: http.ServerResponse, raw: string): Promise<void> => {
    const u = new URL(req.url ?? '/', 'http://x');
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const rec: Recorded = {
      method: req.method ?? '',
      path: u.pathname,
      query: Object.fromEntries(u.searchParams),
      headers: req.headers,
      raw,
      body,
      remotePort: req.socket.remotePort ?? 0,
    };
    requests.push(rec);
    try {
      const reply = await state.handler(rec, res);
      if (reply === undefined || res.headersSent || res.writableEnded) return;
      const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? null);
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(text);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(e));
    }
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void answer(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  const ts: TestServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    get handler() {
      return state.handler;
    },
    set handler(h: Handler) {
      state.handler = h;
    },
    rpc(results) {
      state.handler = (req) => {
        const calls = req.body;
        const fn = results[calls?.method];
        if (!fn) return { body: { jsonrpc: '2.0', id: calls?.id ?? null, error: { code: -32601, message: `Method not found: ${calls?.method}` } } };
        return { body: { jsonrpc: '2.0', id: calls.id, result: fn(calls.params, req) } };
      };
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  return ts;
}

/**
 * The usual setup of a client test file: a server started before the tests, a client on it (retries
 * without delay), the recorded requests cleared after each test, both closed at the end. `set`
 * receives them once started.
 *
 * @example
 * let srv: TestServer;
 * let client: CairnClient;
 * useServerAndClient((s, c) => ((srv = s), (client = c)));
 */
export function useServerAndClient(set: (srv: TestServer, client: CairnClient) => void): void {
  let srv: TestServer | undefined;
  let client: CairnClient | undefined;
  beforeAll(async () => {
    srv = await startServer();
    client = createClient({ url: srv.url, apiKey: API_KEY, retry: { delay: () => 1 } });
    set(srv, client);
  });
  afterEach(() => {
    if (srv) srv.requests.length = 0;
  });
  afterAll(async () => {
    await client?.close();
    await srv?.close();
  });
}
