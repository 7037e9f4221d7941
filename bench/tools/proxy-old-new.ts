/** Tool: the latency and CPU another version of `cairn proxy` adds against this one's, taking turns in one process against one devnet. */
/**
 * Is this tree's proxy cheaper than another version's, on this loaded host? One devnet process; both
 * proxies (2 verifier threads each, anchoring against the devnet) and the client in this one. Each
 * round sends the same request straight to the devnet, through a bare pass-through hop (what any
 * proxy in this process pays, verifying nothing), through the old proxy and through the new one,
 * in a rotating order, so all three meet the same load, and each reaches the devnet through a relay
 * here that times the devnet's own answer. It prints, per answer size, the medians of the wall time,
 * of the overhead (wall time less the devnet's own answer time: the devnet's spread drops out), what
 * each proxy adds to the direct path's overhead (and as a share of the devnet's answer time), and of
 * the CPU each request cost this process by thread group: the calling thread (the client's and the
 * relay's share is the direct request's), and each proxy's own workers.
 *
 *   git worktree add --detach /tmp/old <rev> && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   (cd /tmp/old && node scripts/build-native.mjs)
 *   npx tsx bench/tools/proxy-old-new.ts /tmp/old [--rounds N] [--sizes 100,1000]
 */
import { spawn } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadavg } from 'node:os';
import { pbkdf2 } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { startProxy } from '../../src/proxy/proxy-server.js';
import { threadsCpu } from '../lib/thread-cpu.js';
import { argNumber, median } from '../lib/args.js';

const here = dirname(fileURLToPath(import.meta.url));
const oldTree = process.argv[2];
if (!oldTree || oldTree.startsWith('--')) {
  console.error('usage: npx tsx bench/tools/proxy-old-new.ts <worktree of the other version> [--rounds N] [--sizes 100,1000]');
  process.exit(2);
}
const ROUNDS = argNumber('--rounds', 12);
const sizesAt = process.argv.indexOf('--sizes');
const SIZES = sizesAt > 0 ? process.argv[sizesAt + 1]!.split(',').map(Number) : [100, 1000];
const oldEntry = resolve(oldTree, 'src/proxy/proxy-server.ts');
if (!existsSync(oldEntry)) throw new Error(`no proxy in ${oldTree}`);
const { startProxy: startOld } = (await import(pathToFileURL(oldEntry).href)) as { startProxy: typeof startProxy };

async function startDevnetProcess(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(here, '..', '..', 'bin', 'cairn.js'), 'devnet', '--port', '0', '--slot-ms', '100'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, CAIRN_CACHE_DIR: process.env.CAIRN_CACHE_DIR ?? join(here, '..', '..', 'node_modules', '.cache', 'cairn') },
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
  return { url, stop: () => new Promise<void>((r) => (child.once('exit', () => r()), child.kill('SIGTERM'))) };
}

async function post(url: string, method: string, params: unknown): Promise<{ bytes: Uint8Array; body: any }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { bytes, body: JSON.parse(Buffer.from(bytes).toString('utf8')) };
}

/**
 * Every path reaches the devnet through this relay, which times the devnet's own answer to the last
 * proof call: a request's overhead is its wall time less that, so the devnet's own spread (±30% on a
 * loaded host) drops out of the comparison.
 */
async function startRelay(target: string): Promise<{ url: string; lastUpstreamMs: () => number; close: () => Promise<void> }> {
  const agent = new Agent({ keepAlive: true });
  let last = NaN;
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts);
      const proof = body.includes('getAssetProofBatch');
      const t0 = performance.now();
      const up = request(target + (req.url ?? '/'), { method: req.method, agent, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (ur) => {
        const got: Buffer[] = [];
        ur.on('data', (c: Buffer) => got.push(c));
        ur.on('end', () => {
          if (proof) last = performance.now() - t0;
          const out = Buffer.concat(got);
          res.writeHead(ur.statusCode ?? 502, { 'content-type': ur.headers['content-type'] ?? 'application/json', 'content-length': out.length });
          res.end(out);
        });
      });
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lastUpstreamMs: () => last,
    close: () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections(), agent.destroy())),
  };
}

// libuv's pool first, so that none of its threads is taken for a proxy's worker.
await new Promise((r) => pbkdf2('', '', 1, 8, 'sha256', r));
const devnetProcess = await startDevnetProcess();
const relay = await startRelay(devnetProcess.url);
const devnet = { url: relay.url, stop: async () => (await relay.close(), await devnetProcess.stop()) };
// A bare pass-through hop (no verification) in front of the relay: the floor any proxy in this process pays.
const bare = await startRelay(relay.url);
const t0 = new Set(threadsCpu().keys());
const oldProxy = await startOld({ upstream: devnet.url, threads: 2 });
const t1 = new Set(threadsCpu().keys());
const newProxy = await startProxy({ upstream: devnet.url, threads: 2 });
const t2 = new Set(threadsCpu().keys());
const oldThreads = [...t1].filter((t) => !t0.has(t));
const newThreads = [...t2].filter((t) => !t1.has(t));
try {
  const owner = Keypair.generate().publicKey.toBase58();
  const ids: string[] = [];
  const most = Math.max(...SIZES);
  for (let i = 0; i < most; i += 50) {
    const part = await Promise.all(Array.from({ length: Math.min(50, most - i) }, (_, k) => post(devnet.url, 'mintCompressedNft', { name: `b${i + k}`, symbol: 'B', description: '', owner, confirmTransaction: k === 49 || i + k === most - 1 })));
    for (const p of part) ids.push(p.body.result.assetId);
  }
  await new Promise((r) => setTimeout(r, 400));
  const targets = { direct: devnet.url, bare: bare.url, old: oldProxy.url, new: newProxy.url } as const;
  type Who = keyof typeof targets;
  const cpuOf = (tids: string[], m: Map<string, number>): number => tids.reduce((a, t) => a + (m.get(t) ?? 0), 0);
  for (const n of SIZES) {
    const params = { ids: ids.slice(0, n) };
    // Warm: each path's first answers (JIT, the devnet's caches, the anchor's first read) are not counted.
    for (const who of Object.keys(targets) as Who[]) for (let i = 0; i < 2; i++) await post(targets[who], 'getAssetProofBatch', params);
    const row = () => ({ wall: [] as number[], over: [] as number[], up: [] as number[], main: [] as number[], workers: [] as number[] });
    const rows: Record<Who, ReturnType<typeof row>> = { direct: row(), bare: row(), old: row(), new: row() };
    const order: Who[] = ['direct', 'bare', 'old', 'new'];
    for (let r = 0; r < ROUNDS; r++) {
      for (let k = 0; k < order.length; k++) {
        const who = order[(r + k) % order.length]!;
        const c0 = threadsCpu();
        const w0 = performance.now();
        const got = await post(targets[who], 'getAssetProofBatch', params);
        const wall = performance.now() - w0;
        const c1 = threadsCpu();
        if (got.body.error) throw new Error(`${who}: ${JSON.stringify(got.body.error).slice(0, 200)}`);
        const d = new Map([...c1].map(([t, c]) => [t, c - (c0.get(t) ?? 0)]));
        rows[who].wall.push(wall);
        rows[who].up.push(relay.lastUpstreamMs());
        rows[who].over.push(wall - relay.lastUpstreamMs());
        rows[who].main.push((d.get(String(process.pid)) ?? 0) / 1e6);
        rows[who].workers.push(cpuOf(who === 'old' ? oldThreads : who === 'new' ? newThreads : [], d) / 1e6);
      }
    }
    const md = (xs: number[]) => median(xs);
    const d = md(rows.direct.wall);
    const dOver = md(rows.direct.over);
    const up = md(order.flatMap((who) => rows[who].up));
    console.log(`--- ${n} ids, ${ROUNDS} rounds, devnet's own answer p50 ${up.toFixed(1)} ms, load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    console.log(`${'path'.padEnd(8)} ${'wall p50'.padStart(9)} ${'added'.padStart(8)} ${'over p50'.padStart(9)} ${'added'.padStart(8)} ${'share'.padStart(6)} ${'main cpu'.padStart(9)} ${'workers'.padStart(8)}`);
    for (const who of order) {
      const w = md(rows[who].wall);
      const o = md(rows[who].over);
      console.log(
        `${who.padEnd(8)} ${w.toFixed(1).padStart(9)} ${(w - d).toFixed(1).padStart(8)} ${o.toFixed(1).padStart(9)} ${(o - dOver).toFixed(1).padStart(8)} ${(((o - dOver) / up) * 100).toFixed(0).padStart(5)}% ${md(rows[who].main).toFixed(1).padStart(9)} ${md(rows[who].workers).toFixed(1).padStart(8)}`,
      );
    }
  }
} finally {
  await oldProxy.close();
  await newProxy.close();
  await bare.close();
  await devnet.stop();
}
