/**
 * The soak's world: a devnet on loopback with the campaign's faults on both hosts (`/fast` and the
 * JSON-RPC one), a funded payer, a few recipients, a request counter and a scratch directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mulberry32 } from '../src/devnet/chain.js';
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
  /** How latency is injected: a uniform range when the devnet has one, else a fixed mean. */
  latency: string;
  stop(): Promise<void>;
}

/**
 * Latency: a uniform 0–200 ms per request needs a range in the devnet's fault settings
 * (`latencyMaxMs`, proposed to the lead). Until the devnet accepts it, the fixed mean is used and
 * the report says so.
 */
function applyFaults(devnet: Devnet): string {
  const base: EndpointFaults = { rateLimitRate: FAULTS.rateLimitRate, retryAfterSeconds: FAULTS.retryAfterSeconds, serverErrorRate: FAULTS.serverErrorRate };
  const set = (latency: Record<string, number>): void => {
    devnet.control.setFaults('fast', { ...base, dropRate: FAULTS.dropRate, ...latency } as EndpointFaults);
    devnet.control.setFaults('rpc', { ...base, ...latency } as EndpointFaults);
  };
  try {
    set({ latencyMs: FAULTS.latencyMinMs, latencyMaxMs: FAULTS.latencyMaxMs });
    return `uniform ${FAULTS.latencyMinMs}–${FAULTS.latencyMaxMs} ms`;
  } catch {
    const mean = (FAULTS.latencyMinMs + FAULTS.latencyMaxMs) / 2;
    set({ latencyMs: mean });
    return `fixed ${mean} ms (the devnet has no latency range yet)`;
  }
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
  const latency = applyFaults(devnet);
  const counter = countRequests(devnet);
  return {
    devnet,
    payer,
    recipients,
    counter,
    dir,
    random: mulberry32(seed ^ 0x50a4),
    latency,
    async stop() {
      counter.stop();
      await devnet.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
