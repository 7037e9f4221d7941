/**
 * `client.callRaw`: the body's bytes as received, with the envelope checked as `call` checks it
 * (JSON, jsonrpc, the id, `error` → RpcError), and bytes the verifier reads exactly as it reads the
 * parsed result (over the devnet's real getAssetProofBatch, and over a local server's big body).
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BadResponseError, RpcError } from '../../src/errors/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { createTransport } from '../../src/rpc/transport/create-transport.js';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { API_KEY } from '../support/rpc-fixtures.js';
import { useServerAndClient, type TestServer } from '../support/rpc-server.js';

let srv: TestServer;
let client: CairnClient;
const verifier = createVerifier({ threads: 2 });

useServerAndClient((s, c) => ((srv = s), (client = c)));
afterAll(async () => {
  await verifier.close();
});

const proof = JSON.parse(readFileSync(new URL('../vectors/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json', import.meta.url), 'utf8')).getAssetProof;

describe('callRaw', () => {
  it('returns the body bytes; the verifier reads them as it reads the parsed result', async () => {
    const result: Record<string, unknown> = {};
    for (let i = 0; i < 1500; i++) result[`asset-${i}`] = i === 700 ? null : i === 900 ? { ...proof, leaf: proof.root } : proof;
    srv.handler = (req) => ({ body: { jsonrpc: '2.0', id: req.body.id, result } });
    const body = await client.callRaw('getAssetProofBatch', { ids: ['x'] });
    expect(body).toBeInstanceOf(Uint8Array);
    // In shared memory: the verifier's workers read it in place, without a copy.
    expect(body.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(srv.requests[0]!.body).toMatchObject({ jsonrpc: '2.0', method: 'getAssetProofBatch', params: { ids: ['x'] } });
    const fromBytes = await verifier.verify('asset-proof', body);
    expect(fromBytes).toEqual(await verifier.verify('asset-proof', JSON.parse(Buffer.from(body).toString('utf8'))));
    expect(fromBytes.filter((v) => !v.valid).map((v) => v.id)).toEqual(['asset-700', 'asset-900']);
    // the same bytes verified again (the scan kept with them was used up by the first verify)
    expect(await verifier.verify('asset-proof', body)).toEqual(fromBytes);
  });

  it('over node:http too, the bytes come in shared memory', async () => {
    srv.handler = (req) => ({ body: { jsonrpc: '2.0', id: req.body.id, result: [proof, proof] } });
    const transport = createTransport({ apiKey: API_KEY, client: 'node:http' });
    const other = createClient({ url: srv.url, apiKey: API_KEY, transport });
    try {
      const body = await other.callRaw('getAssetProofBatch', { ids: ['x'] });
      expect(body.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(await verifier.verify('asset-proof', body)).toEqual(await verifier.verify('asset-proof', [proof, proof]));
    } finally {
      await other.close();
      await transport.close();
    }
  });

  it('an error object is an RpcError, a wrong id a typed error, a bad body a BadResponseError', async () => {
    srv.handler = (req) => ({ body: { jsonrpc: '2.0', id: req.body.id, error: { code: -32602, message: 'Invalid params: ids', data: 1 } } });
    const e = await client.callRaw('getAssetProofBatch', { ids: [] }).catch((x) => x);
    expect(e).toBeInstanceOf(RpcError);
    expect(e).toMatchObject({ rpcCode: -32602 });
    expect(e.message).toContain('Invalid params: ids');

    srv.handler = () => ({ body: { jsonrpc: '2.0', id: 'someone-else', result: 1 } });
    await expect(client.callRaw('getSlot', [])).rejects.toMatchObject({ code: 'RPC_ID_MISMATCH' });

    for (const body of ['{"jsonrpc":"2.0","id":', '[]', '{"id":"x","result":1}']) {
      srv.handler = () => ({ body });
      const err = await client.callRaw('getSlot', []).catch((x) => x);
      expect(err, body).toBeInstanceOf(BadResponseError);
    }
  });
});
