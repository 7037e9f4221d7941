/**
 * The landing benchmark's devnet host: a child process (so the peers under test never share an event
 * loop or a core's JIT with the server) that starts a fresh devnet for each run, on orders from
 * bench/landing.ts over IPC. Fresh per run, with the same seed: every peer meets the same fault
 * stream from its first request, and the run's ledger and request log are that peer's alone.
 *
 * Orders: `start` (slot time, faults, funded accounts, keys) → `{ url, wsUrl }`; `judge` (payer,
 * recipient, amounts) → each transfer's executions on the ledger and the request counts; `stop`.
 * Also `--self-test`, for nothing but starting and stopping once.
 *
 * Peers reach the devnet's websocket through a counting proxy on loopback (test/support/ws-proxy.ts,
 * one more hop for every peer alike), so the websocket messages each peer cost are reported beside
 * its JSON-RPC calls.
 */
import { intentKey } from '../../soak/intents.js';
import { executionsByKey, settleLedger } from '../../soak/ledger.js';
import { startDevnet, type Devnet, type DevnetOptions } from '../../src/devnet/index.js';
import { compileMessage, computeUnitPriceInstruction, signMessageParts, signerFromSecretKey, transferInstruction } from '../../src/sender/index.js';
import type { LedgerExecution, RequestCounts } from './landing-figures.js';
import { startWsProxy, type WsProxy } from '../../test/support/ws-proxy.js';

export type DevnetOrder =
  | { op: 'start'; slotMs: number; faults: DevnetOptions['faults']; funded: string[]; keys: string[]; seed: number; primeCuPrice: number }
  | { op: 'judge'; payer: string; recipient: string; amounts: string[] }
  | { op: 'stop' };

export type DevnetReply =
  | { op: 'started'; url: string; wsUrl: string }
  | { op: 'judged'; paid: LedgerExecution[][]; requests: RequestCounts; cuPrices: number[]; wsMessages: number }
  | { op: 'stopped' }
  | { op: 'error'; message: string };

let devnet: Devnet | null = null;
let proxy: WsProxy | null = null;
// Executes a few transfers at the benchmark's CU price before a run, so `getPriorityFeeEstimate`
// (percentiles of recent prices) answers that price: helius-sdk takes its price from it, the others
// are given it, and all pay the same.
const primer = signerFromSecretKey(new Uint8Array(32).fill(0x17));
let requests: RequestCounts = {};
let drain: NodeJS.Timeout | null = null;

/** The request log keeps its last 50,000 entries: drained often so a long run loses none. */
function drainLog(): void {
  if (!devnet) return;
  const log = devnet.control.requestLog();
  devnet.control.clearRequestLog();
  for (const e of log) {
    const key = e.status === 429 || e.status >= 500 ? `${e.endpoint} ${e.status}` : `${e.endpoint} ${e.method}`;
    requests[key] = (requests[key] ?? 0) + 1;
  }
}

async function stopCurrent(): Promise<void> {
  if (drain) clearInterval(drain);
  drain = null;
  const d = devnet;
  devnet = null;
  const p = proxy;
  proxy = null;
  await p?.close();
  await d?.stop();
}

async function handle(o: DevnetOrder): Promise<DevnetReply> {
  if (o.op === 'start') {
    await stopCurrent();
    requests = {};
    devnet = await startDevnet({
      port: 0,
      slotMs: o.slotMs,
      seed: o.seed,
      wsPortPlusOne: false,
      stateModules: false,
      ...(o.faults ? { faults: o.faults } : {}),
      ...(o.keys.length ? { keys: o.keys.map((key) => ({ key, name: 'landing' })) } : {}),
      fundedAccounts: [...o.funded, primer.address].map((address) => ({ address, lamports: 10n ** 15n })),
    });
    const to = o.funded[o.funded.length - 1]!;
    for (let k = 0; k < 5; k++) {
      const message = compileMessage({
        payer: primer.address,
        recentBlockhash: devnet.chain.latestBlockhash().blockhash,
        instructions: [computeUnitPriceInstruction(o.primeCuPrice), transferInstruction(primer.address, to, 1 + k)],
      });
      devnet.chain.submit(signMessageParts(message, [primer]).wire);
    }
    await devnet.chain.waitForSlot(devnet.chain.slot() + 2);
    drain = setInterval(drainLog, 250);
    proxy = await startWsProxy(devnet.wsUrl);
    return { op: 'started', url: devnet.url, wsUrl: proxy.url };
  }
  if (o.op === 'judge') {
    if (!devnet) throw new Error('judge: no devnet running');
    // the peer's process is gone: whatever it submitted runs within a slot or two
    await settleLedger(devnet, 3);
    drainLog();
    const ledger = devnet.control.ledger();
    const paid = executionsByKey(ledger, o.payer);
    const cuPrices = ledger.filter((t) => t.accountKeys[0] === o.payer && t.err === null).map((t) => t.computeUnitPrice);
    return {
      op: 'judged',
      paid: o.amounts.map((a) => (paid.get(intentKey(o.recipient, BigInt(a))) ?? []).map((e) => ({ signature: e.signature, slot: e.slot, ok: e.ok }))),
      requests,
      cuPrices,
      wsMessages: proxy ? proxy.counts.up + proxy.counts.down : 0,
    };
  }
  await stopCurrent();
  return { op: 'stopped' };
}

if (process.argv.includes('--self-test')) {
  await handle({ op: 'start', slotMs: 100, faults: {}, funded: [primer.address], keys: [], seed: 1, primeCuPrice: 1 });
  await handle({ op: 'stop' });
  console.log('ok');
} else {
  if (!process.send) throw new Error('bench/lib/landing-devnet.ts runs as a forked child (IPC)');
  let queue = Promise.resolve();
  process.on('message', (o: DevnetOrder) => {
    queue = queue.then(async () => {
      let reply: DevnetReply;
      try {
        reply = await handle(o);
      } catch (e) {
        reply = { op: 'error', message: (e as Error).message };
      }
      process.send!(reply);
      if (o.op === 'stop') process.disconnect();
    });
  });
  process.on('disconnect', () => void stopCurrent().then(() => process.exit(0)));
}
