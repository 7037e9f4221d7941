/** Tool: CPU per answer by thread (calling thread, verifier workers, the rest) for each step of the proxy's path, against a devnet in its own process. */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { pbkdf2 } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { startProxy } from '../../src/proxy/proxy-server.js';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { cpuSplit, threadsCpu } from '../lib/thread-cpu.js';

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.argv[2] ?? 10);
const N = Number(process.argv[3] ?? 1000);

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
  return { url, stop: () => new Promise<void>((resolve) => { child.once('exit', () => resolve()); child.kill('SIGTERM'); }) };
}
async function post(url: string, method: string, params: unknown): Promise<{ bytes: Uint8Array; body: any }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { bytes, body: JSON.parse(Buffer.from(bytes).toString('utf8')) };
}

await new Promise((r) => pbkdf2('', '', 1, 8, 'sha256', r));
const devnet = await startDevnetProcess();
const before = new Set(threadsCpu().keys());
const proxy = await startProxy({ upstream: devnet.url, threads: 2, keySets: ['cairn-devnet-1'] });
const plain = createVerifier({ threads: 2 });
const anchored = createVerifier({ threads: 2, anchor: { rpc: devnet.url, cacheMs: 3_600_000 } });
try {
  const owner = Keypair.generate().publicKey.toBase58();
  const ids: string[] = [];
  for (let i = 0; i < N; i += 50) {
    const part = await Promise.all(Array.from({ length: Math.min(50, N - i) }, (_, k) => post(devnet.url, 'mintCompressedNft', { name: `b${i + k}`, symbol: 'B', description: '', owner, confirmTransaction: k === 49 })));
    for (const p of part) ids.push(p.body.result.assetId);
  }
  await new Promise((r) => setTimeout(r, 400));
  const params = { ids };
  const { bytes } = await post(devnet.url, 'getAssetProofBatch', params);
  const parsed = JSON.parse(Buffer.from(bytes).toString('utf8'));
  // Every thread started since (the three verifiers' workers) counts as a worker.
  for (let i = 0; i < 3; i++) {
    await plain.verify('asset-proof', bytes);
    await anchored.verify('asset-proof', bytes);
    await post(proxy.url, 'getAssetProofBatch', params);
  }
  const role = (t: string): 'workers' | 'rest' => (before.has(t) ? 'rest' : 'workers');
  const steps: Record<string, () => Promise<unknown>> = {
    'client: direct request': () => post(devnet.url, 'getAssetProofBatch', params),
    'client: proxied request (proxy incl.)': () => post(proxy.url, 'getAssetProofBatch', params),
    'JSON.parse answer': async () => JSON.parse(Buffer.from(bytes).toString('utf8')),
    'verify parsed, unanchored': () => plain.verify('asset-proof', parsed.result),
    'verify bytes, unanchored': () => plain.verify('asset-proof', bytes),
    'verifyTable bytes, unanchored': () => plain.verifyTable('asset-proof', bytes),
    'verify parsed, anchored (cached)': () => anchored.verify('asset-proof', parsed.result),
    'verify bytes, anchored (cached)': () => anchored.verify('asset-proof', bytes),
  };
  const acc: Record<string, { wall: number[]; main: number[]; workers: number[]; rest: number[] }> = {};
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, f] of Object.entries(steps)) {
      const s = await cpuSplit(f, 1, role);
      const a = (acc[k] ??= { wall: [], main: [], workers: [], rest: [] });
      a.wall.push(s.wall / 1e3);
      a.main.push(s.main / 1e3);
      a.workers.push(s.workers / 1e3);
      a.rest.push(s.rest / 1e3);
    }
  }
  const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`${N} ids, ${bytes.length} bytes; medians of ${ROUNDS}, ms per answer; load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(`${'step'.padEnd(40)} ${'wall'.padStart(7)} ${'main'.padStart(7)} ${'workers'.padStart(7)} ${'rest'.padStart(7)}`);
  for (const [k, a] of Object.entries(acc)) console.log(`${k.padEnd(40)} ${med(a.wall).toFixed(1).padStart(7)} ${med(a.main).toFixed(1).padStart(7)} ${med(a.workers).toFixed(1).padStart(7)} ${med(a.rest).toFixed(1).padStart(7)}`);
} finally {
  await plain.close();
  await anchored.close();
  await proxy.close();
  await devnet.stop();
}
