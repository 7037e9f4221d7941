/**
 * What `cairn proxy` costs: the latency it adds per answer, and its proof throughput against the
 * verifier alone, in one run. The devnet runs in its own process (`cairn devnet`, real validity
 * proofs); the proxy (verifying in its worker pool and anchoring against the devnet's tree accounts)
 * and the client share this one. Each request is sent straight to the devnet and through the proxy,
 * alternately, so both meet the same load:
 * - `getAssetProofBatch` of 100 and of 1,000 ids (1,000 distinct minted cNFTs);
 * - `getValidityProof` for a new address (a real Groth16 proof each time; the devnet proves it).
 * Added latency = proxy p50/p99 − direct p50/p99, and as a share of the upstream's own answer time.
 * For the asset-proof answers a third path takes its turn: a bare pass-through hop in this process
 * (node:http in, node:http out, verifying nothing) — what any proxy run here adds, the floor the
 * proxy's own figure stands on. Each path is warmed first (its first answers are not counted), the
 * order rotates from one repetition to the next, and the CPU each answer cost this process is read by
 * thread (Linux schedstat): the calling thread (client and proxy share it; the direct path's is the
 * client's) and the proxy's verifier threads — steadier than the wall clock on a loaded host.
 * Throughput: proofs/s through the proxy (1,000-id batches, one after another) against the same
 * answers verified by an unanchored verifier of the same thread count in this process. Anchoring:
 * the getMultipleAccounts calls a fresh proxy (cold cache) makes for one 1,000-proof answer.
 *
 * Run: `npm run bench -- proxy` (or `npx tsx bench/proxy.ts [reps]`, default 20). Writes
 * bench/results/proxy.{json,md}. Goal: ≤ 10% added to the upstream's own answer time; ≤ 1
 * getMultipleAccounts per batch.
 */
import { spawn } from 'node:child_process';
import { pbkdf2 } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import bs58 from 'bs58';
import { Keypair } from '@solana/web3.js';
import { startProxy } from '../src/proxy/proxy-server.js';
import { createVerifier } from '../src/merkle/verifier/create-verifier.js';
import { threadsCpu } from './lib/thread-cpu.js';

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

/** A bare pass-through hop to `target` (keep-alive both ways): the reference a proxy's figure stands on. */
async function startBareHop(target: string): Promise<{ url: string; seen: (method: string) => number; close: () => Promise<void> }> {
  const agent = new Agent({ keepAlive: true });
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      const method = /"method"\s*:\s*"([^"]+)"/.exec(body.toString('latin1', 0, 200))?.[1] ?? '';
      seen.set(method, (seen.get(method) ?? 0) + 1);
      const up = request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (ur) => {
        const got: Buffer[] = [];
        ur.on('data', (c: Buffer) => got.push(c));
        ur.on('end', () => {
          const out = Buffer.concat(got);
          res.writeHead(ur.statusCode ?? 502, { 'content-type': 'application/json', 'content-length': out.length });
          res.end(out);
        });
      });
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen: (method) => seen.get(method) ?? 0,
    close: () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections(), agent.destroy())),
  };
}

// libuv's pool first, so that none of its threads is taken for a verifier thread.
await new Promise((r) => pbkdf2('', '', 1, 8, 'sha256', r));
const devnet = await startDevnetProcess();
const bare = await startBareHop(devnet.url);
const before = new Set(threadsCpu().keys());
const proxy = await startProxy({ upstream: devnet.url, threads: THREADS, keySets: ['cairn-devnet-1'] });
const proxyThreads = [...threadsCpu().keys()].filter((t) => !before.has(t));
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

  type Path = 'direct' | 'bare' | 'proxied';
  const targets: Record<Path, string> = { direct: devnet.url, bare: bare.url, proxied: proxy.url };
  interface Row {
    what: string;
    reps: number;
    direct: number[];
    proxied: number[];
    bare: number[];
    refused: number;
    /** CPU per answer, ms: this process's calling thread on each path, and the proxy's verifier threads. */
    mainCpu: Record<Path, number[]>;
    proxyThreadsCpu: number[];
  }
  const rows: Row[] = [];
  async function compare(what: string, reps: number, method: string, params: () => unknown, paths: Path[]): Promise<void> {
    const row: Row = { what, reps, direct: [], proxied: [], bare: [], refused: 0, mainCpu: { direct: [], bare: [], proxied: [] }, proxyThreadsCpu: [] };
    // Warm: each path's first answers (JIT, the anchor's first read) are not counted.
    if (reps > 3) for (const path of paths) for (let i = 0; i < 3; i++) await post(targets[path], method, params());
    for (let r = 0; r < reps; r++) {
      const p = params();
      for (let k = 0; k < paths.length; k++) {
        const path = paths[(r + k) % paths.length]!;
        const c0 = threadsCpu();
        const v = await post(targets[path], method, p);
        const c1 = threadsCpu();
        const cpu = (t: string): number => ((c1.get(t) ?? 0) - (c0.get(t) ?? 0)) / 1e6;
        row[path].push(v.ms);
        row.mainCpu[path].push(cpu(String(process.pid)));
        if (path === 'proxied') {
          row.proxyThreadsCpu.push(proxyThreads.reduce((a, t) => a + cpu(t), 0));
          if (v.body.error) row.refused++;
        }
      }
    }
    rows.push(row);
  }
  await compare('getAssetProofBatch, 100 ids', REPS, 'getAssetProofBatch', () => ({ ids: ids.slice(0, 100) }), ['direct', 'bare', 'proxied']);
  await compare('getAssetProofBatch, 1,000 ids', Math.max(3, Math.floor(REPS / 2)), 'getAssetProofBatch', () => ({ ids }), ['direct', 'bare', 'proxied']);
  const newAddress = () => bs58.encode(Uint8Array.from(Keypair.generate().publicKey.toBytes(), (b, i) => (i === 0 ? 0 : b)));
  await compare('getValidityProof, 1 new address (real proof)', 3, 'getValidityProof', () => ({ newAddressesWithTrees: [{ address: newAddress(), tree: 'amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2' }] }), ['direct', 'proxied']);

  // Throughput: 1,000-proof answers through the proxy, back to back, against the verifier alone on the same bytes.
  const answer = (await post(devnet.url, 'getAssetProofBatch', { ids })).bytes;
  const N = Math.max(3, Math.floor(REPS / 2));
  let t0 = performance.now();
  for (let i = 0; i < N; i++) await post(proxy.url, 'getAssetProofBatch', { ids });
  const proxyRate = (N * ids.length) / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  for (let i = 0; i < N; i++) await verifier.verifyTable('asset-proof', answer);
  const aloneRate = (N * ids.length) / ((performance.now() - t0) / 1000);
  // Anchoring cost: a fresh proxy (cold anchor cache) anchoring through a hop that counts what it
  // forwards, one 1,000-proof answer: its getMultipleAccounts calls.
  const counter = await startBareHop(devnet.url);
  const cold = await startProxy({ upstream: devnet.url, rpc: counter.url, threads: THREADS });
  const coldAnswer = await post(cold.url, 'getAssetProofBatch', { ids });
  if (coldAnswer.body.error) throw new Error(`the cold proxy refused: ${JSON.stringify(coldAnswer.body.error).slice(0, 200)}`);
  const gma = counter.seen('getMultipleAccounts');
  await cold.close();
  await counter.close();
  const treeCount = new Set(Object.values(JSON.parse(Buffer.from(answer).toString()).result as Record<string, { tree_id: string }>).map((p) => p.tree_id)).size;

  const med = (xs: number[]): number => pct(xs, 50);
  // Each repetition's path less its direct request (same moment, same load), not a median less a median.
  const paired = (xs: number[], direct: number[]): number[] => xs.map((x, i) => x - direct[i]!);
  const table = rows.map((r) => {
    const d50 = pct(r.direct, 50);
    const d99 = pct(r.direct, 99);
    const p50 = pct(r.proxied, 50);
    const p99 = pct(r.proxied, 99);
    const bare = r.bare.length ? { bareP50: pct(r.bare, 50), bareP99: pct(r.bare, 99), bareAddedShare: (pct(r.bare, 50) - d50) / d50 } : {};
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
      ...bare,
      // CPU per answer, ms (medians): what the proxy cost this process's calling thread beyond the
      // direct path (the client's share), what the bare hop cost it, and the proxy's verifier threads.
      proxyMainCpuMs: med(paired(r.mainCpu.proxied, r.mainCpu.direct)),
      ...(r.bare.length ? { bareMainCpuMs: med(paired(r.mainCpu.bare, r.mainCpu.direct)) } : {}),
      proxyThreadsCpuMs: med(r.proxyThreadsCpu),
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
    `\`cairn devnet\` in its own process (slot 100 ms, real validity proofs); \`cairn proxy\` (${THREADS} verifier threads, anchoring against the devnet) and the client in this one; the paths take turns in a rotating order, each warmed first. A bare pass-through hop in this process (verifying nothing) is the reference: what any proxy run here adds. Shared 2-core machine, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} at the end; figures are ratios within this run.`,
    '',
    '| answer | reps | direct p50 / p99 ms | proxied p50 / p99 ms | added p50 / p99 ms | added, share of direct p50 | bare hop: added p50, share | CPU per answer, ms: proxy thread / verifier threads (bare hop) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...table.map(
      (r) =>
        `| ${r.what} | ${r.reps} | ${f(r.directP50)} / ${f(r.directP99)} | ${f(r.proxyP50)} / ${f(r.proxyP99)} | ${f(r.addedP50)} / ${f(r.addedP99)} | ${(r.addedShare * 100).toFixed(0)}% | ` +
        `${r.bareP50 === undefined ? '–' : `${f(r.bareP50 - r.directP50)}, ${(r.bareAddedShare! * 100).toFixed(0)}%`} | ${f(r.proxyMainCpuMs)} / ${f(r.proxyThreadsCpuMs)}${r.bareMainCpuMs === undefined ? '' : ` (${f(r.bareMainCpuMs)})`} |`,
    ),
    '',
    `Throughput (1,000-proof answers, back to back): ${proxyRate.toFixed(0)} proofs/s through the proxy (upstream time included) against ${aloneRate.toFixed(0)} proofs/s for the verifier alone on the same answer, unanchored, same threads (${((proxyRate / aloneRate) * 100).toFixed(0)}%).`,
    '',
    `Anchoring: ${gma} getMultipleAccounts for a 1,000-proof batch through a proxy with a cold cache (${treeCount} tree${treeCount === 1 ? '' : 's'}); the goal is ≤ 1 per batch.`,
    '',
    `Goal ≤ 10% added to the upstream's own answer time: ${table.every((r) => r.addedShare <= 0.1) ? 'met' : `not met for ${table.filter((r) => r.addedShare > 0.1).map((r) => r.what).join('; ')}`}.`,
    '',
  ].join('\n');
  writeFileSync(join(here, 'results', 'proxy.md'), md);
  console.log(md);
} finally {
  await verifier.close();
  await proxy.close();
  await bare.close();
  await devnet.stop();
}
