import { describe, expect, it } from 'vitest';
import { BadResponseError, RpcError } from '../../src/errors/index.js';
import type { CairnClient } from '../../src/rpc/client/create-client.js';
import { parseJson, stringifyJson } from '../../src/rpc/json.js';
import { addr } from '../support/rpc-fixtures.js';
import { useServerAndClient, type TestServer } from '../support/rpc-server.js';

let srv: TestServer;
let client: CairnClient;

useServerAndClient((s, c) => ((srv = s), (client = c)));

describe('JSON-RPC envelope', () => {
  it('uses a fresh string id per call', async () => {
    srv.rpc({ getSlot: () => 1 });
    await Promise.all([client.getSlot(), client.getSlot(), client.getSlot()]);
    const ids = srv.requests.map((r) => r.body.id);
    expect(ids.every((x) => typeof x === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(3);
  });

  it('a wrong id is a typed error', async () => {
    srv.handler = () => ({ body: { jsonrpc: '2.0', id: 'someone-else', result: 1 } });
    const e = await client.getSlot().catch((x) => x);
    expect(e).toBeInstanceOf(BadResponseError);
    expect(e.code).toBe('RPC_ID_MISMATCH');
    srv.handler = () => ({ body: { jsonrpc: '2.0', id: 7, result: 1 } }); // number instead of the string sent
    await expect(client.getSlot()).rejects.toMatchObject({ code: 'RPC_ID_MISMATCH' });
  });

  it('an error object becomes RpcError { rpcCode, message, data }', async () => {
    srv.handler = (req) => ({ body: { jsonrpc: '2.0', id: req.body.id, error: { code: -32602, message: 'Invalid params: bad id', data: { field: 'id' } } } });
    const e = await client.getAsset({ id: addr(1) }).catch((x) => x);
    expect(e).toBeInstanceOf(RpcError);
    expect(e.code).toBe('RPC_ERROR');
    expect(e.rpcCode).toBe(-32602);
    expect(e.data).toEqual({ field: 'id' });
    expect(e.message).toContain('Invalid params: bad id');
    expect(srv.requests).toHaveLength(1); // JSON-RPC errors are answers, not retried
  });

  it('a parse error with id null is still an RpcError', async () => {
    srv.handler = () => ({ body: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } } });
    await expect(client.getSlot()).rejects.toMatchObject({ code: 'RPC_ERROR', context: { rpcCode: -32700 } });
  });

  it('malformed bodies give typed errors, never crashes', async () => {
    const bodies = ['{"jsonrpc":"2.0","id":', '[]', '"text"', '{"id":"x","result":1}', 'null'];
    for (const body of bodies) {
      srv.handler = () => ({ body });
      const e = await client.getSlot().catch((x) => x);
      expect(e, body).toBeInstanceOf(BadResponseError);
      expect(e.code, body).toMatch(/^RPC_(BAD_RESPONSE|ID_MISMATCH)$/);
    }
    srv.handler = (req) => ({ body: { jsonrpc: '2.0', id: req.body.id } });
    await expect(client.getSlot()).rejects.toMatchObject({ code: 'RPC_BAD_RESPONSE', message: expect.stringMatching(/neither "result" nor "error"/) });
  });

  it('a result of the wrong shape is RPC_SCHEMA naming result', async () => {
    srv.rpc({ getSlot: () => 'ten' });
    await expect(client.getSlot()).rejects.toMatchObject({ code: 'RPC_SCHEMA', context: { path: 'result' } });
  });
});

describe('lossless JSON', () => {
  it('keeps u64 values, leaves safe numbers and strings alone', () => {
    const text = '{"a":9007199254740993,"b":[1,-9007199254740993,2.5e300],"c":"12345678901234567890","d":1234567890123456}';
    expect(parseJson(text)).toEqual({ a: 9007199254740993n, b: [1, -9007199254740993n, 2.5e300], c: '12345678901234567890', d: 1234567890123456 });
  });
  it('does not touch digits inside strings with escapes', () => {
    const text = '{"s":"x\\":99999999999999999999","n":1}';
    expect(parseJson(text)).toEqual({ s: 'x":99999999999999999999', n: 1 });
  });
  it('writes bigints as bare integers and round-trips', () => {
    const v = { lamports: 2n ** 64n - 1n, n: 1, bytes: new Uint8Array([1, 2]) };
    const text = stringifyJson(v);
    expect(text).toBe('{"lamports":18446744073709551615,"n":1,"bytes":[1,2]}');
    expect(parseJson(text)).toEqual({ lamports: 2n ** 64n - 1n, n: 1, bytes: [1, 2] });
  });
  it('throws SyntaxError on bad JSON', () => {
    expect(() => parseJson('{"a":12345678901234567890')).toThrow(SyntaxError);
  });
});
