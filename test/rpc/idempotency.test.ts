/**
 * Retry by what a failure proves (issue 36), walked over the client's method table
 * (src/rpc/retry/idempotency.ts): every client method has an entry, and every method that changes state
 * on the service — driven against the real devnet through a proxy that loses its answer after the
 * devnet acted — reaches the devnet once and fails with `RPC_OUTCOME_UNKNOWN` carrying the table's
 * `findOut` (createWebhook instead finds the webhook it made and returns it). On a scripted server:
 * a 429 and a refused connection prove nothing was done and are retried; a 5xx is not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { CairnError } from '../../src/errors/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { CLIENT_METHODS, rpcMethodSafety } from '../../src/rpc/retry/idempotency.js';
import { buildTx, newAddress, newKeypair, TIP, type TestKeypair } from '../support/devnet.js';
import { startLossyProxy, type LossyProxy, type ProxiedRequest } from '../support/lossy-proxy.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

let devnet: Devnet;
let proxy: LossyProxy;
let client: CairnClient;
let direct: CairnClient;
let payer: TestKeypair;
const noDelay = { delay: () => 0 };

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, slotMs: 20, seed: 361, wsPortPlusOne: false });
  proxy = await startLossyProxy(devnet.url);
  client = createClient({ url: proxy.url, logger: () => {}, retry: noDelay });
  direct = createClient({ url: devnet.url, logger: () => {} });
  payer = newKeypair();
  await devnet.control.airdrop(payer.address, 10n ** 10n);
});
afterAll(async () => {
  await client?.close();
  await direct?.close();
  await proxy?.close();
  await devnet?.stop();
});

const hookFor = () => direct.createWebhook({ webhookURL: 'http://127.0.0.1:9/hook', accountAddresses: [newAddress()] });

/**
 * Each state-changing method: how to call it, and which proxied request is its state change. A
 * state-changing method added to the table without an entry here fails the walk.
 */
const CALLS: Record<string, { call: (c: CairnClient) => Promise<unknown>; is: (r: ProxiedRequest) => boolean }> = {
  mintCompressedNft: {
    call: (c) => c.mintCompressedNft({ name: 'Walk', symbol: 'W', description: '', owner: newAddress() }),
    is: (r) => r.rpcMethod === 'mintCompressedNft',
  },
  sendTransaction: {
    call: async (c) => c.sendTransaction(buildTx({ payer, blockhash: (await direct.getLatestBlockhash()).blockhash, cuPrice: 1_000, tip: 1_000_000 })),
    is: (r) => r.rpcMethod === 'sendTransaction',
  },
  sendBundle: {
    call: async (c) => c.sendBundle([buildTx({ payer, blockhash: (await direct.getLatestBlockhash()).blockhash, cuPrice: 1_000, tip: 1_000_000, tipTo: TIP })]),
    is: (r) => r.rpcMethod === 'sendBundle',
  },
  requestAirdrop: { call: (c) => c.requestAirdrop(newAddress(), 1_000_000), is: (r) => r.rpcMethod === 'requestAirdrop' },
  setWebhookActive: {
    call: async (c) => c.setWebhookActive({ webhookID: (await hookFor()).webhookID, active: false }),
    is: (r) => r.method === 'PATCH',
  },
  updateWebhook: {
    call: async (c) => c.updateWebhook({ webhookID: (await hookFor()).webhookID, accountAddresses: [newAddress()] }),
    is: (r) => r.method === 'PUT',
  },
  deleteWebhook: { call: async (c) => c.deleteWebhook({ webhookID: (await hookFor()).webhookID }), is: (r) => r.method === 'DELETE' },
  createWebhook: {
    call: (c) => c.createWebhook({ webhookURL: 'http://127.0.0.1:9/walk', accountAddresses: [newAddress()] }),
    is: (r) => r.method === 'POST' && r.path.startsWith('/v0/webhooks'),
  },
};

describe('the method table', () => {
  it('lists every method of the client', () => {
    const methods = Object.keys(client).filter((k) => !['endpoints', 'paginate', 'close'].includes(k));
    expect(methods.length).toBeGreaterThan(80);
    expect(methods.filter((m) => CLIENT_METHODS[m] === undefined)).toEqual([]);
  });

  it('says what finds out the outcome for every state-changing method, and has a walk for each', () => {
    const changing = Object.entries(CLIENT_METHODS).filter(([, s]) => s.changesState);
    expect(changing.map(([m]) => m).sort()).toEqual(Object.keys(CALLS).sort());
    for (const [, s] of changing) expect(s.findOut).toMatch(/\w{10}/);
    expect(rpcMethodSafety('someUnknownWrite').changesState).toBe(true);
    expect(rpcMethodSafety('getHealth').changesState).toBe(false);
  });
});

describe('no state-changing method is sent again after its outcome became unknown', () => {
  for (const method of Object.keys(CALLS)) {
    it(method, async () => {
      const { call, is } = CALLS[method]!;
      let seen = 0;
      proxy.lose = (r) => is(r) && ++seen === 1;
      const from = proxy.requests.length;
      const out = await call(client).then(
        (v) => ({ v }),
        (e: unknown) => ({ e }),
      );
      proxy.lose = () => false;
      const sent = proxy.requests.slice(from).filter(is);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.lost).toBe(true);
      if (method === 'createWebhook') {
        // it found the webhook the lost attempt made instead of making a second one
        expect('v' in out).toBe(true);
        const hook = (out as { v: { webhookID: string; webhookURL: string } }).v;
        expect((await direct.listWebhooks()).filter((h) => h.webhookID === hook.webhookID)).toHaveLength(1);
        return;
      }
      expect('e' in out).toBe(true);
      const err = (out as { e: CairnError }).e;
      expect(err).toBeInstanceOf(CairnError);
      expect(err.code).toBe('RPC_OUTCOME_UNKNOWN');
      expect((err.context as { findOut: string }).findOut).toBe(CLIENT_METHODS[method]!.findOut);
    });
  }
});

describe('what a failure proves', () => {
  let srv: TestServer;
  let c: CairnClient;
  const params = { name: 'P', symbol: 'P', description: '', owner: newAddress() };
  const minted = { signature: '1'.repeat(64), minted: true, assetId: newAddress() };
  beforeAll(async () => {
    srv = await startServer();
    c = createClient({ url: srv.url, logger: () => {}, retry: noDelay });
  });
  afterAll(async () => {
    await c?.close();
    await srv?.close();
  });

  it('a 429 proves the service refused: the mint is sent again', async () => {
    srv.requests.length = 0;
    srv.handler = (r) => (srv.requests.length === 1 ? { status: 429, headers: { 'retry-after': '0' }, body: { error: 'slow down' } } : { body: { jsonrpc: '2.0', id: r.body.id, result: minted } });
    await expect(c.mintCompressedNft(params)).resolves.toEqual(minted);
    expect(srv.requests).toHaveLength(2);
  });

  it('a 5xx proves nothing: the mint is not sent again', async () => {
    srv.requests.length = 0;
    srv.handler = () => ({ status: 503, body: { error: 'unavailable' } });
    await expect(c.mintCompressedNft(params)).rejects.toMatchObject({ code: 'RPC_OUTCOME_UNKNOWN', context: { attempts: 1 } });
    expect(srv.requests).toHaveLength(1);
    // a read after the same answer is retried as before
    srv.requests.length = 0;
    await expect(c.getSlot()).rejects.toMatchObject({ code: 'RPC_SERVER' });
    expect(srv.requests).toHaveLength(4);
  });

  it('a refused connection proves the request was never written: it is tried again', async () => {
    const closed = await startServer();
    const url = closed.url;
    await closed.close();
    const d = createClient({ url, logger: () => {}, retry: { ...noDelay, retries: 2 } });
    try {
      const err = (await d.mintCompressedNft(params).catch((e: unknown) => e)) as CairnError;
      expect(err.code).toBe('RPC_NETWORK');
      expect(err.context).toMatchObject({ attempts: 3, notSent: true });
    } finally {
      await d.close();
    }
  });
});
