/**
 * JSON-RPC 2.0 notifications on the devnet's HTTP endpoint, as Agave's RPC (jsonrpc-core behind
 * jsonrpc-http-server) treats them: a request object without an "id" member gets no answer — alone,
 * 200 with an empty body; in a batch, no element; a batch of nothing but notifications, 200 and an
 * empty body — and is not run. `"id": null` is a call like any other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { buildTx, LAMPORTS_PER_SOL, newKeypair, rpc, type TestKeypair } from '../support/devnet.js';

let devnet: Devnet;
let payer: TestKeypair;
const post = async (body: unknown) => {
  const res = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
};

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, wsPortPlusOne: false, stateModules: false });
  payer = newKeypair();
  await devnet.control.airdrop(payer.address, BigInt(LAMPORTS_PER_SOL));
});
afterAll(async () => {
  await devnet?.stop();
});

describe('JSON-RPC notifications', () => {
  it('a call without "id" gets 200 and an empty body', async () => {
    const r = await post({ jsonrpc: '2.0', method: 'getHealth' });
    expect(r).toEqual({ status: 200, text: '' });
  });

  it('"id": null is not a notification: it is answered, with id null', async () => {
    const r = await post({ jsonrpc: '2.0', id: null, method: 'getHealth' });
    expect(JSON.parse(r.text)).toEqual({ jsonrpc: '2.0', id: null, result: 'ok' });
  });

  it('a notification of a method the devnet does not have gets no answer either', async () => {
    expect(await post({ jsonrpc: '2.0', method: 'noSuchMethod', params: [1] })).toEqual({ status: 200, text: '' });
  });

  it('an object without "id" that is not a valid call is still answered (-32600, id null)', async () => {
    const r = await post({ jsonrpc: '2.0', method: 7 });
    expect(JSON.parse(r.text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('in a batch, a notification adds no element; the calls are answered in order', async () => {
    const r = await post([
      { jsonrpc: '2.0', method: 'getHealth' },
      { jsonrpc: '2.0', id: 1, method: 'getHealth' },
      { jsonrpc: '2.0', method: 'getSlot' },
      { jsonrpc: '2.0', id: null, method: 'getHealth' },
    ]);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.text)).toEqual([
      { jsonrpc: '2.0', id: 1, result: 'ok' },
      { jsonrpc: '2.0', id: null, result: 'ok' },
    ]);
  });

  it('a batch of only notifications gets 200 and an empty body', async () => {
    const r = await post([{ jsonrpc: '2.0', method: 'getHealth' }, { jsonrpc: '2.0', method: 'getSlot', params: [] }]);
    expect(r).toEqual({ status: 200, text: '' });
  });

  it('a notification is not run: a sendTransaction notification never lands', async () => {
    const { blockhash } = devnet.chain.latestBlockhash();
    const wire = buildTx({ payer, blockhash });
    expect(await post({ jsonrpc: '2.0', method: 'sendTransaction', params: [wire.toString('base64'), { encoding: 'base64' }] })).toEqual({ status: 200, text: '' });
    const before = devnet.chain.slot();
    await devnet.chain.waitForSlot(before + 3);
    expect(devnet.chain.ledger().filter((t) => t.accountKeys[0] === payer.address)).toHaveLength(0);
    // The same bytes sent as a call do land.
    const sent = await rpc(devnet.url, 'sendTransaction', [wire.toString('base64'), { encoding: 'base64' }]);
    expect(typeof sent.body.result).toBe('string');
  });
});
