/**
 * The landing benchmark's figures, from three sources that do not trust each other: what the peer
 * told its caller for each transfer (its answers), what the devnet executed (its ledger, the judge),
 * and what the devnet was asked (its request log). Pure functions on plain data, so the maths that
 * could be silently wrong (percentiles, false failures, double landings) is tested on fixed inputs
 * (test/bench/landing-figures.test.ts).
 */
import { percentile } from '../../src/bench/percentile.js';

/** What the peer's caller was told about transfer `i`. */
export interface PeerAnswer {
  i: number;
  ok: boolean;
  /** From the moment the transfer was started (blockhash fetch included) to the answer, ms. */
  ms: number;
  /** The error's message (first 200 characters) when `ok` is false. */
  error?: string;
}

/** One execution of a transfer on the devnet's ledger. */
export interface LedgerExecution {
  signature: string;
  slot: number;
  /** False: executed with an error (fee paid, transfer rolled back). */
  ok: boolean;
}

/** Requests the devnet served during one run, by `"<endpoint> <method>"` (faulted ones by `"<endpoint> <status>"`). */
export type RequestCounts = Record<string, number>;

export interface RunData {
  /** Transfers offered. */
  n: number;
  answers: readonly PeerAnswer[];
  /** `paid[i]`: every execution of transfer i on the ledger. */
  paid: readonly (readonly LedgerExecution[])[];
  requests: RequestCounts;
  /** Client CPU (user + system) over the run, ms. */
  cpuMs: number;
  /** Wall time of the run, ms. */
  wallMs: number;
  /** Websocket messages both ways through the devnet's counting proxy (absent: not counted). */
  wsMessages?: number;
}

export interface Figures {
  offered: number;
  /** Transfers with at least one successful execution on the ledger. */
  landed: number;
  landedPct: number;
  /** Transfers that executed successfully more than once (the double-send trap sprung). */
  doubleLanded: number;
  /** Answered ok (confirmed). */
  confirmed: number;
  /** Answered with an error although the ledger shows the transfer landed. */
  falseFailures: number;
  /** Answered ok but the ledger shows no successful execution (a lie the other way). */
  falseSuccesses: number;
  /** Answered with an error, truly (nothing landed). */
  trueFailures: number;
  /** Never answered (the run's time limit cut it off). */
  unanswered: number;
  /** Time to confirmed over the ok answers, ms; null with none. */
  p50Ms: number | null;
  p95Ms: number | null;
  p99Ms: number | null;
  confirmedPerSec: number;
  /** Requests to the JSON-RPC host (the metered one; web3.js and kit send there too) per confirmed transfer. */
  rpcCallsPerConfirmed: number | null;
  /** Requests to `/fast` per confirmed transfer. */
  fastCallsPerConfirmed: number | null;
  /** `sendTransaction` calls served (either host) per confirmed transfer: first sends plus rebroadcasts. */
  sendsPerConfirmed: number | null;
  /** Websocket messages (both ways, pings excluded) per confirmed transfer; null when not counted. */
  wsMessagesPerConfirmed: number | null;
  /** `/fast` requests per transfer landed on the ledger. */
  fastCallsPerLanded: number | null;
  /** Requests answered with an injected 429 or 5xx. */
  faulted: number;
  /** Client CPU per offered transfer, ms. */
  cpuMsPerTx: number;
}

/** Nearest-rank percentile: one definition with the shipped benchmarks (src/bench/percentile.ts). */
export { percentile };

const FAULTED = /^(rpc|fast) (429|5\d\d)$/;

/** Split the request counts: JSON-RPC host, `/fast`, served sends, injected faults. */
export function requestTotals(requests: RequestCounts): { rpc: number; fast: number; sends: number; faulted: number } {
  let rpc = 0;
  let fast = 0;
  let sends = 0;
  let faulted = 0;
  for (const [key, count] of Object.entries(requests)) {
    const [endpoint, what] = key.split(' ', 2) as [string, string];
    if (endpoint === 'rpc') rpc += count;
    else if (endpoint === 'fast') fast += count;
    if (FAULTED.test(key)) faulted += count;
    else if (what === 'sendTransaction') sends += count;
  }
  return { rpc, fast, sends, faulted };
}

/**
 * Every figure of one run (one peer, one scenario).
 *
 * @example
 * const f = figures({ n: 2, answers, paid, requests, cpuMs: 40, wallMs: 1_000 });
 * f.falseFailures; // answers with an error whose transfer is on the ledger
 */
export function figures(run: RunData): Figures {
  const { n, answers, paid } = run;
  if (paid.length !== n) throw new RangeError(`"paid": expected ${n} entries (one per transfer), got ${paid.length}`);
  const byIndex = new Map<number, PeerAnswer>();
  for (const a of answers) {
    if (!Number.isInteger(a.i) || a.i < 0 || a.i >= n) throw new RangeError(`"answers": index ${a.i} is outside 0..${n - 1}`);
    // A peer answers each transfer once; a second answer would be a harness bug, not a figure.
    if (byIndex.has(a.i)) throw new RangeError(`"answers": transfer ${a.i} answered twice`);
    byIndex.set(a.i, a);
  }
  let landed = 0;
  let doubleLanded = 0;
  let falseFailures = 0;
  let falseSuccesses = 0;
  let trueFailures = 0;
  let unanswered = 0;
  const okMs: number[] = [];
  for (let i = 0; i < n; i++) {
    const good = paid[i]!.filter((e) => e.ok).length;
    if (good > 0) landed++;
    if (good > 1) doubleLanded++;
    const a = byIndex.get(i);
    if (!a) unanswered++;
    else if (a.ok) {
      okMs.push(a.ms);
      if (good === 0) falseSuccesses++;
    } else if (good > 0) falseFailures++;
    else trueFailures++;
  }
  const t = requestTotals(run.requests);
  const per = (x: number): number | null => (okMs.length ? x / okMs.length : null);
  return {
    offered: n,
    landed,
    landedPct: n ? (100 * landed) / n : 0,
    doubleLanded,
    confirmed: okMs.length,
    falseFailures,
    falseSuccesses,
    trueFailures,
    unanswered,
    p50Ms: percentile(okMs, 50),
    p95Ms: percentile(okMs, 95),
    p99Ms: percentile(okMs, 99),
    confirmedPerSec: run.wallMs > 0 ? okMs.length / (run.wallMs / 1000) : 0,
    rpcCallsPerConfirmed: per(t.rpc),
    fastCallsPerConfirmed: per(t.fast),
    sendsPerConfirmed: per(t.sends),
    wsMessagesPerConfirmed: run.wsMessages === undefined ? null : per(run.wsMessages),
    fastCallsPerLanded: landed ? t.fast / landed : null,
    faulted: t.faulted,
    cpuMsPerTx: n ? run.cpuMs / n : 0,
  };
}
