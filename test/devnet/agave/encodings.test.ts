/**
 * Account encodings as Agave answers them (issue 34 item 4): without an `encoding`, getAccountInfo,
 * getMultipleAccounts and getProgramAccounts answer its legacy "binary" default, a bare base58
 * string, refused above 128 bytes with its -32600; `base64+zstd` is served (checked here by
 * decompressing with an independent zstd decoder, fzstd), over HTTP and the websocket.
 */
import bs58 from 'bs58';
import { decompress } from 'fzstd';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startDevnet, type Devnet } from '../../../src/devnet/index.js';
import { newAddress, rpc } from '../../support/devnet.js';

const owner = newAddress();
const small = newAddress();
const large = newAddress();
const smallData = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
const largeData = Uint8Array.from({ length: 300 }, (_, i) => i % 7);
let devnet: Devnet;
const body = async (method: string, params: unknown) => (await rpc(devnet.url, method, params)).body;
const unzstd = (b64: string) => Array.from(decompress(new Uint8Array(Buffer.from(b64, 'base64'))));

beforeAll(async () => {
  devnet = await startDevnet({
    slotMs: 20,
    wsPortPlusOne: false,
    stateModules: false,
    accounts: [
      { address: small, lamports: 5_000_000n, data: smallData, owner, executable: false },
      { address: large, lamports: 5_000_000n, data: largeData, owner, executable: false },
    ],
  });
});
afterAll(async () => {
  await devnet?.stop();
});

describe('no encoding: a bare base58 string, as Agave', () => {
  it('getAccountInfo, getMultipleAccounts and getProgramAccounts', async () => {
    expect((await body('getAccountInfo', [small])).result.value.data).toBe(bs58.encode(smallData));
    expect((await body('getMultipleAccounts', [[small]])).result.value[0].data).toBe(bs58.encode(smallData));
    const pa = (await body('getProgramAccounts', [owner, { filters: [{ dataSize: 8 }] }])).result;
    expect(pa).toEqual([{ pubkey: small, account: expect.objectContaining({ data: bs58.encode(smallData), owner }) }]);
  });

  it('above 128 bytes: -32600 with Agave\'s words, for the default and for base58', async () => {
    const tooLong = { code: -32600, message: 'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.' };
    expect((await body('getAccountInfo', [large])).error).toEqual(tooLong);
    expect((await body('getAccountInfo', [large, { encoding: 'base58' }])).error).toEqual(tooLong);
    expect((await body('getMultipleAccounts', [[small, large]])).error).toEqual(tooLong);
  });

  it('jsonParsed with a dataSlice is Agave\'s -32600', async () => {
    expect((await body('getAccountInfo', [small, { encoding: 'jsonParsed', dataSlice: { offset: 0, length: 1 } }])).error).toEqual({
      code: -32600,
      message: 'Sliced account data can only be encoded using binary (base 58) or base64 encoding.',
    });
  });
});

describe('base64+zstd', () => {
  it('compresses the data (and a slice of it) as one zstd frame', async () => {
    const v = (await body('getAccountInfo', [large, { encoding: 'base64+zstd' }])).result.value;
    expect(v.data[1]).toBe('base64+zstd');
    expect(unzstd(v.data[0])).toEqual(Array.from(largeData));
    const sliced = (await body('getAccountInfo', [large, { encoding: 'base64+zstd', dataSlice: { offset: 10, length: 20 } }])).result.value;
    expect(unzstd(sliced.data[0])).toEqual(Array.from(largeData.subarray(10, 30)));
    const many = (await body('getProgramAccounts', [owner, { encoding: 'base64+zstd' }])).result;
    expect(many).toHaveLength(2);
    for (const k of many) expect(unzstd(k.account.data[0])).toEqual(Array.from(k.pubkey === small ? smallData : largeData));
  });

  it('accountSubscribe in base64+zstd notifies compressed data', async () => {
    const ws = new WebSocket(devnet.wsUrl);
    await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
    const messages: { id?: number; method?: string; params?: { result: { value: { data: [string, string] } } } }[] = [];
    ws.on('message', (d) => messages.push(JSON.parse(String(d))));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'accountSubscribe', params: [large, { encoding: 'base64+zstd', commitment: 'processed' }] }));
    await expect.poll(() => messages.find((m) => m.id === 1)).toBeTruthy();
    await rpc(devnet.url, 'requestAirdrop', [large, 1_000_000]);
    await expect.poll(() => messages.find((m) => m.method === 'accountNotification'), { timeout: 5000 }).toBeTruthy();
    const n = messages.find((m) => m.method === 'accountNotification')!;
    expect(n.params!.result.value.data[1]).toBe('base64+zstd');
    expect(unzstd(n.params!.result.value.data[0])).toEqual(Array.from(largeData));
    ws.close();
  });
});
