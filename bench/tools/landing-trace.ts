/**
 * One landing scenario, traced transfer by transfer: where the time to confirmed goes. The devnet
 * runs in a child process (this file with `--devnet`), as in bench/landing.ts, and logs the moment
 * each signature reached it (every submission, dropped ones included), when each slot was produced
 * and the slot each transfer executed in; the peer runs here, its answers timed on the same clock
 * (`performance.timeOrigin + performance.now()` in both processes). For cairn the sender's own events
 * (sent, landed, confirmed, rebroadcast) are timed too.
 *
 * Per transfer: start → first submission reaches the devnet → the slot it executed in is produced →
 * the caller is told; printed as medians and p95s per step, in ms and in slots.
 *
 *   npx tsx bench/tools/landing-trace.ts [peer=cairn] [slotMs=100] [n=200] [faults=clean|drop|429|503|latency]
 *   TRACE_CONCURRENCY (50), TRACE_REBROADCAST_SLOTS (cairn's rebroadcastSlots; its default when unset)
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { Keypair } from '@solana/web3.js';
import { percentile } from '../../src/bench/percentile.js';
import type { PeerAnswer } from '../lib/landing-figures.js';
import type { CreatePeer, PeerJob } from '../lib/landing-peer.js';

const now = (): number => performance.timeOrigin + performance.now();

interface DevnetTrace {
  /** Each submission that reached the chain's queue (or the drop), by signature: arrival times. */
  submits: Record<string, number[]>;
  /** Slot → when it was produced. */
  slotAt: Record<number, number>;
  /** Amount → the signature and slot it executed with. */
  executed: Record<string, { signature: string; slot: number }>;
}

if (process.argv.includes('--devnet')) {
  const { startDevnet } = await import('../../src/devnet/index.js');
  const { startWsProxy } = await import('../../test/support/ws-proxy.js');
  const { executionsByKey, settleLedger } = await import('../../soak/ledger.js');
  const { intentKey } = await import('../../soak/intents.js');
  const submits: Record<string, number[]> = {};
  const slotAt: Record<number, number> = {};
  const fastIn: number[] = [];
  let connections = 0;
  const cpu0 = process.cpuUsage();
  const queued: number[] = [];
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  const lag = monitorEventLoopDelay({ resolution: 5 });
  let devnet: Awaited<ReturnType<typeof startDevnet>>;
  type Order = { op: string; slotMs?: number; faults?: string; funded?: string[]; payer?: string; recipient?: string; amounts?: string[] };
  // bench/landing.ts's scenarios, on both hosts alike
  const FAULTS: Record<string, Record<string, number>> = {
    drop: { dropRate: 0.2 },
    429: { rateLimitRate: 0.1, retryAfterSeconds: 1 },
    503: { serverErrorRate: 0.05, serverErrorStatus: 503 },
    latency: { latencyMs: 0, latencyMaxMs: 200 },
  };
  const handle = async (o: Order): Promise<void> => {
    if (o.op === 'start') {
      const f = FAULTS[o.faults ?? ''];
      devnet = await startDevnet({
        port: 0,
        slotMs: o.slotMs!,
        seed: 24,
        wsPortPlusOne: false,
        stateModules: false,
        ...(f ? { faults: { rpc: f, fast: f } } : {}),
        fundedAccounts: o.funded!.map((address) => ({ address, lamports: 10n ** 15n })),
      });
      // every submission, dropped ones excepted (a drop never reaches the chain): see below
      const chain = devnet.chain as unknown as { submitParsed: (...a: unknown[]) => { signature: string } };
      const real = chain.submitParsed.bind(chain);
      chain.submitParsed = (...a: unknown[]) => {
        const r = real(...a);
        (submits[r.signature] ??= []).push(now());
        queued.push(now());
        return r;
      };
      devnet.chain.onSlot((s) => void (slotAt[s] = now()));
      // when each /fast request reached the devnet's HTTP server (headers in), to split the way from
      // the client's call to the chain's queue into the wire and the devnet's own handling
      const http = await import('node:http');
      const emit = http.Server.prototype.emit;
      http.Server.prototype.emit = function (this: unknown, event: string, ...args: unknown[]) {
        if (event === 'request' && String((args[0] as { url?: string }).url).startsWith('/fast')) fastIn.push(now());
        if (event === 'connection') connections++;
        return Reflect.apply(emit, this, [event, ...args]) as boolean;
      } as typeof emit;
      const proxy = await startWsProxy(devnet.wsUrl);
      lag.enable();
      process.send!({ url: devnet.url, wsUrl: proxy.url });
    } else if (o.op === 'dump') {
      lag.disable();
      // in order: the k-th /fast request's headers against the k-th submission queued (a clean run: one each)
      const handling = queued.slice(0, fastIn.length).map((t, k) => t - fastIn[k]!).sort((a, b) => a - b);
      if (handling.length) console.log(`devnet /fast request in → queued (k-th with k-th, ${fastIn.length} in, ${queued.length} queued): p50 ${handling[handling.length >> 1]!.toFixed(1)} p95 ${handling[Math.floor(handling.length * 0.95)]!.toFixed(1)} ms`);
      const cpu = process.cpuUsage(cpu0);
      console.log(`devnet: ${connections} TCP connections accepted (HTTP and websocket), CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms`);
      console.log(`devnet event-loop delay: p50 ${(lag.percentile(50) / 1e6).toFixed(1)} p99 ${(lag.percentile(99) / 1e6).toFixed(1)} max ${(lag.max / 1e6).toFixed(1)} ms`);
      await settleLedger(devnet, 3);
      const paid = executionsByKey(devnet.control.ledger(), o.payer!);
      const executed: DevnetTrace['executed'] = {};
      for (const a of o.amounts!) {
        const e = (paid.get(intentKey(o.recipient!, BigInt(a))) ?? []).find((x) => x.ok);
        if (e) executed[a] = { signature: e.signature, slot: e.slot };
      }
      process.send!({ submits, slotAt, executed } satisfies DevnetTrace, () => void devnet.stop().then(() => process.exit(0)));
    }
  };
  process.on('message', (o: Order) => {
    handle(o).catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
  });
} else {
  const [peer = 'cairn', slotArg = '100', nArg = '200', faults = 'clean'] = process.argv.slice(2);
  const slotMs = Number(slotArg);
  const n = Number(nArg);
  const payerSeed = Buffer.alloc(32, 0x18);
  const payer = Keypair.fromSeed(payerSeed).publicKey.toBase58();
  const recipient = Keypair.fromSeed(Buffer.alloc(32, 0x19)).publicKey.toBase58();
  const amounts = Array.from({ length: n }, (_, i) => String(100_000 + i));
  const child = fork(fileURLToPath(import.meta.url), ['--devnet'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = <T>(o: unknown): Promise<T> => new Promise((r) => (child.once('message', (m) => r(m as T)), child.send(o as object)));
  const load0 = loadavg()[0]!;
  const { url, wsUrl } = await ask<{ url: string; wsUrl: string }>({ op: 'start', slotMs, faults, funded: [payer, recipient] });
  const job: PeerJob = {
    peer: peer as PeerJob['peer'], url, wsUrl, payerSeed: payerSeed.toString('hex'), recipient, amounts,
    concurrency: Number(process.env.TRACE_CONCURRENCY ?? 50), tipLamports: 1_000_000, tipAccount: '4ACfpUFoaSD9bfPdeu6DBt89gB6ENTeHBXCAi87NhDEE',
    cuPrice: 200_000, cuLimit: 1_000, apiKey: 'landing-bench', timeLimitMs: 120_000,
  };
  const file = { cairn: 'cairn', 'helius-sdk': 'helius', kit: 'kit', 'web3.js': 'web3' }[peer]!;
  const events: Record<string, Record<string, number>> = {};
  /** cairn: when each send started (sendMany took its input). */
  const started: number[] = [];
  /** cairn: the slot each outcome named. */
  const slotOf: number[] = [];
  const timingsOf: { buildMs: number; firstSubmitMs?: number; landedMs?: number }[] = [];
  // cairn's peer, as bench/lib/landing-peer-cairn.ts builds it, with the sender's events timed
  const cairnPeer: CreatePeer = async (j) => {
    const { createClient } = await import('../../src/rpc/client/create-client.js');
    const { createSender, signerFromSecretKey, transferInstruction } = await import('../../src/sender/index.js');
    const payerSigner = signerFromSecretKey(Buffer.from(j.payerSeed, 'hex'));
    const client = createClient({ url: j.url, wsUrl: j.wsUrl });
    // each /fast submission, timed as it leaves and as it is answered (first of each signature)
    const { encodeBase58 } = await import('../../src/solana/base58.js');
    const c = client as unknown as { sendTransaction: (wire: Uint8Array, ...rest: unknown[]) => Promise<unknown> };
    const realSend = c.sendTransaction.bind(client);
    c.sendTransaction = async (wire, ...rest) => {
      const m = (events[encodeBase58(wire.subarray(1, 65))] ??= {});
      m.call ??= now();
      try {
        return await realSend(wire, ...rest);
      } finally {
        m.answered ??= now();
      }
    };
    const rebroadcastSlots = process.env.TRACE_REBROADCAST_SLOTS ? Number(process.env.TRACE_REBROADCAST_SLOTS) : undefined;
    const sender = createSender({
      client,
      tip: BigInt(j.tipLamports),
      cuPrice: BigInt(j.cuPrice),
      cuLimit: j.cuLimit,
      concurrency: j.concurrency,
      rebroadcastSlots,
    });
    for (const name of ['sent', 'landed', 'confirmed', 'rebroadcast'] as const) {
      sender.on(name, (e: { signature: string }) => {
        const m = (events[e.signature] ??= {});
        if (name === 'rebroadcast') {
          m.rebroadcasts = (m.rebroadcasts ?? 0) + 1;
          m.lastRebroadcast = now();
        } else m[name] ??= now();
      });
    }
    return {
      async run(answer, signal) {
        // each input is taken the moment its send starts: the start of its time to confirmed
        const inputs = function* () {
          for (const [i, a] of j.amounts.entries()) {
            started[i] = now();
            yield { instructions: [transferInstruction(payerSigner.address, j.recipient, BigInt(a))], payer: payerSigner };
          }
        };
        for await (const item of sender.sendMany(inputs(), { concurrency: j.concurrency, signal })) {
          if (item.ok) {
            timingsOf[item.index] = item.outcome.timings;
            slotOf[item.index] = item.outcome.slot;
            answer({ i: item.index, ok: true, ms: item.outcome.timings.confirmedMs ?? Number.NaN });
          } else answer({ i: item.index, ok: false, ms: Number.NaN });
        }
      },
      async close() {
        console.log(JSON.stringify(sender.stats));
        await sender.close();
        await client.close();
      },
    };
  };
  const createPeer = peer === 'cairn' ? cairnPeer : ((await import(`../lib/landing-peer-${file}.js`)) as { createPeer: CreatePeer }).createPeer;
  const p = await createPeer(job);
  const told: { i: number; ok: boolean; start: number; end: number }[] = [];
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const cpu0 = process.cpuUsage();
  const t0 = now();
  await p.run((a: PeerAnswer) => {
    // what the benchmark times: from the start, `ms` (cairn: the outcome's confirmedMs; the yield may come later)
    const start = started[a.i] ?? now() - a.ms;
    told.push({ i: a.i, ok: a.ok, start, end: start + a.ms });
  }, AbortSignal.timeout(job.timeLimitMs));
  const wall = now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(`peer CPU ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms per transfer`);
  lag.disable();
  console.log(`peer event-loop delay: p50 ${(lag.percentile(50) / 1e6).toFixed(1)} p99 ${(lag.percentile(99) / 1e6).toFixed(1)} max ${(lag.max / 1e6).toFixed(1)} ms`);
  await p.close();
  const tr = await ask<DevnetTrace>({ op: 'dump', payer, recipient, amounts });
  const rows: Record<string, number[]> = { 'start→submit': [], 'submit→slot': [], 'slot→told': [], 'start→told': [], submits: [] };
  const extra: Record<string, number[]> = { 'build (buildMs)': [], 'start→/fast answered': [], 'start→submit call': [], 'submit call→arrived': [], 'arrived→answered': [], 'slot→landed event': [], 'landed→confirmed event': [], 'confirmed event→told': [], 'start→sent event': [] };
  const wrongSlot: string[] = [];
  let late = 0;
  const lateResends: string[] = [];
  for (const t of told) {
    const e = tr.executed[amounts[t.i]!];
    if (!t.ok || !e) continue;
    const subs = tr.submits[e.signature] ?? [];
    const slotTime = tr.slotAt[e.slot];
    if (subs.length === 0 || slotTime === undefined) continue;
    rows['start→submit']!.push(subs[0]! - t.start);
    rows['submit→slot']!.push(slotTime - subs[0]!);
    rows['slot→told']!.push(t.end - slotTime);
    rows['start→told']!.push(t.end - t.start);
    rows.submits!.push(subs.length);
    // arrivals after the slot that executed it was produced: resends that were not needed
    late += subs.filter((t) => t > slotTime).length;
    const evr = events[e.signature];
    if (evr?.lastRebroadcast !== undefined && evr.lastRebroadcast > slotTime) {
      lateResends.push(`#${t.i} resent ${(evr.lastRebroadcast - slotTime).toFixed(0)} ms after its slot, told landed ${evr.landed === undefined ? '-' : (evr.landed - slotTime).toFixed(0)} ms after`);
    }
    if (slotOf[t.i] !== undefined && slotOf[t.i] !== e.slot) wrongSlot.push(`${t.i}: told ${slotOf[t.i]}, ledger ${e.slot}`);
    const tm = timingsOf[t.i];
    if (tm) {
      extra['build (buildMs)']!.push(tm.buildMs);
      if (tm.firstSubmitMs !== undefined) extra['start→/fast answered']!.push(tm.firstSubmitMs);
    }
    const ev = events[e.signature];
    if (ev) {
      if (ev.sent) extra['start→sent event']!.push(ev.sent - t.start);
      if (ev.call) extra['start→submit call']!.push(ev.call - t.start);
      if (ev.call) extra['submit call→arrived']!.push(subs[0]! - ev.call);
      if (ev.answered) extra['arrived→answered']!.push(ev.answered - subs[0]!);
      if (ev.landed) extra['slot→landed event']!.push(ev.landed - slotTime);
      if (ev.landed && ev.confirmed) extra['landed→confirmed event']!.push(ev.confirmed - ev.landed);
      if (ev.confirmed) extra['confirmed event→told']!.push(t.end - ev.confirmed);
    }
  }
  const line = (k: string, v: number[]): string =>
    `${k.padEnd(24)} n ${String(v.length).padStart(4)}  p50 ${percentile(v, 50)!.toFixed(0).padStart(5)}  p95 ${percentile(v, 95)!.toFixed(0).padStart(5)}  max ${Math.max(...v).toFixed(0).padStart(5)}  (p50 ${(percentile(v, 50)! / slotMs).toFixed(2)} slots)`;
  console.log(`${peer}, ${slotMs} ms slots, ${n} transfers, ${faults}: ${told.filter((t) => t.ok).length} ok in ${(wall / 1000).toFixed(1)} s, load ${load0.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`);
  for (const [k, v] of Object.entries(rows)) if (v.length) console.log(line(k, v));
  for (const [k, v] of Object.entries(extra)) if (v.length) console.log(line(k, v));
  console.log(`submissions that reached the chain after their transaction had executed: ${late}`);
  if (lateResends.length) console.log(`resent after landing (${lateResends.length}): ${lateResends.slice(0, 12).join('; ')}`);
  if (wrongSlot.length) console.log(`outcome slot differs from the ledger's for ${wrongSlot.length}: ${wrongSlot.slice(0, 5).join('; ')}`);
  process.exit(0);
}
