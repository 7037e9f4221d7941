/**
 * The fuzzing campaign (soak/fuzz.ts) in the test suite: every verifier, every response validator and
 * client method, every devnet method, with few cases — once with a fixed seed (the same inputs every
 * run) and once with a random seed, printed with the report when anything fails so the run can be
 * repeated: `npx tsx soak/fuzz.ts --cases 3000 --seed <seed>`. `npm run soak` runs 100,000 cases.
 */
import { describe, expect, it } from 'vitest';
import { formatReport, runFuzz } from '../../soak/fuzz.js';

const CASES = 1_000;

async function campaign(seed: number): Promise<void> {
  const report = await runFuzz({ cases: CASES, seed });
  const text = formatReport(report);
  // every target ran, and the run was not vacuous: inputs were taken, refused and answered
  expect(report.targets.length, text).toBeGreaterThan(100);
  expect(report.cases, text).toBe(CASES);
  expect(report.targets.filter((t) => t.cases === 0).map((t) => t.target), text).toEqual([]);
  const typed = report.targets.reduce((a, t) => a + Object.values(t.typed).reduce((x, y) => x + y, 0), 0);
  const invalid = report.targets.reduce((a, t) => a + t.invalid, 0);
  const ok = report.targets.reduce((a, t) => a + t.ok, 0);
  expect(typed * invalid * ok, text).toBeGreaterThan(0);
  expect(report.fatal, text).toEqual([]);
  expect(report.failures, `seed ${seed}:\n${text}`).toBe(0);
}

describe('fuzzing campaign', () => {
  it('fixed seed', () => campaign(20261124), 120_000);

  it('random seed (printed on failure)', () => campaign((Math.random() * 2 ** 31) | 0), 120_000);
});
