/**
 * Regression the fuzzer found (soak/fuzz.ts, target paginate:getTokenAccounts): a server answering
 * the same page to every request kept the iterators fetching forever — getTokenAccounts asked for
 * page 2 again and again while the server said "page 1", and a DAS list whose server ignores `page`
 * never ends while its pages are full. Repeated cursors were already caught; repeated pages now are.
 */
import { describe, expect, it } from 'vitest';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import type { Transport } from '../../src/rpc/transport/create-transport.js';

const ADDR = 'F9Lw3ki3hJ7PF9HQXsBzoY8GyE6sPoEZZdXJBsTTD2rk';
const OTHER = 'GBfJEitNVPm8mADUCP67c2RG1FGmyFteBZqTeMCQL2xR';
/** Far more items than any of these servers has: past it the iterator is looping. */
const CAP = 1_000;

/** A client whose server answers `result(requestParams)` to every JSON-RPC call. */
function clientAnswering(result: (params: Record<string, unknown>) => unknown): { client: CairnClient; calls: () => number } {
  let n = 0;
  const transport: Transport = {
    async request(req) {
      n++;
      const rpc = JSON.parse(req.body!) as { id: string; params: Record<string, unknown> };
      return { status: 200, headers: {}, body: { jsonrpc: '2.0', id: rpc.id, result: result(rpc.params) }, attempts: 1 };
    },
    async close() {},
  };
  return { client: createClient({ transport }), calls: () => n };
}

/** Read an iterator to its end or to CAP items; the error it ends with, if any. */
async function drain(it: AsyncIterable<unknown>): Promise<{ items: number; error?: unknown }> {
  let items = 0;
  try {
    for await (const _ of it) if (++items > CAP) return { items };
  } catch (error) {
    return { items, error };
  }
  return { items };
}

const asset = (id: string) => ({ interface: 'V1_NFT', id });
const account = (address: string) => ({ address, mint: ADDR, owner: ADDR, amount: 1 });

describe('paginators stop when the server repeats a page', () => {
  it('getTokenAccounts: the server answers "page 1" whatever page is asked', async () => {
    const { client } = clientAnswering(() => ({ total: 1, limit: 1, page: 1, token_accounts: [account(ADDR)] }));
    const r = await drain(client.paginate.getTokenAccounts({ owner: ADDR, page: 1, limit: 1 }));
    expect(r.items).toBeLessThanOrEqual(2);
    expect(r.error).toMatchObject({ code: 'RPC_BAD_RESPONSE', message: expect.stringMatching(/page 1 .*twice|twice/) });
  });

  it('getAssetsByOwner: a server that ignores `page` and answers the same full page', async () => {
    const { client } = clientAnswering(() => ({ total: 2, limit: 2, page: 1, items: [asset(ADDR), asset(OTHER)] }));
    const r = await drain(client.paginate.getAssetsByOwner({ ownerAddress: ADDR, limit: 2 }));
    expect(r.items).toBeLessThanOrEqual(4);
    expect(r.error).toMatchObject({ code: 'RPC_BAD_RESPONSE', message: expect.stringContaining('page') });
  });

  it('getAssetsByCreator: a server that sends no page number and the same items again', async () => {
    const { client } = clientAnswering(() => ({ total: 2, limit: 2, items: [asset(ADDR), asset(OTHER)] }));
    const r = await drain(client.paginate.getAssetsByCreator({ creatorAddress: ADDR, limit: 2 }));
    expect(r.items).toBeLessThanOrEqual(4);
    expect(r.error).toMatchObject({ code: 'RPC_BAD_RESPONSE' });
  });

  it('a server that pages properly is read to the end, page by page', async () => {
    // pages 1 and 2 full, page 3 short: 5 items over 3 calls
    const ids = [ADDR, OTHER, 'BZHZ4GX7JZ1JxngRVtHJgUAnUZQ76ffBTsNXuqTVXvg5', '3UowCweYWKsZKXmnYvq5jwsyD2eNtshjhjGEwk6yteEP', 'ATA3LjhmyvsuAVCwsnwyo5FbMFzK41a2mkng9SFy1jcX'];
    const { client, calls } = clientAnswering((p) => {
      const page = p.page as number;
      return { total: 5, limit: 2, page, items: ids.slice((page - 1) * 2, page * 2).map(asset) };
    });
    const r = await drain(client.paginate.getAssetsByOwner({ ownerAddress: ADDR, limit: 2 }));
    expect(r).toEqual({ items: 5 });
    expect(calls()).toBe(3);
    const t = clientAnswering((p) => ({
      total: 3,
      limit: 1,
      page: p.page,
      token_accounts: (p.page as number) <= 3 ? [account(ids[(p.page as number) - 1]!)] : [],
    }));
    expect(await drain(t.client.paginate.getTokenAccounts({ owner: ADDR, page: 1, limit: 1 }))).toEqual({ items: 3 });
  });
});
