/**
 * The devnet answers as Agave's test validator does, over HTTP and the websocket: u64 params read
 * exactly (a slot past 2^53 is that slot, not a rounded double), Agave's error codes for them,
 * `--account FILE` keeping the file's rentEpoch, and the error wording clients match on (issue 34
 * items 1, 5 and 7).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readAccountFile } from '../../../src/devnet/chain/account-file.js';
import { startDevnet, type Devnet } from '../../../src/devnet/index.js';
import { generateSigner } from '../../../src/solana/signer.js';
import { buildTx, newAddress, newKeypair, rpc, waitFor } from '../../support/devnet.js';

const payer = newKeypair();
const fixture = newAddress();
let devnet: Devnet;
let dir: string;
const I63 = '9223372036854775807';

/** A JSON-RPC call whose body is written as text: u64s past 2^53 go out exactly. */
async function raw(body: string) {
  const r = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return (await r.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
}
const call = (method: string, paramsText: string) => raw(`{"jsonrpc":"2.0","id":1,"method":"${method}","params":${paramsText}}`);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-agave-'));
  const file = join(dir, 'fixture.json');
  writeFileSync(file, `{"pubkey":"${fixture}","account":{"lamports":1000000,"data":["AQID","base64"],"owner":"11111111111111111111111111111111","executable":false,"rentEpoch":0,"space":3}}`);
  devnet = await startDevnet({
    slotMs: 20,
    wsPortPlusOne: false,
    stateModules: false,
    fundedAccounts: [{ address: payer.address, lamports: 10n * 10n ** 9n }],
    accounts: [readAccountFile(file)],
  });
  // the answers below name the node's slot, which must be past the genesis slot (a busy box can answer first)
  await waitFor(() => devnet.chain.slot() > 0, 10_000);
});
afterAll(async () => {
  await devnet?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('item 1: u64 params are exact', () => {
  it('minContextSlot 2^63-1 is -32016 not reached, in every standard method', async () => {
    for (const [method, params] of [
      ['getBalance', `["${payer.address}",{"minContextSlot":${I63}}]`],
      ['getAccountInfo', `["${payer.address}",{"minContextSlot":${I63}}]`],
      ['getSlot', `[{"minContextSlot":${I63}}]`],
      ['getLatestBlockhash', `[{"minContextSlot":${I63}}]`],
      ['getSignaturesForAddress', `["${payer.address}",{"minContextSlot":${I63}}]`],
    ] as const) {
      const r = await call(method, params);
      expect(r.error, method).toMatchObject({ code: -32016, message: 'Minimum context slot has not been reached' });
      expect((r.error!.data as { contextSlot: number }).contextSlot).toBeGreaterThan(0);
    }
  });

  it('a u64 past 2^64-1 or negative is -32602 naming the field', async () => {
    const r = await call('getSlot', '[{"minContextSlot":18446744073709551616}]');
    expect(r.error).toMatchObject({ code: -32602, message: expect.stringMatching(/minContextSlot/) });
    expect((await call('getSlot', '[{"minContextSlot":-1}]')).error).toMatchObject({ code: -32602 });
  });

  it('getBlockTime and getBlock of a slot past 2^53 are -32004 naming the exact slot', async () => {
    expect((await call('getBlockTime', `[${I63}]`)).error).toEqual({ code: -32004, message: `Block not available for slot ${I63}` });
    expect((await call('getBlock', `[${I63}]`)).error).toEqual({ code: -32004, message: `Block not available for slot ${I63}` });
  });

  it("getSlotLeaders' start slot is exact: an epoch without a schedule is Agave's -32602", async () => {
    const epoch = 9223372036854775807n / 432000n;
    expect((await call('getSlotLeaders', `[${I63},1]`)).error).toEqual({ code: -32602, message: `Invalid slot range: leader schedule for epoch ${epoch} is unavailable` });
    expect((await call('getSlotLeaders', '[0,0]')).result).toEqual([]);
  });

  // a guard, not a failing-first case: the websocket's lossless parse must not turn a u64 id into a refusal
  it('the websocket reads u64 params exactly too: an id past 2^53 is an unknown subscription', async () => {
    const ws = new WebSocket(devnet.wsUrl);
    await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
    const answer = new Promise<string>((r) => ws.once('message', (d) => r(String(d))));
    ws.send(`{"jsonrpc":"2.0","id":7,"method":"accountUnsubscribe","params":[${I63}]}`);
    expect(JSON.parse(await answer)).toEqual({ jsonrpc: '2.0', id: 7, result: false });
    ws.close();
  });
});

describe('item 5: --account FILE keeps rentEpoch', () => {
  it('serves the fixture rentEpoch 0 as given, and u64::MAX for others', async () => {
    const r = await call('getAccountInfo', `["${fixture}",{"encoding":"base64"}]`);
    expect(r.result).toMatchObject({ value: { rentEpoch: 0, lamports: 1000000, data: ['AQID', 'base64'], space: 3 } });
    const text = await (await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"jsonrpc":"2.0","id":1,"method":"getAccountInfo","params":["${payer.address}",{"encoding":"base64"}]}` })).text();
    expect(text).toContain('"rentEpoch":18446744073709551615');
  });
});

describe('item 7: strictness and wording', () => {
  it('getSignatureStatuses with an invalid signature is -32602', async () => {
    expect((await call('getSignatureStatuses', '[["invalid_signature"]]')).error).toEqual({ code: -32602, message: 'Invalid param: Invalid' });
    expect((await call('getSignatureStatuses', '[["abc"]]')).error).toEqual({ code: -32602, message: 'Invalid param: WrongSize' });
  });

  it('getInflationReward for an epoch past the last is -32004', async () => {
    expect((await call('getInflationReward', `[["${payer.address}"],{"epoch":5}]`)).error).toEqual({ code: -32004, message: 'Block not available for slot 2592000' });
  });

  it("a failed preflight says Agave's words: Error processing Instruction 1: custom program error: 0x1", async () => {
    const { blockhash } = ((await rpc(devnet.url, 'getLatestBlockhash', [])).body.result as { value: { blockhash: string } }).value;
    // instruction 1 is a transfer of more lamports than the payer holds: custom program error 0x1
    const tx = buildTx({ payer, blockhash, lamports: 1, tip: 20 * 10 ** 9, tipTo: newAddress() });
    const r = (await rpc(devnet.url, 'sendTransaction', [tx.toString('base64'), { encoding: 'base64' }])).body;
    expect(r.error.code).toBe(-32002);
    expect(r.error.message).toBe('Transaction simulation failed: Error processing Instruction 1: custom program error: 0x1');
    expect(r.error.data.err).toEqual({ InstructionError: [1, { Custom: 1 }] });
  });

  it('token methods answer Agave\'s "Invalid param: could not find mint"', async () => {
    const r = await call('getTokenAccountsByOwner', `["${payer.address}",{"mint":"${generateSigner().address}"}]`);
    expect(r.error).toEqual({ code: -32602, message: 'Invalid param: could not find mint' });
    expect((await call('getTokenSupply', `["${payer.address}"]`)).error).toEqual({ code: -32602, message: 'Invalid param: not a Token mint' });
  });

  it('getSlotLeaders over 5,000 is "Invalid limit; max 5000"', async () => {
    expect((await call('getSlotLeaders', '[0,5001]')).error).toEqual({ code: -32602, message: 'Invalid limit; max 5000' });
  });
});
