/**
 * Devnet throughput on `/fast`: one client process sends pre-signed, tipped, priced transfers over
 * keep-alive HTTP to a devnet running in its own process (`cairn devnet`), and we time (a) how fast
 * `/fast` accepts them and (b) how fast they are accepted *and executed* (every signature has a
 * status). The peer in the same run is LiteSVM itself, executing the same kind of transaction
 * in-process through its public API (kit decode + `sendTransaction`): the ceiling the devnet's HTTP,
 * rule checks, batching and bookkeeping are measured against. Target: ≥ 2,000 tx/s end to end.
 * The client and the devnet share the machine's cores, so the headline run uses a lean keep-alive
 * client (raw sockets, pre-serialised requests); a second, shorter run with node:http's client shows
 * what a heavier client costs.
 *
 * Run: `npx tsx bench/devnet.ts [count] [concurrency]` (defaults 6000, 32). Writes
 * bench/results/devnet.{json,md}.
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpus, loadavg } from 'node:os';
import bs58 from 'bs58';
import { getTransactionDecoder } from '@solana/kit';
import { LiteSVM } from 'litesvm';
import { keypairFromSeed, type DevnetKeypair } from '../src/devnet/chain/keypair.js';
import { DEFAULT_TIP_ACCOUNTS } from '../src/devnet/http/fast.js';

const here = dirname(fileURLToPath(import.meta.url));
const COUNT = Number(process.argv[2] ?? 6000);
const CONCURRENCY = Number(process.argv[3] ?? 32);
const SLOT_MS = 100;

const COMPUTE_BUDGET = bs58.decode('ComputeBudget111111111111111111111111111111');
const SYSTEM = new Uint8Array(32);

/** A legacy message: CU price, transfer payer → dest, tip payer → tip account. Signed with node:crypto. */
function buildWire(payer: DevnetKeypair, dest: Uint8Array, tip: Uint8Array, blockhash: Uint8Array, lamports: bigint, cuPrice: bigint): Uint8Array {
  const keys = [payer.publicKey, dest, tip, SYSTEM, COMPUTE_BUDGET];
  const parts: number[] = [1, 0, 2, keys.length];
  const msg = new Uint8Array(4 + 32 * keys.length + 32 + 1 + (1 + 1 + 1 + 9) + 2 * (1 + 1 + 2 + 1 + 12));
  msg.set(parts, 0);
  let i = 4;
  for (const k of keys) {
    msg.set(k, i);
    i += 32;
  }
  msg.set(blockhash, i);
  i += 32;
  msg[i++] = 3; // instructions
  // setComputeUnitPrice
  msg[i++] = 4;
  msg[i++] = 0;
  msg[i++] = 9;
  msg[i++] = 3;
  new DataView(msg.buffer).setBigUint64(i, cuPrice, true);
  i += 8;
  for (const [to, amount] of [[1, lamports], [2, 1_000_000n]] as const) {
    msg[i++] = 3; // system program
    msg[i++] = 2;
    msg[i++] = 0;
    msg[i++] = to;
    msg[i++] = 12;
    new DataView(msg.buffer).setUint32(i, 2, true);
    new DataView(msg.buffer).setBigUint64(i + 4, amount, true);
    i += 12;
  }
  const wire = new Uint8Array(1 + 64 + msg.length);
  wire[0] = 1;
  wire.set(payer.sign(msg), 1);
  wire.set(msg, 65);
  return wire;
}

/** CPU time (ms, user + system) a process — or with `thread`, one of its threads — has used so
 * far, from /proc (Linux); null elsewhere. */
function cpuMsOf(pid: number, thread?: number): number | null {
  try {
    const stat = readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11], fields[12] = utime, stime (fields 14 and 15 of the full line), in clock ticks
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

async function startDevnetProcess(): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  // CAIRN_BENCH_PROFILE=<dir> writes a CPU profile of the devnet process there.
  const prof = process.env.CAIRN_BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.CAIRN_BENCH_PROFILE}`] : [];
  // CAIRN_BENCH_DEVNET_ENTRY=<dist/cli/main.js> runs a compiled build instead of the TypeScript
  // source through tsx (whose one-line output leaves a profile without usable names or lines).
  const entry = process.env.CAIRN_BENCH_DEVNET_ENTRY ?? join(here, '..', 'bin', 'cairn.js');
  const child = spawn(process.execPath, [...prof, entry, 'devnet', '--port', '0', '--slot-ms', String(SLOT_MS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
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
    pid: child.pid!,
    stop: () =>
      new Promise<void>((r) => {
        child.on('exit', () => r());
        child.kill('SIGTERM');
      }),
  };
}

let agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function rpc(url: string, method: string, params: unknown): Promise<any> {
  const r = await post(url, JSON.stringify({ jsonrpc: '2.0', id: '1', method, params }));
  const j = JSON.parse(r.text);
  if (j.error) throw new Error(`${method}: ${j.error.message}`);
  return j.result;
}

/**
 * The lean load generator: one keep-alive HTTP/1.1 connection over a raw socket, one request in
 * flight, requests pre-serialised (as wrk or autocannon do). node:http's client costs ~0.4 ms of CPU
 * per request on this machine — more than the devnet's server side — and it shares the same 2 cores,
 * so with it the bench mostly measures the client. Responses are framed by `content-length` (the
 * devnet always sends one); anything else fails the run instead of being misread.
 */
class LeanConnection {
  private buf: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (r: { status: number; text: string }) => void; reject: (e: Error) => void } | null = null;
  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.onData(d));
    socket.on('error', (e) => this.fail(e));
    socket.on('close', () => this.fail(new Error('connection closed by the devnet')));
  }
  static open(url: string): Promise<LeanConnection> {
    const u = new URL(url);
    return new Promise((resolve, reject) => {
      const s = connect(Number(u.port), u.hostname, () => {
        s.off('error', reject);
        resolve(new LeanConnection(s));
      });
      s.once('error', reject);
    });
  }
  private fail(e: Error): void {
    const w = this.waiting;
    this.waiting = null;
    w?.reject(e);
  }
  private onData(d: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    const headEnd = this.buf.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.buf.toString('latin1', 0, headEnd);
    const m = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!m) return this.fail(new Error(`response without content-length: ${head.slice(0, 200)}`));
    const end = headEnd + 4 + Number(m[1]);
    if (this.buf.length < end) return;
    const r = { status: Number(head.slice(9, 12)), text: this.buf.toString('utf8', headEnd + 4, end) };
    this.buf = this.buf.subarray(end);
    const w = this.waiting;
    this.waiting = null;
    w?.resolve(r);
  }
  send(request: Buffer): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(request);
    });
  }
  close(): void {
    this.waiting = null;
    this.socket.destroy();
  }
}

type ClientKind = 'lean' | 'node:http';

interface DevnetRun {
  client: ClientKind;
  acceptPerSec: number;
  endToEndPerSec: number;
  acceptMs: number;
  totalMs: number;
  landed: number;
  devnetCpuMsPerTx: number | null;
  /** The devnet's main thread alone (HTTP, rules, execution); the rest is its signature-verifier thread. */
  devnetMainThreadCpuMsPerTx: number | null;
  clientCpuMsPerTx: number;
}

async function benchDevnet(client: ClientKind, count: number): Promise<DevnetRun> {
  agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const devnet = await startDevnetProcess();
  const lean: LeanConnection[] = [];
  try {
    const payer = keypairFromSeed(new Uint8Array(32).fill(7));
    await rpc(devnet.url, 'requestAirdrop', [payer.address, 900_000 * 1e9]);
    for (;;) {
      const bal = await rpc(devnet.url, 'getBalance', [payer.address, { commitment: 'processed' }]);
      if (bal.value > 0) break;
      await new Promise((r) => setTimeout(r, SLOT_MS));
    }
    const { value } = await rpc(devnet.url, 'getLatestBlockhash', []);
    const blockhash = bs58.decode(value.blockhash);
    const tip = bs58.decode(DEFAULT_TIP_ACCOUNTS[1]!);
    const dest = keypairFromSeed(new Uint8Array(32).fill(9)).publicKey;
    const bodies: string[] = [];
    const signatures: string[] = [];
    for (let i = 0; i < count; i++) {
      const wire = buildWire(payer, dest, tip, blockhash, 1_000_000n + BigInt(i), 200_000n);
      signatures.push(bs58.encode(wire.subarray(1, 65)));
      bodies.push(JSON.stringify({ jsonrpc: '2.0', id: String(i), method: 'sendTransaction', params: [Buffer.from(wire).toString('base64'), { encoding: 'base64', skipPreflight: true, maxRetries: 0 }] }));
    }
    const host = new URL(devnet.url).host;
    const requests = client === 'lean' ? bodies.map((b) => Buffer.from(`POST /fast HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(b)}\r\n\r\n${b}`)) : [];
    // warm the connections
    if (client === 'lean') {
      for (let i = 0; i < CONCURRENCY; i++) lean.push(await LeanConnection.open(devnet.url));
      const ping = Buffer.from(`GET /ping HTTP/1.1\r\nhost: ${host}\r\n\r\n`);
      await Promise.all(lean.map((c) => c.send(ping)));
    } else {
      await Promise.all(Array.from({ length: CONCURRENCY }, () => post(`${devnet.url}/`, JSON.stringify({ jsonrpc: '2.0', id: 'w', method: 'getSlot', params: [] }))));
    }
    const cpu0 = cpuMsOf(devnet.pid);
    const main0 = cpuMsOf(devnet.pid, devnet.pid);
    const client0 = process.cpuUsage();
    const t0 = performance.now();
    let next = 0;
    let refused = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, k) => {
        while (next < count) {
          const i = next++;
          const r = client === 'lean' ? await lean[k]!.send(requests[i]!) : await post(`${devnet.url}/fast`, bodies[i]!);
          if (r.status !== 200) refused++;
        }
      }),
    );
    const acceptMs = performance.now() - t0;
    const clientCpu = process.cpuUsage(client0);
    if (refused) throw new Error(`${refused} transactions refused by /fast`);
    // end to end: until the last signature has a status
    const last = signatures.slice(-256);
    for (;;) {
      const st = await rpc(devnet.url, 'getSignatureStatuses', [last]);
      if (st.value.every((s: unknown) => s !== null)) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    const totalMs = performance.now() - t0;
    const cpu1 = cpuMsOf(devnet.pid);
    const main1 = cpuMsOf(devnet.pid, devnet.pid);
    let landed = 0;
    for (let i = 0; i < signatures.length; i += 256) {
      const st = await rpc(devnet.url, 'getSignatureStatuses', [signatures.slice(i, i + 256)]);
      landed += st.value.filter((s: { err: unknown } | null) => s && s.err === null).length;
    }
    return {
      client,
      acceptPerSec: (count / acceptMs) * 1000,
      endToEndPerSec: (count / totalMs) * 1000,
      acceptMs,
      totalMs,
      landed,
      devnetCpuMsPerTx: cpu0 === null || cpu1 === null ? null : (cpu1 - cpu0) / count,
      devnetMainThreadCpuMsPerTx: main0 === null || main1 === null ? null : (main1 - main0) / count,
      clientCpuMsPerTx: (clientCpu.user + clientCpu.system) / 1000 / count,
    };
  } finally {
    for (const c of lean) c.close();
    agent.destroy();
    await devnet.stop();
  }
}

function benchLiteSvm(): {
  perSec: number;
  perTxMs: number;
  cpuMsPerTx: number;
  rawWirePerSec: number;
  rawWireCpuMsPerTx: number;
  noSigverifyCpuMsPerTx: number;
} {
  const svm = new LiteSVM().withBlockhashCheck(false);
  const payer = keypairFromSeed(new Uint8Array(32).fill(11));
  svm.airdrop(payer.address as never, 100_000_000_000n as never);
  const blockhash = bs58.decode(svm.latestBlockhash());
  const tip = bs58.decode(DEFAULT_TIP_ACCOUNTS[1]!);
  const dest = keypairFromSeed(new Uint8Array(32).fill(12)).publicKey;
  const n = Math.min(COUNT, 3000);
  const wires = Array.from({ length: n }, (_, i) => buildWire(payer, dest, tip, blockhash, 1_000_000n + BigInt(i), 200_000n));
  const decoder = getTransactionDecoder();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const w of wires) {
    const r = svm.sendTransaction(decoder.decode(w));
    if ('err' in r && typeof (r as { err?: unknown }).err === 'function') throw new Error('LiteSVM peer: a transaction failed');
  }
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  // The path the devnet takes: wire bytes straight into the N-API object, no kit decode/encode.
  const svm2 = new LiteSVM().withBlockhashCheck(false);
  svm2.airdrop(payer.address as never, 100_000_000_000n as never);
  const inner = (svm2 as unknown as { inner: { sendLegacyTransaction(w: Uint8Array): unknown } }).inner;
  const c1 = process.cpuUsage();
  const t1 = performance.now();
  for (const w of wires) inner.sendLegacyTransaction(w);
  const ms2 = performance.now() - t1;
  const c2 = process.cpuUsage(c1);
  // The same with signature verification off: what execution costs once the devnet's verifier
  // thread has checked the signatures (the part of LiteSVM's work that can move off the main thread).
  const svm3 = new LiteSVM().withBlockhashCheck(false).withSigverify(false);
  svm3.airdrop(payer.address as never, 100_000_000_000n as never);
  const inner3 = (svm3 as unknown as { inner: { sendLegacyTransaction(w: Uint8Array): unknown } }).inner;
  const c3 = process.cpuUsage();
  for (const w of wires) inner3.sendLegacyTransaction(w);
  const c4 = process.cpuUsage(c3);
  return {
    perSec: (n / ms) * 1000,
    perTxMs: ms / n,
    cpuMsPerTx: (c.user + c.system) / 1000 / n,
    rawWirePerSec: (n / ms2) * 1000,
    rawWireCpuMsPerTx: (c2.user + c2.system) / 1000 / n,
    noSigverifyCpuMsPerTx: (c4.user + c4.system) / 1000 / n,
  };
}

/** startDevnet → listening, and stop() → closed, in-process (the second start: module loading excluded). */
async function benchStart(): Promise<{ firstStartMs: number; startMs: number; stopMs: number }> {
  const { startDevnet } = await import('../src/devnet/index.js');
  let t = performance.now();
  const a = await startDevnet({ wsPortPlusOne: false });
  const firstStartMs = performance.now() - t;
  await a.ready();
  await a.stop();
  t = performance.now();
  const b = await startDevnet({ wsPortPlusOne: false });
  const startMs = performance.now() - t;
  await b.ready();
  t = performance.now();
  await b.stop();
  return { firstStartMs, startMs, stopMs: performance.now() - t };
}

const start = await benchStart();
const peer = benchLiteSvm();
const dev = await benchDevnet('lean', COUNT);
// The same run with node:http's keep-alive client, to show what the client costs (fewer transactions:
// it is the slow half of the pair).
const devNodeHttp = await benchDevnet('node:http', Math.min(COUNT, 3000));
const cpuPerTx = (r: DevnetRun) => (r.devnetCpuMsPerTx === null ? 'n/a' : `${r.devnetCpuMsPerTx.toFixed(3)} ms`);
const result = {
  name: 'devnet',
  date: new Date().toISOString(),
  machine: `${process.platform} ${process.arch}, ${cpus().length} cores, Node ${process.version}`,
  load: `load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} at the end`,
  note: 'taken on a shared 2-core machine (client and devnet share it, and other work may run); figures are lower bounds',
  count: COUNT,
  concurrency: CONCURRENCY,
  slotMs: SLOT_MS,
  devnet: { ...dev, target: 2000, meetsTarget: dev.endToEndPerSec >= 2000 },
  devnetNodeHttpClient: devNodeHttp,
  ratios: {
    endToEndVsLiteSvmRawWire: dev.endToEndPerSec / peer.rawWirePerSec,
    endToEndVsLiteSvmPublicApi: dev.endToEndPerSec / peer.perSec,
    devnetCpuVsLiteSvmRawWireCpu: dev.devnetCpuMsPerTx === null ? null : dev.devnetCpuMsPerTx / peer.rawWireCpuMsPerTx,
  },
  start,
  peer: { library: 'litesvm 1.5 in-process (public API: kit decode + sendTransaction; raw: wire bytes to the N-API object)', ...peer },
};
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'devnet.json'), JSON.stringify(result, null, 2));
const md = `## devnet — /fast throughput

${COUNT} pre-signed transfers (CU price + 0.001 SOL tip), ${CONCURRENCY} keep-alive connections from one client process to \`cairn devnet\` in its own process (slot ${SLOT_MS} ms), one request in flight per connection. ${result.note}; ${result.load}.

| what | tx/s | detail |
|---|---:|---|
| devnet: accepted by /fast (lean keep-alive client) | ${dev.acceptPerSec.toFixed(0)} | ${dev.acceptMs.toFixed(0)} ms for ${COUNT} |
| devnet: accepted **and executed** (lean keep-alive client) | ${dev.endToEndPerSec.toFixed(0)} | ${dev.totalMs.toFixed(0)} ms until every status; ${dev.landed}/${COUNT} landed without error |
| devnet: accepted and executed, node:http keep-alive client | ${devNodeHttp.endToEndPerSec.toFixed(0)} | ${devNodeHttp.landed}/${Math.min(COUNT, 3000)} landed; the client itself uses ${devNodeHttp.clientCpuMsPerTx.toFixed(3)} ms CPU per request |
| peer: LiteSVM alone, in-process, public API (kit decode + sendTransaction) | ${peer.perSec.toFixed(0)} | ${peer.perTxMs.toFixed(3)} ms per transaction |
| peer: LiteSVM alone, in-process, wire bytes to its N-API object (the devnet's path) | ${peer.rawWirePerSec.toFixed(0)} | ${(1000 / peer.rawWirePerSec).toFixed(3)} ms per transaction |

Ratio (same run, same load): devnet end to end = ${(100 * result.ratios.endToEndVsLiteSvmRawWire).toFixed(0)}% of LiteSVM alone on wire bytes, ${(100 * result.ratios.endToEndVsLiteSvmPublicApi).toFixed(0)}% of LiteSVM through its public API, in the same run.

CPU per transaction:
devnet process ${cpuPerTx(dev)} in all (${cpuPerTx(devNodeHttp)} in the node:http-client run), of which its main thread (HTTP, /fast rules, execution, history) ${dev.devnetMainThreadCpuMsPerTx === null ? 'n/a' : `${dev.devnetMainThreadCpuMsPerTx.toFixed(3)} ms → ${(1000 / dev.devnetMainThreadCpuMsPerTx).toFixed(0)} tx/s on one free core`}, the rest its signature-verifier thread and V8's helper threads;
client process ${dev.clientCpuMsPerTx.toFixed(3)} ms (lean) vs ${devNodeHttp.clientCpuMsPerTx.toFixed(3)} ms (node:http);
LiteSVM alone ${peer.cpuMsPerTx.toFixed(3)} ms through its public API, ${peer.rawWireCpuMsPerTx.toFixed(3)} ms on wire bytes, ${peer.noSigverifyCpuMsPerTx.toFixed(3)} ms on wire bytes with sigverify off (signature checks are the rest).

Start: ${start.firstStartMs.toFixed(0)} ms the first time in a process (imports included), ${start.startMs.toFixed(0)} ms after; stop: ${start.stopMs.toFixed(0)} ms.

Target ≥ 2,000 tx/s end to end: ${dev.endToEndPerSec >= 2000 ? 'met' : 'NOT met'}.
`;
writeFileSync(join(here, 'results', 'devnet.md'), md);
console.log(md);
