/**
 * The CU price estimate: only a cluster that does not serve `getPriorityFeeEstimate` (JSON-RPC
 * -32601) gets the fallback price, and that fallback is not cached; a bad API key, a server-side
 * JSON-RPC error or a malformed answer fails the send instead of hiding behind the fallback.
 * The fee estimate comes from a small loopback JSON-RPC host that answers what each test asks;
 * everything else goes to the devnet, through the real client.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { createSender, generateSigner, transferInstruction } from '../../src/sender/index.js';
import type { SenderRpc } from '../../src/sender/client/rpc.js';
import { setup, type Env } from '../support/sender.js';

let env: Env;
let host: http.Server;
let feeClient: CairnClient;
/** What the fee host answers next: HTTP status and JSON body (`id` is filled in). */
let answer: { status: number; body: Record<string, unknown> } = { status: 200, body: { result: { priorityFeeEstimate: 1 } } };
let asked = 0;

beforeAll(async () => {
  env = await setup(50, 17);
  host = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const { id, method } = JSON.parse(raw) as { id: unknown; method: string };
      if (method === 'getPriorityFeeEstimate') asked++;
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, ...answer.body }));
    });
  });
  await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
  feeClient = createClient({ url: `http://127.0.0.1:${(host.address() as AddressInfo).port}`, retry: { retries: 0 } });
});
afterAll(async () => {
  await feeClient?.close();
  await new Promise((r) => host?.close(r));
  await env?.stop();
});

/** The devnet client, with getPriorityFeeEstimate answered by the fee host. */
function rpcWithFeeHost(): SenderRpc {
  return new Proxy(env.client as unknown as SenderRpc, {
    get(target, prop) {
      if (prop === 'getPriorityFeeEstimate') return feeClient.getPriorityFeeEstimate.bind(feeClient);
      const v = Reflect.get(target, prop) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

const transfer = () => ({ instructions: [transferInstruction(env.payer.address, generateSigner().address, 1_000_000n)], payer: env.payer });
const fastCalls = () => env.devnet.control.requestLog().filter((e) => e.endpoint === 'fast').length;

describe('CU price from getPriorityFeeEstimate', () => {
  it('an estimate is used × multiplier', async () => {
    answer = { status: 200, body: { result: { priorityFeeEstimate: 1_000 } } };
    const sender = createSender({ client: rpcWithFeeHost(), cuLimit: 1_000, pollMs: 50, cuPrice: { estimate: 'High', multiplier: 1.5 } });
    const out = await sender.send(transfer());
    expect(env.devnet.chain.transaction(out.signature)?.computeUnitPrice).toBe(1_500);
    await sender.close();
  });

  it('method not found (-32601): the fallback price, asked again next time (not cached)', async () => {
    answer = { status: 200, body: { error: { code: -32601, message: 'Method not found' } } };
    const sender = createSender({ client: rpcWithFeeHost(), cuLimit: 1_000, pollMs: 50, fallbackCuPrice: 123_456, cuPrice: { estimate: 'Medium', refreshMs: 60_000 } });
    asked = 0;
    const a = await sender.send(transfer());
    const b = await sender.send(transfer());
    for (const s of [a.signature, b.signature]) expect(env.devnet.chain.transaction(s)?.computeUnitPrice).toBe(123_456);
    expect(asked).toBe(2);
    await sender.close();
  });

  it('a bad API key (401), a JSON-RPC server error or a malformed answer fails the send, nothing is sent', async () => {
    const sender = createSender({ client: rpcWithFeeHost(), cuLimit: 1_000, pollMs: 50, cuPrice: { estimate: 'Medium' } });
    const before = fastCalls();
    answer = { status: 401, body: { error: { code: 401, message: 'invalid API key provided' } } };
    await expect(sender.send(transfer())).rejects.toMatchObject({ code: 'RPC_UNAUTHORIZED' });
    answer = { status: 200, body: { error: { code: -32603, message: 'Internal error' } } };
    await expect(sender.send(transfer())).rejects.toMatchObject({ code: 'RPC_ERROR', context: { rpcCode: -32603 } });
    answer = { status: 200, body: { result: { priorityFeeEstimate: 'soon' } } };
    // the client's schema check (RPC_SCHEMA) or the builder's own (RPC_BAD_RESPONSE) refuses it
    await expect(sender.send(transfer())).rejects.toMatchObject({ code: expect.stringMatching(/^RPC_(SCHEMA|BAD_RESPONSE)$/), message: /priorityFeeEstimate/ });
    expect(fastCalls()).toBe(before);
    // and once the estimate answers again, the same sender works (no fallback was cached meanwhile)
    answer = { status: 200, body: { result: { priorityFeeEstimate: 2_000 } } };
    const out = await sender.send(transfer());
    expect(env.devnet.chain.transaction(out.signature)?.computeUnitPrice).toBe(2_400); // default multiplier 1.2
    await sender.close();
  });
});
