/**
 * The acceptance of anchored verification, end to end on the devnet: with its `lieRate` fault the
 * devnet answers self-consistent fabrications on its real trees. `cairn verify --rpc` and
 * `cairn proxy` call them what they are (`unknown-root`) for asset, account, address and validity
 * proofs, while unanchored verification passes them (the hole); real answers are `anchored: true`
 * and pass the proxy unchanged. The proxy's own surface: the JSON-RPC error and its data, annotate
 * mode, pass-through of other methods, /metrics, the token off loopback, the upstream key kept.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import bs58 from 'bs58';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { startProxy, PROOF_REJECTED_CODE, type Proxy } from '../../src/proxy/proxy-server.js';
import { run as verifyCli } from '../../src/cli/verify.js';

const CACHE = join(process.cwd(), 'node_modules', '.cache', 'cairn');
const addr = () => Keypair.generate().publicKey.toBase58();
const dir = mkdtempSync(join(tmpdir(), 'cairn-proxy-'));

let devnet: Devnet;
let proxy: Proxy;
let annotating: Proxy;
let assetId: string;
let hash: string;
let address: string;

async function post(url: string, method: string, params: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }) });
  return res.json();
}
const lie = (rate: number) => devnet.control.setFaults('rpc', { lieRate: rate });

async function cli(args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await verifyCli(args, { stdout: { write: (s: string) => (out += s) }, stderr: { write: () => true }, stdin: (async function* () {})() });
  return { code, out };
}
function file(name: string, body: unknown): string {
  const f = join(dir, name);
  writeFileSync(f, JSON.stringify(body));
  return f;
}

/** Each kind's method and params. */
const calls = () =>
  [
    ['asset-proof', 'getAssetProof', { id: assetId }],
    ['account-proof', 'getCompressedAccountProof', { hash }],
    ['address-proof', 'getMultipleNewAddressProofs', [address]],
  ] as const;

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, seed: 41, proverCacheDir: CACHE });
  assetId = (await devnet.das!.mintCompressedNft({ name: 'P', symbol: 'P', description: '', owner: addr(), confirmTransaction: true })).assetId;
  hash = ((await devnet.compression!.createCompressedAccount({ owner: addr() })).account as any).hash;
  address = bs58.encode(Uint8Array.from(bs58.decode(addr()), (b, i) => (i === 0 ? 0 : b)));
  proxy = await startProxy({ upstream: devnet.url, threads: 1, keySets: ['cairn-devnet-1'] });
  annotating = await startProxy({ upstream: devnet.url, threads: 1, keySets: ['cairn-devnet-1'], mode: 'annotate' });
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await annotating?.close();
  await devnet?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a lying indexer (devnet lieRate) meets anchored verification', () => {
  it('cairn verify --rpc: real answers anchored, lies unknown-root; without --rpc the lies pass and the summary says not anchored', async () => {
    lie(0);
    for (const [kind, method, params] of calls()) {
      const real = (await post(devnet.url, method, params)).result;
      const r = await cli([kind, file(`real-${kind}.json`, real), '--rpc', devnet.url, '--json']);
      expect(r.code, kind).toBe(0);
      expect(JSON.parse(r.out), kind).toMatchObject({ anchored: true, invalid: 0, items: [expect.objectContaining({ valid: true, anchored: true })] });
    }
    lie(1);
    for (const [kind, method, params] of calls()) {
      const lied = file(`lie-${kind}.json`, (await post(devnet.url, method, params)).result);
      const unanchored = await cli([kind, lied]);
      expect(unanchored.code, kind).toBe(0);
      expect(unanchored.out).toMatch(/1 valid, 0 invalid \(not anchored: roots not checked against the chain; add --rpc URL to anchor\)\n$/);
      const r = await cli([kind, lied, '--rpc', devnet.url]);
      expect(r.code, kind).toBe(1);
      expect(r.out, kind).toMatch(/^INVALID  .* \[unknown-root\]: root .* is not in tree .* root history on chain/);
    }
    lie(0);
  });

  it('the proxy refuses each lie with its error naming the item and the reason; real answers pass unchanged', async () => {
    for (const [kind, method, params] of calls()) {
      lie(0);
      const direct = await post(devnet.url, method, params);
      const via = await post(proxy.url, method, params);
      // the slot moves between the two calls
      for (const a of [direct, via]) {
        delete a.result?.context;
        delete a.result?.last_indexed_slot;
      }
      expect(via.result, kind).toEqual(direct.result);
      lie(1);
      const refused = await post(proxy.url, method, params);
      expect(refused.id).toBe(7);
      expect(refused.error, kind).toMatchObject({ code: PROOF_REJECTED_CODE, data: { method, kind, items: [expect.objectContaining({ index: 0, status: 'unknown-root', reason: expect.stringMatching(/root history on chain/) })] } });
      const annotated = await post(annotating.url, method, params);
      expect(annotated.result, kind).toBeDefined();
      expect(annotated.cairn, kind).toMatchObject({ verified: false, kind, items: [expect.objectContaining({ status: 'unknown-root' })] });
    }
    lie(0);
    const metrics = await (await fetch(`${proxy.url}/metrics`)).text();
    expect(metrics).toMatch(/cairn_proxy_items_refused_total\{reason="unknown-root"\} 3/);
    expect(metrics).toMatch(/cairn_proxy_items_verified_total\{kind="asset-proof"\} 2/);
    expect(metrics).toMatch(/cairn_proxy_added_seconds_count \d+/);
  });

  it('validity proofs: a real proof over made-up roots is refused by the proxy and by verify --rpc; a real one passes', async () => {
    const params = { hashes: [hash] };
    lie(1);
    const annotated = await post(annotating.url, 'getValidityProof', params);
    expect(annotated.cairn).toMatchObject({ kind: 'validity-proof', items: [expect.objectContaining({ status: 'unknown-root' })] });
    const lied = file('lie-validity.json', annotated.result);
    expect((await cli(['validity-proof', lied, '--key-set', 'cairn-devnet-1'])).code).toBe(0); // self-consistent: the proof verifies
    const r = await cli(['validity-proof', lied, '--key-set', 'cairn-devnet-1', '--rpc', devnet.url]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/unknown-root/);
    lie(0);
    const real = await post(proxy.url, 'getValidityProof', params);
    expect(real.error).toBeUndefined();
    expect(real.result.value.roots).toHaveLength(1);
  }, 300_000);
});

describe('the proxy itself', () => {
  it('passes other methods and REST through, never forwards a caller api-key, and needs a token off loopback', async () => {
    const slot = await post(proxy.url, 'getSlot', []);
    expect(slot.result).toEqual(expect.any(Number));
    const batch = await (await fetch(proxy.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'getSlot' }, { jsonrpc: '2.0', id: 2, method: 'getAssetProof', params: { id: assetId } }]) })).json() as any;
    expect(batch.map((a: any) => a.id)).toEqual([1, 2]);
    expect(batch[1].result.root).toEqual(expect.any(String));
    await expect(startProxy({ upstream: devnet.url, host: '0.0.0.0' })).rejects.toThrow(/token/);
    const guarded = await startProxy({ upstream: devnet.url, threads: 1, token: 'a-token-of-its-own-123' });
    try {
      expect((await fetch(guarded.url, { method: 'POST', body: '{}' })).status).toBe(401);
      const ok = await post(guarded.url, 'getSlot', [], { authorization: 'Bearer a-token-of-its-own-123' });
      expect(ok.result).toEqual(expect.any(Number));
    } finally {
      await guarded.close();
    }
  });
});
