/**
 * The rpc transport and response validation.
 *
 * 1. Throughput: small JSON-RPC calls (`getSlot`) from this process to a loopback server running in
 *    a child process (so the server does not share our event loop), for a fixed time per row, 32 calls
 *    in flight, with this process's CPU per call. Rows: cairn over its keep-alive pool (the lean
 *    client of http-pool.ts); the same over node:http's agent; cairn with a fresh connection per call; Node's
 *    global fetch (undici, keep-alive) with a hand-written envelope; @solana/web3.js `Connection.getSlot`
 *    (the peer library). Target: >= 5,000 calls/s for cairn keep-alive.
 * 2. Parse + validate a 1,000-asset getAssetBatch response built from test/vectors/das (each asset
 *    with its own id): `JSON.parse` alone (the floor), then cairn's path (lossless parse + envelope +
 *    id check + full Asset validation). Target: <= 10 ms.
 *
 * Writes bench/results/rpc.{json,md}. `npx tsx bench/rpc.ts` (BENCH_TIME_MS sets the time per row).
 */
import { fork } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@solana/web3.js';
import { Bench } from 'tinybench';
import { createClient } from '../src/rpc/client.js';
import { createTransport } from '../src/rpc/transport.js';
import { parseJson } from '../src/rpc/json.js';
import { unwrap } from '../src/rpc/jsonrpc.js';
import * as S from '../src/rpc/shapes.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 2000);
const CONCURRENCY = 32;

// ------------------------------------------------------------------ loopback server (child process)
const SERVER = `
const http = require('node:http');
const srv = http.createServer((req, res) => {
  let b = '';
  req.on('data', (d) => (b += d));
  req.on('end', () => {
    const m = /"id":("[^"]*"|\\d+)/.exec(b);
    const body = '{"jsonrpc":"2.0","id":' + (m ? m[1] : 'null') + ',"result":123456789}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
srv.keepAliveTimeout = 60000;
srv.listen(0, '127.0.0.1', () => process.send(srv.address().port));
process.on('disconnect', () => process.exit(0));
`;
const serverFile = join(os.tmpdir(), `cairn-bench-rpc-server-${process.pid}.cjs`);
writeFileSync(serverFile, SERVER);
const child = fork(serverFile, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const port: number = await new Promise((r) => child.once('message', (m) => r(m as number)));
const url = `http://127.0.0.1:${port}`;

async function throughput(
  name: string,
  call: () => Promise<unknown>,
): Promise<{ name: string; calls: number; seconds: number; callsPerSec: number; cpuUsPerCall: number }> {
  // warm-up: open the connections, JIT the path
  for (let i = 0; i < 200; i++) await call();
  let calls = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + TIME_MS;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        await call();
        calls++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // CPU of this process (the client) per call: the server runs in its own process
  const cpuUsPerCall = Math.round((cpu.user + cpu.system) / calls);
  const row = { name, calls, seconds: +seconds.toFixed(3), callsPerSec: Math.round(calls / seconds), cpuUsPerCall };
  console.log(`${name.padEnd(46)} ${String(row.callsPerSec).padStart(7)} calls/s ${String(cpuUsPerCall).padStart(6)} µs CPU/call`);
  return row;
}

const keepAlive = createClient({ url, apiKey: 'bench-key' });
// the same client over node:http's keep-alive agent (the transport's client before http-pool.ts)
const nodeHttpTransport = createTransport({ apiKey: 'bench-key', client: 'node:http' });
const viaNodeHttp = createClient({ url, apiKey: 'bench-key', transport: nodeHttpTransport });
const fresh = createClient({ url, apiKey: 'bench-key', keepAlive: false });
const web3 = new Connection(`${url}/?api-key=bench-key`, { commitment: 'confirmed', disableRetryOnRateLimit: true });
let fetchId = 0;
const viaFetch = async (): Promise<unknown> => {
  const id = String(++fetchId);
  const r = await fetch(`${url}/?api-key=bench-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'getSlot', params: [] }),
  });
  const j = (await r.json()) as { id: string; result: number };
  if (j.id !== id) throw new Error('id mismatch');
  return j.result;
};

console.log(`throughput: ${CONCURRENCY} in flight, ${TIME_MS} ms per row (machine shared, load ${os.loadavg()[0].toFixed(1)})`);
const rows = [];
rows.push(await throughput('cairn, keep-alive pool', () => keepAlive.getSlot()));
rows.push(await throughput('cairn over node:http keep-alive agent', () => viaNodeHttp.getSlot()));
rows.push(await throughput('cairn, fresh connection per call', () => fresh.getSlot()));
rows.push(await throughput('Node fetch (undici, keep-alive), raw envelope', viaFetch));
rows.push(await throughput('@solana/web3.js 1.98 Connection.getSlot', () => web3.getSlot()));
await keepAlive.close();
await fresh.close();
await nodeHttpTransport.close();
child.disconnect();
child.kill();
rmSync(serverFile, { force: true });

// ------------------------------------------------------------------ parse + validate 1,000 assets
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const idOf = (i: number): string => {
  let s = '';
  for (let n = i + 7919; s.length < 44; n = Math.floor(n / 3) + s.length * 31) s += ALPHABET[n % 58];
  return s;
};
const vectors = readdirSync(join(root, 'test/vectors/das'))
  .map((f) => JSON.parse(readFileSync(join(root, 'test/vectors/das', f), 'utf8')))
  .flatMap((v) => (Array.isArray(v.items) ? v.items : [v]));
const assets = Array.from({ length: 1000 }, (_, i) => ({ ...structuredClone(vectors[i % vectors.length]), id: idOf(i) }));
const text = JSON.stringify({ jsonrpc: '2.0', id: 'c1-1', result: assets });
const check = unwrap(parseJson(text), 'c1-1', 'getAssetBatch', S.assetBatch);
if (check.length !== 1000) throw new Error('fixture broken');

const bench = new Bench({ time: Math.min(TIME_MS, 1500), warmupTime: 200 });
bench
  .add('JSON.parse only (floor, no checks)', () => {
    JSON.parse(text);
  })
  .add('cairn: lossless parse + envelope + id + Asset validation', () => {
    unwrap(parseJson(text), 'c1-1', 'getAssetBatch', S.assetBatch);
  })
  .add('cairn: Asset validation only (already parsed)', () => {
    S.assetBatch(check);
  });
await bench.run();
const parseRows = bench.tasks.map((t) => {
  const r = t.result as unknown as { latency: { mean: number; min: number; p50?: number; p99?: number }; totalTime?: number };
  const l = r.latency;
  return {
    name: t.name,
    minMs: +l.min.toFixed(3),
    p50Ms: +(l.p50 ?? l.mean).toFixed(3),
    meanMs: +l.mean.toFixed(3),
    p99Ms: +(l.p99 ?? l.mean).toFixed(3),
  };
});
for (const r of parseRows) console.log(`${r.name.padEnd(58)} min ${r.minMs}  median ${r.p50Ms}  mean ${r.meanMs}  p99 ${r.p99Ms} ms`);

// ------------------------------------------------------------------ results
const ka = rows[0].callsPerSec;
const full = parseRows[1];
const result = {
  machine: { platform: process.platform, arch: process.arch, cpus: os.cpus().length, node: process.version, loadavg1m: +os.loadavg()[0].toFixed(2) },
  note: 'taken on a 2-core machine shared with other engineers running builds and tests: absolute numbers are depressed, ratios within the run are meaningful',
  throughput: { concurrency: CONCURRENCY, timeMsPerRow: TIME_MS, rows },
  parseValidate: { assets: 1000, bodyBytes: Buffer.byteLength(text), rows: parseRows },
  targets: {
    callsPerSecKeepAlive: { target: 5000, got: ka, met: ka >= 5000 },
    // judged on the median: on a shared machine the mean carries other engineers' CPU spikes
    parseValidate1000Ms: { target: 10, gotMedian: full.p50Ms, gotMean: full.meanMs, met: full.p50Ms <= 10 },
  },
};
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'rpc.json'), JSON.stringify(result, null, 2) + '\n');
const md = [
  '## rpc: transport throughput and response validation',
  '',
  `Node ${process.version}, ${os.cpus().length} CPUs, 1-min load ${result.machine.loadavg1m} while measuring (shared machine: absolute numbers are depressed; compare rows).`,
  '',
  `Small JSON-RPC calls to a loopback server in a child process, ${CONCURRENCY} in flight, ${TIME_MS} ms per row:`,
  '',
  '| client | calls/s | vs cairn keep-alive | client CPU µs/call |',
  '|---|---:|---:|---:|',
  ...rows.map((r) => `| ${r.name} | ${r.callsPerSec} | ${(r.callsPerSec / ka).toFixed(2)}× | ${r.cpuUsPerCall} |`),
  '',
  `Parse + validate a 1000-asset getAssetBatch response (${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB, from test/vectors/das):`,
  '',
  '| step | min ms | median ms | mean ms | p99 ms |',
  '|---|---:|---:|---:|---:|',
  ...parseRows.map((r) => `| ${r.name} | ${r.minMs} | ${r.p50Ms} | ${r.meanMs} | ${r.p99Ms} |`),
  '',
  `Targets: ≥ 5,000 calls/s keep-alive → **${ka}** (${ka >= 5000 ? 'met' : 'NOT met on this run'}); parse+validate ≤ 10 ms (median) → **${full.p50Ms} ms** (${full.p50Ms <= 10 ? 'met' : 'NOT met on this run'}; validation alone is ${parseRows[2].p50Ms} ms of it, the rest is JSON parsing).`,
  '',
].join('\n');
writeFileSync(join(here, 'results', 'rpc.md'), md);
console.log(`\nwrote bench/results/rpc.{json,md}`);
