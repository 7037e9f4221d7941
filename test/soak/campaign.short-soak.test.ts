/**
 * The short soak inside `npm test`: the campaign of `npm run soak` at a small size (300 intents
 * under the faults, 3 SIGKILL/resume cycles, the full-disk phase and both probes), judged by the
 * devnet's ledger with the same must-be-0 figures. The full 5,000-intent run is `npm run soak`.
 */
import { describe, expect, it } from 'vitest';
import { runSenderCampaign } from '../../soak/campaign.js';
import { watchHandles } from '../../soak/open-handles.js';
import { buildReport, formatReport } from '../../soak/report.js';

describe('short soak of the sender', () => {
  it('never pays twice, loses nothing and tells no caller a paid intent failed', { timeout: 150_000 }, async () => {
    const handlesLeft = watchHandles();
    const seed = (Math.random() * 2 ** 31) >>> 0;
    const campaign = await runSenderCampaign({ intents: 300, kills: 3, killBatch: 40, fullDiskIntents: 60, doubleOpenIntents: 40, seed });
    // Unhandled rejections in this process fail the run through vitest itself; the children count theirs.
    const report = buildReport(campaign, { unhandledRejections: 0, openHandles: await handlesLeft(), peakRssKb: process.resourceUsage().maxRSS }, { status: 'skipped' });
    console.log(formatReport(report));
    expect(report.totals.offered).toBe(300 + 3 * 40 + 60 + 40);
    expect(report.mustBeZero).toEqual({
      lost: 0,
      landedTwice: 0,
      reportedFailedButLanded: 0,
      okWrongSignature: 0,
      identicalPhantomPayments: 0,
      unhandledRejections: 0,
      openHandles: 0,
      hungProcesses: 0,
    });
    expect(report.failures).toEqual([]);
  });
});
