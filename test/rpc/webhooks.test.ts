/**
 * The webhook methods against the devnet's REST host: create, list, read, update (the fields given,
 * the rest kept), pause and resume, delete; params refused before sending with the field named; and
 * createWebhook's reconciliation when the list cannot be read after an unknown outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { newAddress } from '../support/devnet.js';
import { startLossyProxy, type LossyProxy } from '../support/lossy-proxy.js';

let devnet: Devnet;
let client: CairnClient;
let proxy: LossyProxy;
let lossy: CairnClient;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, slotMs: 50, seed: 362, wsPortPlusOne: false });
  client = createClient({ url: devnet.url, logger: () => {} });
  proxy = await startLossyProxy(devnet.url);
  lossy = createClient({ url: proxy.url, logger: () => {}, retry: { delay: () => 0, retries: 1 } });
});
afterAll(async () => {
  await client?.close();
  await lossy?.close();
  await proxy?.close();
  await devnet?.stop();
});

describe('webhook methods', () => {
  it('create, list, get, update, pause, delete', async () => {
    const a = newAddress();
    const hook = await client.createWebhook({ webhookURL: 'http://127.0.0.1:9/a', accountAddresses: [a], webhookType: 'raw' });
    expect(hook).toMatchObject({ webhookURL: 'http://127.0.0.1:9/a', accountAddresses: [a], webhookType: 'raw', active: true });
    expect((await client.listWebhooks()).map((h) => h.webhookID)).toContain(hook.webhookID);
    expect(await client.getWebhook({ webhookID: hook.webhookID })).toEqual(hook);
    const b = newAddress();
    const edited = await client.updateWebhook({ webhookID: hook.webhookID, accountAddresses: [a, b] });
    expect(edited).toMatchObject({ webhookURL: 'http://127.0.0.1:9/a', accountAddresses: [a, b], webhookType: 'raw' });
    expect((await client.setWebhookActive({ webhookID: hook.webhookID, active: false })).active).toBe(false);
    await client.deleteWebhook({ webhookID: hook.webhookID });
    await expect(client.getWebhook({ webhookID: hook.webhookID })).rejects.toMatchObject({ code: 'RPC_HTTP', context: { status: 404 } });
    expect(devnet.control.webhooks().map((h) => h.webhookID)).not.toContain(hook.webhookID);
  });

  it('refuses bad params before sending, naming the field', async () => {
    const ok = { webhookURL: 'https://x.example/h', accountAddresses: [newAddress()] };
    const cases: [unknown, string][] = [
      [{ ...ok, webhookURL: 'ftp://x' }, 'params.webhookURL'],
      [{ ...ok, webhookURL: 'not a url' }, 'params.webhookURL'],
      [{ ...ok, accountAddresses: [] }, 'params.accountAddresses'],
      [{ ...ok, accountAddresses: ['0OIl'] }, 'params.accountAddresses[0]'],
      [{ ...ok, transactionTypes: ['transfer'] }, 'params.transactionTypes[0]'],
      [{ ...ok, webhookType: 'fancy' }, 'params.webhookType'],
      [{ ...ok, authHeader: 'a\r\nb' }, 'params.authHeader'],
      [{ ...ok, colour: 'red' }, 'params.colour'],
    ];
    for (const [p, field] of cases) {
      await expect(client.createWebhook(p as never)).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field } });
    }
    await expect(client.getWebhook({ webhookID: 'nope' })).rejects.toMatchObject({ context: { field: 'params.webhookID' } });
    await expect(client.deleteWebhook({ webhookID: 'nope' })).rejects.toMatchObject({ context: { field: 'params.webhookID' } });
    const hook = await client.createWebhook(ok);
    await expect(client.updateWebhook({ webhookID: hook.webhookID })).rejects.toMatchObject({ context: { field: 'params' } });
  });

  it('createWebhook after an unknown outcome: a webhook that was there before is not taken for the new one', async () => {
    const params = { webhookURL: 'http://127.0.0.1:9/twice', accountAddresses: [newAddress()] };
    const first = await client.createWebhook(params);
    let posts = 0;
    proxy.lose = (r) => r.method === 'POST' && ++posts === 1;
    const second = await lossy.createWebhook(params);
    proxy.lose = () => false;
    expect(second.webhookID).not.toBe(first.webhookID);
    expect(posts).toBe(1);
    const same = (await client.listWebhooks()).filter((h) => h.webhookURL === params.webhookURL);
    expect(same.map((h) => h.webhookID).sort()).toEqual([first.webhookID, second.webhookID].sort());
  });

  it('createWebhook whose list cannot be read after an unknown outcome fails RPC_OUTCOME_UNKNOWN without a second POST', async () => {
    let posts = 0;
    let lists = 0;
    proxy.lose = (r) => (r.method === 'POST' ? ++posts === 1 : r.method === 'GET' && ++lists > 1);
    const err = await lossy.createWebhook({ webhookURL: 'http://127.0.0.1:9/lost', accountAddresses: [newAddress()] }).catch((e: unknown) => e);
    proxy.lose = () => false;
    expect(err).toMatchObject({ code: 'RPC_OUTCOME_UNKNOWN' });
    expect(posts).toBe(1);
  });
});
