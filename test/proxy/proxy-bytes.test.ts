/**
 * The proxy reads a proof answer from the upstream's bytes (a scan, the workers decoding the items)
 * and passes those very bytes on when every proof holds; what it refuses, and how, is what the parsed
 * answer gives (`checkAnswer`, the oracle here): the failing items, their indices (a keyed batch's
 * null items left out), ids and reasons, small answers and large ones, lists and keyed batches, and
 * the answers it takes by their parse (a key given twice, an envelope-like key, an item not of the
 * kind, not JSON). A batch of calls none of which fails passes as the upstream's bytes too.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { fabricateAssetProof } from '../../src/devnet/faults/lies.js';
import { mulberry32 } from '../../src/devnet/chain/mulberry32.js';
import { startProxy, PROOF_REJECTED_CODE, type Proxy } from '../../src/proxy/proxy-server.js';
import { checkAnswer } from '../../src/proxy/proxy-check.js';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import type { Verifier } from '../../src/merkle/verifier/types.js';

const CACHE = join(process.cwd(), 'node_modules', '.cache', 'cairn');
const draw = mulberry32(5);

let devnet: Devnet;
let upstream: Server;
let upstreamUrl: string;
/** What the fake upstream answers next (getMultipleAccounts goes to the devnet: the proxy anchors there). */
let next = '';
let refusing: Proxy;
let annotating: Proxy;
let oracle: Verifier;
const proofs: any[] = [];

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, seed: 43, proverCacheDir: CACHE });
  const owner = Keypair.generate().publicKey.toBase58();
  for (let i = 0; i < 3; i++) {
    const { assetId } = await devnet.das!.mintCompressedNft({ name: `X${i}`, symbol: 'X', description: '', owner, confirmTransaction: true });
    const res = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getAssetProof', params: { id: assetId } }) });
    proofs.push(((await res.json()) as any).result);
  }
  upstream = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(next);
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  // A long anchor cache: the devnet's tree does not change during the test.
  refusing = await startProxy({ upstream: upstreamUrl, rpc: devnet.url, threads: 1 });
  annotating = await startProxy({ upstream: upstreamUrl, rpc: devnet.url, threads: 1, mode: 'annotate' });
  oracle = createVerifier({ threads: 0, anchor: { rpc: devnet.url } });
}, 60_000);
afterAll(async () => {
  await refusing?.close();
  await annotating?.close();
  await oracle?.close();
  await new Promise((r) => upstream?.close(r));
  await devnet?.stop();
});

async function call(proxy: Proxy, body: unknown): Promise<{ text: string; json: any }> {
  const res = await fetch(proxy.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  try {
    return { text, json: JSON.parse(text) };
  } catch {
    return { text, json: null };
  }
}

/** A getAssetProofBatch answer: `values[i]` under key `k<i>` (or the given keys). */
const keyed = (values: string[], keys = values.map((_, i) => `"k${i}"`)) => `{"jsonrpc":"2.0","id":9,"result":{${values.map((v, i) => `${keys[i]}:${v}`).join(',')}}}`;

describe('proof answers read from their bytes', () => {
  it('refuse and annotate exactly what the parsed answer fails, and pass good answers byte for byte', async () => {
    const s = JSON.stringify;
    const real = proofs.map((p) => s(p));
    const lie = s(fabricateAssetProof(proofs[1], draw));
    const notAProof = s({ hello: 'world' });
    const many = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
    const cases: [string, string][] = [
      ['one real proof', `{"jsonrpc":"2.0","id":9,"result":${real[0]}}`],
      ['one lie', `{"jsonrpc":"2.0","id":9,"result":${lie}}`],
      ['keyed, nulls around a lie', keyed(['null', real[0]!, 'null', lie, real[2]!])],
      ['keyed, all null', keyed(['null', 'null'])],
      ['keyed, large, lies and nulls', keyed(many(60, (i) => (i % 7 === 3 ? lie : i % 11 === 5 ? 'null' : real[i % 3]!)))],
      ['keyed, large, all real', keyed(many(60, (i) => real[i % 3]!))],
      ['keyed, a key given twice', keyed([lie, real[0]!], ['"a"', '"a"'])],
      ['keyed, an envelope-like key', keyed([real[0]!, lie], ['"value"', '"b"'])],
      ['keyed, an index-like key', keyed([real[0]!, lie], ['"7"', '"b"'])],
      ['keyed, an item not of the kind', keyed([real[0]!, notAProof, lie])],
      ['listed, large, an item not of the kind', `{"jsonrpc":"2.0","id":9,"result":[${many(40, (i) => (i === 30 ? notAProof : real[i % 3]!)).join(',')}]}`],
      ['an error answer', '{"jsonrpc":"2.0","id":9,"error":{"code":-32000,"message":"nope"}}'],
      ['a null result', '{"jsonrpc":"2.0","id":9,"result":null}'],
      ['no envelope', real[0]!],
      ['not JSON', '{"jsonrpc":"2.0","id":9,"result":'],
      ['an array', `[${real[0]}]`],
    ];
    const params = { ids: ['x'] };
    for (const [what, answer] of cases) {
      next = answer;
      let parsed: any;
      try {
        parsed = JSON.parse(answer);
      } catch {
        parsed = undefined;
      }
      const result = parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'result' in parsed ? parsed.result : undefined;
      let expected: any;
      try {
        expected = result === undefined ? null : await checkAnswer(oracle, 'getAssetProofBatch', params, result, {});
      } catch (e) {
        expected = { failed: [{ index: 0, reason: (e as Error).message, status: 'unreadable' }] };
      }
      const failed = expected?.failed ?? [];
      const refused = await call(refusing, { jsonrpc: '2.0', id: 9, method: 'getAssetProofBatch', params });
      const annotated = await call(annotating, { jsonrpc: '2.0', id: 9, method: 'getAssetProofBatch', params }).catch(() => null);
      if (failed.length === 0) {
        expect(refused.text, what).toBe(answer);
        if (annotated) expect(annotated.text, what).toBe(answer);
        continue;
      }
      expect(refused.json.error, what).toEqual({ code: PROOF_REJECTED_CODE, message: expect.stringContaining(`${failed.length} of ${expected.items ?? 1}`), data: { method: 'getAssetProofBatch', kind: 'asset-proof', items: failed } });
      expect(refused.json.id, what).toBe(9);
      expect(annotated!.json, what).toEqual({ ...parsed, cairn: { verified: false, method: 'getAssetProofBatch', kind: 'asset-proof', items: failed } });
    }
    const metrics = await (await fetch(`${refusing.url}/metrics`)).text();
    expect(metrics).toMatch(/cairn_proxy_requests_total\{method="getAssetProofBatch"\} 14\n/);
  }, 120_000);

  it('an anchor that fails refuses the answer as unreadable, after one attempt, with the reason it always gave', async () => {
    let hits = 0;
    const failing = createServer((_req, res) => {
      hits++;
      res.writeHead(500);
      res.end();
    });
    await new Promise<void>((r) => failing.listen(0, '127.0.0.1', () => r()));
    const proxy = await startProxy({ upstream: upstreamUrl, rpc: `http://127.0.0.1:${(failing.address() as AddressInfo).port}`, threads: 1 });
    try {
      next = `{"jsonrpc":"2.0","id":9,"result":[${proofs.map((p) => JSON.stringify(p)).join(',')}]}`;
      const r = await call(proxy, { jsonrpc: '2.0', id: 9, method: 'getAssetProofBatch', params: { ids: ['x'] } });
      expect(r.json.error.data.items).toEqual([{ index: 0, reason: expect.stringMatching(/anchor\.rpc.*HTTP 500/), status: 'unreadable' }]);
      expect(hits).toBe(1);
    } finally {
      await proxy.close();
      await new Promise((r) => failing.close(r));
    }
    const unreachable = await startProxy({ upstream: upstreamUrl, rpc: 'http://127.0.0.1:1', threads: 1 });
    try {
      const r = await call(unreachable, { jsonrpc: '2.0', id: 9, method: 'getAssetProofBatch', params: { ids: ['x'] } });
      expect(r.json.error.data.items).toEqual([{ index: 0, reason: '"anchor.rpc": getMultipleAccounts failed: the anchor RPC could not be reached', status: 'unreadable' }]);
    } finally {
      await unreachable.close();
    }
    await expect(startProxy({ upstream: upstreamUrl, rpc: 'ftp://x' })).rejects.toThrow(/anchor\.rpc/);
  });

  it('a batch of calls with no failing proof passes as the upstream bytes', async () => {
    next = `[{"jsonrpc":"2.0","id":1,"result":1.50},{"jsonrpc":"2.0","id":2,"result":${JSON.stringify(proofs[0])}}]`;
    const r = await call(refusing, [
      { jsonrpc: '2.0', id: 1, method: 'getBalance', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'getAssetProof', params: { id: 'x' } },
    ]);
    expect(r.text).toBe(next);
  });
});
