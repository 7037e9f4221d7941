/**
 * Edge cases of the lean keep-alive client (src/rpc/transport/pool/pool.ts), driven through the transport so
 * the errors are the typed ones callers see. The server is a raw TCP server on 127.0.0.1 that
 * writes exact bytes: chunked bodies split anywhere, a keep-alive socket closed between requests,
 * a body cut mid-way, interim 1xx responses, malformed heads.
 */
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, BadResponseError, NetworkError, TimeoutError } from '../../src/errors/index.js';
import { createHttpPool } from '../../src/rpc/transport/pool/pool.js';
import { createTransport, type Transport } from '../../src/rpc/transport/create-transport.js';
import { API_KEY } from '../support/rpc-fixtures.js';

interface RawRequest {
  head: string;
  body: string;
  /** Index of the connection it came on (0-based, in accept order). */
  conn: number;
}
/** Answer one request by writing to the socket (any bytes, any timing). */
type RawHandler = (req: RawRequest, socket: net.Socket) => void;

let server: net.Server;
let url: string;
let handler: RawHandler;
const requests: RawRequest[] = [];
const sockets = new Set<net.Socket>();
let connections = 0;
let closedConnections = 0;

beforeAll(async () => {
  server = net.createServer((socket) => {
    const conn = connections++;
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closedConnections++;
    });
    socket.on('error', () => {});
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.slice(0, end);
        const len = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + len) return;
        const req = { head, body: Buffer.from(buf.slice(end + 4, end + 4 + len), 'latin1').toString('utf8'), conn };
        buf = buf.slice(end + 4 + len);
        requests.push(req);
        handler(req, socket);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
});
const open: Transport[] = [];
function transport(opts: Parameters<typeof createTransport>[0] = {}): Transport {
  const t = createTransport({ apiKey: API_KEY, retry: { retries: 0 }, ...opts });
  open.push(t);
  return t;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
  for (const s of sockets) s.destroy();
  requests.length = 0;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

const ok = (body: string, extra = ''): string =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
const until = async (cond: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('http-pool: bodies', () => {
  it('reads a chunked body split at every byte, with chunk extensions and trailers', async () => {
    handler = (_req, s) => {
      const text =
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n' +
        '7;ext=1\r\n{"a":[1\r\n' +
        'd\r\n,2,3],"b":"é\r\n' + // é is 2 bytes: 0xd bytes in all, split between two writes
        '2\r\n"}\r\n' +
        '0\r\nx-trailer: yes\r\n\r\n';
      const bytes = Buffer.from(text, 'utf8');
      let i = 0;
      const next = (): void => {
        if (i >= bytes.length || s.destroyed) return;
        s.write(bytes.subarray(i, ++i));
        setImmediate(next);
      };
      next();
    };
    const t = transport();
    const r = await t.request({ url, method: 'POST', body: '{"x":1}' });
    expect(r.body).toEqual({ a: [1, 2, 3], b: 'é' });
    expect(r.headers['transfer-encoding']).toBe('chunked');
    // the connection stays usable after a chunked response
    handler = (_req, s) => s.write(ok('2'));
    expect((await t.request({ url, method: 'GET' })).body).toBe(2);
    expect(new Set(requests.map((q) => q.conn)).size).toBe(1);
  });

  it('sends the request head the server expects: host, length, key only in the query', async () => {
    handler = (_req, s) => s.write(ok('{}'));
    await transport().request({ url: `${url}v0/x?limit=5`, method: 'POST', body: '{"é":1}' });
    const [line, ...headers] = requests[0]!.head.split('\r\n');
    expect(line).toBe(`POST /v0/x?limit=5&api-key=${API_KEY} HTTP/1.1`);
    expect(headers).toContain(`host: ${new URL(url).host}`);
    expect(headers).toContain('content-length: 8');
    expect(headers.join('\n')).not.toContain(API_KEY);
    expect(requests[0]!.body).toBe('{"é":1}');
  });

  it('reads a body delimited by the end of the connection, and skips an interim 100 Continue', async () => {
    handler = (_req, s) => {
      s.write('HTTP/1.1 100 Continue\r\n\r\n');
      s.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{"till":');
      setTimeout(() => s.end('"close"}'), 10);
    };
    const r = await transport().request({ url, method: 'GET' });
    expect(r.body).toEqual({ till: 'close' });
  });

  it('a 4xx/5xx is read in full and mapped as before (chunked 503 → ServerError after retries)', async () => {
    handler = (_req, s) =>
      s.write('HTTP/1.1 503 Service Unavailable\r\ntransfer-encoding: chunked\r\n\r\n10\r\n{"error":"busy"}\r\n0\r\n\r\n');
    const e = await transport({ retry: { retries: 1, delay: () => 1 } }).request({ url, method: 'GET' }).catch((x) => x);
    expect(e.code).toBe('RPC_SERVER');
    expect(e.message).toContain('busy');
    expect(e.context.attempts).toBe(2);
  });

  it('a malformed status line → NetworkError', async () => {
    handler = (_req, s) => s.write('HTP/9 ok\r\n\r\n');
    const e = await transport().request({ url, method: 'GET' }).catch((x) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.message).toMatch(/malformed HTTP status line/);
  });

  it('a chunked body cut off mid-chunk → truncated BadResponseError', async () => {
    handler = (_req, s) => {
      s.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n20\r\n{"part');
      setTimeout(() => s.destroy(), 10);
    };
    const e = await transport().request({ url, method: 'GET' }).catch((x) => x);
    expect(e).toBeInstanceOf(BadResponseError);
    expect(e.context.detail).toBe('truncated');
  });
});

describe('http-pool: size cap', () => {
  it('refuses a declared content-length over the cap without reading it, and closes that socket', async () => {
    handler = (_req, s) => s.write('HTTP/1.1 200 OK\r\ncontent-length: 5000\r\n\r\n');
    const closedBefore = closedConnections;
    const e = await transport({ maxResponseBytes: 1000 }).request({ url, method: 'GET' }).catch((x) => x);
    expect(e.code).toBe('RPC_RESPONSE_TOO_LARGE');
    expect(e.message).toContain('got at least 5000');
    await until(() => closedConnections > closedBefore);
    expect(closedConnections).toBeGreaterThan(closedBefore);
  });

  it('refuses a chunked body once it passes the cap (one big chunk, or many small ones)', async () => {
    handler = (_req, s) => s.write(`HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${(2000).toString(16)}\r\n`);
    const e1 = await transport({ maxResponseBytes: 1000 }).request({ url, method: 'GET' }).catch((x) => x);
    expect(e1.code).toBe('RPC_RESPONSE_TOO_LARGE');
    handler = (_req, s) => {
      s.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
      for (let i = 0; i < 20; i++) s.write(`64\r\n${'x'.repeat(100)}\r\n`);
    };
    const e2 = await transport({ maxResponseBytes: 1000 }).request({ url, method: 'GET' }).catch((x) => x);
    expect(e2.code).toBe('RPC_RESPONSE_TOO_LARGE');
  });

  it('accepts a body of exactly the cap', async () => {
    const body = `"${'y'.repeat(998)}"`;
    handler = (_req, s) => s.write(ok(body));
    const r = await transport({ maxResponseBytes: 1000 }).request({ url, method: 'GET' });
    expect(r.body).toBe('y'.repeat(998));
  });
});

describe('http-pool: connections', () => {
  it('a keep-alive socket the server closed between requests is replaced transparently (no retry spent)', async () => {
    handler = (_req, s) => s.write(ok('1'));
    const t = transport(); // retries: 0 — a failure would surface
    expect((await t.request({ url, method: 'POST', body: '{}' })).body).toBe(1);
    // the server drops the idle connection without telling us; the next request meets a dead socket
    // (closing on receipt, with no byte of answer, is what the client sees in that race)
    const first = requests[0]!.conn;
    handler = (req, s) => (req.conn === first ? s.destroy() : s.write(ok('2')));
    const r = await t.request({ url, method: 'POST', body: '{}' });
    expect(r.body).toBe(2);
    expect(r.attempts).toBe(1);
    expect(requests).toHaveLength(3);
    expect(requests.map((q) => q.conn === first)).toEqual([true, true, false]);
    // only once: a second dead connection in a row is an error for the retry policy to judge
    const second = requests[2]!.conn;
    handler = (_req, s) => s.destroy();
    const e = await t.request({ url, method: 'POST', body: '{}' }).catch((x) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect(requests.slice(3).map((q) => q.conn === second)).toEqual([true, false]);
  });

  it('a socket closed after part of the response was received is not replayed: typed error', async () => {
    handler = (_req, s) => s.write(ok('1'));
    const t = transport();
    await t.request({ url, method: 'GET' });
    handler = (_req, s) => {
      s.write('HTTP/1.1 200 OK\r\ncontent-le');
      setTimeout(() => s.destroy(), 10);
    };
    const e = await t.request({ url, method: 'GET' }).catch((x) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect(requests).toHaveLength(2);
  });

  it('a fresh connection closed with no answer is a NetworkError, retried by the policy only', async () => {
    handler = (_req, s) => s.destroy();
    const e = await transport({ retry: { retries: 2, delay: () => 1 } }).request({ url, method: 'GET' }).catch((x) => x);
    expect(e).toBeInstanceOf(NetworkError);
    expect(e.context.attempts).toBe(3);
    expect(requests).toHaveLength(3);
  });

  it('honours connection: close from the server, and the server’s Keep-Alive timeout', async () => {
    handler = (_req, s) => s.write(ok('1', 'connection: close\r\n'));
    const t = transport();
    await t.request({ url, method: 'GET' });
    await t.request({ url, method: 'GET' });
    expect(new Set(requests.map((q) => q.conn)).size).toBe(2);
    requests.length = 0;
    // timeout=1: an idle socket is dropped 1 s before the server would, i.e. at once
    handler = (_req, s) => s.write(ok('1', 'keep-alive: timeout=1\r\n'));
    await t.request({ url, method: 'GET' });
    await t.request({ url, method: 'GET' });
    expect(new Set(requests.map((q) => q.conn)).size).toBe(2);
  });

  it('keeps at most maxSockets connections and queues the rest in order', async () => {
    handler = (req, s) => setTimeout(() => s.write(ok(req.body)), 5);
    const t = transport({ maxSockets: 2 });
    const out = await Promise.all(Array.from({ length: 10 }, (_, i) => t.request({ url, method: 'POST', body: String(i) })));
    expect(out.map((r) => r.body)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(new Set(requests.map((q) => q.conn)).size).toBe(2);
  });

  it('close() destroys idle and busy sockets and fails what is in flight', async () => {
    handler = (req, s) => {
      if (req.body !== 'stall') s.write(ok('1'));
    };
    const t = transport();
    await t.request({ url, method: 'POST', body: 'x' });
    const stalled = t.request({ url, method: 'POST', body: 'stall' }).catch((x) => x);
    const other = t.request({ url, method: 'POST', body: 'x' });
    await other;
    await until(() => requests.length === 3);
    await t.close();
    const e = await stalled;
    expect(e).toBeInstanceOf(NetworkError);
    await until(() => sockets.size === 0);
    expect(sockets.size).toBe(0);
  });
});

describe('http-pool: abort and timeout', () => {
  it('abort mid-response rejects at once with AbortError and drops the socket', async () => {
    const ac = new AbortController();
    handler = (_req, s) => {
      s.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"half":');
      setTimeout(() => ac.abort(new Error('caller left')), 20);
    };
    const closedBefore = closedConnections;
    const e = await transport({ retry: { retries: 3, delay: () => 1 } })
      .request({ url, method: 'GET', signal: ac.signal })
      .catch((x) => x);
    expect(e).toBeInstanceOf(AbortError);
    expect(e.code).toBe('RPC_ABORTED');
    expect(e.message).toContain('caller left');
    expect(requests).toHaveLength(1);
    await until(() => closedConnections > closedBefore);
    expect(closedConnections).toBeGreaterThan(closedBefore);
  });

  it('a request waiting for a socket is aborted without ever being sent', async () => {
    handler = (req, s) => {
      if (req.body !== 'stall') s.write(ok('1'));
    };
    const t = transport({ maxSockets: 1 });
    const stalled = t.request({ url, method: 'POST', body: 'stall', timeoutMs: 2_000 }).catch((x) => x);
    const ac = new AbortController();
    const queued = t.request({ url, method: 'POST', body: 'queued', signal: ac.signal }).catch((x) => x);
    await until(() => requests.length === 1);
    ac.abort();
    expect(await queued).toBeInstanceOf(AbortError);
    expect(requests.map((q) => q.body)).toEqual(['stall']);
    await t.close();
    await stalled;
  });

  it('timeout mid-body → TimeoutError, retried per policy on a new connection', async () => {
    handler = (_req, s) => s.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{"slow":');
    const e = await transport({ retry: { retries: 1, delay: () => 1 } }).request({ url, method: 'GET', timeoutMs: 60 }).catch((x) => x);
    expect(e).toBeInstanceOf(TimeoutError);
    expect(e.code).toBe('RPC_TIMEOUT');
    expect(e.message).toContain('timed out after 60 ms');
    expect(requests).toHaveLength(2);
    expect(new Set(requests.map((q) => q.conn)).size).toBe(2);
  });
});

describe('http-pool: used directly', () => {
  it('reports failures as kinds and leaves nothing open after close()', async () => {
    handler = (_req, s) => s.write(ok('{"v":1}'));
    const pool = createHttpPool();
    const { port } = server.address() as net.AddressInfo;
    const base = { hostname: '127.0.0.1', port, host: `127.0.0.1:${port}`, path: '/', method: 'GET', timeoutMs: 1_000, maxBytes: 100 };
    const res = await new Promise<{ status: number; body: Buffer }>((resolve, reject) =>
      pool.request(base, (err, r) => (err ? reject(err) : resolve(r!))),
    );
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('{"v":1}');
    const kind = await new Promise((resolve) => pool.request({ ...base, maxBytes: 3 }, (err) => resolve(err?.kind)));
    expect(kind).toBe('too-large');
    pool.close();
    const after = await new Promise((resolve) => pool.request(base, (err) => resolve(err?.message)));
    expect(after).toMatch(/closed/);
  });
});
