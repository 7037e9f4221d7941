/**
 * `cairn bench landing`: N small transfers through `/fast` with cairn's sender, as a bot sends them —
 * the routing mode's tip, a fixed compute-unit price and limit, rebroadcast until confirmed — and what
 * came of them: landed %, time to processed and to confirmed (p50/p95/p99), rebroadcasts, `/fast` and
 * JSON-RPC calls per landed transfer (counted by the client, so they hold against any endpoint), and
 * the fees and tips paid. Every price is fixed before the first request, so the most the run can
 * spend is known and capped (spend-cap.ts). Ctrl-C or the time limit stops new transfers; those in
 * flight get a grace period to finish, then the partial figures are reported.
 */
import { createClient, createTransport } from '../rpc/index.js';
import { createSender } from '../sender/index.js';
import { transferInstruction, type Signer } from '../solana/index.js';
import { describeError } from '../errors/index.js';
import { countingTransport } from './counting-transport.js';
import { histogram } from './rpc-family.js';
import { latencySummary } from './percentile.js';
import { checkCap, formatSol, SpendGuard, SIGNATURE_FEE, type TransferPrice } from './spend-cap.js';
import { newResult, stopReason, type FamilyContext, type FamilyResult } from './types.js';

export interface LandingBenchOptions {
  baseUrl: string;
  senderUrl: string;
  apiKey?: string;
  allowInsecureKey?: boolean;
  payer: Signer;
  transfers: number;
  concurrency: number;
  /** Recipient (default: the payer itself, so only fees and tips are spent). */
  to?: string;
  lamports: bigint;
  swqosOnly: boolean;
  tip: bigint;
  cuPrice: bigint;
  cuLimit: number;
  /** Lamports the run may spend; required (capRequired) against an endpoint that is not the embedded devnet. */
  cap?: bigint;
  capRequired: boolean;
  /** The whole run's time limit in seconds (default 300). */
  timeLimitS?: number;
  /** Seconds in-flight transfers get to finish after a stop (default 20). */
  graceS?: number;
  /** Read the payer's balance after every this many finished transfers (default: the concurrency). */
  balanceEvery?: number;
  /** Fund the payer with at least this many lamports first (a fresh payer on a local devnet). */
  fund?: (lamports: bigint) => Promise<void>;
}

interface Done {
  ok: boolean;
  startedMs: number;
  endedMs: number;
  processedMs?: number;
  confirmedMs?: number;
  sends: number;
  attempts: number;
  error?: string;
}

export async function landingFamily(o: LandingBenchOptions, ctx: FamilyContext): Promise<FamilyResult> {
  const to = o.to ?? o.payer.address;
  const price: TransferPrice = { tip: o.tip, cuPrice: o.cuPrice, cuLimit: o.cuLimit, amountOut: to === o.payer.address ? 0n : o.lamports };
  // refused here, before any request, when the cap is missing or too small
  const { perTransfer, atMost } = checkCap(o.transfers, price, o.cap, o.capRequired);
  ctx.say(`landing: ${o.transfers} transfers of ${o.lamports} lamports to ${to === o.payer.address ? 'the payer itself' : to}; at most ${formatSol(atMost)} (${formatSol(perTransfer)} each)${o.cap !== undefined ? `, capped at ${formatSol(o.cap)}` : ''}`);
  if (o.fund) await o.fund(atMost);
  const site = (u: string): string => new URL(u).origin;
  const result = newResult('landing', {
    rpc: site(o.baseUrl),
    fast: site(o.senderUrl),
    transfers: o.transfers,
    concurrency: o.concurrency,
    lamports: o.lamports.toString(),
    toSelf: to === o.payer.address,
    swqosOnly: o.swqosOnly,
    tipLamports: o.tip.toString(),
    cuPrice: o.cuPrice.toString(),
    cuLimit: o.cuLimit,
    atMostSol: formatSol(atMost),
    capSol: o.cap === undefined ? null : formatSol(o.cap),
  });
  const key = o.apiKey ? { apiKey: o.apiKey } : {};
  const insecure = o.allowInsecureKey ? { allowInsecureKey: true } : {};
  const counted = countingTransport(createTransport({ ...key, ...insecure }), o.baseUrl, o.senderUrl);
  const client = createClient({ baseUrl: o.baseUrl, senderUrl: o.senderUrl, ...key, ...insecure, transport: counted });
  // the benchmark's own balance reads go through a client of their own, outside the counts
  const watcher = createClient({ baseUrl: o.baseUrl, senderUrl: o.senderUrl, ...key, ...insecure });
  const sender = createSender({ client, tip: o.tip, cuPrice: o.cuPrice, cuLimit: o.cuLimit, swqosOnly: o.swqosOnly, commitment: 'confirmed' });
  const guard = new SpendGuard(o.cap, perTransfer);
  // `stop`: start no more transfers (Ctrl-C, the time limit, the cap). `hard`: abort those in flight.
  const stop = new AbortController();
  const hard = new AbortController();
  let stopWhy: string | null = null;
  let graceTimer: NodeJS.Timeout | undefined;
  const stopRun = (why: string): void => {
    if (stop.signal.aborted) return;
    stopWhy = why;
    stop.abort(new Error(why));
    graceTimer = setTimeout(() => hard.abort(new Error(`${why}; in-flight transfers abandoned after ${o.graceS ?? 20} s`)), (o.graceS ?? 20) * 1000);
    graceTimer.unref?.();
  };
  const onUser = (): void => stopRun(stopReason(ctx.signal));
  ctx.signal.addEventListener('abort', onUser, { once: true });
  const limit = setTimeout(() => stopRun(`time limit of ${o.timeLimitS ?? 300} s`), (o.timeLimitS ?? 300) * 1000);
  limit.unref?.();

  const done: Done[] = [];
  let next = 0;
  let inFlight = 0;
  let finished = 0;
  const t0 = performance.now();
  const startBalance = BigInt(await watcher.getBalance(o.payer.address, { commitment: 'processed' }, { signal: ctx.signal }));
  const readBalance = async (): Promise<void> => {
    try {
      const now = BigInt(await watcher.getBalance(o.payer.address, { commitment: 'processed' }, { signal: hard.signal }));
      guard.observe(startBalance - now);
      if (o.cap !== undefined && guard.observed + BigInt(inFlight) * perTransfer >= o.cap) stopRun(`spending cap of ${formatSol(o.cap)} reached (the payer's balance fell by ${formatSol(guard.observed)})`);
    } catch {
      /* a failed balance read leaves the started-transfer account in charge */
    }
  };
  const every = Math.max(1, o.balanceEvery ?? o.concurrency);
  const worker = async (): Promise<void> => {
    while (next < o.transfers && !stop.signal.aborted) {
      if (!guard.tryStart(inFlight)) {
        stopRun(`spending cap of ${formatSol(o.cap!)}: one more transfer could pass it`);
        return;
      }
      next++;
      inFlight++;
      const startedMs = performance.now() - t0;
      try {
        const out = await sender.send({ instructions: [transferInstruction(o.payer.address, to, o.lamports)], payer: o.payer }, { signal: hard.signal });
        done.push({
          ok: true,
          startedMs,
          endedMs: performance.now() - t0,
          ...(out.timings.landedMs !== undefined ? { processedMs: out.timings.landedMs } : {}),
          ...(out.timings.confirmedMs !== undefined ? { confirmedMs: out.timings.confirmedMs } : {}),
          sends: out.sends,
          attempts: out.attempts,
        });
      } catch (e) {
        const d = describeError(e);
        done.push({ ok: false, startedMs, endedMs: performance.now() - t0, sends: 0, attempts: 0, error: `[${d.code}] ${d.message.slice(0, 160)}` });
      } finally {
        inFlight--;
        finished++;
        ctx.progress('transfers', finished, o.transfers);
        if (finished % every === 0) await readBalance();
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, o.transfers)) }, worker));
    await readBalance();
  } finally {
    clearTimeout(limit);
    clearTimeout(graceTimer);
    ctx.signal.removeEventListener('abort', onUser);
    await sender.close();
    await client.close();
    await watcher.close();
  }
  const wallS = (performance.now() - t0) / 1000;
  figures(result, done, o, counted.counts, guard.observed, wallS);
  if (stopWhy) result.partial = stopWhy;
  return result;
}

/** The run's figures into `result`: one summary row, the errors, and the two charts. */
function figures(result: FamilyResult, done: Done[], o: LandingBenchOptions, counts: { rpc: number; fast: number }, spent: bigint, wallS: number): void {
  const landed = done.filter((d) => d.ok);
  const per = (n: number): number | null => (landed.length ? Math.round((n / landed.length) * 100) / 100 : null);
  const processed = latencySummary(landed.flatMap((d) => (d.processedMs !== undefined ? [d.processedMs] : [])));
  const confirmed = latencySummary(landed.flatMap((d) => (d.confirmedMs !== undefined ? [d.confirmedMs] : [])));
  const priority = (o.cuPrice * BigInt(o.cuLimit) + 999_999n) / 1_000_000n;
  result.rows.push({
    name: 'landing',
    offered: o.transfers,
    started: done.length,
    landed: landed.length,
    landedPct: done.length ? Math.round((landed.length / done.length) * 1000) / 10 : null,
    failed: done.length - landed.length,
    processedP50Ms: processed.p50,
    processedP95Ms: processed.p95,
    processedP99Ms: processed.p99,
    confirmedP50Ms: confirmed.p50,
    confirmedP95Ms: confirmed.p95,
    confirmedP99Ms: confirmed.p99,
    rebroadcastsPerLanded: per(landed.reduce((s, d) => s + d.sends - 1, 0)),
    fastCallsPerLanded: per(counts.fast),
    rpcCallsPerLanded: per(counts.rpc),
    feesLamports: (BigInt(landed.length) * (SIGNATURE_FEE + priority)).toString(),
    tipsLamports: (BigInt(landed.length) * o.tip).toString(),
    balanceFellLamports: spent.toString(),
    seconds: Math.round(wallS * 10) / 10,
  });
  const errors = new Map<string, number>();
  for (const d of done) if (!d.ok) errors.set(d.error!, (errors.get(d.error!) ?? 0) + 1);
  for (const [e, n] of errors) result.notes.push(`${n} × ${e}`);
  result.series.push({ id: 'confirmed-latency', title: 'time to confirmed', kind: 'bars', xLabel: 'ms', yLabel: 'transfers', points: histogram(landed.flatMap((d) => (d.confirmedMs !== undefined ? [d.confirmedMs] : []))) });
  // landed % over time: as transfers end, the share of those ended so far that landed
  const ends = done.map((d) => ({ at: d.endedMs / 1000, ok: d.ok })).sort((a, b) => a.at - b.at);
  let ok = 0;
  result.series.push({
    id: 'landed-over-time',
    title: 'landed % over time',
    kind: 'line',
    xLabel: 's',
    yLabel: 'landed %',
    points: ends.map((e, i) => [Math.round(e.at * 100) / 100, Math.round(((ok += e.ok ? 1 : 0) / (i + 1)) * 1000) / 10]),
  });
}
