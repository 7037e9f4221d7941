/**
 * Confirmation racing the websocket against the batched polls, on the devnet: signature
 * notifications settle transfers before any poll could, the polls come right after slot
 * notifications at most every pollMs, a socket cut mid-run loses nothing (the polls carry on
 * alone), and rebroadcasts follow the slots — with the timer set to a minute, dropped sends still
 * land within a few slots.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient } from '../../src/rpc/client/create-client.js';
import { CairnError } from '../../src/errors/index.js';
import { createSender, generateSigner, transferInstruction, type Signer } from '../../src/sender/index.js';
import { startWsProxy, type WsProxy } from '../support/ws-proxy.js';

let devnet: Devnet;
let proxy: WsProxy;
let payer: Signer;
const fast = { cuPrice: 200_000, cuLimit: 1_000 } as const;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, slotMs: 50, seed: 11, wsPortPlusOne: false });
  payer = generateSigner();
  await devnet.control.airdrop(payer.address, 1_000n * 10n ** 9n);
  proxy = await startWsProxy(devnet.wsUrl);
});
afterAll(async () => {
  await proxy?.close();
  await devnet?.stop();
});

const client = () =>
  createClient({ url: devnet.url, wsUrl: proxy.url, websocket: { pingMs: 200, pongTimeoutMs: 300, reconnectMinMs: 20, reconnectMaxMs: 100 } });
const transfers = (n: number, lamports = 1_000_000n) =>
  Array.from({ length: n }, () => ({ instructions: [transferInstruction(payer.address, generateSigner().address, lamports)], payer }));
const fastRequests = () => devnet.control.requestLog().filter((e) => e.endpoint === 'fast').length;

describe('confirmation races notifications against polls', () => {
  it('notifications settle the transfers; the polls stay at most one per pollMs', async () => {
    const c = client();
    const sender = createSender({ client: c, ...fast, pollMs: 400 });
    const t0 = performance.now();
    let ok = 0;
    for await (const item of sender.sendMany(transfers(20), { concurrency: 20 })) if (item.ok) ok++;
    const ms = performance.now() - t0;
    expect(ok).toBe(20);
    const st = sender.stats;
    expect(st.tracker.byNotification).toBeGreaterThan(0);
    expect(st.websocket!.signatureNotifications).toBeGreaterThan(10);
    expect(st.websocket!.socket.received).toBeGreaterThan(0);
    // the polls come at most every pollMs (plus those a late notification asks for), far from one per 50 ms slot
    expect(st.tracker.ticks).toBeLessThan(Math.ceil(ms / 400) + ms / 50 / 4);
    await sender.close();
    await c.close();
  });

  it('many signatures watched at once add one abort listener, not one each (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const c = client();
      const sender = createSender({ client: c, ...fast, pollMs: 400 });
      let ok = 0;
      for await (const item of sender.sendMany(transfers(24), { concurrency: 24 })) if (item.ok) ok++;
      expect(ok).toBe(24);
      expect(sender.stats.websocket!.signatureNotifications).toBeGreaterThan(10);
      await sender.close();
      await c.close();
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('a socket cut mid-run loses nothing: every transfer confirms, the polls alone finishing', async () => {
    const c = client();
    const sender = createSender({ client: c, ...fast, pollMs: 100 });
    let cut = false;
    sender.on('sent', () => {
      if (cut) return;
      cut = true;
      // down for good: only the polls can tell these transfers apart from lost ones
      proxy.refuse(true);
      proxy.cut();
    });
    let ok = 0;
    for await (const item of sender.sendMany(transfers(15), { concurrency: 15 })) if (item.ok) ok++;
    proxy.refuse(false);
    expect(cut).toBe(true);
    expect(ok).toBe(15);
    expect(sender.stats.tracker.ticks).toBeGreaterThan(0);
    await sender.close();
    await c.close();
  });

  it('rebroadcasts follow the slots: with half the sends dropped and the timer at a minute, all land in a few slots', async () => {
    devnet.control.setFaults('fast', { dropRate: 0.5 });
    try {
      const c = client();
      const sender = createSender({ client: c, ...fast, pollMs: 100, rebroadcastMs: 60_000 });
      const before = fastRequests();
      const t0 = performance.now();
      let ok = 0;
      for await (const item of sender.sendMany(transfers(10), { concurrency: 10 })) if (item.ok) ok++;
      expect(ok).toBe(10);
      expect(sender.stats.rebroadcasts).toBeGreaterThan(0);
      // far below the minute the timer alone would take
      expect(performance.now() - t0).toBeLessThan(20_000);
      // no storm: a resend only after a slot passed without the transfer showing
      expect(fastRequests() - before).toBeLessThan(10 * 6);
      await sender.close();
      await c.close();
    } finally {
      devnet.control.setFaults('fast', {});
    }
  });

  it("every outcome names the slot the ledger holds its transaction in, a cold socket's first sends included", async () => {
    // (the orders the devnet cannot stage on demand are in confirm-exact.test.ts)
    const c = client();
    const sender = createSender({ client: c, ...fast, pollMs: 400 });
    const outcomes: { signature: string; slot: number }[] = [];
    for await (const item of sender.sendMany(transfers(30), { concurrency: 30 })) if (item.ok) outcomes.push(item.outcome);
    expect(outcomes).toHaveLength(30);
    const ledger = new Map(devnet.control.ledger().map((t) => [t.signature, t.slot]));
    expect(outcomes.map((o) => [o.signature, o.slot])).toEqual(outcomes.map((o) => [o.signature, ledger.get(o.signature)]));
    await sender.close();
    await c.close();
  });

  it('a submit that fails in transit (a 5xx, a cut connection) is followed by the same bytes at once, not a slot or a timer later', async () => {
    const c = client();
    const tried = new Map<string, number>();
    // every signature's first submission dies after it was written: its outcome is unknown
    const flaky: typeof c = {
      ...c,
      sendTransaction: async (wire, cfg, o) => {
        const key = Buffer.from(wire as Uint8Array).toString('base64');
        const n = (tried.get(key) ?? 0) + 1;
        tried.set(key, n);
        if (n === 1) throw new CairnError('RPC_OUTCOME_UNKNOWN', 'sendTransaction: 503 after the request was written', { context: {} as never });
        return c.sendTransaction(wire, cfg, o);
      },
    };
    // no slot-paced resends (no websocket) and the timer at a minute: only the resend at once can land these
    const sender = createSender({ client: flaky, ...fast, pollMs: 50, websocket: false, rebroadcastMs: 60_000 });
    const t0 = performance.now();
    const outs = [];
    for await (const item of sender.sendMany(transfers(5), { concurrency: 5 })) if (item.ok) outs.push(item.outcome);
    expect(outs).toHaveLength(5);
    expect(outs.map((o) => o.sends)).toEqual([2, 2, 2, 2, 2]);
    expect(sender.stats.rebroadcasts).toBe(0);
    expect(performance.now() - t0).toBeLessThan(20_000);
    await sender.close();
    await c.close();
  });

  it('websocket: false keeps the polls alone', async () => {
    const c = client();
    const sender = createSender({ client: c, ...fast, pollMs: 50, websocket: false });
    const out = await sender.send(transfers(1)[0]!);
    expect(out.slot).toBeGreaterThan(0);
    expect(sender.stats.websocket).toBeUndefined();
    expect(sender.stats.tracker.byNotification).toBe(0);
    await sender.close();
    await c.close();
    expect(() => createSender({ client: c, websocket: 'yes' as never })).toThrow(/websocket/);
  });
});
