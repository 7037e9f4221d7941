import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { buildTx, waitFor, LAMPORTS_PER_SOL, newAddress, newKeypair } from '../support/devnet.js';

let devnet: Devnet;
let client: CairnClient;
const alice = newKeypair();
const bob = newAddress();

beforeAll(async () => {
  devnet = await startDevnet({
    slotMs: 10,
    wsPortPlusOne: false,
    webhookFailureLimit: 3,
    fundedAccounts: [{ address: alice.publicKey.toBase58(), lamports: 10n * BigInt(LAMPORTS_PER_SOL) }],
  });
  client = createClient({ url: devnet.url, retry: { retries: 0 } });
});
afterAll(async () => {
  await client?.close();
  await devnet?.stop();
});

async function sendFromAlice(to: string, lamports: number): Promise<string> {
  const { signature } = devnet.chain.submit(
    buildTx({ payer: alice, to, lamports, blockhash: devnet.chain.latestBlockhash().blockhash }),
  );
  await waitFor(() => devnet.chain.status(signature));
  return signature;
}

describe('wallet transfers', () => {
  it('pages executed SOL transfers newest first with direction, counterparty and raw amounts', async () => {
    const sigs: string[] = [];
    for (let i = 1; i <= 5; i++) sigs.push(await sendFromAlice(bob, i * 1_000_000_000 / 10));
    const page1 = await client.getWalletTransfers({ wallet: bob, limit: 2 });
    expect(page1.data.map((t) => t.signature)).toEqual([sigs[4], sigs[3]]);
    expect(page1.data[0]).toMatchObject({
      direction: 'in',
      counterparty: alice.publicKey.toBase58(),
      mint: 'So11111111111111111111111111111111111111112',
      amount: 0.5,
      amountRaw: '500000000',
      decimals: 9,
      symbol: 'SOL',
    });
    expect(page1.pagination.hasMore).toBe(true);
    const page2 = await client.getWalletTransfers({ wallet: bob, limit: 2, cursor: page1.pagination.nextCursor! });
    expect(page2.data.map((t) => t.signature)).toEqual([sigs[2], sigs[1]]);
    const page3 = await client.getWalletTransfers({ wallet: bob, limit: 2, cursor: page2.pagination.nextCursor! });
    expect(page3.data.map((t) => t.signature)).toEqual([sigs[0]]);
    expect(page3.pagination.hasMore).toBe(false);
    const out = await client.getWalletTransfers({ wallet: alice.publicKey.toBase58(), limit: 1 });
    expect(out.data[0]).toMatchObject({ direction: 'out', counterparty: bob });
  });

  it('answers 400 naming the field for a bad wallet, limit or cursor', async () => {
    for (const [q, field] of [
      [`/v1/wallet/not-base58!/transfers`, 'wallet'],
      [`/v1/wallet/${bob}/transfers?limit=101`, 'limit'],
      [`/v1/wallet/${bob}/transfers?limit=0`, 'limit'],
      [`/v1/wallet/${bob}/transfers?cursor=zzz`, 'cursor'],
    ] as const) {
      const r = await fetch(devnet.url + q);
      expect(r.status).toBe(400);
      expect(((await r.json()) as any).error).toContain(`"${field}"`);
    }
  });
});

describe('webhooks', () => {
  let receiver: Server;
  let receiverUrl: string;
  let mode: 'ok' | 'fail' = 'ok';
  const got: { auth?: string; body: any }[] = [];
  beforeAll(async () => {
    receiver = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ auth: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString()) });
        res.writeHead(mode === 'ok' ? 200 : 500).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((r) => receiver.close(r));
  });

  it('delivers transactions touching the watched addresses, with authHeader, and auto-disables after failures', async () => {
    const watched = newAddress();
    const hook = devnet.control.createWebhook({ webhookURL: receiverUrl, accountAddresses: [watched], webhookType: 'raw', authHeader: 'Bearer s3cret' });
    expect(hook).toMatchObject({ active: true, webhookType: 'raw', accountAddresses: [watched] });
    await sendFromAlice(newAddress(), 1_000_000); // not watched
    const sig = await sendFromAlice(watched, 1_000_000);
    await waitFor(() => got.length >= 1);
    expect(got).toHaveLength(1);
    expect(got[0]!.auth).toBe('Bearer s3cret');
    expect(got[0]!.body[0].transaction.signatures[0]).toBe(sig);
    expect(got[0]!.body[0].meta.err).toBeNull();

    mode = 'fail';
    for (let i = 0; i < 3; i++) await sendFromAlice(watched, 1_000_000 + i);
    await waitFor(() => devnet.control.webhooks().find((h) => h.webhookID === hook.webhookID)?.active === false);
    const deliveredBefore = got.length;
    await sendFromAlice(watched, 2_000_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(got.length).toBe(deliveredBefore); // disabled: nothing delivered

    // re-enabled by the spec's PATCH (through the typed client)
    mode = 'ok';
    const patched = await client.setWebhookActive({ webhookID: hook.webhookID, active: true });
    expect(patched.active).toBe(true);
    const again = await sendFromAlice(watched, 3_000_000);
    await waitFor(() => got.some((g) => g.body[0]?.transaction?.signatures?.[0] === again));
  });

  it('creates through POST /v0/webhooks and validates PATCH bodies', async () => {
    const res = await fetch(`${devnet.url}/v0/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhookURL: receiverUrl, accountAddresses: [bob], webhookType: 'enhanced', transactionTypes: ['TRANSFER'] }),
    });
    expect(res.status).toBe(200);
    const hook = (await res.json()) as any;
    expect(hook.webhookID).toMatch(/^[0-9a-f-]{36}$/);
    const patch = (body: unknown, id = hook.webhookID) =>
      fetch(`${devnet.url}/v0/webhooks/${id}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const bad = await patch({ active: 'yes' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error).toContain('"active"');
    expect((await patch({ active: false }, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const off = (await (await patch({ active: false })).json()) as any;
    expect(off.active).toBe(false);
    const missing = await fetch(`${devnet.url}/v0/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accountAddresses: [bob] }) });
    expect(((await missing.json()) as any).error).toContain('"webhookURL"');
  });

  it('bounds what webhooks can hold: addresses per webhook and webhooks per devnet', async () => {
    const { MAX_WEBHOOK_ADDRESSES, MAX_WEBHOOKS } = await import('../../src/devnet/methods/rest/webhooks.js');
    // over HTTP the body cap (4 MiB) stops such a list first; from code the list's own cap does
    expect(() => devnet.control.createWebhook({ webhookURL: receiverUrl, accountAddresses: Array(MAX_WEBHOOK_ADDRESSES + 1).fill(bob) })).toThrowError(
      `"accountAddresses": at most ${MAX_WEBHOOK_ADDRESSES}`,
    );
    const made = devnet.control.webhooks().length;
    for (let i = made; i < MAX_WEBHOOKS; i++) devnet.control.createWebhook({ webhookURL: receiverUrl, accountAddresses: [newAddress()], active: false });
    expect(() => devnet.control.createWebhook({ webhookURL: receiverUrl, accountAddresses: [bob] })).toThrowError(/"webhooks": at most 1000/);
    expect(devnet.control.webhooks()).toHaveLength(MAX_WEBHOOKS);
  });
});

describe('token metadata', () => {
  it('answers for minted cNFTs and unknown mints, with an error string per section', async () => {
    await devnet.ready();
    expect(devnet.das).not.toBeNull();
    const owner = newAddress();
    const minted = await client.mintCompressedNft({
      name: 'Cairn #1',
      symbol: 'CRN',
      description: 'a test',
      owner,
      uri: 'https://example.invalid/1.json',
      imageUrl: 'https://example.invalid/1.png',
      attributes: [{ trait_type: 'kind', value: 'stone' }],
      sellerFeeBasisPoints: 500,
      confirmTransaction: true,
    });
    const unknown = newAddress();
    const records = await client.getTokenMetadata({ mintAccounts: [minted.assetId, unknown], includeOffChain: true });
    expect(records).toHaveLength(2);
    const [m, u] = records as any[];
    expect(m.account).toBe(minted.assetId);
    expect(m.onChainMetadata.error).toBe('');
    expect(m.onChainMetadata.metadata.data).toMatchObject({ name: 'Cairn #1', symbol: 'CRN', uri: 'https://example.invalid/1.json', sellerFeeBasisPoints: 500 });
    expect(m.offChainMetadata.metadata.attributes).toEqual([{ traitType: 'kind', value: 'stone' }]);
    expect(m.onChainAccountInfo.error).toBe('EMPTY_ACCOUNT'); // a compressed NFT has no mint account
    expect(u.onChainMetadata).toEqual({ metadata: null, error: 'EMPTY_ACCOUNT' });
    const tooMany = await fetch(`${devnet.url}/v0/token-metadata`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mintAccounts: Array.from({ length: 101 }, () => unknown) }),
    });
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as any).error).toContain('"mintAccounts"');
  });
});
