/**
 * The parts of the landing benchmark that could be wrong without anyone noticing: the figure maths
 * (nearest-rank percentiles, landed / double-landed / false-failure counting against the ledger,
 * request totals) on fixed inputs, the SVG writer's output (well-formed XML, text escaped, one bar
 * per value), and the README table written from a results file.
 */
import { describe, expect, it } from 'vitest';
import { figures, percentile, requestTotals, type LedgerExecution, type PeerAnswer } from '../../bench/lib/landing-figures.js';
import { barChart, escapeXml, niceMax } from '../../src/bench/svg-chart.js';
import { goalChecks, landingReadmeTable, landingSvg, type LandingResults, type LandingRun } from '../../bench/lib/landing-report.js';

/** A small XML well-formedness check: balanced tags, quoted attributes, no raw `<` or `&` in text; counts opening tags. */
function assertWellFormed(xml: string): { tags: Map<string, number> } {
  const stack: string[] = [];
  const tags = new Map<string, number>();
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  let m: RegExpExecArray | null;
  let last = 0;
  while ((m = token.exec(xml))) {
    expect(m.index, `nothing skipped before offset ${m.index}`).toBe(last);
    last = token.lastIndex;
    if (m[6]) throw new Error(`a raw "<" at offset ${m.index}: ${xml.slice(m.index, m.index + 40)}`);
    if (m[5] !== undefined) {
      expect(m[5], 'text has only known entities').not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/);
      continue;
    }
    const [, close, name, , selfClose] = m;
    if (!close) tags.set(name!, (tags.get(name!) ?? 0) + 1);
    if (close) expect(stack.pop(), `</${name}> closes what was open`).toBe(name);
    else if (!selfClose) stack.push(name!);
  }
  expect(last).toBe(xml.length);
  expect(stack).toEqual([]);
  return { tags };
}

const ok = (i: number, ms: number): PeerAnswer => ({ i, ok: true, ms });
const fail = (i: number, error = 'expired'): PeerAnswer => ({ i, ok: false, ms: 0, error });
const exec = (slot: number, good = true): LedgerExecution => ({ signature: `s${slot}`, slot, ok: good });

describe('landing figures', () => {
  it('percentile is nearest-rank on unsorted input, null for none, and refuses a bad p', () => {
    const v = [50, 10, 40, 20, 30];
    expect(percentile(v, 50)).toBe(30);
    expect(percentile(v, 95)).toBe(50);
    expect(percentile(v, 20)).toBe(10);
    expect(percentile(v, 21)).toBe(20);
    expect(percentile([7], 99)).toBe(7);
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1
    expect(percentile(hundred, 95)).toBe(95);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile([], 50)).toBeNull();
    expect(() => percentile(v, 0)).toThrow(RangeError);
    expect(v).toEqual([50, 10, 40, 20, 30]);
  });

  it('counts landed, double-landed, false failures and false successes against the ledger', () => {
    const answers = [ok(0, 100), fail(1), fail(2), ok(3, 300), ok(4, 200)]; // 5: never answered
    const paid = [
      [exec(1)], // 0: ok, landed once
      [exec(2)], // 1: reported failed, landed — a false failure
      [], // 2: failed, nothing landed — a true failure
      [exec(3), exec(4)], // 3: landed twice
      [exec(5, false)], // 4: "ok" but only an execution with an error — a false success
      [exec(6)], // 5: landed, unanswered
    ];
    const requests = { 'rpc getSignatureStatuses': 4, 'rpc getLatestBlockhash': 2, 'fast sendTransaction': 7, 'fast 429': 2, 'rpc 503': 1, 'rpc sendTransaction': 3 };
    const f = figures({ n: 6, answers, paid, requests, cpuMs: 60, wallMs: 1_500 });
    expect(f).toMatchObject({
      offered: 6,
      landed: 4,
      doubleLanded: 1,
      confirmed: 3,
      falseFailures: 1,
      falseSuccesses: 1,
      trueFailures: 1,
      unanswered: 1,
      faulted: 3,
    });
    expect(f.landedPct).toBeCloseTo(66.667, 2);
    expect([f.p50Ms, f.p95Ms, f.p99Ms]).toEqual([200, 300, 300]);
    expect(f.confirmedPerSec).toBe(2);
    // rpc host: 4 + 2 + 1 + 3 = 10 requests; /fast 9; served sends 10; per 3 confirmed
    expect(f.rpcCallsPerConfirmed).toBeCloseTo(10 / 3, 9);
    expect(f.fastCallsPerConfirmed).toBe(3);
    expect(f.sendsPerConfirmed).toBeCloseTo(10 / 3, 9);
    expect(f.cpuMsPerTx).toBe(10);
  });

  it('has no per-confirmed figures with nothing confirmed, and refuses inputs a harness bug would give', () => {
    const f = figures({ n: 1, answers: [fail(0)], paid: [[]], requests: { 'rpc getSlot': 3 }, cpuMs: 1, wallMs: 10 });
    expect([f.p50Ms, f.rpcCallsPerConfirmed, f.confirmedPerSec]).toEqual([null, null, 0]);
    expect(() => figures({ n: 2, answers: [], paid: [[]], requests: {}, cpuMs: 0, wallMs: 1 })).toThrow(/"paid": expected 2/);
    expect(() => figures({ n: 1, answers: [ok(0, 1), fail(0)], paid: [[]], requests: {}, cpuMs: 0, wallMs: 1 })).toThrow(/answered twice/);
    expect(() => figures({ n: 1, answers: [ok(1, 1)], paid: [[]], requests: {}, cpuMs: 0, wallMs: 1 })).toThrow(/outside 0..0/);
    expect(requestTotals({ 'fast 500': 1, 'rpc 429': 2, 'rest GET /v0/x': 5, 'rpc sendTransaction': 1 })).toEqual({ rpc: 3, fast: 1, sends: 1, faulted: 3 });
  });
});

describe('svg chart', () => {
  it('writes well-formed SVG: one bar per value, "n/a" for a missing one, text escaped', () => {
    const svg = barChart([
      { title: 'Landed <%> & "more"', unit: '%', groups: ['clean', '20% drops & 429'], series: ['cairn', "web3's"], values: [[100, 98.5], [100, null]], max: 100 },
      { title: 'p95', unit: ' ms', groups: ['clean', 'x'], series: ['cairn', "web3's"], values: [[410, 2_300], [0, 12]] },
    ]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const { tags } = assertWellFormed(svg.trim());
    expect(tags.get('svg')).toBe(1);
    expect(tags.get('g')).toBe(2);
    // background + 2 legend swatches per panel + one bar per non-null value (3 + 4)
    expect(tags.get('rect')).toBe(1 + 2 * 2 + 3 + 4);
    expect(svg).toContain('Landed &lt;%&gt; &amp; &quot;more&quot;');
    expect(svg).toContain('20% drops &amp; 429');
    expect(svg).toContain('>n/a</text>');
    expect(svg).toContain('>98.5</text>'); // each value written over its bar
    expect(svg).not.toMatch(/NaN|undefined|Infinity/);
    expect(() => barChart([{ title: 't', unit: '', groups: ['a'], series: ['x', 'y'], values: [[1]] }])).toThrow(/values\[0\]/);
  });

  it('escapes every XML special character and picks 1-2-5 axis tops', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
    expect([niceMax(0.3), niceMax(1), niceMax(1.01), niceMax(2_301), niceMax(99), niceMax(0), niceMax(Number.NaN)]).toEqual([0.5, 1, 2, 5_000, 100, 1, 1]);
  });
});

describe('landing report', () => {
  const run = (peer: string, scenario: string, landed: number, rpcCalls: number | null): LandingRun => ({
    peer,
    scenario,
    cuPriceMedian: 200_000,
    errors: [],
    requests: {},
    unhandledRejections: { count: 0 },
    figures: figures({
      n: 10,
      answers: Array.from({ length: 10 }, (_, i) => (i < landed ? ok(i, 100 + i) : fail(i))),
      paid: Array.from({ length: 10 }, (_, i) => (i < landed ? [exec(i)] : [])),
      requests: rpcCalls === null ? {} : { 'rpc getSignatureStatuses': rpcCalls * landed },
      cpuMs: 10,
      wallMs: 1_000,
    }),
  });
  const results = (runs: LandingRun[]): LandingResults => ({
    when: '2026-11-25T00:00:00.000Z',
    machine: { cpus: 2, node: 'v20', loadavg1Before: 1, loadavg1After: 1, note: 'test' },
    config: { transfers: 10, concurrency: 5, tipLamports: 1, cuPrice: 1, cuLimit: 1, seed: 1, timeLimitMs: 1 },
    scenarios: [{ id: 'drop-20', label: '20% drops', slotMs: 100, faults: {} }],
    peers: ['cairn', 'helius-sdk'],
    runs,
    rows: [],
    goal: goalChecks(runs, 'drop-20'),
    wallSeconds: 1,
  });

  it('checks the goal from the runs: 100% landed, 0 double, 0 false failures, ≤ 1/20 of the calls', () => {
    const pass = goalChecks([run('cairn', 'drop-20', 10, 0.3), run('helius-sdk', 'drop-20', 8, 6)], 'drop-20');
    expect(pass.checks.map((c) => c.pass)).toEqual([true, true, true, true]);
    expect(pass.checks[3]!.measured).toBe('0.30 vs 6.00 (1/20.0)');
    const miss = goalChecks([run('cairn', 'drop-20', 9, 0.31), run('helius-sdk', 'drop-20', 8, 6)], 'drop-20');
    expect(miss.checks.map((c) => c.pass)).toEqual([false, true, true, false]);
  });

  it('writes the README table and the chart from the results', () => {
    const r = results([run('cairn', 'drop-20', 10, 0.3), run('helius-sdk', 'drop-20', 8, 6)]);
    const table = landingReadmeTable(r);
    expect(table).toContain('| 20% drops | 100% · p95 109 ms · 0.30 calls | 80% · p95 107 ms · 6.00 calls |');
    assertWellFormed(landingSvg(r).trim());
  });
});
