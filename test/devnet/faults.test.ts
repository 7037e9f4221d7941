import { afterEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createFaults } from '../../src/devnet/faults/endpoints.js';
import { buildTx, fastParams, rpc, LAMPORTS_PER_SOL, newAddress, newKeypair } from '../support/devnet.js';

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

describe('faults', () => {
  it('a latency range draws each request uniformly from its own stream, leaving the seed\'s fault sequence as it was', () => {
    const plain = createFaults(7, { fast: { dropRate: 0.2, rateLimitRate: 0.1, serverErrorRate: 0.05 } });
    const ranged = createFaults(7, { fast: { dropRate: 0.2, rateLimitRate: 0.1, serverErrorRate: 0.05, latencyMs: 0, latencyMaxMs: 200 } });
    const lat: number[] = [];
    for (let i = 0; i < 2_000; i++) {
      const a = plain.decide('fast');
      const b = ranged.decide('fast');
      expect({ ...b, latencyMs: 0 }).toEqual({ ...a, latencyMs: 0 });
      lat.push(b.latencyMs);
    }
    expect(Math.min(...lat)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...lat)).toBeLessThanOrEqual(200);
    const mean = lat.reduce((x, y) => x + y, 0) / lat.length;
    expect(mean).toBeGreaterThan(85);
    expect(mean).toBeLessThan(115);
    expect(new Set(lat).size).toBeGreaterThan(150);
  });

  it('serverErrorStatus makes every server error that status; bad values name the field', () => {
    const f = createFaults(1, { rpc: { serverErrorRate: 1, serverErrorStatus: 503 } });
    for (let i = 0; i < 200; i++) expect(f.decide('rpc').status).toBe(503);
    expect(() => createFaults(1, { rpc: { serverErrorStatus: 502 as 503 } })).toThrowError(/faults.rpc.serverErrorStatus/);
    expect(() => createFaults(1, { rpc: { latencyMs: 100, latencyMaxMs: 50 } })).toThrowError(/faults.rpc.latencyMaxMs/);
  });

  it('replays the same decisions under the same seed, independently per endpoint', () => {
    const settings = { rpc: { rateLimitRate: 0.3, serverErrorRate: 0.2 }, fast: { dropRate: 0.5 } };
    const a = createFaults(42, settings);
    const b = createFaults(42, settings);
    const c = createFaults(43, settings);
    const seqA = Array.from({ length: 200 }, () => a.decide('rpc'));
    // traffic on another endpoint in between must not shift rpc's sequence
    const seqB = Array.from({ length: 200 }, () => (b.decide('fast'), b.decide('rpc')));
    const seqC = Array.from({ length: 200 }, () => c.decide('rpc'));
    expect(seqB).toEqual(seqA);
    expect(seqC).not.toEqual(seqA);
    const n429 = seqA.filter((d) => d.status === 429).length;
    const n5xx = seqA.filter((d) => d.status === 500 || d.status === 503).length;
    // each configured rate is the observed rate, even with both set: ≈ 200 × 0.2 server errors and
    // ≈ 200 × 0.3 rate limits (binomial, 5 σ bounds)
    expect(n5xx).toBeGreaterThan(40 - 29);
    expect(n5xx).toBeLessThan(40 + 29);
    expect(n429).toBeGreaterThan(60 - 33);
    expect(n429).toBeLessThan(60 + 33);
    expect(() => createFaults(1, { rest: { dropRate: 0.1 } })).toThrow(/faults\.rest\.dropRate.*only \/fast and the JSON-RPC host/);
    expect(() => createFaults(1, { wallet: { dropRate: 0.1 } })).toThrow(/faults.wallet.dropRate/);
    expect(() => createFaults(1, { rpc: { rateLimitRate: 2 } })).toThrow(/faults.rpc.rateLimitRate/);
    expect(() => createFaults(1, { fast: { rateLimitRate: 0.6, dropRate: 0.6 } })).toThrow(/must be ≤ 1/);
  });

  it('serves exactly the configured 429s and 5xx over HTTP, with Retry-After, reproducibly', async () => {
    const faults = { rpc: { rateLimitRate: 0.25, retryAfterSeconds: 3, serverErrorRate: 0.25 } };
    const run = async (seed: number) => {
      const d = await start({ slotMs: 50, seed, faults });
      const out: string[] = [];
      for (let i = 0; i < 40; i++) {
        const r = await post(d.url);
        const body = (await r.json()) as any;
        out.push(r.status === 429 ? `429:${r.headers.get('retry-after')}:${body.error.code}` : r.status >= 500 ? `${r.status}:${body.error.code}` : '200');
      }
      return out;
    };
    const first = await run(9);
    const second = await run(9);
    expect(second).toEqual(first);
    // the HTTP answers are the injector's decisions, one for one
    const model = createFaults(9, faults);
    const expected = Array.from({ length: 40 }, () => {
      const f = model.decide('rpc');
      return f.status === 429 ? '429:3:-32005' : f.status === 503 ? '503:-32002' : f.status === 500 ? '500:-32603' : '200';
    });
    expect(first).toEqual(expected);
    expect(first.some((s) => s.startsWith('429'))).toBe(true);
    expect(first.some((s) => s.startsWith('5'))).toBe(true);
  });

  it('drops on /fast silently: accepted with the signature, never lands', async () => {
    const payer = newKeypair();
    const d = await start({
      slotMs: 10,
      seed: 5,
      faults: { fast: { dropRate: 1 } },
      fundedAccounts: [{ address: payer.publicKey.toBase58(), lamports: BigInt(LAMPORTS_PER_SOL) }],
    });
    const wire = buildTx({ payer, blockhash: d.chain.latestBlockhash().blockhash, cuPrice: 1, tip: 1_000_000 });
    const r = await rpc(d.url, 'sendTransaction', fastParams(wire), '/fast');
    expect(r.status).toBe(200);
    await d.chain.waitForSlot(d.chain.slot() + 3);
    expect(d.chain.status(r.body.result)).toBeNull();
    // at run time: back to normal, the same bytes land
    d.control.setFaults('fast', { dropRate: 0 });
    await rpc(d.url, 'sendTransaction', fastParams(wire), '/fast');
    await d.chain.waitForSlot(d.chain.slot() + 2);
    expect(d.chain.status(r.body.result)?.err).toBeNull();
  });

  it('drops sendTransaction on the JSON-RPC host as /fast drops its n-th request, whatever reads come between', () => {
    const settings = { dropRate: 0.2, rateLimitRate: 0.1, serverErrorRate: 0.05 };
    const a = createFaults(11, { rpc: settings, fast: settings });
    const b = createFaults(11, { rpc: settings });
    const fast = Array.from({ length: 1_000 }, () => a.decide('fast').drop);
    const sends = (f: typeof a, readsBetween: number) =>
      Array.from({ length: 1_000 }, () => {
        for (let i = 0; i < readsBetween; i++) expect(f.decide('rpc').drop).toBe(false);
        return f.dropSend('rpc');
      });
    expect(sends(a, 0)).toEqual(fast);
    expect(sends(b, 3)).toEqual(fast);
    // ≈ 1,000 × 0.2 (binomial, 5 σ bounds)
    const n = fast.filter(Boolean).length;
    expect(n).toBeGreaterThan(200 - 64);
    expect(n).toBeLessThan(200 + 64);
    expect(createFaults(11).dropSend('rpc')).toBe(false);
    expect(() => createFaults(1, { rpc: { rateLimitRate: 0.6, dropRate: 0.6 } })).toThrow(/must be ≤ 1/);
  });

  it('a dropped sendTransaction on the JSON-RPC host is answered with its signature and never lands', async () => {
    const payer = newKeypair();
    const d = await start({
      slotMs: 10,
      seed: 5,
      faults: { rpc: { dropRate: 1 } },
      fundedAccounts: [{ address: payer.publicKey.toBase58(), lamports: BigInt(LAMPORTS_PER_SOL) }],
    });
    const wire = buildTx({ payer, blockhash: d.chain.latestBlockhash().blockhash, cuPrice: 1, tip: 1_000_000 });
    const r = await rpc(d.url, 'sendTransaction', fastParams(wire));
    expect(r.status).toBe(200);
    expect(typeof r.body.result).toBe('string');
    await d.chain.waitForSlot(d.chain.slot() + 3);
    expect(d.chain.status(r.body.result)).toBeNull();
    // reads are served as ever; and with drops off the same bytes land
    expect(typeof (await rpc(d.url, 'getBalance', [payer.publicKey.toBase58()])).body.result.value).toBe('number');
    d.control.setFaults('rpc', { dropRate: 0 });
    await rpc(d.url, 'sendTransaction', fastParams(wire));
    await d.chain.waitForSlot(d.chain.slot() + 2);
    expect(d.chain.status(r.body.result)?.err).toBeNull();
  });

  it('adds latency and changes the slot time at run time', async () => {
    const d = await start({ slotMs: 200, faults: { rest: { latencyMs: 150 } } });
    const wallet = newAddress();
    expect((await fetch(`${d.url}/v1/wallet/${wallet}/transfers`)).status).toBe(200);
    const t = performance.now();
    await fetch(`${d.url}/v0/webhooks`);
    expect(performance.now() - t).toBeGreaterThanOrEqual(145);
    d.control.setSlotMs(5);
    const s0 = d.chain.slot();
    await new Promise((r) => setTimeout(r, 300));
    // at 200 ms a slot, 300 ms would give at most 2 slots
    expect(d.chain.slot() - s0).toBeGreaterThanOrEqual(5);
  });
});
