// The typed client's compression signature lists: against the devnet (answers validated, the
// iterators walk every page, InputError naming the field before anything is sent, the devnet's
// not-found surfacing as an RpcError), and against a small server for what the devnet never sends
// (an `error` left out, a page handed back again, a signature that cannot make a cursor).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { signatureCursor } from '../../src/rpc/compression/signatures.js';
import { InputError, RpcError } from '../../src/errors/index.js';
import { newAddress } from '../support/devnet.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

let devnet: Devnet;
let client: CairnClient;
const enc = new TextEncoder();
const owner = newAddress();
const program = newAddress();
const mint = newAddress();
const holder = newAddress();
const made: { signature: string; account: Record<string, any> }[] = [];

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, seed: 11 });
  await devnet.ready();
  client = createClient({ url: devnet.url, logger: () => {} });
  const zk = devnet.compression!;
  made.push(await zk.createCompressedAccount({ owner, lamports: 9n, seeds: [enc.encode('s')], programId: program, version: 2 }));
  for (let i = 0; i < 4; i++) made.push(await zk.createCompressedAccount({ owner, lamports: BigInt(i + 1), version: (i % 2) + 1 as 1 | 2 }));
  await zk.mintCompressedTokens({ mint, recipients: [{ owner: holder, amount: 3n }] });
}, 60_000);
afterAll(async () => {
  await client?.close();
  await devnet?.stop();
});

describe('typed client: signature lists against the devnet', () => {
  it('by account, address and owner', async () => {
    const a = await client.getCompressionSignaturesForAccount({ hash: made[0]!.account.hash });
    expect(a.value.items.map((i) => i.signature)).toEqual([made[0]!.signature]);
    await expect(client.getCompressionSignaturesForAccount({ hash: newAddress() })).rejects.toBeInstanceOf(RpcError);
    const b = await client.getCompressionSignaturesForAddress({ address: made[0]!.account.address });
    expect(b.value).toEqual({ items: a.value.items, cursor: null });
    const o = await client.getCompressionSignaturesForOwner({ owner, limit: 2 });
    expect(o.value.items).toHaveLength(2);
    expect(o.value.cursor).toEqual(expect.any(String));
    const all = await collect(client.paginate.getCompressionSignaturesForOwner({ owner, limit: 2 }));
    expect(all.map((i) => i.signature)).toEqual(made.map((m) => m.signature).reverse());
    expect(await collect(client.paginate.getCompressionSignaturesForAddress({ address: made[0]!.account.address, limit: 1 }))).toEqual(a.value.items);
  });

  it('the latest non-vote transactions, each with error, paged by cursors built from the last item', async () => {
    const page = await client.getLatestNonVotingSignatures({ limit: 3 });
    expect(page.value.items).toHaveLength(3);
    for (const i of page.value.items) {
      expect(i).toEqual({ signature: expect.any(String), slot: expect.any(Number), blockTime: expect.any(Number), error: null });
    }
    const everything = (await client.getLatestNonVotingSignatures()).value.items;
    const walked = await collect(client.paginate.getLatestNonVotingSignatures({ limit: 3 }));
    // the chain goes on (slots, airdrops) while it walks: what was there at first is all there, in order
    const seen = new Set(walked.map((i) => i.signature));
    expect(everything.filter((i) => !seen.has(i.signature))).toEqual([]);
    expect(walked.length).toBeGreaterThanOrEqual(everything.length);
    const latest = await collect(client.paginate.getLatestCompressionSignatures({ limit: 2 }));
    expect(latest).toHaveLength(made.length + 1);
  });

  it('bad params are an InputError naming the field, before anything is sent', async () => {
    await expect(client.getCompressionSignaturesForAccount({ hash: 'nope' })).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'params.hash' } });
    await expect(client.getCompressionSignaturesForAddress({ address: owner, limit: 0 })).rejects.toMatchObject({ context: { field: 'params.limit' } });
    await expect(client.getCompressionSignaturesForOwner({ owner: 5 as unknown as string })).rejects.toMatchObject({ context: { field: 'params.owner' } });
    await expect(client.getLatestNonVotingSignatures({ cursor: '' })).rejects.toBeInstanceOf(InputError);
    await expect(collect(client.paginate.getLatestNonVotingSignatures({ limit: 1001 }))).rejects.toMatchObject({ context: { field: 'params.limit' } });
  });
});

describe('typed client: signature lists against a server that answers otherwise', () => {
  let srv: TestServer;
  let c: CairnClient;
  const s = () => bs58.encode(randomBytes(64));
  beforeAll(async () => {
    srv = await startServer();
    c = createClient({ url: srv.url, retry: { delay: () => 1 } });
  });
  afterAll(async () => {
    await c.close();
    await srv.close();
  });

  it('an `error` left out comes back as null; the cursor is Photon\'s (slot u64 LE, signature)', async () => {
    const items = [{ signature: s(), slot: 9, blockTime: 1 }, { signature: s(), slot: 8, blockTime: 1, error: 'boom' }];
    srv.rpc({ getLatestNonVotingSignatures: () => ({ context: { slot: 9 }, value: { items } }) });
    const r = await c.getLatestNonVotingSignatures();
    expect(r.value.items.map((i) => i.error)).toEqual([null, 'boom']);
    const cur = bs58.decode(signatureCursor(items[1]!));
    expect(cur).toHaveLength(72);
    expect(Buffer.from(cur.subarray(0, 8)).readBigUInt64LE()).toBe(8n);
    expect(bs58.encode(cur.subarray(8))).toBe(items[1]!.signature);
  });

  it('the non-vote iterator sends the cursor of the last item, stops at a short page, and refuses a page answered twice', async () => {
    const all = Array.from({ length: 5 }, (_, i) => ({ signature: s(), slot: 100 - i, blockTime: 1, error: null }));
    srv.requests.length = 0;
    srv.rpc({
      getLatestNonVotingSignatures: (p) => {
        const from = p.cursor ? all.findIndex((x) => signatureCursor(x) === p.cursor) + 1 : 0;
        return { context: { slot: 1 }, value: { items: all.slice(from, from + p.limit) } };
      },
    });
    expect(await collect(c.paginate.getLatestNonVotingSignatures({ limit: 2 }))).toEqual(all);
    expect(srv.requests.map((r) => r.body.params.cursor)).toEqual([undefined, signatureCursor(all[1]!), signatureCursor(all[3]!)]);
    srv.requests.length = 0;
    srv.rpc({ getLatestNonVotingSignatures: () => ({ context: { slot: 1 }, value: { items: all.slice(0, 2) } }) });
    await expect(collect(c.paginate.getLatestNonVotingSignatures({ limit: 2 }))).rejects.toMatchObject({ code: 'RPC_BAD_RESPONSE' });
    expect(srv.requests).toHaveLength(2);
    srv.rpc({ getLatestNonVotingSignatures: () => ({ context: { slot: 1 }, value: { items: [{ signature: 'x', slot: 1, blockTime: 1 }] } }) });
    await expect(collect(c.paginate.getLatestNonVotingSignatures({ limit: 1 }))).rejects.toMatchObject({ code: 'RPC_BAD_RESPONSE' });
  });

  it('answers of the wrong shape are refused naming the path', async () => {
    srv.rpc({ getCompressionSignaturesForAccount: () => ({ context: { slot: 1 }, value: { items: [{ signature: s(), slot: -1, blockTime: 1 }] } }) });
    await expect(c.getCompressionSignaturesForAccount({ hash: owner })).rejects.toMatchObject({ code: 'RPC_SCHEMA' });
    srv.rpc({ getCompressionSignaturesForOwner: () => ({ context: { slot: 1 }, value: { items: 'x', cursor: null } }) });
    await expect(c.getCompressionSignaturesForOwner({ owner })).rejects.toMatchObject({ code: 'RPC_SCHEMA' });
  });
});
