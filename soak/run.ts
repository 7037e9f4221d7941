/**
 * `npm run soak`: the sender's soak campaign (faults, SIGKILLs, a full disk, the probes), then the
 * fuzzer; prints the table, writes the figures as JSON and exits non-zero when any must-be-0 figure
 * is not 0 or a phase could not test what it should.
 *
 *   npm run soak -- [--intents 5000] [--kills 20] [--quick] [--seed S] [--skip-fuzz] [--skip-mint] [--injected-disk] [--out soak/results/latest.json]
 *
 * Then the mint phase (soak/mint.ts): 500 mints (--quick: 100) through `cairn mint --file --journal`
 * under lost answers, 503s and SIGKILLs, judged by the devnet's assets; its figures go to
 * soak/results/mint-latest.json.
 *
 * --injected-disk: fill the disk through the journal's file layer instead of a tmpfs (used anyway
 * when mounting is not permitted).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runSenderCampaign } from './campaign.js';
import { runFuzzIfBuilt } from './fuzz-step.js';
import { mintPhaseOk, runMintPhase } from './mint.js';
import { watchHandles } from './open-handles.js';
import { buildReport, formatReport } from './report.js';

const { values } = parseArgs({
  options: {
    intents: { type: 'string' },
    kills: { type: 'string' },
    quick: { type: 'boolean', default: false },
    seed: { type: 'string' },
    'skip-fuzz': { type: 'boolean', default: false },
    'skip-mint': { type: 'boolean', default: false },
    'injected-disk': { type: 'boolean', default: false },
    out: { type: 'string', default: join(import.meta.dirname, 'results', 'latest.json') },
  },
});

const int = (v: string | undefined, fallback: number, name: string): number => {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`--${name}: expected a non-negative integer, got ${v}`);
  return n;
};

const quick = values.quick;
const options = {
  intents: int(values.intents, quick ? 300 : 5_000, 'intents'),
  kills: int(values.kills, quick ? 3 : 20, 'kills'),
  killBatch: quick ? 40 : 50,
  fullDiskIntents: quick ? 100 : 300,
  doubleOpenIntents: quick ? 40 : 100,
  seed: int(values.seed, (Math.random() * 2 ** 31) >>> 0, 'seed'),
  diskLayer: values['injected-disk'] ? ('injected' as const) : ('tmpfs' as const),
};

const handlesLeft = watchHandles();
let rejections = 0;
process.on('unhandledRejection', (e) => {
  rejections++;
  console.error('unhandled rejection:', e);
});

const campaign = await runSenderCampaign({ ...options, log: (l) => console.log(l) });
// What the harness still holds once the devnet is stopped.
const harness = { unhandledRejections: rejections, openHandles: await handlesLeft(), peakRssKb: process.resourceUsage().maxRSS };
const fuzz = values['skip-fuzz'] ? { status: 'skipped' as const } : await runFuzzIfBuilt(100_000);
const report = buildReport(campaign, harness, fuzz);
console.log('\n' + formatReport(report));
const out = resolve(values.out);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
console.log(`figures written to ${out}`);
let mintOk = true;
if (!values['skip-mint']) {
  const mint = await runMintPhase({ items: quick ? 100 : 500, kills: 3, lostRate: 0.05, errorRate: 0.05, seed: options.seed, log: (l) => console.log(l) });
  mintOk = mintPhaseOk(mint);
  console.log(`\nmint phase: ${mint.mintedExactlyOnce}/${mint.items} minted exactly once, ${mint.duplicates} duplicates, ${mint.missing} missing, ${mint.reportedFailedButMinted} reported failed but minted (${mint.runs} runs, ${mint.killed} SIGKILLed, ${mint.reconciled} settled through the indexer) — ${mintOk ? 'ok' : 'FAILED'}`);
  writeFileSync(join(dirname(out), 'mint-latest.json'), JSON.stringify(mint, null, 2) + '\n');
}
process.exitCode = report.passed && mintOk ? 0 : 1;
