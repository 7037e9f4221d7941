/**
 * The fleet's chaos campaign (soak/fleet.ts) at a small size inside `npm test`: 3 sender processes
 * on one PostgreSQL journal, 300 intents, SIGKILLs every few hundred ms (each process replaced), one
 * process SIGSTOPped past its lease then resumed, PostgreSQL restarted mid-run — judged by the
 * devnet's ledger. The 3,000-intent, 20-kill run is `npm run soak:fleet`.
 * Not flaky on a loaded machine: the pause and the restart meet work by construction (soak/fleet.ts),
 * the lease (3 s) outlasts the event-loop stalls of a machine shared with CPU-bound work, and the
 * budget is a bound, not the expected duration.
 */
import { describe, expect, it } from 'vitest';
import { runFleetCampaign } from '../../soak/fleet.js';
import { formatFleet, mustBeZero } from '../../soak/fleet-run.js';

describe('fleet chaos (short)', () => {
  it('kills, a pause past the lease and a database restart: every intent lands once, late writes are refused', { timeout: 240_000 }, async () => {
    const c = await runFleetCampaign({
      processes: 3,
      intents: 300,
      kills: 4,
      killGapMs: [200, 500],
      pause: true,
      restart: true,
      leaseMs: 3_000,
      concurrency: 24,
      seed: ((Math.random() * 2 ** 31) >>> 0) || 1,
      timeoutMs: 200_000,
    });
    console.log(formatFleet(c));
    expect(c.verdict.offered).toBe(300);
    expect(c.verdict.landedOnce).toBe(300);
    expect(mustBeZero(c)).toEqual({ lost: 0, landedTwice: 0, reportedFailedButLanded: 0, okWrongSignature: 0, failures: 0 });
    expect(c.kills).toBe(4);
    expect(c.postgresRestarts).toBe(1);
    expect(c.paused!.fencedRefused).toBeGreaterThan(0);
    expect(c.fleet.takeovers).toBeGreaterThan(0);
  });
});
