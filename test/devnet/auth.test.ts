import { afterEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createAuth } from '../../src/devnet/http/auth.js';
import { newAddress } from '../support/devnet.js';

const devnets: Devnet[] = [];
afterEach(async () => {
  await Promise.all(devnets.splice(0).map((d) => d.stop()));
});
async function start(o: Parameters<typeof startDevnet>[0]): Promise<Devnet> {
  const d = await startDevnet({ wsPortPlusOne: false, stateModules: false, ...o });
  devnets.push(d);
  return d;
}
const post = (url: string, body: unknown = { jsonrpc: '2.0', id: '1', method: 'getSlot', params: [] }) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('API keys', () => {
  it('is open with no keys configured', async () => {
    const d = await start({ slotMs: 50 });
    expect((await post(d.url)).status).toBe(200);
  });

  it('answers 401 for a missing or unknown key, 403 for an endpoint or IP not allowed', async () => {
    const d = await start({
      slotMs: 50,
      keys: [
        { key: 'good-key', name: 'ci' },
        { key: 'rpc-only', endpoints: ['rpc'] },
        { key: 'office-only', allowIps: ['10.0.0.0/8'] },
      ],
    });
    const missing = await post(d.url);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as any).error.message).toMatch(/missing API key/);
    const unknown = await post(`${d.url}/?api-key=nope-nope`);
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).not.toContain('nope-nope');
    expect((await post(`${d.url}/?api-key=good-key`)).status).toBe(200);
    const rest = await fetch(`${d.url}/v1/wallet/${newAddress()}/transfers?api-key=rpc-only`);
    expect(rest.status).toBe(403);
    expect(((await rest.json()) as any).error).toMatch(/wallet endpoint/);
    expect((await post(`${d.url}/?api-key=office-only`)).status).toBe(403);
    // /fast and /ping need no key
    expect((await fetch(`${d.url}/ping`)).status).toBe(200);
    const fast = await post(`${d.url}/fast`, { jsonrpc: '2.0', id: '1', method: 'sendTransaction', params: ['x', { encoding: 'base64', maxRetries: 0 }] });
    expect(fast.status).toBe(400); // reached the rules, not the key check
  });

  it('gives a 5 rps key 429s with Retry-After beyond its rate', async () => {
    const d = await start({ slotMs: 50, keys: [{ key: 'five-rps', rps: 5 }] });
    const t0 = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 15 }, async () => {
        const r = await post(`${d.url}/?api-key=five-rps`);
        const body = (await r.json()) as any;
        return { status: r.status, retryAfter: r.headers.get('retry-after'), code: body.error?.code };
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const statuses = answers.map((a) => a.status);
    const passed = statuses.filter((s) => s === 200).length;
    // a bucket of 5 plus whatever refilled at 5 rps while the requests were in flight
    expect(passed).toBeGreaterThanOrEqual(5);
    expect(passed).toBeLessThanOrEqual(5 + Math.ceil(seconds * 5));
    expect(passed).toBeLessThan(15);
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(a.code).toBe(-32005);
    }
    expect(d.control.requestLog().filter((e) => e.status === 429).length).toBe(statuses.filter((s) => s === 429).length);
  });

  it('refills the bucket over time (token bucket, injected clock)', () => {
    let now = 0;
    const auth = createAuth([{ key: 'k-rate', rps: 5, burst: 2 }], () => now);
    expect(auth.check('rpc', 'k-rate', '127.0.0.1').ok).toBe(true);
    expect(auth.check('rpc', 'k-rate', '127.0.0.1').ok).toBe(true);
    const third = auth.check('rpc', 'k-rate', '127.0.0.1');
    expect(third).toMatchObject({ ok: false, status: 429, retryAfterSeconds: 1 });
    now += 200; // one token at 5 rps
    expect(auth.check('rpc', 'k-rate', '127.0.0.1').ok).toBe(true);
    expect(() => createAuth([{ key: 'x y z', rps: 1 }])).toThrow(/keys.key/);
    expect(() => createAuth([{ key: 'abcd', rps: -1 }])).toThrow(/keys.rps/);
  });
});
