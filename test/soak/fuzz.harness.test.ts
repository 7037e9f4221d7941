/**
 * The fuzz harness reports what it promises to: targets that fail on purpose (soak/fuzz/selftest-
 * targets.ts) come back as an untyped error, a broken property, a crashed thread and a hang past the
 * time bound — each with its case's input — while typed errors are only counted and the run goes on
 * past every failure to the cases after it.
 */
import { describe, expect, it } from 'vitest';
import { runFuzz } from '../../soak/fuzz.js';

describe('fuzz harness', () => {
  it('reports every kind of failure with its input and goes on', async () => {
    const report = await runFuzz({ groups: ['selftest'], cases: 25, seed: 3, timeoutMs: 500 });
    const row = (name: string) => report.targets.find((t) => t.target === `selftest:${name}`)!;
    expect(report.ok).toBe(false);

    expect(row('typed')).toMatchObject({ cases: 5, failureCount: 0, typed: { INPUT_INVALID: 1 } });
    expect(row('untyped').failures).toEqual([expect.objectContaining({ kind: 'untyped', case: 1, error: expect.stringMatching(/^TypeError/), input: expect.any(String) })]);
    expect(row('property').failures).toEqual([expect.objectContaining({ kind: 'property', case: 1, error: expect.stringContaining('does not hold') })]);
    // a thread that dies or hangs is restarted past the case: the later cases still run (and fail again)
    for (const [name, kind] of [['crash', 'crash'], ['hang', 'timeout']] as const) {
      const failures = row(name).failures;
      expect(failures.map((f) => f.kind)).toEqual([kind, kind]);
      expect(failures.map((f) => f.case)).toEqual([1, 3]);
      for (const f of failures) expect(JSON.parse(f.input!)).toMatchObject({ n: expect.any(Number), s: expect.any(String) });
    }
    expect(row('hang').failures[0]!.error).toContain('500 ms');
    expect(report.fatal).toEqual([]);
  }, 60_000);

  it('leaves out the rest of a target that hangs again and again, saying how many cases it left', async () => {
    const report = await runFuzz({ groups: ['selftest'], only: '^selftest:hang$', cases: 9, seed: 3, timeoutMs: 300 });
    const [row] = report.targets;
    expect(row!.failures.map((f) => [f.kind, f.case])).toEqual([['timeout', 1], ['timeout', 3], ['timeout', 5], ['abandoned', 6]]);
    expect(row!.failures[3]!.error).toContain('last 3 case(s) were not run');
  }, 60_000);

  it('refuses a check name it does not know', async () => {
    await expect(runFuzz({ groups: ['selftest'], cases: 5, skip: ['no-such-check' as never] })).rejects.toThrow(/unknown check/);
  });
});
