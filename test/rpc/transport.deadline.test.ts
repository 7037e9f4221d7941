/**
 * Every call has an overall deadline: all attempts, backoff waits and Retry-After waits together.
 * Past it the call fails with RPC_DEADLINE whose cause is the last failure; a wait that would end
 * past it fails at once; an abort still wins at once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AbortError, CairnError, RateLimitedError, ServerError, TimeoutError } from '../../src/errors/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { createTransport, type Transport } from '../../src/rpc/transport/create-transport.js';
import { API_KEY, addr, sig } from '../support/rpc-fixtures.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

let srv: TestServer;
const open: { close(): Promise<void> }[] = [];
const track = <T extends Transport | CairnClient>(x: T): T => (open.push(x), x);
const hits = (path: string) => srv.requests.filter((r) => r.path === path).length;

beforeAll(async () => {
  srv = await startServer();
});
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((x) => x.close()));
  srv.requests.length = 0;
});
afterAll(() => srv.close());

async function failure(p: Promise<unknown>): Promise<{ e: CairnError; ms: number }> {
  const t0 = performance.now();
  const e = await p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(CairnError);
  return { e: e as CairnError, ms: performance.now() - t0 };
}

describe('per-call deadline', () => {
  it('a Retry-After longer than the time left fails at once with RPC_DEADLINE, the 429 as its cause', async () => {
    srv.handler = () => ({ status: 429, headers: { 'retry-after': '5' }, body: { error: 'slow down' } });
    const t = track(createTransport({ apiKey: API_KEY, deadlineMs: 1_000, retry: { retries: 1 } }));
    const { e, ms } = await failure(t.request({ url: `${srv.url}/ra`, method: 'GET' }));
    expect(e.code).toBe('RPC_DEADLINE');
    expect(e.cause).toBeInstanceOf(RateLimitedError);
    expect((e.cause as RateLimitedError).context.retryAfterMs).toBe(5_000);
    expect(e.context).toMatchObject({ deadlineMs: 1_000, attempts: 1, method: 'GET' });
    expect(hits('/ra')).toBe(1);
    expect(ms).toBeLessThan(800);
  });

  it('by default one call ends within 60 s even when every answer is 429 Retry-After: 50 (fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    srv.handler = () => ({ status: 429, headers: { 'retry-after': '50' }, body: { error: 'slow down' } });
    let waiting!: () => void;
    let scheduled = new Promise<void>((r) => (waiting = r));
    const t = track(createTransport({ apiKey: API_KEY, logger: (l) => l.includes('retrying in') && waiting() }));
    const start = performance.now();
    let settledAt = -1;
    const p = t.request({ url: `${srv.url}/ra50`, method: 'GET' }).catch((x: unknown) => ((settledAt = performance.now()), x));
    for (let i = 0; i < 4 && settledAt < 0; i++) {
      await Promise.race([scheduled, p]);
      scheduled = new Promise<void>((r) => (waiting = r));
      await vi.advanceTimersByTimeAsync(50_000);
    }
    vi.useRealTimers();
    const e = (await p) as CairnError;
    expect(e.code).toBe('RPC_DEADLINE');
    expect(e.cause).toBeInstanceOf(RateLimitedError);
    expect(settledAt - start).toBeLessThanOrEqual(60_000);
    expect(hits('/ra50')).toBe(2);
  });

  it('an attempt in flight is cut at the deadline: RPC_DEADLINE, the timeout as its cause', { timeout: 10_000 }, async () => {
    srv.handler = () => new Promise(() => {}); // never answers
    const t = track(createTransport({ apiKey: API_KEY, deadlineMs: 300 }));
    const { e, ms } = await failure(t.request({ url: `${srv.url}/stall`, method: 'GET' }));
    expect(e.code).toBe('RPC_DEADLINE');
    expect(e.cause).toBeInstanceOf(TimeoutError);
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(1_500);
  });

  it('backoff waits count: 503 every time fails by the deadline, the last 503 as its cause', { timeout: 10_000 }, async () => {
    srv.handler = () => ({ status: 503, body: 'busy' });
    const t = track(createTransport({ apiKey: API_KEY, deadlineMs: 500, retry: { retries: 10, delay: () => 150 } }));
    const { e, ms } = await failure(t.request({ url: `${srv.url}/busy`, method: 'GET' }));
    expect(e.code).toBe('RPC_DEADLINE');
    expect(e.cause).toBeInstanceOf(ServerError);
    expect(hits('/busy')).toBeGreaterThanOrEqual(2);
    expect(hits('/busy')).toBeLessThanOrEqual(4);
    expect(ms).toBeLessThan(1_000);
  });

  it('the client option and a per-call deadlineMs, which wins', { timeout: 10_000 }, async () => {
    srv.handler = () => new Promise(() => {});
    const c = track(createClient({ url: srv.url, apiKey: API_KEY, deadlineMs: 250 }));
    const a = await failure(c.getSlot());
    expect(a.e.code).toBe('RPC_DEADLINE');
    expect(a.ms).toBeLessThan(1_500);
    const b = await failure(c.getSlot({}, { deadlineMs: 100 }));
    expect(b.e.code).toBe('RPC_DEADLINE');
    expect(b.e.context).toMatchObject({ deadlineMs: 100 });
    // the client's deadline holds over a transport of one's own too (whose default is 60 s)
    const own = track(createTransport({ apiKey: API_KEY }));
    const d = await failure(track(createClient({ url: srv.url, apiKey: API_KEY, deadlineMs: 150, transport: own })).getSlot());
    expect(d.e.context).toMatchObject({ deadlineMs: 150 });
    expect(d.ms).toBeLessThan(1_500);
  });

  it('REST calls and ping take a per-call deadlineMs too', { timeout: 10_000 }, async () => {
    srv.handler = () => new Promise(() => {});
    const c = track(createClient({ url: srv.url, apiKey: API_KEY, deadlineMs: 30_000 }));
    const calls: [string, Promise<unknown>][] = [
      ['getWalletTransfers', c.getWalletTransfers({ wallet: addr(1) }, { deadlineMs: 120 })],
      ['ping', c.ping({ deadlineMs: 120 })],
    ];
    for (const [name, p] of calls) {
      const r = await failure(p);
      expect(r.e.code, name).toBe('RPC_DEADLINE');
      expect(r.e.context, name).toMatchObject({ deadlineMs: 120 });
    }
  });

  it('a call split into several requests shares one deadline', { timeout: 10_000 }, async () => {
    // four chunks of statuses, one at a time, each answered after 200 ms: 800 ms in all, deadline 450 ms
    srv.handler = (r) => new Promise((ok) => setTimeout(() => ok({ body: { jsonrpc: '2.0', id: r.body.id, result: { context: { slot: 1 }, value: r.body.params[0].map(() => null) } } }), 200));
    const c = track(createClient({ url: srv.url, apiKey: API_KEY, batchConcurrency: 1 }));
    const sigs = Array.from({ length: 3 * 256 + 1 }, (_, i) => sig(i));
    const { e, ms } = await failure(c.getSignatureStatuses(sigs, undefined, { deadlineMs: 450 }));
    expect(e.code).toBe('RPC_DEADLINE');
    expect(ms).toBeLessThan(700);
  });

  it('an abort still wins at once, during a Retry-After wait', async () => {
    srv.handler = () => ({ status: 429, headers: { 'retry-after': '3' }, body: {} });
    const ac = new AbortController();
    const t = track(createTransport({ apiKey: API_KEY, deadlineMs: 10_000, logger: (l) => l.includes('retrying in') && setTimeout(() => ac.abort(), 20) }));
    const { e, ms } = await failure(t.request({ url: `${srv.url}/abort`, method: 'GET', signal: ac.signal }));
    expect(e).toBeInstanceOf(AbortError);
    expect(ms).toBeLessThan(1_000);
  });

  it('a call that succeeds is untouched by its deadline', async () => {
    srv.rpc({ getSlot: () => 7 });
    const c = track(createClient({ url: srv.url, apiKey: API_KEY, deadlineMs: 5_000 }));
    expect(await c.getSlot({}, { deadlineMs: 2_000 })).toBe(7);
  });

  it('bad deadlines are refused, naming the field', async () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '100' as unknown as number, 2 ** 31]) {
      expect(() => createTransport({ deadlineMs: bad }), String(bad)).toThrow(expect.objectContaining({ code: 'INPUT_INVALID', context: expect.objectContaining({ field: 'deadlineMs' }) }));
      expect(() => createClient({ url: srv.url, deadlineMs: bad }), String(bad)).toThrow(expect.objectContaining({ context: expect.objectContaining({ field: 'deadlineMs' }) }));
    }
    const c = track(createClient({ url: srv.url }));
    await expect(c.getSlot({}, { deadlineMs: -5 })).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'deadlineMs' } });
    expect(hits('/')).toBe(0);
  });
});
