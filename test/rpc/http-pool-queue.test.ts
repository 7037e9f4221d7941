/**
 * Direct tests of which connection runs a job (src/rpc/transport/pool/queue.ts) with real connections
 * (socket.ts) to a loopback server, and of the request bytes (request.ts): the
 * warmest idle connection first, an expired one dropped, the queue's order and `maxSockets`, a closed
 * pool's connections destroyed rather than parked.
 */
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HttpFailure } from '../../src/rpc/transport/pool/failure.js';
import { settle, type Job, type Origin, type PoolResponse } from '../../src/rpc/transport/pool/job.js';
import { createPoolQueue, WARM_REUSE_MS } from '../../src/rpc/transport/pool/queue.js';
import { requestText } from '../../src/rpc/transport/pool/request.js';
import type { Connection } from '../../src/rpc/transport/pool/socket.js';

let server: net.Server;
let port: number;
/** Each request as received: its first line and the index of the connection it came on. */
const seen: { line: string; conn: number }[] = [];
const sockets = new Set<net.Socket>();
/** Answer after this many ms (0: at once). */
let delayMs = 0;

beforeAll(async () => {
  let n = 0;
  server = net.createServer((socket) => {
    const conn = n++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      for (let end = buf.indexOf('\r\n\r\n'); end >= 0; end = buf.indexOf('\r\n\r\n')) {
        seen.push({ line: buf.slice(0, buf.indexOf('\r\n')), conn });
        buf = buf.slice(end + 4);
        const answer = (): void => void (socket.destroyed || socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'));
        if (delayMs > 0) setTimeout(answer, delayMs);
        else answer();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as net.AddressInfo).port;
});
afterEach(() => {
  for (const s of sockets) s.destroy();
  seen.length = 0;
  delayMs = 0;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

const newOrigin = (): Origin => ({ key: `127.0.0.1:${port}`, hostname: '127.0.0.1', port, all: new Set(), idle: [], count: 0, queue: [] });

/** Run one GET of `path` through `queue`; resolves with the answer or the failure. */
function run(
  queue: ReturnType<typeof createPoolQueue>,
  origin: Origin,
  path: string,
  kind: { idempotent?: false; warmConnection?: true } = {},
): Promise<PoolResponse | HttpFailure> {
  return new Promise((resolve) => {
    const req = { hostname: '127.0.0.1', port, host: `127.0.0.1:${port}`, path, method: 'GET', timeoutMs: 2_000, maxBytes: 100, ...kind };
    const job: Job = {
      req,
      done: (err, res) => resolve(err ?? res!),
      origin,
      conn: undefined,
      timer: undefined,
      onAbort: undefined,
      resent: false,
      settled: false,
    };
    job.timer = setTimeout(() => settle(job, null), 2_000);
    queue.dispatch(job);
  });
}
const closeAll = (o: Origin): void => [...o.all].forEach((c) => c.kill());

describe('http-pool-queue', () => {
  it('reuses the most recently idle connection first (LIFO)', async () => {
    const queue = createPoolQueue({ keepAlive: true, maxSockets: 8 });
    const o = newOrigin();
    delayMs = 5;
    await Promise.all([run(queue, o, '/a'), run(queue, o, '/b')]);
    expect(o.count).toBe(2);
    expect(o.idle).toHaveLength(2);
    const [colder, warmest] = o.idle as Connection[];
    delayMs = 0;
    await run(queue, o, '/c');
    // the warmest was taken and put back on top; taken FIFO, the colder one would be on top now
    expect(o.idle[0]).toBe(colder);
    expect(o.idle[1]).toBe(warmest);
    expect(o.count).toBe(2);
    closeAll(o);
    expect(o.count).toBe(0);
  });

  it('drops an idle connection past its expiry and opens another', async () => {
    const queue = createPoolQueue({ keepAlive: true, maxSockets: 8 });
    const o = newOrigin();
    await run(queue, o, '/a');
    const old = o.idle[0]!;
    old.expiresAt = performance.now() - 1;
    await run(queue, o, '/b');
    expect(old.dead).toBe(true);
    expect(new Set(seen.map((s) => s.conn)).size).toBe(2);
    expect(o.count).toBe(1);
    closeAll(o);
  });

  it('a state-changing request opens a fresh connection; a signed transaction takes one used a moment ago, never an older one', async () => {
    const queue = createPoolQueue({ keepAlive: true, maxSockets: 8 });
    const o = newOrigin();
    await run(queue, o, '/read');
    await run(queue, o, '/mint', { idempotent: false });
    const [read, mint] = seen.map((r) => r.conn);
    expect(mint).not.toBe(read); // the idle one was skipped
    await run(queue, o, '/send', { idempotent: false, warmConnection: true });
    expect(seen[2]!.conn).toBe(mint); // the warmest, idle for a moment
    const warmest = o.idle[o.idle.length - 1]!;
    for (const c of o.idle) c.idleSince = performance.now() - WARM_REUSE_MS - 1;
    await run(queue, o, '/send', { idempotent: false, warmConnection: true });
    expect([read, mint]).not.toContain(seen[3]!.conn); // idle too long: the server may be closing it
    expect(warmest.dead).toBe(false);
    closeAll(o);
  });

  it('keeps at most maxSockets open; waiting jobs run in order as connections free up', async () => {
    const queue = createPoolQueue({ keepAlive: true, maxSockets: 1 });
    const o = newOrigin();
    delayMs = 5;
    const out = await Promise.all(['/1', '/2', '/3'].map((p) => run(queue, o, p)));
    expect(out.every((r) => 'status' in r && r.status === 200)).toBe(true);
    expect(seen.map((s) => s.line)).toEqual(['GET /1 HTTP/1.1', 'GET /2 HTTP/1.1', 'GET /3 HTTP/1.1']);
    expect(new Set(seen.map((s) => s.conn)).size).toBe(1);
    closeAll(o);
  });

  it('once closed, a connection that finishes its job is destroyed, not parked', async () => {
    const queue = createPoolQueue({ keepAlive: true, maxSockets: 8 });
    const o = newOrigin();
    delayMs = 20;
    const pending = run(queue, o, '/a');
    queue.closed = true;
    const res = await pending;
    expect('status' in res && res.status).toBe(200);
    expect(o.idle).toHaveLength(0);
    expect(o.all.size).toBe(0);
    expect(o.count).toBe(0);
  });
});

describe('http-pool-request', () => {
  const base = { hostname: '127.0.0.1', port: 1, host: '127.0.0.1:1', path: '/p?q=1', timeoutMs: 1, maxBytes: 1 };
  it('a GET carries no body headers; keepAlive off asks the server to close', () => {
    expect(requestText({ ...base, method: 'GET' }, true)).toBe('GET /p?q=1 HTTP/1.1\r\nhost: 127.0.0.1:1\r\naccept: application/json\r\n\r\n');
    expect(requestText({ ...base, method: 'GET' }, false)).toBe('GET /p?q=1 HTTP/1.1\r\nhost: 127.0.0.1:1\r\naccept: application/json\r\nconnection: close\r\n\r\n');
  });
  it('a body follows its head in the same string, its length in bytes', () => {
    expect(requestText({ ...base, method: 'POST', body: '"é"' }, true)).toBe(
      'POST /p?q=1 HTTP/1.1\r\nhost: 127.0.0.1:1\r\naccept: application/json\r\ncontent-type: application/json\r\ncontent-length: 4\r\n\r\n"é"',
    );
  });
});
