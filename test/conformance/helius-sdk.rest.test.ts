/**
 * helius-sdk 3.2's REST clients against the devnet: webhooks (create, get, getAll, update, toggle,
 * delete) on api-mainnet.helius-rpc.com/v0/webhooks, and the wallet client's getTransfers on
 * api.helius.xyz/v1/wallet — both hosts redirected to the devnet. The REST paths the SDK calls that the
 * devnet does not serve (the other wallet calls, enhanced transactions) are named, each a 404.
 */
import { heliusOnDevnet, type HeliusOnDevnet } from '../support/helius-sdk.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAddress } from '../support/devnet.js';

let h: HeliusOnDevnet;
let funded: string;

beforeAll(async () => {
  h = await heliusOnDevnet({ slotMs: 50 });
  funded = newAddress();
  await h.devnet.control.airdrop(funded, 3n * 10n ** 9n);
});
afterAll(async () => {
  expect(h?.redirect.refused ?? []).toEqual([]);
  await h?.stop();
});

describe('helius-sdk webhooks against the devnet', () => {
  it('creates, reads, lists, edits, pauses and deletes a webhook', async () => {
    const watched = newAddress();
    const created = await h.helius.webhooks.create({
      webhookURL: 'http://127.0.0.1:9/hook',
      transactionTypes: ['TRANSFER'],
      accountAddresses: [watched],
      webhookType: 'raw',
      authHeader: 'Bearer t',
    });
    expect(created.webhookID).toMatch(/^[0-9a-f-]{36}$/);
    expect(created).toMatchObject({ webhookURL: 'http://127.0.0.1:9/hook', accountAddresses: [watched], webhookType: 'raw', transactionTypes: ['TRANSFER'] });
    expect(await h.helius.webhooks.get(created.webhookID)).toMatchObject({ webhookID: created.webhookID, accountAddresses: [watched] });
    expect((await h.helius.webhooks.getAll()).map((w: { webhookID: string }) => w.webhookID)).toContain(created.webhookID);

    const other = newAddress();
    const updated = await h.helius.webhooks.update(created.webhookID, { accountAddresses: [watched, other] });
    expect(updated.accountAddresses).toEqual([watched, other]);
    expect(updated.webhookURL).toBe('http://127.0.0.1:9/hook');

    const paused = await h.helius.webhooks.toggle(created.webhookID, false);
    expect(paused.active).toBe(false);
    expect(h.devnet.control.webhooks().find((w) => w.webhookID === created.webhookID)?.active).toBe(false);

    expect(await h.helius.webhooks.delete(created.webhookID)).toBe(true);
    await expect(h.helius.webhooks.get(created.webhookID)).rejects.toThrow(/HTTP error! status: 404/);
    const calls = h.redirect.redirected.filter((r) => r.url.includes('/v0/webhooks'));
    expect(calls.length).toBe(7);
    expect(calls.every((r) => r.url.startsWith('https://api-mainnet.helius-rpc.com/v0/webhooks'))).toBe(true);
  });
});

describe('helius-sdk wallet client against the devnet', () => {
  it('getTransfers: the airdrop, paged with the cursor', async () => {
    const page = await h.helius.wallet.getTransfers({ wallet: funded, limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ direction: 'in', amount: 3, amountRaw: '3000000000', decimals: 9 });
    expect(page.pagination.hasMore).toBe(false);
  });

  it('names the wallet and enhanced-transaction calls the devnet does not serve, each a 404', async () => {
    const wallet = funded;
    const unserved: [string, () => Promise<unknown>][] = [
      ['wallet.getBalances', () => h.helius.wallet.getBalances({ wallet })],
      ['wallet.getHistory', () => h.helius.wallet.getHistory({ wallet })],
      ['wallet.getIdentity', () => h.helius.wallet.getIdentity({ wallet })],
      ['wallet.getBatchIdentity', () => h.helius.wallet.getBatchIdentity({ addresses: [wallet] })],
      ['wallet.getFundedBy', () => h.helius.wallet.getFundedBy({ wallet })],
      ['wallet.getBalanceAt', () => h.helius.wallet.getBalanceAt({ wallet, timestamp: 1 } as never)],
      ['enhanced.getTransactions', () => h.helius.enhanced.getTransactions({ transactions: ['1'] })],
      ['enhanced.getTransactionsByAddress', () => h.helius.enhanced.getTransactionsByAddress({ address: wallet })],
    ];
    for (const [name, call] of unserved) await expect(call(), name).rejects.toThrow(/404/);
  });
});
