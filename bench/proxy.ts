/**
 * What `cairn proxy` costs: the latency it adds per answer, and its proof throughput against the
 * verifier alone, in one run. The devnet runs in its own process (`cairn devnet`, real validity
 * proofs); the proxy (verifying in its worker pool and anchoring against the devnet's tree accounts)
 * and the client share this one. Each request is sent straight to the devnet and through the proxy,
 * alternately, so both meet the same load:
 * - `getAssetProofBatch` of 100 and of 1,000 ids (1,000 distinct minted cNFTs);
 * - `getValidityProof` for a new address (a real Groth16 proof each time; the devnet proves it).
 * Added latency = proxy p50/p99 − direct p50/p99, and as a share of the upstream's own answer time.
 * Throughput: proofs/s through the proxy (1,000-id batches, one after another) against the same
 * answers verified by an unanchored verifier of the same thread count in this process. Anchoring:
 * getMultipleAccounts calls the devnet logged per proxied batch.
 *
 * Run: `npm run bench -- proxy` (or `npx tsx bench/proxy.ts [reps]`, default 20). Writes
 * bench/results/proxy.{json,md}. Goal: ≤ 10% added to the upstream's own answer time; ≤ 1
 * getMultipleAccounts per batch.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import bs58 from 'bs58';
import { Keypair } from '@solana/web3.js';
import { startProxy } from '../src/proxy/proxy-server.js';
import { createVerifier } from '../src/merkle/verifier/create-verifier.js';
import { createAnchorSource } from '../src/merkle/anchor/source.js';
import { anchorVerdicts } from '../src/merkle/anchor/verdicts.js';

const here = dirname(fileURLToPath(import.meta.url));
const REPS = Number(process.argv[2] ?? 20);
const THREADS = 2;

async function startDevnetProcess(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(here, '..', 'bin', 'cairn.js'), 'devnet', '--port', '0', '--slot-ms', '100'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // Proving keys from the checkout's cache (built once by the tests).
    env: { ...process.env, CAIRN_CACHE_DIR: process.env.CAIRN_CACHE_DIR ?? join(here, '..', 'node_modules', '.cache', 'cairn') },
  });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`devnet exited with ${code}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function post(url: string, method: string, params: unknown): Promise<{ ms: number; bytes: Uint8Array; body: any }> {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - t0;
  return { ms, bytes, body: JSON.parse(Buffer.from(bytes).toString('utf8')) };
}

const pct = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const devnet = await startDevnetProcess();
const proxy = await startProxy({ upstream: devnet.url, threads: THREADS, keySets: ['cairn-devnet-1'] });
const verifier = createVerifier({ threads: THREADS });
try {
  // 1,000 distinct cNFTs (mint transactions land a slot later).
  const owner = Keypair.generate().publicKey.toBase58();
  const ids: string[] = [];
  for (let i = 0; i < 1000; i += 50) {
    const part = await Promise.all(Array.from({ length: 50 }, (_, k) => post(devnet.url, 'mintCompressedNft', { name: `b${i + k}`, symbol: 'B', description: '', owner, confirmTransaction: k === 49 })));
    for (const p of part) ids.push(p.body.result.assetId);
  }
  await new Promise((r) => setTimeout(r, 400));

  const rows: { what: string; reps: number; direct: number[]; proxied: number[]; refused: number }[] = [];
  async function compare(what: string, reps: number, method: string, params: () => unknown): Promise<void> {
    const row = { what, reps, direct: [] as number[], proxied: [] as number[], refused: 0 };
    for (let r = 0; r < reps; r++) {
      const p = params();
      row.direct.push((await post(devnet.url, method, p)).ms);
      const v = await post(proxy.url, method, p);
      row.proxied.push(v.ms);
      if (v.body.error) row.refused++;
    }
    rows.push(row);
  }
  await compare('getAssetProofBatch, 100 ids', REPS, 'getAssetProofBatch', () => ({ ids: ids.slice(0, 100) }));
  await compare('getAssetProofBatch, 1,000 ids', Math.max(3, Math.floor(REPS / 2)), 'getAssetProofBatch', () => ({ ids }));
  const newAddress = () => bs58.encode(Uint8Array.from(Keypair.generate().publicKey.toBytes(), (b, i) => (i === 0 ? 0 : b)));
  await compare('getValidityProof, 1 new address (real proof)', 3, 'getValidityProof', () => ({ newAddressesWithTrees: [{ address: newAddress(), tree: 'amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2' }] }));

  // Throughput: 1,000-proof answers through the proxy, back to back, against the verifier alone on the same bytes.
  const answer = (await post(devnet.url, 'getAssetProofBatch', { ids })).bytes;
  const N = Math.max(3, Math.floor(REPS / 2));
  let t0 = performance.now();
  for (let i = 0; i < N; i++) await post(proxy.url, 'getAssetProofBatch', { ids });
  const proxyRate = (N * ids.length) / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  for (let i = 0; i < N; i++) await verifier.verifyTable('asset-proof', answer);
  const aloneRate = (N * ids.length) / ((performance.now() - t0) / 1000);
  // Anchoring cost: the proxy's anchoring path (anchor/verdicts.ts over an anchor source) on one
  // 1,000-proof answer with a cold cache, its getMultipleAccounts calls counted.
  const source = createAnchorSource({ rpc: devnet.url });
  const items = Object.values(JSON.parse(Buffer.from(answer).toString()).result as Record<string, unknown>);
  await anchorVerdicts('asset-proof', items, await verifier.verify('asset-proof', items), source);
  const gma = source.calls;
  await source.close();
  const treeCount = new Set(Object.values(JSON.parse(Buffer.from(answer).toString()).result as Record<string, { tree_id: string }>).map((p) => p.tree_id)).size;

  const table = rows.map((r) => {
    const d50 = pct(r.direct, 50);
    const d99 = pct(r.direct, 99);
    const p50 = pct(r.proxied, 50);
    const p99 = pct(r.proxied, 99);
    return {
      what: r.what,
      reps: r.reps,
      refused: r.refused,
      directP50: d50,
      directP99: d99,
      proxyP50: p50,
      proxyP99: p99,
      addedP50: p50 - d50,
      addedP99: p99 - d99,
      addedShare: (p50 - d50) / d50,
    };
  });
  const json = {
    reps: REPS,
    threads: THREADS,
    table,
    proxyProofsPerSec: proxyRate,
    verifierAloneProofsPerSec: aloneRate,
    getMultipleAccountsPerColdBatch: gma,
    treesInBatch: treeCount,
    loadavg: loadavg(),
  };
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'proxy.json'), JSON.stringify(json, null, 2) + '\n');
  const f = (x: number) => x.toFixed(1);
  const md = [
    '## proxy — what verifying and anchoring every proof answer adds',
    '',
    `\`cairn devnet\` in its own process (slot 100 ms, real validity proofs); \`cairn proxy\` (${THREADS} verifier threads, anchoring against the devnet) and the client in this one; direct and proxied requests alternate. Shared 2-core machine, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} at the end; figures are ratios within this run.`,
    '',
    '| answer | reps | direct p50 / p99 ms | proxied p50 / p99 ms | added p50 / p99 ms | added, share of direct p50 |',
    '|---|---:|---:|---:|---:|---:|',
    ...table.map((r) => `| ${r.what} | ${r.reps} | ${f(r.directP50)} / ${f(r.directP99)} | ${f(r.proxyP50)} / ${f(r.proxyP99)} | ${f(r.addedP50)} / ${f(r.addedP99)} | ${(r.addedShare * 100).toFixed(0)}% |`),
    '',
    `Throughput (1,000-proof answers, back to back): ${proxyRate.toFixed(0)} proofs/s through the proxy (upstream time included) against ${aloneRate.toFixed(0)} proofs/s for the verifier alone on the same answer, unanchored, same threads (${((proxyRate / aloneRate) * 100).toFixed(0)}%).`,
    '',
    `Anchoring: ${gma} getMultipleAccounts for a 1,000-proof batch with a cold cache (${treeCount} tree${treeCount === 1 ? '' : 's'}); the goal is ≤ 1 per batch.`,
    '',
    `Goal ≤ 10% added to the upstream's own answer time: ${table.every((r) => r.addedShare <= 0.1) ? 'met' : `not met for ${table.filter((r) => r.addedShare > 0.1).map((r) => r.what).join('; ')}`}.`,
    '',
  ].join('\n');
  writeFileSync(join(here, 'results', 'proxy.md'), md);
  console.log(md);
} finally {
  await verifier.close();
  await proxy.close();
  await devnet.stop();
}
