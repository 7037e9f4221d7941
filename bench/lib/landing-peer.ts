/**
 * One peer's run of the landing benchmark, in a child process of its own (forked by bench/landing.ts),
 * so its CPU time (`process.cpuUsage` around the run, imports and client set-up excluded) is its own
 * and its event loop meets no other peer's. The job arrives over IPC; the peer's module
 * (landing-peer-<peer>.ts) is imported only then, so helius-sdk's process loads the loopback redirect
 * before @solana/kit. Answers go back as one message: each transfer's outcome as the caller saw it.
 */
import type { PeerAnswer } from './landing-figures.js';

export const PEERS = ['cairn', 'helius-sdk', 'kit', 'web3.js'] as const;
export type PeerName = (typeof PEERS)[number];
/** The module of each peer: landing-peer-<file>.ts. */
const MODULE: Record<PeerName, string> = { cairn: 'cairn', 'helius-sdk': 'helius', kit: 'kit', 'web3.js': 'web3' };

export interface PeerJob {
  peer: PeerName;
  url: string;
  wsUrl: string;
  /** The payer's 32-byte seed, hex. */
  payerSeed: string;
  recipient: string;
  /** Transfer i pays `amounts[i]` lamports to `recipient`: the amount identifies it on the ledger. */
  amounts: string[];
  concurrency: number;
  tipLamports: number;
  tipAccount: string;
  /** µlamports per CU. */
  cuPrice: number;
  cuLimit: number;
  /** helius-sdk's key (the devnet asks for one on the JSON-RPC host, as the provider does). */
  apiKey: string;
  /** Transfers not answered by then are left unanswered. */
  timeLimitMs: number;
  /** Send the transfers in bundles of 2 through /fast `sendBundle` (transfers 2k and 2k+1 together). */
  bundle?: boolean;
}

export interface PeerResult {
  answers: PeerAnswer[];
  cpuMs: number;
  wallMs: number;
  /** Promises the peer left rejected with no handler, with the first one's message. */
  unhandledRejections: { count: number; first?: string };
}

/** What each landing-peer-<name>.ts exports. */
export interface Peer {
  /** Send every transfer of the job, at its concurrency, calling `answer` once per transfer. */
  run(answer: (a: PeerAnswer) => void, signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}
export type CreatePeer = (job: PeerJob) => Promise<Peer>;

/**
 * The way a bot drives a one-transfer-at-a-time API: `concurrency` workers, each taking the next
 * transfer, timing it from its start (blockhash fetch included) to its answer.
 */
export async function pool(
  job: PeerJob,
  one: (i: number, signal: AbortSignal) => Promise<void>,
  answer: (a: PeerAnswer) => void,
  signal: AbortSignal,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < job.amounts.length && !signal.aborted) {
      const i = next++;
      const t0 = performance.now();
      try {
        await one(i, signal);
        answer({ i, ok: true, ms: performance.now() - t0 });
      } catch (e) {
        if (signal.aborted) return; // cut off by the time limit: unanswered, not failed
        answer({ i, ok: false, ms: performance.now() - t0, error: errorText(e) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(job.concurrency, job.amounts.length) }, worker));
}

/** `pool` for bundles: each worker sends transfers 2k and 2k+1 as one bundle and answers both. */
export async function bundlePool(
  job: PeerJob,
  one: (k: number, signal: AbortSignal) => Promise<void>,
  answer: (a: PeerAnswer) => void,
  signal: AbortSignal,
): Promise<void> {
  const pairs = Math.floor(job.amounts.length / 2);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pairs && !signal.aborted) {
      const k = next++;
      const t0 = performance.now();
      try {
        await one(k, signal);
        for (const i of [2 * k, 2 * k + 1]) answer({ i, ok: true, ms: performance.now() - t0 });
      } catch (e) {
        if (signal.aborted) return;
        for (const i of [2 * k, 2 * k + 1]) answer({ i, ok: false, ms: performance.now() - t0, error: errorText(e) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(Math.floor(job.concurrency / 2), pairs)) }, worker));
}

/** An error as the caller would log it (code first when there is one), bounded. */
export const errorText = (e: unknown): string => {
  const err = e as { code?: unknown; message?: unknown };
  const text = `${typeof err?.code === 'string' ? `${err.code}: ` : ''}${String(err?.message ?? e)}`;
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
};

async function main(job: PeerJob): Promise<void> {
  // A rejection a library leaves unhandled ends a Node process by default (web3.js' confirmation
  // does, under 503s): counted and reported, so the run goes on and the other transfers are measured.
  const unhandled: PeerResult['unhandledRejections'] = { count: 0 };
  process.on('unhandledRejection', (e) => {
    unhandled.count++;
    unhandled.first ??= errorText(e);
  });
  const mod = (await import(`./landing-peer-${MODULE[job.peer]}.js`)) as { createPeer: CreatePeer };
  const peer = await mod.createPeer(job);
  const answers: PeerAnswer[] = [];
  const limit = AbortSignal.timeout(job.timeLimitMs);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // The run ends when every transfer is answered, or at the time limit (a peer may wait on a transfer
  // that will never be answered: what is unanswered then is counted so).
  await Promise.race([peer.run((a) => answers.push(a), limit), new Promise((r) => limit.addEventListener('abort', r, { once: true }))]);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const result: PeerResult = { answers, cpuMs: (cpu.user + cpu.system) / 1000, wallMs, unhandledRejections: unhandled };
  process.send!(result, () => {
    // Clients that keep sockets or timers alive (web3.js reconnects its websocket forever) must not
    // hold the process: the results are out, close what closes, then leave.
    void Promise.race([peer.close().catch(() => undefined), new Promise((r) => setTimeout(r, 2_000).unref())]).then(() => process.exit(0));
  });
}

if (process.send) {
  process.once('message', (m) => {
    main(m as PeerJob).catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
  });
}
