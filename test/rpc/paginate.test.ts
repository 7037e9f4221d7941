import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AbortError } from '../../src/errors/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { addr, API_KEY, dasAssets } from '../support/rpc-fixtures.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

let srv: TestServer;
let client: CairnClient;
const base = dasAssets()[0].asset;

beforeAll(async () => {
  srv = await startServer();
  client = createClient({ url: srv.url, apiKey: API_KEY });
});
afterEach(() => {
  srv.requests.length = 0;
});
afterAll(async () => {
  await client.close();
  await srv.close();
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** A server-side list of `n` items served page by page. */
function pagedAssets(n: number) {
  const all = Array.from({ length: n }, (_, i) => ({ ...base, id: addr(i) }));
  return (p: any) => {
    const start = (p.page - 1) * p.limit;
    return { total: Math.min(p.limit, Math.max(0, n - start)), limit: p.limit, page: p.page, items: all.slice(start, start + p.limit) };
  };
}

/** A cursor list of `n` items: cursor = index of the next item, null at the end. */
function cursorList<I>(items: I[]) {
  return (p: any) => {
    const start = p.cursor ? Number(p.cursor) : 0;
    const lim = p.limit ?? 3;
    const page = items.slice(start, start + lim);
    const next = start + lim < items.length ? String(start + lim) : null;
    return { context: { slot: 1 }, value: { items: page, cursor: next } };
  };
}

describe('page-based DAS iterators', () => {
  for (const [method, params] of [
    ['getAssetsByOwner', { ownerAddress: addr(1) }],
    ['getAssetsByCreator', { creatorAddress: addr(1) }],
    ['getAssetsByAuthority', { authorityAddress: addr(1) }],
    ['getAssetsByGroup', { groupKey: 'collection', groupValue: addr(1) }],
  ] as const) {
    it(`${method} reads every page to the end`, async () => {
      srv.rpc({ [method]: pagedAssets(23) });
      const items = await collect((client.paginate[method] as any)({ ...params, limit: 10 }));
      expect(items.map((a: any) => a.id)).toEqual(Array.from({ length: 23 }, (_, i) => addr(i)));
      expect(srv.requests.map((r) => r.body.params.page)).toEqual([1, 2, 3]);
    });
  }

  it('an exact multiple of the page size ends on the empty page', async () => {
    srv.rpc({ getAssetsByOwner: pagedAssets(20) });
    expect(await collect(client.paginate.getAssetsByOwner({ ownerAddress: addr(1), limit: 10 }))).toHaveLength(20);
    expect(srv.requests).toHaveLength(3);
  });

  it('stops at once when aborted between pages', async () => {
    srv.rpc({ getAssetsByOwner: pagedAssets(100) });
    const ac = new AbortController();
    const seen: string[] = [];
    const e = await (async () => {
      for await (const a of client.paginate.getAssetsByOwner({ ownerAddress: addr(1), limit: 10 }, { signal: ac.signal })) {
        seen.push(a.id);
        if (seen.length === 15) ac.abort();
      }
    })().catch((x) => x);
    expect(e).toBeInstanceOf(AbortError);
    expect(seen).toHaveLength(20); // the second page had been fetched already and is drained
    expect(srv.requests).toHaveLength(2);
  });
});

describe('cursor iterators', () => {
  const accounts = Array.from({ length: 7 }, (_, i) => ({
    account: { hash: addr(i), address: null, data: null, owner: addr(50), lamports: 0, tree: addr(51), leafIndex: i, seq: i, slotCreated: 0 },
    tokenData: { mint: addr(52), owner: addr(50), amount: i, delegate: null, state: 'initialized', tlv: null },
  }));
  const sigs = Array.from({ length: 8 }, (_, i) => ({ signature: `s${i}`, slot: i, blockTime: i }));

  it('compressed token accounts by owner and by delegate', async () => {
    srv.rpc({ getCompressedTokenAccountsByOwner: cursorList(accounts), getCompressedTokenAccountsByDelegate: cursorList(accounts) });
    const a = await collect(client.paginate.getCompressedTokenAccountsByOwner({ owner: addr(50), limit: 3 }));
    expect(a.map((x) => x.tokenData.amount)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(srv.requests.map((r) => r.body.params.cursor)).toEqual([undefined, '3', '6']);
    const b = await collect(client.paginate.getCompressedTokenAccountsByDelegate({ delegate: addr(50), limit: 3 }));
    expect(b).toHaveLength(7);
  });

  it('compression signatures (latest, by token owner)', async () => {
    srv.rpc({ getLatestCompressionSignatures: cursorList(sigs), getCompressionSignaturesForTokenOwner: cursorList(sigs) });
    expect((await collect(client.paginate.getLatestCompressionSignatures({ limit: 3 }))).map((s) => s.signature)).toEqual(sigs.map((s) => s.signature));
    expect(await collect(client.paginate.getCompressionSignaturesForTokenOwner({ owner: addr(1), limit: 5 }))).toHaveLength(8);
  });

  it('a cursor handed back twice is an error, not an endless loop', async () => {
    srv.rpc({ getLatestCompressionSignatures: () => ({ context: { slot: 1 }, value: { items: sigs.slice(0, 2), cursor: 'same' } }) });
    await expect(collect(client.paginate.getLatestCompressionSignatures({ limit: 2 }))).rejects.toMatchObject({ code: 'RPC_BAD_RESPONSE' });
    expect(srv.requests).toHaveLength(2);
  });

  it('getTokenAccounts follows the cursor to the end', async () => {
    const all = Array.from({ length: 5 }, (_, i) => ({ address: addr(i), mint: addr(40), owner: addr(41), amount: i, delegated_amount: 0, frozen: false }));
    srv.rpc({
      getTokenAccounts: (p) => {
        const start = p.cursor ? all.findIndex((a) => a.address === p.cursor) + 1 : 0;
        const page = all.slice(start, start + p.limit);
        return { total: page.length, limit: p.limit, cursor: page.at(-1)?.address, token_accounts: page };
      },
    });
    const out = await collect(client.paginate.getTokenAccounts({ owner: addr(41), limit: 2 }));
    expect(out.map((a) => a.amount)).toEqual([0, 1, 2, 3, 4]);
    expect(srv.requests).toHaveLength(3);
  });

  it('wallet transfers follow pagination.nextCursor until hasMore is false', async () => {
    const t = (i: number) => ({ signature: `t${i}`, timestamp: i, direction: 'in', counterparty: addr(i), mint: addr(2), amount: 1, amountRaw: '1', decimals: 0, symbol: 'X' });
    srv.handler = (req) => {
      const c = Number(req.query.cursor ?? 0);
      const data = [c, c + 1].filter((i) => i < 5).map(t);
      return { body: { data, pagination: { hasMore: c + 2 < 5, nextCursor: c + 2 < 5 ? String(c + 2) : null } } };
    };
    const out = await collect(client.paginate.getWalletTransfers({ wallet: addr(9), limit: 2 }));
    expect(out.map((x) => x.signature)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(srv.requests.map((r) => r.query.cursor)).toEqual([undefined, '2', '4']);
  });
});
