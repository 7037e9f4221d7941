/**
 * The landing benchmark's outputs, from its results: `bench/results/landing.json` (the shape below),
 * `landing.md` (every figure, per scenario and peer), `landing.svg` (landed % and p95 by scenario
 * and peer) and the README's landing table (written by bench/lib/summary.ts from the JSON, so the
 * README never holds a figure the results file does not).
 */
import { barChart } from '../../src/bench/svg-chart.js';
import type { Figures } from './landing-figures.js';

export interface LandingScenario {
  id: string;
  label: string;
  slotMs: number;
  /** The devnet's fault settings, by endpoint (bench/landing.ts applies the same to `rpc` and `fast`). */
  faults: Record<string, Record<string, number>>;
  /** Transfers go in bundles of 2 (only the peers with a bundle API run it). */
  bundle?: boolean;
}

/** One run: one peer in one scenario. */
export interface LandingRun {
  peer: string;
  scenario: string;
  figures: Figures;
  /** Median CU price (µlamports/CU) of the payer's executed transactions: what the peer really paid. */
  cuPriceMedian: number | null;
  /** Error messages the caller got, with counts (the five most frequent). */
  errors: { message: string; count: number }[];
  /** The devnet's request counts over the run, by `"<endpoint> <method>"` (faulted: `"<endpoint> <status>"`). */
  requests: Record<string, number>;
  /** Rejections the peer left unhandled (each would end a Node process that has no handler). */
  unhandledRejections: { count: number; first?: string };
  /** The child's last stderr lines when it did not end cleanly. */
  stderrTail?: string;
}

/**
 * `bench/results/landing.json`. `rows` is the long form: one `{ peer, scenario, figure, value }` per
 * figure of `Figures` (value null when it has none, e.g. p95 with nothing confirmed); `runs` holds the
 * same figures per run with the paid CU price and the errors seen.
 */
export interface LandingResults {
  when: string;
  machine: { cpus: number; node: string; loadavg1Before: number; loadavg1After: number; note: string };
  config: { transfers: number; concurrency: number; tipLamports: number; cuPrice: number; cuLimit: number; seed: number; timeLimitMs: number };
  scenarios: LandingScenario[];
  peers: string[];
  runs: LandingRun[];
  rows: { peer: string; scenario: string; figure: keyof Figures; value: number | null }[];
  goal: { scenario: string; checks: { what: string; pass: boolean; measured: string }[] };
  wallSeconds: number;
}

export const longRows = (runs: readonly LandingRun[]): LandingResults['rows'] =>
  runs.flatMap((r) =>
    (Object.keys(r.figures) as (keyof Figures)[]).map((figure) => ({ peer: r.peer, scenario: r.scenario, figure, value: r.figures[figure] })),
  );

const n = (v: number | null, digits = 0): string => (v === null || !Number.isFinite(v) ? '–' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const calls = (v: number | null): string => (v === null ? '–' : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/**
 * The goal, measured: under the drop scenario, cairn lands all, never twice, never a false failure,
 * and uses ≤ 1/20 of helius-sdk's JSON-RPC calls per confirmed transfer.
 */
export function goalChecks(runs: readonly LandingRun[], scenario: string, all: readonly string[] = []): LandingResults['goal'] {
  const c = runs.find((r) => r.peer === 'cairn' && r.scenario === scenario)?.figures;
  const h = runs.find((r) => r.peer === 'helius-sdk' && r.scenario === scenario)?.figures;
  const checks: LandingResults['goal']['checks'] = [];
  if (c) {
    checks.push({ what: 'cairn lands 100%', pass: c.landed === c.offered, measured: `${c.landed}/${c.offered}` });
    checks.push({ what: 'cairn double-landed 0', pass: c.doubleLanded === 0, measured: String(c.doubleLanded) });
    checks.push({ what: 'cairn false failures 0', pass: c.falseFailures === 0, measured: String(c.falseFailures) });
  }
  if (c && h && c.rpcCallsPerConfirmed !== null && h.rpcCallsPerConfirmed !== null) {
    const ratio = h.rpcCallsPerConfirmed / c.rpcCallsPerConfirmed;
    checks.push({
      what: "cairn's JSON-RPC calls per confirmed transfer ≤ 1/20 of helius-sdk's",
      pass: ratio >= 20,
      measured: `${calls(c.rpcCallsPerConfirmed)} vs ${calls(h.rpcCallsPerConfirmed)} (1/${ratio.toFixed(1)})`,
    });
  }
  // Issue 33's bar, in every scenario of the run: first to confirmed (p50 and p95 ≤ the best
  // other peer's), with everything landed once, no false failure, ≤ 1/20 of kit's JSON-RPC calls.
  for (const id of all) {
    const me = runs.find((r) => r.peer === 'cairn' && r.scenario === id)?.figures;
    if (!me) continue;
    const others = runs.filter((r) => r.peer !== 'cairn' && r.scenario === id && r.figures.confirmed > 0).map((r) => ({ peer: r.peer, f: r.figures }));
    for (const q of ['p50Ms', 'p95Ms'] as const) {
      const best = others.filter((o) => o.f[q] !== null).sort((a, b) => a.f[q]! - b.f[q]!)[0];
      if (!best || me[q] === null) continue;
      checks.push({ what: `${id}: cairn's ${q.slice(0, 3)} ≤ the best peer's`, pass: me[q]! <= best.f[q]!, measured: `${n(me[q])} vs ${best.peer} ${n(best.f[q])} ms` });
    }
    checks.push({ what: `${id}: cairn lands 100%, 0 doubled, 0 false failures`, pass: me.landed === me.offered && me.doubleLanded === 0 && me.falseFailures === 0, measured: `${me.landed}/${me.offered}, ${me.doubleLanded}, ${me.falseFailures}` });
    const kit = runs.find((r) => r.peer === 'kit' && r.scenario === id)?.figures;
    if (kit && kit.rpcCallsPerConfirmed !== null && me.rpcCallsPerConfirmed !== null) {
      checks.push({ what: `${id}: cairn's JSON-RPC calls per confirmed ≤ 1/20 of kit's`, pass: me.rpcCallsPerConfirmed * 20 <= kit.rpcCallsPerConfirmed, measured: `${calls(me.rpcCallsPerConfirmed)} vs ${calls(kit.rpcCallsPerConfirmed)}` });
    }
    if (id === 'drop-20' && me.fastCallsPerLanded !== null) {
      checks.push({ what: `${id}: cairn's /fast requests per landed ≤ 1.5`, pass: me.fastCallsPerLanded <= 1.5, measured: calls(me.fastCallsPerLanded) });
    }
  }
  return { scenario, checks };
}

/** The full Markdown report. */
export function landingMarkdown(r: LandingResults): string {
  const label = (id: string): string => r.scenarios.find((s) => s.id === id)?.label ?? id;
  const lines = [
    '## landing',
    '',
    `${r.config.transfers} transfers per peer and scenario, ${r.config.concurrency} in flight, tip ${r.config.tipLamports.toLocaleString('en-US')} lamports, CU price ${r.config.cuPrice.toLocaleString('en-US')} µlamports/CU, CU limit ${r.config.cuLimit.toLocaleString('en-US')}; a fresh devnet (seed ${r.config.seed}) in its own process per run, each peer in its own process. Node ${r.machine.node}, ${r.machine.cpus} cores, load average ${r.machine.loadavg1Before.toFixed(1)} → ${r.machine.loadavg1After.toFixed(1)}; ${r.machine.note}. Whole run ${r.wallSeconds.toFixed(0)} s.`,
    '',
    'Landed and double-landed are read on the devnet\'s ledger; a false failure is an error the caller got for a transfer that landed. Time to confirmed over the transfers answered ok, from the start of each. "RPC calls" are requests to the JSON-RPC host (the metered one, where web3.js and kit also send); `/fast` requests are counted apart. CPU is the peer process\'s user + system time over the run, per transfer offered.',
    '',
    '| scenario | peer | landed | double | false failures | p50 ms | p95 ms | p99 ms | confirmed/s | RPC calls / confirmed | /fast calls / confirmed | sends / confirmed | websocket msgs / confirmed | CPU ms / tx |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of r.scenarios) {
    for (const run of r.runs.filter((x) => x.scenario === s.id)) {
      const f = run.figures;
      lines.push(
        `| ${s.label} | ${run.peer} | ${n(f.landedPct, 1)}% | ${f.doubleLanded} | ${f.falseFailures} | ${n(f.p50Ms)} | ${n(f.p95Ms)} | ${n(f.p99Ms)} | ${n(f.confirmedPerSec, 1)} | ${calls(f.rpcCallsPerConfirmed)} | ${calls(f.fastCallsPerConfirmed)} | ${calls(f.sendsPerConfirmed)} | ${calls(f.wsMessagesPerConfirmed ?? null)} | ${n(f.cpuMsPerTx, 2)} |`,
      );
    }
  }
  lines.push('', `Goals (under "${label(r.goal.scenario)}", then per scenario):`, '');
  for (const c of r.goal.checks) lines.push(`- ${c.pass ? 'met' : 'NOT met'}: ${c.what} (${c.measured})`);
  lines.push('', 'What the callers were told when a transfer failed (most frequent first):', '');
  for (const run of r.runs) {
    const u = run.unhandledRejections;
    if (!run.errors.length && !run.stderrTail && !u.count) continue;
    const code = (t: string): string => `\`${t.replace(/`/g, "'").replace(/\|/g, '/')}\``;
    const es = run.errors.map((e) => `${e.count}× ${code(e.message)}`).join('; ');
    const un = u.count ? `; and ${u.count} rejections left unhandled, which end a Node process by default (the first: ${code(u.first ?? '?')})` : '';
    lines.push(`- ${label(run.scenario)}, ${run.peer}: ${es || 'no errors answered'}${un}${run.stderrTail ? ` (stderr: ${code(run.stderrTail.slice(-300))})` : ''}`);
  }
  lines.push('', `CU price paid (median, µlamports/CU): ${r.peers.map((p) => `${p} ${n(r.runs.find((x) => x.peer === p && x.cuPriceMedian !== null)?.cuPriceMedian ?? null)}`).join(', ')}.`, '');
  return lines.join('\n');
}

/** The chart: landed % and p95 time to confirmed, by scenario and peer. */
export function landingSvg(r: LandingResults): string {
  const groups = r.scenarios.map((s) => s.label);
  const value = (s: string, p: string, pick: (f: Figures) => number | null): number | null => {
    const run = r.runs.find((x) => x.scenario === s && x.peer === p);
    return run ? pick(run.figures) : null;
  };
  const grid = (pick: (f: Figures) => number | null) => r.scenarios.map((s) => r.peers.map((p) => value(s.id, p, pick)));
  return barChart([
    { title: `Landed (on the ledger), % of ${r.config.transfers} transfers`, unit: '%', groups, series: r.peers, values: grid((f) => f.landedPct), max: 100 },
    { title: 'p95 time to confirmed, ms', unit: ' ms', groups, series: r.peers, values: grid((f) => f.p95Ms) },
  ]);
}

/** The README's landing table: per scenario, each peer's landed %, p95 and JSON-RPC calls per confirmed transfer. */
export function landingReadmeTable(r: LandingResults): string {
  const head = `| scenario | ${r.peers.join(' | ')} |`;
  const rows = r.scenarios.map((s) => {
    const cells = r.peers.map((p) => {
      const f = r.runs.find((x) => x.scenario === s.id && x.peer === p)?.figures;
      if (!f) return '–';
      return `${n(f.landedPct, 0)}% · p95 ${f.p95Ms === null ? '–' : `${n(f.p95Ms)} ms`} · ${calls(f.rpcCallsPerConfirmed)} calls${f.falseFailures ? ` · ${f.falseFailures} false failures` : ''}${f.doubleLanded ? ` · ${f.doubleLanded} double` : ''}`;
    });
    return `| ${s.label} | ${cells.join(' | ')} |`;
  });
  return [
    `Landed % · p95 time to confirmed · JSON-RPC calls per confirmed transfer; ${r.config.transfers} transfers, ${r.config.concurrency} in flight, one run (${r.when.slice(0, 10)}, ${r.machine.note})`,
    '',
    head,
    `|---|${r.peers.map(() => '---').join('|')}|`,
    ...rows,
  ].join('\n');
}
