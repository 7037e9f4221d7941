/**
 * A refusal proves nothing was minted (issue 36): the service's JSON-RPC error to a journaled mint is
 * recorded as `failed`, the error reaches the caller, and the next call mints at once — without asking
 * the indexer, since nothing is unknown. A scripted server stands in for the service, so the test
 * sees exactly which methods were called.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mintCompressedNft } from '../../src/mint/mint-compressed-nft.js';
import { openMintJournal } from '../../src/mint/mint-journal.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { addr, sig } from '../support/rpc-fixtures.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

let srv: TestServer;
let client: CairnClient;
let dir: string;
beforeAll(async () => {
  srv = await startServer();
  client = createClient({ url: srv.url, logger: () => {}, retry: { delay: () => 0 } });
  dir = mkdtempSync(join(tmpdir(), 'cairn-mint-refusal-'));
});
afterAll(async () => {
  await client?.close();
  await srv?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('a JSON-RPC error is journaled as nothing minted; the next call mints without asking the indexer', async () => {
  let refuse = true;
  srv.handler = (r) => {
    const { id, method } = r.body;
    if (method === 'getSlot') return { body: { jsonrpc: '2.0', id, result: 100 } };
    if (method === 'mintCompressedNft') {
      return refuse
        ? { body: { jsonrpc: '2.0', id, error: { code: -32602, message: 'Invalid params: tree is full' } } }
        : { body: { jsonrpc: '2.0', id, result: { signature: sig(1), minted: true, assetId: addr(2) } } };
    }
    return { body: { jsonrpc: '2.0', id, error: { code: -32601, message: `unexpected ${method}` } } };
  };
  const path = join(dir, 'mints.jsonl');
  const journal = await openMintJournal(path);
  try {
    const params = { name: 'R', symbol: 'R', description: '', owner: addr(3) };
    await expect(mintCompressedNft(client, params, { id: 'r', journal, logger: () => {} })).rejects.toMatchObject({ code: 'RPC_ERROR' });
    expect(journal.get('r')).toMatchObject({ lastRefused: true, attempts: [{ n: 1, slot: 100 }] });
    refuse = false;
    const r = await mintCompressedNft(client, params, { id: 'r', journal, logger: () => {} });
    expect(r).toMatchObject({ assetId: addr(2), reconciled: false, fromJournal: false });
    expect(srv.requests.map((q) => q.body.method)).toEqual(['getSlot', 'mintCompressedNft', 'getSlot', 'mintCompressedNft']);
  } finally {
    await journal.close();
  }
  const ops = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l).op);
  expect(ops).toEqual(['intent', 'attempt', 'failed', 'attempt', 'minted']);
});
