/**
 * Defect 9: the devnet must not be able to turn one request into gigabytes. Batches are capped in
 * length and answers in size, bodies in bytes and JSON in nesting depth; every refusal is a JSON-RPC
 * error (or a 4xx on REST), never a 500 and never a crash — on HTTP and on the websocket alike.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import WebSocket from 'ws';
import { startDevnet, type Devnet, type DevnetOptions } from '../../src/devnet/index.js';

const devnets: Devnet[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const ws of sockets.splice(0)) ws.terminate();
  await Promise.all(devnets.splice(0).map((d) => d.stop()));
});
async function start(o: DevnetOptions = {}): Promise<Devnet> {
  const d = await startDevnet({ wsPortPlusOne: false, stateModules: false, slotMs: 200, ...o });
  devnets.push(d);
  return d;
}

async function post(url: string, body: string): Promise<{ status: number; text: string; json: any }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await res.text();
  return { status: res.status, text, json: JSON.parse(text) };
}

const zeros = (n: number) => `[${Array(n).fill('0').join(',')}]`;
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const getSlot = (id: number) => ({ jsonrpc: '2.0', id, method: 'getSlot' });

describe('JSON-RPC batches', () => {
  it('refuses a 4 MB batch of 0s with one small -32600 error instead of 2M answers', async () => {
    const d = await start();
    const body = zeros(1_999_000);
    expect(body.length).toBeGreaterThan(3.9e6);
    const r = await post(d.url, body);
    expect(r.status).toBe(200);
    expect(r.text.length).toBeLessThan(1000);
    expect(r.json.error.code).toBe(-32600);
    expect(r.json.error.message).toMatch(/batch.*1000/);
    // refused before it ran: nothing of it reached the request log
    expect(d.control.requestLog().filter((e) => e.endpoint === 'rpc')).toHaveLength(1);
  });

  it('caps the batch length at 1,000 calls by default and at limits.maxBatchLength when set', async () => {
    const d = await start();
    const over = await post(d.url, zeros(1001));
    expect(over.json.error.code).toBe(-32600);
    const atCap = await post(d.url, JSON.stringify(Array.from({ length: 1000 }, (_, i) => getSlot(i))));
    expect(atCap.json).toHaveLength(1000);
    expect(atCap.json[999]).toMatchObject({ id: 999, result: expect.any(Number) });

    const small = await start({ limits: { maxBatchLength: 3 } });
    expect((await post(small.url, JSON.stringify([1, 2, 3].map(getSlot)))).json).toHaveLength(3);
    const four = await post(small.url, JSON.stringify([1, 2, 3, 4].map(getSlot)));
    expect(four.status).toBe(200);
    expect(four.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(four.json.error.message).toMatch(/batch of 4 calls.*limit.*3/);
    // /fast holds to the same cap
    const fast = await post(`${small.url}/fast`, zeros(4));
    expect(fast.json.error.code).toBe(-32600);
  });

  it('answers -32603 once a response would pass limits.maxResponseBytes, and stops running the batch', async () => {
    const d = await start({ limits: { maxResponseBytes: 4096 } });
    const r = await post(d.url, JSON.stringify(Array.from({ length: 500 }, (_, i) => getSlot(i))));
    expect(r.status).toBe(200);
    expect(r.text.length).toBeLessThan(1000);
    expect(r.json).toMatchObject({ id: null, error: { code: -32603, data: { maxResponseBytes: 4096 } } });
    const ran = r.json.error.data.callsRun as number;
    expect(ran).toBeGreaterThan(10);
    expect(ran).toBeLessThan(500);
    expect(r.json.error.message).toMatch(new RegExp(`${ran} of 500 calls ran`));
    expect(d.control.requestLog().filter((e) => e.method === 'getSlot')).toHaveLength(ran);

    // a single call whose answer alone is too large keeps its id
    const tiny = await start({ limits: { maxResponseBytes: 64 } });
    const one = await post(tiny.url, JSON.stringify({ jsonrpc: '2.0', id: 'bh', method: 'getLatestBlockhash' }));
    expect(one.json).toMatchObject({ id: 'bh', error: { code: -32603 } });
    expect(one.json.error.message).toMatch(/larger than 64 bytes/);
  });
});

describe('request bodies', () => {
  it('answers 413 with a JSON-RPC error for a declared Content-Length over the cap', async () => {
    const d = await start({ limits: { maxBodyBytes: 1024 } });
    const r = await post(d.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot', params: ['x'.repeat(2000)] }));
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(r.json.error.message).toMatch(/1024 bytes/);
    const rest = await fetch(`${d.url}/v0/webhooks`, { method: 'POST', body: 'x'.repeat(2000) });
    expect(rest.status).toBe(413);
    expect(((await rest.json()) as any).error).toMatch(/1024 bytes/);
  });

  it('answers 413 to an endless chunked body without waiting for its end, and closes the connection', async () => {
    const d = await start({ limits: { maxBodyBytes: 64 * 1024 } });
    const { status, sent } = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0;
      const req = request(d.url, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
      const chunk = Buffer.alloc(16 * 1024, 0x20);
      const pump = () => {
        // stops when the answer came (or the server hung up); a server that buffers forever never answers
        while (!req.destroyed && sent < 256 * 2 ** 20) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
      };
      req.on('response', (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, sent });
        req.destroy();
      });
      req.on('error', (e) => (sent > 0 ? resolve({ status: -1, sent }) : reject(e)));
      pump();
    });
    expect(status).toBe(413);
    expect(sent).toBeLessThan(64 * 2 ** 20);
  });

  it('rejects a cap that is not a positive integer, naming the field', async () => {
    await expect(startDevnet({ limits: { maxBatchLength: 0 } })).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'limits.maxBatchLength' } });
    await expect(startDevnet({ limits: { maxBodyBytes: 1.5 } })).rejects.toMatchObject({ context: { field: 'limits.maxBodyBytes' } });
    await expect(startDevnet({ limits: { maxResponseBytes: 2 ** 40 } })).rejects.toMatchObject({ context: { field: 'limits.maxResponseBytes' } });
    await expect(startDevnet({ limits: { maxJsonDepth: -1 } })).rejects.toMatchObject({ context: { field: 'limits.maxJsonDepth' } });
  });
});

describe('deep and odd JSON', () => {
  it('answers an id nested 100k deep with -32600, not a 500', async () => {
    const d = await start();
    const r = await post(d.url, `{"jsonrpc":"2.0","id":${nested(100_000)},"method":"getSlot"}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(r.json.error.message).toMatch(/nested deeper than 64/);
  });

  it('answers -32600 to an id that is not a string, number or null, whatever its depth', async () => {
    const d = await start();
    for (const id of [[1], { a: 1 }, true]) {
      const r = await post(d.url, JSON.stringify({ jsonrpc: '2.0', id, method: 'getSlot' }));
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ id: null, error: { code: -32600 } });
      expect(r.json.error.message).toMatch(/"id"/);
    }
    expect((await post(d.url, JSON.stringify({ jsonrpc: '2.0', id: null, method: 'getSlot' }))).json.result).toEqual(expect.any(Number));
  });

  it('refuses deep params, and deep unterminated JSON, with a JSON-RPC error', async () => {
    const d = await start({ limits: { maxJsonDepth: 8 } });
    const deep = await post(d.url, `{"jsonrpc":"2.0","id":1,"method":"getSlot","params":${nested(8)}}`);
    expect(deep.json.error.code).toBe(-32600);
    const ok = await post(d.url, `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":${nested(6)}}`);
    expect(ok.json.error.code).toBe(-32602); // within the cap: reaches the method's own checks
    const open = await post(d.url, '['.repeat(50_000));
    expect(open.status).toBe(200);
    expect([-32600, -32700]).toContain(open.json.error.code);
    // brackets inside strings are text, not nesting
    const inString = await post(d.url, JSON.stringify({ jsonrpc: '2.0', id: '[[[[[[[[[[[[', method: 'getSlot' }));
    expect(inString.json).toMatchObject({ id: '[[[[[[[[[[[[', result: expect.any(Number) });
  });

  it('refuses a method name too long to be one, and keeps it out of the request log', async () => {
    const d = await start();
    const name = 'x'.repeat(1_000_000);
    const r = await post(d.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: name }));
    expect(r.json.error.code).toBe(-32600);
    expect(r.text.length).toBeLessThan(1000);
    expect(JSON.stringify(d.control.requestLog()).length).toBeLessThan(1000);
  });

  it('answers a deep REST body with 400', async () => {
    const d = await start();
    const r = await fetch(`${d.url}/v0/token-metadata`, { method: 'POST', body: `{"mintAccounts":${nested(100_000)}}` });
    expect(r.status).toBe(400);
    expect(((await r.json()) as any).error).toMatch(/nested deeper than 64/);
  });
});

describe('websocket', () => {
  async function open(d: Devnet): Promise<{ ws: WebSocket; next: () => Promise<any>; closed: Promise<number> }> {
    const ws = new WebSocket(d.wsUrl);
    sockets.push(ws);
    const queue: any[] = [];
    const waiting: ((v: any) => void)[] = [];
    ws.on('message', (m) => {
      const v = JSON.parse(String(m));
      const w = waiting.shift();
      if (w) w(v);
      else queue.push(v);
    });
    const closed = new Promise<number>((r) => ws.on('close', (code) => r(code)));
    ws.on('error', () => {});
    await new Promise((r, j) => {
      ws.once('open', r);
      ws.once('error', j);
    });
    const next = () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => waiting.push(r)));
    return { ws, next, closed };
  }

  it('answers a deep id, a batch and a bad id with -32600 and keeps serving (no crash)', async () => {
    const d = await start();
    const { ws, next } = await open(d);
    ws.send(`{"jsonrpc":"2.0","id":${nested(100_000)},"method":"slotSubscribe"}`);
    expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
    ws.send(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' }]));
    expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'slotSubscribe' }));
    expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'slotSubscribe' }));
    expect(await next()).toMatchObject({ id: 7, result: expect.any(Number) });
  });

  it('answers a message that is null or not an object with -32600 (no crash)', async () => {
    const d = await start();
    const { ws, next } = await open(d);
    for (const m of ['null', '5', '"x"']) {
      ws.send(m);
      expect(await next()).toMatchObject({ id: null, error: { code: -32600 } });
    }
  });

  it('refuses subscriptions past limits.maxSubscriptions, counting every connection', async () => {
    const d = await start({ limits: { maxSubscriptions: 3 } });
    const a = await open(d);
    const b = await open(d);
    for (const [c, id] of [[a, 1], [a, 2], [b, 3]] as const) {
      c.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'slotSubscribe' }));
      expect(await c.next()).toMatchObject({ id, result: expect.any(Number) });
    }
    b.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'slotSubscribe' }));
    expect(await b.next()).toMatchObject({ id: 4, error: { code: -32603 } });
    // a closed connection gives its subscriptions back
    a.ws.close();
    await a.closed;
    await new Promise((r) => setTimeout(r, 50));
    b.ws.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'slotSubscribe' }));
    let answer = await b.next();
    while (answer.method === 'slotNotification') answer = await b.next();
    expect(answer).toMatchObject({ id: 5, result: expect.any(Number) });
  });

  it('refuses a signature that cannot be one instead of storing it', async () => {
    const d = await start();
    const { ws, next } = await open(d);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'signatureSubscribe', params: ['1'.repeat(500_000)] }));
    const r = await next();
    expect(r).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(JSON.stringify(r).length).toBeLessThan(1000);
  });

  it('closes the connection (1009) on a message over 1 MiB', async () => {
    const d = await start();
    const { ws, closed } = await open(d);
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 'x'.repeat(2 ** 20), method: 'slotSubscribe' }));
    expect(await closed).toBe(1009);
  });

  it('drops a client that never reads once its unsent answers pass the response cap', async () => {
    const d = await start({ limits: { maxResponseBytes: 256 * 1024 } });
    const { ws, closed } = await open(d);
    // stop reading: every answer (each echoing a 100 KB id) piles up on the devnet's side
    (ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const id = 'i'.repeat(100_000);
    let sent = 0;
    const outcome = await Promise.race([
      closed.then(() => 'closed'),
      (async () => {
        for (; sent < 2000 && ws.readyState === ws.OPEN; sent++) {
          ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'nope' }));
          if (sent % 20 === 19) await new Promise((r) => setTimeout(r, 5));
        }
        return 'not dropped';
      })(),
    ]);
    (ws as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(outcome === 'closed' || ws.readyState !== ws.OPEN).toBe(true);
    expect(sent).toBeLessThan(2000);
  });
});

describe('memory under concurrent abuse', () => {
  it('ten 4 MB batches of 0s at once, then ten batches that fill the answer cap, keep a child-process devnet under 400 MB peak RSS', async () => {
    const p = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'support', 'children', 'devnet-child.ts')], {
      env: { ...process.env, CAIRN_RSS_GUARD_MB: '1500' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    const waiters: ((l: string) => void)[] = [];
    let buf = '';
    let err = '';
    p.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      for (let at; (at = buf.indexOf('\n')) >= 0; buf = buf.slice(at + 1)) {
        const line = buf.slice(0, at);
        const w = waiters.shift();
        if (w) w(line);
        else lines.push(line);
      }
    });
    p.stderr.on('data', (c: Buffer) => (err += c.toString()));
    p.stdin.on('error', () => {}); // a child stopped by its RSS guard has no stdin left
    const exited = new Promise<number | null>((r) => p.on('exit', (code) => r(code)));
    const nextLine = () =>
      Promise.race([
        lines.length ? Promise.resolve(lines.shift()!) : new Promise<string>((r) => waiters.push(r)),
        exited.then((code) => `exit ${code}: ${err.slice(-1000)}`),
      ]);
    try {
      const url = await nextLine();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const body = zeros(1_999_000);
      const t0 = performance.now();
      const answers = await Promise.allSettled(Array.from({ length: 10 }, () => post(url, body)));
      const ms = performance.now() - t0;
      // Then ten batches of calls that each answer ~130 KB (the SPL Token program's programdata,
      // whose address the program account holds at bytes 4..36): each fills the answer cap.
      const token = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', { encoding: 'base64' }] }));
      const programData = bs58.encode(Buffer.from(token.json.result.value.data[0], 'base64').subarray(4, 36));
      const big = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'getAccountInfo', params: [programData, { encoding: 'base64' }] })));
      const t1 = performance.now();
      const filled = await Promise.allSettled(Array.from({ length: 10 }, () => post(url, big)));
      const ms1 = performance.now() - t1;
      p.stdin.write('report\n');
      const report = JSON.parse(await nextLine()) as { maxRssMb?: number; guardTripped?: number };
      console.log(
        `devnet child: ten concurrent 4 MB batches of 0s answered in ${ms.toFixed(0)} ms, ten cap-filling batches in ${ms1.toFixed(0)} ms; ` +
          `peak RSS ${report.maxRssMb ?? `> ${report.guardTripped}`} MB`,
      );
      expect(report.guardTripped).toBeUndefined();
      for (const a of answers) {
        expect(a.status).toBe('fulfilled');
        if (a.status === 'fulfilled') expect(a.value.json.error.code).toBe(-32600);
      }
      for (const a of filled) {
        expect(a.status).toBe('fulfilled');
        if (a.status === 'fulfilled') expect(a.value.json.error).toMatchObject({ code: -32603, data: { maxResponseBytes: 8 * 2 ** 20 } });
      }
      expect(report.maxRssMb).toBeLessThan(400);
      expect(await exited).toBe(0);
    } finally {
      p.kill();
    }
  });
});
