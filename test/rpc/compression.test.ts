import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { addr, API_KEY, photonFiles, readVector, sig } from '../support/rpc-fixtures.js';
import { startServer, type TestServer } from '../support/rpc-server.js';

let srv: TestServer;
let client: CairnClient;

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

const sent = () => srv.requests.at(-1)!.body;
const ctxValue = (value: unknown) => ({ context: { slot: 7 }, value });

describe('the nine compression methods: exact params, validated results', () => {
  it('getCompressedAccount by hash or address (null for the other)', async () => {
    const acc = photonFiles('-accounts.json').find((f) => f.body.value.items.length)!.body.value.items[0].account;
    srv.rpc({ getCompressedAccount: () => ctxValue(acc) });
    const r = await client.getCompressedAccount({ hash: acc.hash });
    expect(sent()).toMatchObject({ method: 'getCompressedAccount', params: { address: null, hash: acc.hash } });
    expect(r.value).toEqual(acc);
    await client.getCompressedAccount({ address: addr(1) });
    expect(sent().params).toEqual({ address: addr(1), hash: null });
    await expect(client.getCompressedAccount({})).rejects.toMatchObject({ context: { field: 'params' } });
  });

  it('getCompressedAccountProof', async () => {
    const proofs = photonFiles('-proofs.json')[0].body.value;
    srv.rpc({ getCompressedAccountProof: (p) => ctxValue(proofs.find((x: any) => x.hash === p.hash)) });
    const r = await client.getCompressedAccountProof({ hash: proofs[0].hash });
    expect(sent()).toMatchObject({ method: 'getCompressedAccountProof', params: { hash: proofs[0].hash } });
    expect(r.value.root).toBe(proofs[0].root);
  });

  it('getMultipleNewAddressProofs sends params as an ARRAY of addresses', async () => {
    const body = readVector('photon', 'mock_tests__get_multiple_new_address_proofs_interop.json');
    srv.rpc({ getMultipleNewAddressProofs: () => body });
    const r = await client.getMultipleNewAddressProofs([addr(1), addr(2)]);
    expect(sent()).toMatchObject({ method: 'getMultipleNewAddressProofs', params: [addr(1), addr(2)] });
    expect(Array.isArray(sent().params)).toBe(true);
    expect(r.value.length).toBeGreaterThan(0);
    await expect(client.getMultipleNewAddressProofs([])).rejects.toMatchObject({ context: { field: 'addresses' } });
  });

  it('getValidityProof with hashes and newAddressesWithTrees (v1 and v2 layouts)', async () => {
    const v1 = readVector('photon', 'e2e_tests__e2e_mint_and_transfer-bob-validity-proof.json');
    srv.rpc({ getValidityProof: () => ctxValue(v1) });
    const params = { hashes: [addr(1)], newAddressesWithTrees: [{ address: addr(2), tree: addr(3) }] };
    const r = await client.getValidityProof(params);
    expect(sent()).toMatchObject({ method: 'getValidityProof', params });
    expect(r.value.roots).toEqual(v1.roots);
    const v2 = readVector('photon', 'e2e_tests__e2e_mint_and_transfer_transactions-bob-validity-proof-v2.json');
    srv.rpc({ getValidityProof: () => ({ context: { slot: 1 }, ...v2 }) });
    expect((await client.getValidityProof({ hashes: [addr(1)] })).value.accounts).toEqual(v2.value.accounts);
  });

  it('getCompressedTokenAccountsByOwner / ByDelegate with cursor, limit, mint', async () => {
    const page = photonFiles('-accounts.json').find((f) => f.body.value.items.length)!.body;
    srv.rpc({ getCompressedTokenAccountsByOwner: () => page, getCompressedTokenAccountsByDelegate: () => page });
    const a = await client.getCompressedTokenAccountsByOwner({ owner: addr(1), mint: addr(2), limit: 10, cursor: 'abc' });
    expect(sent()).toMatchObject({ method: 'getCompressedTokenAccountsByOwner', params: { owner: addr(1), mint: addr(2), limit: 10, cursor: 'abc' } });
    expect(a).toEqual(page);
    await client.getCompressedTokenAccountsByDelegate({ delegate: addr(4) });
    expect(sent()).toMatchObject({ method: 'getCompressedTokenAccountsByDelegate', params: { delegate: addr(4) } });
  });

  it('every photon token-account page validates', async () => {
    const pages = photonFiles('-accounts.json')
      .concat(photonFiles('-accounts-v2.json'))
      .filter((f) => f.body.value.items.every((i: any) => 'tokenData' in i)); // token-account pages only
    expect(pages.length).toBeGreaterThan(5);
    for (const { name, body } of pages) {
      srv.rpc({ getCompressedTokenAccountsByOwner: () => body });
      expect(await client.getCompressedTokenAccountsByOwner({ owner: addr(1) }), name).toEqual(body);
    }
  });

  it('getLatestCompressionSignatures and getCompressionSignaturesForTokenOwner', async () => {
    const items = photonFiles('-latest-signatures.json')[0].body;
    srv.rpc({
      getLatestCompressionSignatures: () => ctxValue({ items, cursor: null }),
      getCompressionSignaturesForTokenOwner: () => ctxValue({ items, cursor: 'next' }),
    });
    const a = await client.getLatestCompressionSignatures({ limit: 3 });
    expect(sent()).toMatchObject({ method: 'getLatestCompressionSignatures', params: { limit: 3 } });
    expect(a.value.items).toEqual(items);
    const b = await client.getCompressionSignaturesForTokenOwner({ owner: addr(1), cursor: 'c' });
    expect(sent()).toMatchObject({ method: 'getCompressionSignaturesForTokenOwner', params: { owner: addr(1), cursor: 'c' } });
    expect(b.value.cursor).toBe('next');
  });

  it('getTransactionWithCompressionInfo normalises compressionInfo to compression_info', async () => {
    const body = photonFiles('-mint-transaction.json')[0].body;
    srv.rpc({ getTransactionWithCompressionInfo: () => body });
    const r = await client.getTransactionWithCompressionInfo({ signature: sig(1) });
    expect(sent()).toMatchObject({ method: 'getTransactionWithCompressionInfo', params: { signature: sig(1) } });
    expect(r.compression_info).toEqual(body.compressionInfo);
    expect(r.transaction).toEqual(body.transaction);
  });

  it('a malformed compressed account names the path', async () => {
    const page = structuredClone(photonFiles('-accounts.json').find((f) => f.body.value.items.length)!.body);
    page.value.items[0].tokenData.amount = -5;
    srv.rpc({ getCompressedTokenAccountsByOwner: () => page });
    await expect(client.getCompressedTokenAccountsByOwner({ owner: addr(1) })).rejects.toMatchObject({
      code: 'RPC_SCHEMA',
      context: { path: 'result.value.items[0].tokenData.amount' },
    });
  });

  it('u64 amounts beyond 2^53 arrive as bigint', async () => {
    const page = structuredClone(photonFiles('-accounts.json').find((f) => f.body.value.items.length)!.body);
    page.value.items.splice(1);
    srv.handler = (req) => ({
      body: JSON.stringify({ jsonrpc: '2.0', id: req.body.id, result: page }).replace('"amount":100', '"amount":18446744073709551615'),
    });
    const r = await client.getCompressedTokenAccountsByOwner({ owner: addr(1) });
    expect(r.value.items[0].tokenData.amount).toBe(18446744073709551615n);
  });
});
