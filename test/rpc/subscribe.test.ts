/**
 * `client.subscribe` against the devnet's websocket, through a proxy that puts real faults on the
 * wire (test/support/ws-proxy.ts): reconnect and resubscribe after a cut mid-stream, the re-read of
 * an account and of a signature that changed while the socket was down, gaps reported (or ending the
 * subscription when nobody listens), a server that stops answering pings, abort, the slow-consumer
 * policy both ways, callbacks, and the API key in no error.
 */
import bs58 from 'bs58';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient, type CairnClientAcceptingKeys } from '../../src/rpc/client/create-client.js';
import type { SlotNotification } from '../../src/rpc/subscribe/subscriber.js';
import { signMessageParts } from '../../src/solana/sign-message.js';
import { generateSigner, type Signer } from '../../src/solana/signer.js';
import { transferInstruction } from '../../src/solana/instructions.js';
import { compileMessage } from '../../src/solana/index.js';
import { rpc, waitFor } from '../support/devnet.js';
import { scanForLeaks } from '../support/leak-guard.js';
import { startWsProxy, type WsProxy } from '../support/ws-proxy.js';

const KEY = 'subscribe-test-key-7Qx';
const payer = generateSigner();
let devnet: Devnet;
let proxy: WsProxy;
const clients: CairnClientAcceptingKeys[] = [];

/** A client whose websocket goes through the proxy, with quick keep-alive and backoff. */
function client(extra: Parameters<typeof createClient>[0] = {}): CairnClientAcceptingKeys {
  const c = createClient({
    url: devnet.url,
    apiKey: KEY,
    wsUrl: proxy.url,
    websocket: { pingMs: 100, pongTimeoutMs: 200, reconnectMinMs: 20, reconnectMaxMs: 100, requestTimeoutMs: 2_000 },
    ...extra,
  });
  clients.push(c);
  return c;
}

/** Sign and submit a transfer without waiting; returns its signature. */
async function transfer(to: string, lamports: bigint, from: Signer = payer): Promise<string> {
  const bh = await rpc(devnet.url, 'getLatestBlockhash', [{ commitment: 'confirmed' }], `/?api-key=${KEY}`);
  const parts = compileMessage({
    payer: from.address,
    instructions: [transferInstruction(from.address, to, lamports)],
    recentBlockhash: bh.body.result.value.blockhash,
  });
  const { wire, signatures } = signMessageParts(parts, [from]);
  const sent = await rpc(devnet.url, 'sendTransaction', [Buffer.from(wire).toString('base64'), { encoding: 'base64' }], `/?api-key=${KEY}`);
  if (sent.body.error) throw new Error(JSON.stringify(sent.body.error));
  return bs58.encode(signatures[0]!);
}
const confirmed = async (sig: string): Promise<void> => {
  for (let i = 0; i < 500; i++) {
    const st = (await rpc(devnet.url, 'getSignatureStatuses', [[sig]], `/?api-key=${KEY}`)).body.result.value[0];
    if (st && st.confirmationStatus !== 'processed') return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('not confirmed');
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  devnet = await startDevnet({
    slotMs: 25,
    wsPortPlusOne: false,
    stateModules: false,
    keys: [{ key: KEY }],
    fundedAccounts: [{ address: payer.address, lamports: 100n * 10n ** 9n }],
  });
  proxy = await startWsProxy(devnet.wsUrl);
});
afterEach(() => {
  proxy.refuse(false);
  proxy.freeze(false);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await proxy?.close();
  await devnet?.stop();
});

describe('client.subscribe', () => {
  it('slot: one socket for every subscription, notifications in order, close() ends the iteration and the socket goes', async () => {
    const c = client();
    const before = proxy.counts.connections;
    const a = await c.subscribe.slot();
    const b = await c.subscribe.root();
    expect(proxy.counts.connections - before).toBe(1);
    expect(proxy.queries.at(-1)).toContain('api-key=');
    const seen: number[] = [];
    for await (const n of a) {
      seen.push(n.slot);
      if (seen.length === 5) break;
    }
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]!);
    for await (const r of b) {
      expect(r).toBeLessThanOrEqual(seen.at(-1)! + 5);
      break;
    }
    expect(a.closed && b.closed).toBe(true);
    // nothing left on it: the socket closes after its linger
    await waitFor(() => c.subscribe.socket.up === false, 5_000);
  });

  it('account: a cut mid-stream reconnects, resubscribes, and re-reads the account changed while the socket was down', async () => {
    const c = client();
    const to = generateSigner().address;
    const sub = await c.subscribe.account(to, { commitment: 'confirmed' });
    const it = sub[Symbol.asyncIterator]();
    await confirmed(await transfer(to, 1_000_000n));
    const first = await it.next();
    expect(first.value.value.lamports).toBe(1_000_000);
    expect(first.value.reread).toBeUndefined();
    // down, and the account changes meanwhile: its notification goes nowhere
    proxy.refuse(true);
    proxy.cut();
    await waitFor(() => !c.subscribe.socket.up);
    await confirmed(await transfer(to, 2_000_000n));
    proxy.refuse(false);
    const again = await it.next();
    expect(again.value.reread).toBe(true);
    expect(again.value.value.lamports).toBe(3_000_000);
    expect(c.subscribe.socket.stats.reconnects).toBeGreaterThanOrEqual(1);
    // and it is live again on the new socket
    await confirmed(await transfer(to, 1n));
    const live = await it.next();
    expect(live.value.value.lamports).toBe(3_000_001);
    expect(live.value.reread).toBeUndefined();
    await sub.close();
  });

  it('signature: a status reached while the socket was down is delivered once after the reconnect, then the subscription ends', async () => {
    const c = client();
    const slots = await c.subscribe.slot({ onGap: () => undefined });
    const to = generateSigner().address;
    proxy.refuse(true);
    // subscribe to a signature before it exists, then cut and let it land unseen
    const sig = await transfer(to, 1_000_000n);
    proxy.refuse(false);
    const sub = await c.subscribe.signature(sig, { commitment: 'finalized' });
    proxy.refuse(true);
    proxy.cut();
    await waitFor(() => !c.subscribe.socket.up);
    await confirmed(sig);
    await sleep(400); // finalized (32 slots of 25 ms) while down
    proxy.refuse(false);
    const got: unknown[] = [];
    for await (const n of sub) got.push(n);
    // one notification: the server's own (it checks on subscribe) or the re-read, whichever came first
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({ err: null });
    await slots.close();
  });

  it('logs: a reconnect is reported as a gap to onGap; without onGap the subscription ends with RPC_SUBSCRIPTION_GAP', async () => {
    const c = client();
    const gaps: unknown[] = [];
    const told = await c.subscribe.logs('all', { commitment: 'processed', onGap: (g) => gaps.push(g) });
    const strict = await c.subscribe.logs({ mentions: [payer.address] }, { commitment: 'processed' });
    await confirmed(await transfer(generateSigner().address, 1_000_000n));
    proxy.cut();
    const e = await (async () => {
      try {
        for await (const _ of strict) void _;
      } catch (err) {
        return err as { code: string; message: string };
      }
    })();
    expect(e?.code).toBe('RPC_SUBSCRIPTION_GAP');
    expect(e?.message).toMatch(/onGap/);
    await waitFor(() => gaps.length > 0, 5_000);
    expect(gaps[0]).toMatchObject({ reason: 'reconnect' });
    // the one that listens for gaps lives on: it sees the next transaction
    const sig = await transfer(generateSigner().address, 1_000_001n);
    for await (const n of told) if (n.signature === sig) break;
  });

  it('a server that stops answering pings is given up after pongTimeoutMs and reconnected; the slot gap is reported', async () => {
    const c = client();
    const gaps: { afterSlot?: number; beforeSlot?: number }[] = [];
    const sub = await c.subscribe.slot({ onGap: (g) => gaps.push(g), overflow: 'drop-oldest' });
    const it = sub[Symbol.asyncIterator]();
    await it.next();
    proxy.freeze(true);
    await waitFor(() => c.subscribe.socket.stats.pingTimeouts > 0, 5_000);
    proxy.freeze(false);
    await waitFor(() => c.subscribe.socket.up, 5_000);
    await waitFor(() => gaps.length > 0, 5_000);
    expect(gaps[0]!.beforeSlot! - gaps[0]!.afterSlot!).toBeGreaterThan(1);
    await sub.close();
  });

  it('abort: the iteration ends with RPC_ABORTED and the server is told to unsubscribe', async () => {
    const c = client();
    const ctl = new AbortController();
    const sub = await c.subscribe.slot({ signal: ctl.signal });
    const up = proxy.counts.up;
    setTimeout(() => ctl.abort(new Error('enough')), 100);
    const e = await (async () => {
      try {
        for await (const _ of sub) void _;
      } catch (err) {
        return err as { code: string };
      }
    })();
    expect(e?.code).toBe('RPC_ABORTED');
    await waitFor(() => proxy.counts.up > up);
    // an already aborted signal never subscribes
    await expect(c.subscribe.slot({ signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'RPC_ABORTED' });
  });

  it("slow consumer: overflow 'error' ends with RPC_SUBSCRIPTION_OVERFLOW once bufferSize wait; 'drop-oldest' reports each drop as a gap", async () => {
    const c = client();
    const strict = await c.subscribe.slot({ bufferSize: 3 });
    const gaps: { reason: string; lost?: number }[] = [];
    const lossy = await c.subscribe.slot({ bufferSize: 3, overflow: 'drop-oldest', onGap: (g) => gaps.push(g) });
    await sleep(300); // ~12 slots, nobody reading
    const got: SlotNotification[] = [];
    const e = await (async () => {
      try {
        for await (const n of strict) got.push(n);
      } catch (err) {
        return err as { code: string; context: { bufferSize: number } };
      }
    })();
    expect(got).toHaveLength(3);
    expect(e).toMatchObject({ code: 'RPC_SUBSCRIPTION_OVERFLOW', context: { bufferSize: 3 } });
    expect(gaps.length).toBeGreaterThan(3);
    expect(gaps[0]).toMatchObject({ reason: 'overflow', lost: 1 });
    const newest: number[] = [];
    for await (const n of lossy) {
      newest.push(n.slot);
      if (newest.length === 3) break;
    }
    expect(newest[2]! - newest[0]!).toBe(2);
  });

  it('callbacks: onNotification in order, bad input named', async () => {
    const c = client();
    const seen: number[] = [];
    const sub = await c.subscribe.slot({ onNotification: (n) => void seen.push(n.slot) });
    await waitFor(() => seen.length >= 3);
    expect(() => sub[Symbol.asyncIterator]()).toThrow(/one reader/);
    await sub.close();
    await expect(c.subscribe.account('not-an-address')).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'address' } });
    await expect(c.subscribe.slot({ bufferSize: 0 })).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'options.bufferSize' } });
    await expect(c.subscribe.logs({ mentions: [] } as never)).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'filter' } });
    expect(() => createClient({ url: devnet.url, wsUrl: 'http://127.0.0.1:1' })).toThrow(/wsUrl/);
  });

  it('the API key is in no error: a refused key, a cut, a dead server', async () => {
    const wrong = 'wrong-key-Zp3vL9';
    const bad = createClient({ url: devnet.url, apiKey: wrong, wsUrl: devnet.wsUrl });
    clients.push(bad);
    const e = (await bad.subscribe.slot().catch((x: unknown) => x)) as Error & { code: string };
    expect(e).toMatchObject({ code: 'RPC_UNAUTHORIZED' });
    expect(scanForLeaks(e, 'refused')).toEqual([]);
    expect(JSON.stringify(e)).not.toContain(wrong);
    expect(String((e as Error).stack)).not.toContain(wrong);
    const dead = createClient({ url: devnet.url, apiKey: KEY, wsUrl: 'ws://127.0.0.1:1' });
    clients.push(dead);
    const d = (await dead.subscribe.slot().catch((x: unknown) => x)) as Error & { code: string };
    expect(d).toMatchObject({ code: 'RPC_NETWORK' });
    expect(d.message).toContain('ws://127.0.0.1:1');
    expect(scanForLeaks(d, 'dead')).toEqual([]);
    const c = client();
    const sub = await c.subscribe.logs('all', { commitment: 'processed' });
    proxy.cut();
    const g = await (async () => {
      try {
        for await (const _ of sub) void _;
      } catch (err) {
        return err;
      }
    })();
    expect(scanForLeaks(g, 'gap')).toEqual([]);
  });
});
