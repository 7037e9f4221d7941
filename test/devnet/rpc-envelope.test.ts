/**
 * JSON-RPC 2.0 ids on the devnet's HTTP endpoint: a string, a number or null is echoed; an object or
 * an array is never echoed and answers -32600 (Invalid Request) with id null, alone or inside a
 * batch (where the other calls are still answered). The websocket side is in chain-watches.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';

let devnet: Devnet;
const post = async (body: unknown) => {
  const res = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: JSON.parse(await res.text()) };
};

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 50, wsPortPlusOne: false, stateModules: false });
});
afterAll(async () => {
  await devnet?.stop();
});

describe('JSON-RPC ids', () => {
  it('echoes a string, a number or null', async () => {
    for (const id of ['a', 7, null]) expect((await post({ jsonrpc: '2.0', id, method: 'getHealth' })).body).toEqual({ jsonrpc: '2.0', id, result: 'ok' });
  });

  it('answers an object or array id with -32600 and id null, single and in a batch', async () => {
    for (const id of [{ a: 1 }, [1]]) {
      const one = await post({ jsonrpc: '2.0', id, method: 'getHealth' });
      expect(one.status).toBe(200);
      expect(one.body.id).toBeNull();
      expect(one.body.error.code).toBe(-32600);
    }
    const batch = await post([{ jsonrpc: '2.0', id: { x: 1 }, method: 'getHealth' }, { jsonrpc: '2.0', id: 2, method: 'getHealth' }, { jsonrpc: '2.0', id: [3], method: 'getHealth' }]);
    expect(batch.body).toEqual([
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
      { jsonrpc: '2.0', id: 2, result: 'ok' },
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32600 }) },
    ]);
  });
});
