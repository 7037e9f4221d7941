/**
 * The sender's campaign: every phase in order on one faulty devnet, then the devnet is stopped and
 * its scratch space removed whatever happened.
 */
import { runDoubleOpenProbe, runFullDiskPhase, runIdenticalProbe, runKillPhase, runMainPhase, type IdenticalFigures, type PhaseFigures } from './sender-soak.js';
import { MAX_INTENTS_PER_PHASE } from './intents.js';
import { FAULTS, startSoakEnv } from './soak-env.js';

export interface CampaignOptions {
  intents: number;
  kills: number;
  /** New intents each kill cycle adds. */
  killBatch: number;
  fullDiskIntents: number;
  doubleOpenIntents: number;
  seed: number;
  /** The full disk: a real tmpfs (falls back to the injected layer without mount rights), or the injected layer. */
  diskLayer?: 'tmpfs' | 'injected';
  /** One line per finished phase. */
  log?: (line: string) => void;
}

export interface SenderCampaign {
  seed: number;
  faults: typeof FAULTS;
  injection: string;
  phases: PhaseFigures[];
  identical: IdenticalFigures;
}

/**
 * @example
 * const c = await runSenderCampaign({ intents: 300, kills: 3, killBatch: 40, fullDiskIntents: 100, doubleOpenIntents: 40, seed: 1 });
 */
export async function runSenderCampaign(o: CampaignOptions): Promise<SenderCampaign> {
  for (const k of ['intents', 'kills', 'killBatch', 'fullDiskIntents', 'doubleOpenIntents'] as const) {
    const n = o[k];
    if (!Number.isInteger(n) || n < 1 || n * (k === 'kills' ? o.killBatch : 1) >= MAX_INTENTS_PER_PHASE) {
      throw new RangeError(`${k}: expected a positive integer (under ${MAX_INTENTS_PER_PHASE} intents per phase), got ${n}`);
    }
  }
  const log = o.log ?? (() => {});
  const env = await startSoakEnv(o.seed);
  log(`devnet ${env.devnet.url}, seed ${o.seed}; ${env.injection}`);
  try {
    const phases: PhaseFigures[] = [];
    const step = async (p: Promise<PhaseFigures>): Promise<void> => {
      const f = await p;
      phases.push(f);
      log(`${f.phase}: ${f.offered} intents, ${f.landedOnce} landed once, ${f.landedTwice} twice, ${f.lost} lost, ${(f.ms / 1000).toFixed(1)} s`);
    };
    await step(runMainPhase(env, o.intents));
    await step(runKillPhase(env, o.kills, o.killBatch));
    await step(runFullDiskPhase(env, o.fullDiskIntents, o.diskLayer));
    await step(runDoubleOpenProbe(env, o.doubleOpenIntents));
    const identical = await runIdenticalProbe(env);
    log(`identical: ${identical.reportedOk} reported ok, ${identical.distinctLanded} distinct landed`);
    return { seed: o.seed, faults: FAULTS, injection: env.injection, phases, identical };
  } finally {
    await env.stop();
  }
}
