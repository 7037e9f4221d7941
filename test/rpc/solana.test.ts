import { describe, expect, it } from 'vitest';
import { CairnError, RpcError } from '../../src/errors/index.js';
import type { CairnClient } from '../../src/rpc/client/create-client.js';
import { addr, sig } from '../support/rpc-fixtures.js';
import { useServerAndClient, type TestServer } from '../support/rpc-server.js';

let srv: TestServer;
let client: CairnClient;

useServerAndClient((s, c) => ((srv = s), (client = c)));
const sent = () => srv.requests.at(-1)!.body;

describe('standard Solana methods', () => {
  it('getLatestBlockhash unwraps value and keeps context.slot', async () => {
    srv.rpc({ getLatestBlockhash: () => ({ context: { slot: 77 }, value: { blockhash: addr(1), lastValidBlockHeight: 300 } }) });
    expect(await client.getLatestBlockhash({ commitment: 'confirmed' })).toEqual({ blockhash: addr(1), lastValidBlockHeight: 300, slot: 77 });
    expect(sent()).toMatchObject({ method: 'getLatestBlockhash', params: [{ commitment: 'confirmed' }] });
    await expect(client.getLatestBlockhash({ commitment: 'final' as any })).rejects.toMatchObject({ context: { field: 'params.commitment' } });
  });

  it('getBlockHeight and getSlot', async () => {
    srv.rpc({ getBlockHeight: () => 1234, getSlot: () => 99 });
    expect(await client.getBlockHeight()).toBe(1234);
    expect(sent()).toMatchObject({ method: 'getBlockHeight', params: [] });
    expect(await client.getSlot({ commitment: 'processed' })).toBe(99);
    expect(sent()).toMatchObject({ method: 'getSlot', params: [{ commitment: 'processed' }] });
  });

  it('getSignatureStatuses splits 600 signatures into 256+256+88, order kept', async () => {
    const sigs = Array.from({ length: 600 }, (_, i) => sig(i));
    srv.rpc({
      getSignatureStatuses: (p) => ({
        context: { slot: 5 },
        value: p[0].map((s: string) => (s === sigs[10] ? null : { slot: sigs.indexOf(s), confirmations: 0, err: null, confirmationStatus: 'confirmed' })),
      }),
    });
    const out = await client.getSignatureStatuses(sigs, { searchTransactionHistory: true });
    expect(srv.requests.map((r) => r.body.params[0].length).sort((a, b) => a - b)).toEqual([88, 256, 256]);
    expect(srv.requests[0].body.params[1]).toEqual({ searchTransactionHistory: true });
    expect(out).toHaveLength(600);
    expect(out[10]).toBeNull();
    expect(out.map((s, i) => (s ? s.slot : i))).toEqual(sigs.map((_, i) => i));
    await expect(client.getSignatureStatuses(['nope'])).rejects.toMatchObject({ context: { field: 'signatures[0]' } });
  });

  it('getTransaction asks for json + maxSupportedTransactionVersion', async () => {
    const tx = { slot: 9, meta: { err: null, logMessages: ['Program log: hi'] }, transaction: {} };
    srv.rpc({ getTransaction: () => tx });
    expect(await client.getTransaction(sig(1), { commitment: 'confirmed' })).toEqual(tx);
    expect(sent()).toMatchObject({
      method: 'getTransaction',
      params: [sig(1), { encoding: 'json', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }],
    });
    srv.rpc({ getTransaction: () => null });
    expect(await client.getTransaction(sig(1))).toBeNull();
  });

  it('simulateTransaction sends base64 with its config and returns {err, logs, unitsConsumed}', async () => {
    srv.rpc({ simulateTransaction: () => ({ context: { slot: 1 }, value: { err: { InstructionError: [0, 'Custom'] }, logs: ['a'], unitsConsumed: 150 } }) });
    const r = await client.simulateTransaction(new Uint8Array([1, 2, 3, 4]), { sigVerify: false, replaceRecentBlockhash: true });
    expect(sent()).toMatchObject({ method: 'simulateTransaction', params: ['AQIDBA==', { encoding: 'base64', sigVerify: false, replaceRecentBlockhash: true }] });
    expect(r).toMatchObject({ err: { InstructionError: [0, 'Custom'] }, logs: ['a'], unitsConsumed: 150 });
    await expect(client.simulateTransaction('not base64!')).rejects.toMatchObject({ context: { field: 'wire' } });
  });

  it('getPriorityFeeEstimate sends one object in an array', async () => {
    srv.rpc({ getPriorityFeeEstimate: () => ({ priorityFeeEstimate: 1200 }) });
    const params = { accountKeys: [addr(1)], options: { priorityLevel: 'High' as const, lookbackSlots: 150 } };
    expect(await client.getPriorityFeeEstimate(params)).toEqual({ priorityFeeEstimate: 1200 });
    expect(sent()).toMatchObject({ method: 'getPriorityFeeEstimate', params: [params] });
    await expect(client.getPriorityFeeEstimate({ accountKeys: [addr(1)], options: { lookbackSlots: 151 } })).rejects.toMatchObject({
      context: { field: 'params.options.lookbackSlots' },
    });
  });

  it('getBalance, getAccountInfo, requestAirdrop', async () => {
    srv.rpc({ getBalance: () => ({ context: { slot: 1 }, value: 5_000 }) });
    expect(await client.getBalance(addr(1))).toBe(5_000);
    // real clusters send rentEpoch = u64::MAX as a bare JSON number
    srv.handler = (req) => ({
      body: `{"jsonrpc":"2.0","id":"${req.body.id}","result":{"context":{"slot":1},"value":{"lamports":1,"owner":"${addr(2)}","data":["","base64"],"executable":false,"rentEpoch":18446744073709551615,"space":0}}}`,
    });
    expect((await client.getAccountInfo(addr(1)))!.rentEpoch).toBe(18446744073709551615n);
    srv.rpc({ getAccountInfo: () => ({ context: { slot: 1 }, value: { lamports: -1, owner: addr(2), data: [], executable: false } }) });
    await expect(client.getAccountInfo(addr(1))).rejects.toMatchObject({ context: { path: 'result.value.lamports' } });
    srv.rpc({ getAccountInfo: () => ({ context: { slot: 1 }, value: null }) });
    expect(await client.getAccountInfo(addr(1))).toBeNull();
    expect(sent().params).toEqual([addr(1), { encoding: 'base64' }]);
    srv.rpc({ requestAirdrop: () => sig(3) });
    expect(await client.requestAirdrop(addr(1), 1_000_000_000)).toBe(sig(3));
    expect(sent()).toMatchObject({ method: 'requestAirdrop', params: [addr(1), 1_000_000_000] });
  });
});

describe('out-of-range numbers from the server', () => {
  const answer = (result: string) => (srv.handler = (req) => ({ body: `{"jsonrpc":"2.0","id":"${req.body.id}","result":${result}}` }));

  it('getBalance of 2^128 (or -1, or 2^64) is RPC_SCHEMA naming result.value; u64::MAX is a bigint', async () => {
    for (const bad of [String(2n ** 128n), '-1', String(2n ** 64n), '1e300', '18446744073709551616.0']) {
      answer(`{"context":{"slot":1},"value":${bad}}`);
      await expect(client.getBalance(addr(1)), bad).rejects.toMatchObject({ code: 'RPC_SCHEMA', context: { path: 'result.value' } });
    }
    answer(`{"context":{"slot":1},"value":${2n ** 64n - 1n}}`);
    expect(await client.getBalance(addr(1))).toBe(2n ** 64n - 1n);
  });

  it('slots, heights and the context slot out of u64 range are RPC_SCHEMA naming the field', async () => {
    answer(String(2n ** 64n));
    await expect(client.getSlot()).rejects.toMatchObject({ code: 'RPC_SCHEMA', context: { path: 'result' } });
    answer(`{"context":{"slot":${2n ** 70n}},"value":{"blockhash":"${addr(3)}","lastValidBlockHeight":5}}`);
    await expect(client.getLatestBlockhash()).rejects.toMatchObject({ code: 'RPC_SCHEMA', context: { path: 'result.context.slot' } });
  });

  it('requestAirdrop refuses lamports of 2^64 or more (a u64 on the wire), without printing a huge value', async () => {
    for (const bad of [2n ** 64n, 10n ** 20_000n]) {
      let e: CairnError | undefined;
      try {
        await client.requestAirdrop(addr(1), bad);
      } catch (x) {
        e = x as CairnError;
      }
      expect(e).toMatchObject({ code: 'INPUT_INVALID', context: { field: 'lamports' } });
      expect(e!.message.length).toBeLessThan(200);
    }
  });

  it('a 20 MB number is refused before it becomes a bigint: a typed error with a short message', async () => {
    answer(`{"context":{"slot":1},"value":${'9'.repeat(20_000_000)}}`);
    const e = await client.getBalance(addr(1)).then(() => undefined, (x: unknown) => x as CairnError);
    expect(e).toBeInstanceOf(CairnError);
    expect(e!.walk((x) => (x as CairnError).code === 'INPUT_TOO_LARGE')).toBeDefined();
    expect(e!.message.length).toBeLessThan(400);
    expect(e!.message).toMatch(/response is over a JSON limit/);
    expect(e!.context).toMatchObject({ detail: 'over a JSON limit' });
  });
});

describe('sender host: /fast and /ping', () => {
  it('sendTransaction posts to /fast with the exact array params', async () => {
    srv.rpc({ sendTransaction: () => sig(1) });
    expect(await client.sendTransaction(new Uint8Array([9, 9]))).toBe(sig(1));
    const r = srv.requests[0];
    expect(r.path).toBe('/fast');
    expect(r.query).toEqual({}); // no key for the sender host by default
    expect(r.body).toMatchObject({ method: 'sendTransaction', params: ['CQk=', { encoding: 'base64', skipPreflight: true, maxRetries: 0 }] });
    await client.sendTransaction('CQk=', { swqosOnly: true });
    expect(srv.requests[1].query).toEqual({ swqos_only: 'true' });
  });

  it('a 400 with a JSON-RPC error body becomes RpcError -32602', async () => {
    srv.handler = (req) => ({ status: 400, body: { jsonrpc: '2.0', id: req.body.id, error: { code: -32602, message: 'Invalid request: missing tip' } } });
    const e = await client.sendTransaction('CQk=').catch((x) => x);
    expect(e).toBeInstanceOf(RpcError);
    expect(e.rpcCode).toBe(-32602);
    expect(e.message).toContain('missing tip');
    expect(e.context.status).toBe(400);
    expect(srv.requests).toHaveLength(1);
  });

  it('ping measures GET /ping answering ok, without the key', async () => {
    srv.handler = () => ({ body: 'ok', headers: { 'content-type': 'text/plain' } });
    const ms = await client.ping();
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(srv.requests[0]).toMatchObject({ method: 'GET', path: '/ping', query: {} });
    srv.handler = () => ({ status: 503, body: 'down' });
    await expect(client.ping()).rejects.toMatchObject({ code: 'RPC_SERVER' });
    expect(srv.requests).toHaveLength(2); // a ping is not retried
  });
});
