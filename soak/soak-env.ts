/**
 * The soak's world: a devnet on loopback with the campaign's faults on both hosts (`/fast` and the
 * JSON-RPC one), a funded payer, a few recipients, a request counter and a scratch directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mulberry32 } from '../src/devnet/chain/mulberry32.js';
import { startDevnet, type Devnet, type EndpointFaults } from '../src/devnet/index.js';
import { generateSigner, type Signer } from '../src/sender/index.js';
import { countRequests, type RequestCounter } from './request-counter.js';

/** The campaign's faults (rates per request). */
export const FAULTS = { dropRate: 0.2, rateLimitRate: 0.1, retryAfterSeconds: 1, serverErrorRate: 0.05, latencyMinMs: 0, latencyMaxMs: 200 } as const;

export interface SoakEnv {
  devnet: Devnet;
  payer: Signer & { secretKey(): Uint8Array };
  recipients: string[];
  counter: RequestCounter;
  /** Scratch directory for journals and jobs (removed by `stop()`). */
  dir: string;
  /** Seeded PRNG for the harness's own choices (kill points). */
  random: () => number;
  /** How latency and 5xx are injected (a uniform range / 503 only when the devnet has them). */
  injection: string;
  stop(): Promise<void>;
}

/**
 * The campaign's faults on both hosts. Two settings the devnet may not have yet (proposed to the
 * lead): a latency range (`latencyMaxMs`: uniform 0–200 ms per request) and 503-only server errors
 * (`serverErrorStatus`: the devnet splits its 5xx half 500, half 503). Each is tried; without it,
 * the fixed mean latency / the mixed 5xx are used and the description says so.
 */
function applyFaults(devnet: Devnet): string {
  let settings: Record<string, number> = {
    rateLimitRate: FAULTS.rateLimitRate,
    retryAfterSeconds: FAULTS.retryAfterSeconds,
    serverErrorRate: FAULTS.serverErrorRate,
    latencyMs: (FAULTS.latencyMinMs + FAULTS.latencyMaxMs) / 2,
  };
  const set = (s: Record<string, number>): void => {
    devnet.control.setFaults('fast', { ...s, dropRate: FAULTS.dropRate } as EndpointFaults);
    devnet.control.setFaults('rpc', s as EndpointFaults);
  };
  const tryAdd = (extra: Record<string, number>): boolean => {
    try {
      set({ ...settings, ...extra });
      settings = { ...settings, ...extra };
      return true;
    } catch {
      return false;
    }
  };
  set(settings);
  const range = tryAdd({ latencyMs: FAULTS.latencyMinMs, latencyMaxMs: FAULTS.latencyMaxMs });
  const only503 = tryAdd({ serverErrorStatus: 503 });
  return [
    range ? `latency uniform ${FAULTS.latencyMinMs}–${FAULTS.latencyMaxMs} ms` : `latency fixed ${settings.latencyMs} ms (the devnet has no latency range yet)`,
    only503 ? '5xx = 503' : '5xx = half 500, half 503 (the devnet cannot make them all 503 yet)',
  ].join('; ');
}

/**
 * @example
 * const env = await startSoakEnv(7);
 * try { … } finally { await env.stop(); }
 */
export async function startSoakEnv(seed: number, slotMs = 50): Promise<SoakEnv> {
  const payer = generateSigner();
  const recipients = Array.from({ length: 4 }, () => generateSigner().address);
  const devnet = await startDevnet({
    port: 0,
    host: '127.0.0.1',
    slotMs,
    seed,
    wsPortPlusOne: false,
    stateModules: false,
    // Genesis balances: no airdrop transactions in the ledger, and recipients exist (rent-exempt) up front.
    fundedAccounts: [{ address: payer.address, lamports: 1_000_000n * 10n ** 9n }, ...recipients.map((address) => ({ address, lamports: 10n ** 9n }))],
  });
  const dir = mkdtempSync(join(tmpdir(), 'cairn-soak-'));
  const injection = applyFaults(devnet);
  const counter = countRequests(devnet);
  return {
    devnet,
    payer,
    recipients,
    counter,
    dir,
    random: mulberry32(seed ^ 0x50a4),
    injection,
    async stop() {
      counter.stop();
      await devnet.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
