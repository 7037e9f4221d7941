/**
 * The campaign's figures: totals over the phases, the table printed at the end, and the must-be-0
 * check that decides the exit code. Anything that kept a phase from testing what it should (no
 * tmpfs, no fuzzer yet, a hung process) is a failure too, never a silent pass.
 */
import type { SenderCampaign } from './campaign.js';
import { COUNTS, type Counts } from './judge.js';

export interface FuzzFigures {
  status: 'passed' | 'failed' | 'not built yet' | 'skipped';
  result?: unknown;
  error?: string;
}

export interface CampaignReport {
  at: string;
  seed: number;
  faults: SenderCampaign['faults'];
  injection: string;
  phases: SenderCampaign['phases'];
  identical: SenderCampaign['identical'];
  totals: Counts & {
    unhandledRejections: number;
    openHandles: string[];
    peakRssMb: number;
    statusCalls: number;
    statusCallsPerIntent: number;
    statusSignaturesPerIntent: number;
  };
  fuzz: FuzzFigures;
  mustBeZero: Record<string, number>;
  failures: string[];
  passed: boolean;
}

export interface HarnessFacts {
  unhandledRejections: number;
  openHandles: string[];
  peakRssKb: number;
}

/** Build the report from the campaign, what the harness process itself saw, and the fuzzer's outcome. */
export function buildReport(c: SenderCampaign, harness: HarnessFacts, fuzz: FuzzFigures): CampaignReport {
  const sum = (k: keyof Counts): number => c.phases.reduce((n, p) => n + p[k], 0);
  const counts = Object.fromEntries(COUNTS.map((k) => [k, sum(k)])) as Counts;
  const offered = counts.offered;
  const statusCalls = c.phases.reduce((n, p) => n + p.requests.statusCalls, 0);
  const statusSignatures = c.phases.reduce((n, p) => n + p.requests.statusSignatures, 0);
  const openHandles = [...harness.openHandles.map((h) => `harness: ${h}`), ...c.phases.flatMap((p) => p.openHandles), ...c.identical.openHandles.map((h) => `identical: ${h}`)];
  const unhandledRejections = harness.unhandledRejections + c.phases.reduce((n, p) => n + p.unhandledRejections, 0) + c.identical.unhandledRejections;
  const peakKb = Math.max(harness.peakRssKb, c.identical.peakChildRssKb, ...c.phases.map((p) => p.peakChildRssKb));
  const totals = {
    ...counts,
    unhandledRejections,
    openHandles,
    peakRssMb: Math.round(peakKb / 1024),
    statusCalls,
    statusCallsPerIntent: offered ? statusCalls / offered : 0,
    statusSignaturesPerIntent: offered ? statusSignatures / offered : 0,
  };
  const mustBeZero = {
    lost: totals.lost,
    landedTwice: totals.landedTwice,
    reportedFailedButLanded: totals.reportedFailedButLanded,
    okWrongSignature: totals.okWrongSignature,
    identicalPhantomPayments: c.identical.phantomPayments,
    unhandledRejections,
    openHandles: openHandles.length,
    hungProcesses: c.phases.reduce((n, p) => n + p.hung, 0),
  };
  const failures = [...c.phases.flatMap((p) => p.failures), ...c.identical.failures];
  if (fuzz.status === 'not built yet') failures.push('fuzz: not built yet');
  else if (fuzz.status === 'failed') failures.push(`fuzz: failed${fuzz.error ? `: ${fuzz.error}` : ''}`);
  for (const [k, v] of Object.entries(mustBeZero)) if (v !== 0) failures.push(`${k} = ${v} (must be 0)`);
  return {
    at: new Date().toISOString(),
    seed: c.seed,
    faults: c.faults,
    injection: c.injection,
    phases: c.phases,
    identical: c.identical,
    totals,
    fuzz,
    mustBeZero,
    failures,
    passed: failures.length === 0,
  };
}

const pad = (s: string | number, n: number): string => String(s).padStart(n);

/** The fuzzer's headline numbers, when its result carries them (cases, failures, groups that could not run). */
function fuzzSummary(result: unknown): string {
  if (!result || typeof result !== 'object') return '';
  const r = result as { cases?: unknown; failures?: unknown; fatal?: unknown; ms?: unknown };
  const parts: string[] = [];
  if (typeof r.cases === 'number') parts.push(`${r.cases} cases`);
  if (typeof r.failures === 'number') parts.push(`${r.failures} failures`);
  if (Array.isArray(r.fatal) && r.fatal.length) parts.push(`could not run: ${r.fatal.join('; ')}`);
  if (typeof r.ms === 'number') parts.push(`${(r.ms / 1000).toFixed(0)} s`);
  return parts.length ? ` — ${parts.join(', ')}` : '';
}

/** The table and the verdict, for a terminal. */
export function formatReport(r: CampaignReport): string {
  const rows: [string, (p: CampaignReport['phases'][number]) => string | number, string | number][] = [
    ['offered', (p) => p.offered, r.totals.offered],
    ['landed once', (p) => p.landedOnce, r.totals.landedOnce],
    ['proven expired', (p) => p.provenExpired, r.totals.provenExpired],
    ['failed (did not land)', (p) => p.failed, r.totals.failed],
    ['lost (must be 0)', (p) => p.lost, r.totals.lost],
    ['landed twice (must be 0)', (p) => p.landedTwice, r.totals.landedTwice],
    ['reported failed but landed (must be 0)', (p) => p.reportedFailedButLanded, r.totals.reportedFailedButLanded],
    ['ok with a signature that did not land (must be 0)', (p) => p.okWrongSignature, r.totals.okWrongSignature],
    ['told failed, paid once when offered again', (p) => p.failedThenPaidOnReoffer, r.totals.failedThenPaidOnReoffer],
    ['landed, never answered', (p) => p.landedUnanswered, r.totals.landedUnanswered],
    ['executed with an error', (p) => p.executedWithError, r.totals.executedWithError],
    ['processes / killed / hung', (p) => `${p.processes}/${p.killed}/${p.hung}`, ''],
    ['status calls', (p) => p.requests.statusCalls, r.totals.statusCalls],
    ['status calls per intent', (p) => p.statusCallsPerIntent.toFixed(2), r.totals.statusCallsPerIntent.toFixed(2)],
    ['/fast sends served', (p) => p.requests.fastSends, r.phases.reduce((n, p) => n + p.requests.fastSends, 0)],
    ['requests faulted (429/5xx)', (p) => p.requests.faulted, r.phases.reduce((n, p) => n + p.requests.faulted, 0)],
    ['seconds', (p) => (p.ms / 1000).toFixed(1), (r.phases.reduce((n, p) => n + p.ms, 0) / 1000).toFixed(1)],
  ];
  const w = 52;
  const cw = 12;
  const lines = [
    `sender soak — seed ${r.seed}; faults: ${r.faults.dropRate * 100}% silent drops (/fast), ${r.faults.rateLimitRate * 100}% 429 (Retry-After ${r.faults.retryAfterSeconds} s), ${r.faults.serverErrorRate * 100}% 5xx; ${r.injection}`,
    '',
    `${''.padEnd(w)}${r.phases.map((p) => pad(p.phase, cw)).join('')}${pad('total', cw)}`,
    ...rows.map(([name, f, t]) => `${name.padEnd(w)}${r.phases.map((p) => pad(f(p), cw)).join('')}${pad(t, cw)}`),
    '',
    `identical inputs: ${r.identical.offered} identical transfers in one sendMany → ${r.identical.reportedOk} reported ok (${r.identical.distinctSignatures} distinct signatures), ${r.identical.distinctLanded} distinct landed; phantom payments ${r.identical.phantomPayments} (must be 0)`,
    `unhandled rejections: ${r.totals.unhandledRejections} (must be 0)`,
    `open handles after close: ${r.totals.openHandles.length} (must be 0)${r.totals.openHandles.length ? ': ' + r.totals.openHandles.join('; ') : ''}`,
    `peak RSS: ${r.totals.peakRssMb} MB`,
    `status calls per intent: ${r.totals.statusCallsPerIntent.toFixed(2)} (signatures asked per intent ${r.totals.statusSignaturesPerIntent.toFixed(2)})`,
    `fuzz: ${r.fuzz.status}${r.fuzz.error ? ` (${r.fuzz.error})` : ''}${fuzzSummary(r.fuzz.result)}`,
  ];
  for (const p of r.phases) for (const n of p.notes) lines.push(`${p.phase}: ${n}`);
  for (const p of r.phases) {
    for (const [figure, list] of Object.entries(p.examples)) lines.push(`${p.phase} ${figure}, e.g.:`, ...list.map((e) => `  ${e}`));
  }
  lines.push('', r.passed ? 'PASSED: every must-be-0 figure is 0' : `FAILED:\n${r.failures.map((f) => `  - ${f}`).join('\n')}`);
  return lines.join('\n');
}
