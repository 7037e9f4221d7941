/**
 * Fault injection per endpoint (`rpc`, `fast`, `rest`, `wallet`): silent drops of submitted
 * transactions (`/fast`, and `sendTransaction` on the JSON-RPC host), 429s with `Retry-After`, 5xx
 * answers, answers lost after the request was served (`lostRate`), added latency, and (`rpc`) lies:
 * proof items answered with fabrications. Every endpoint draws from its own PRNG stream seeded from the devnet's
 * seed and the endpoint's name, and every request draws the same number of values whatever the
 * settings, so one endpoint's traffic never shifts another's decisions and a given seed replays the
 * exact same sequence of faults.
 */
import { InputError } from '../../errors/index.js';
import { mulberry32 } from '../chain/mulberry32.js';
import type { EndpointFaults, FaultEndpoint } from '../types.js';

export const FAULT_ENDPOINTS: readonly FaultEndpoint[] = ['rpc', 'fast', 'rest', 'wallet'];

/** What to do with one request. */
export interface FaultDecision {
  /** Answer with this HTTP status (429, 500 or 503) instead of serving. */
  status?: 429 | 500 | 503;
  retryAfterSeconds?: number;
  /** `/fast`: answer with the signature but do not execute (the JSON-RPC host asks `dropSend`). */
  drop: boolean;
  /** Serve the request, then cut the connection instead of answering (`lostRate`). */
  lost?: boolean;
  latencyMs: number;
}

export interface Faults {
  decide(endpoint: FaultEndpoint): FaultDecision;
  /**
   * `rpc` only, once per `sendTransaction` the host accepts (past its preflight): true to answer it
   * and never execute it. Its stream replays `/fast`'s and the same interval of it drops, so the n-th
   * send on the JSON-RPC host meets the fate the n-th request on `/fast` meets under the same
   * settings, whatever reads came in between: peers that send through either host meet one pattern.
   */
  dropSend(endpoint: 'rpc'): boolean;
  set(endpoint: FaultEndpoint, faults: EndpointFaults): void;
  get(endpoint: FaultEndpoint): EndpointFaults;
  /**
   * `rpc` only, once per proof item answered: true to answer it with a fabrication (`lieRate`).
   * Its own stream, so lies never shift the other faults' sequence; `lieBytes` draws the made-up
   * leaves and paths from another.
   */
  lie(): boolean;
  readonly lieBytes: () => number;
}

function hashName(seed: number, name: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Validate one endpoint's settings; names the offending field. */
export function validateFaults(endpoint: string, f: EndpointFaults): EndpointFaults {
  if (!FAULT_ENDPOINTS.includes(endpoint as FaultEndpoint)) {
    throw new InputError('faults', `unknown endpoint ${JSON.stringify(endpoint)}; expected one of ${FAULT_ENDPOINTS.join(', ')}`);
  }
  if (f === null || typeof f !== 'object') throw new InputError(`faults.${endpoint}`, 'expected an object');
  const known = new Set(['dropRate', 'rateLimitRate', 'retryAfterSeconds', 'serverErrorRate', 'serverErrorStatus', 'latencyMs', 'latencyMaxMs', 'lostRate', 'lieRate']);
  for (const [k, v] of Object.entries(f)) {
    if (!known.has(k)) throw new InputError(`faults.${endpoint}.${k}`, `unknown setting; expected one of ${[...known].join(', ')}`);
    if (v === undefined) continue;
    if (k === 'serverErrorStatus') {
      if (v !== 500 && v !== 503) throw new InputError(`faults.${endpoint}.serverErrorStatus`, `expected 500 or 503, got ${JSON.stringify(v)}`);
      continue;
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      throw new InputError(`faults.${endpoint}.${k}`, `expected a finite number ≥ 0, got ${JSON.stringify(v)}`);
    }
    if (k.endsWith('Rate') && v > 1) throw new InputError(`faults.${endpoint}.${k}`, `expected a rate in 0..1, got ${v}`);
  }
  if (f.dropRate && endpoint !== 'fast' && endpoint !== 'rpc') {
    throw new InputError(`faults.${endpoint}.dropRate`, 'only /fast and the JSON-RPC host (its sendTransaction) can drop transactions');
  }
  if (f.lieRate && endpoint !== 'rpc') throw new InputError(`faults.${endpoint}.lieRate`, 'only the JSON-RPC host answers proofs');
  if (f.latencyMaxMs !== undefined && f.latencyMaxMs < (f.latencyMs ?? 0)) {
    throw new InputError(`faults.${endpoint}.latencyMaxMs`, `expected ≥ latencyMs (${f.latencyMs ?? 0}), got ${f.latencyMaxMs}`);
  }
  const sum = (f.serverErrorRate ?? 0) + (f.rateLimitRate ?? 0) + (f.dropRate ?? 0) + (f.lostRate ?? 0);
  if (sum > 1 + 1e-9) throw new InputError(`faults.${endpoint}`, `serverErrorRate + rateLimitRate + dropRate + lostRate must be ≤ 1, got ${sum}`);
  return { ...f };
}

/**
 * Create the fault injector.
 *
 * @example
 * const faults = createFaults(42, { fast: { dropRate: 0.1 } });
 * faults.decide('fast'); // { drop: false, latencyMs: 0 } or { drop: true, … }
 */
export function createFaults(seed: number, initial: Partial<Record<FaultEndpoint, EndpointFaults>> = {}): Faults {
  const settings = new Map<FaultEndpoint, EndpointFaults>();
  const streams = new Map<FaultEndpoint, () => number>();
  // Latency draws from a stream of its own, so a latency range never shifts the fault sequence a
  // seed gives (the fault stream still draws once per request).
  const latency = new Map<FaultEndpoint, () => number>();
  for (const e of FAULT_ENDPOINTS) {
    streams.set(e, mulberry32(hashName(seed, e)));
    latency.set(e, mulberry32(hashName(seed, `${e}:latency`)));
  }
  const rpcSends = mulberry32(hashName(seed, 'fast'));
  const lies = mulberry32(hashName(seed, 'lie'));
  const lieBytes = mulberry32(hashName(seed, 'lie:bytes'));
  for (const [e, f] of Object.entries(initial)) if (f) settings.set(e as FaultEndpoint, validateFaults(e, f));
  return {
    decide(endpoint) {
      // One draw per request, on disjoint intervals [5xx | 429 | drop | none], so each configured
      // rate is exactly the observed rate even when several are set at once (their sum is ≤ 1).
      const r = streams.get(endpoint)!();
      const l = latency.get(endpoint)!();
      const f = settings.get(endpoint);
      const lo = f?.latencyMs ?? 0;
      const d: FaultDecision = { drop: false, latencyMs: f?.latencyMaxMs !== undefined ? lo + Math.round(l * (f.latencyMaxMs - lo)) : lo };
      if (!f) return d;
      const e5 = f.serverErrorRate ?? 0;
      const e429 = e5 + (f.rateLimitRate ?? 0);
      // On the JSON-RPC host a drop is not the request's: `dropSend` draws it per accepted send.
      const eDrop = e429 + (endpoint === 'fast' ? (f.dropRate ?? 0) : 0);
      if (r < e5) {
        // Unless one status is asked for, half are 503 (unavailable), half 500 (internal), as the real host mixes them.
        d.status = f.serverErrorStatus ?? (r < e5 / 2 ? 503 : 500);
      } else if (r < e429) {
        d.status = 429;
        d.retryAfterSeconds = f.retryAfterSeconds ?? 1;
      } else if (r < eDrop) {
        d.drop = true;
      } else if (r < eDrop + (f.lostRate ?? 0)) {
        // the same single draw, on the interval after the drops: [5xx | 429 | drop | lost | none]
        d.lost = true;
      }
      return d;
    },
    dropSend(endpoint) {
      const r = rpcSends();
      const f = settings.get(endpoint);
      const e429 = (f?.serverErrorRate ?? 0) + (f?.rateLimitRate ?? 0);
      return r >= e429 && r < e429 + (f?.dropRate ?? 0);
    },
    set(endpoint, faults) {
      settings.set(endpoint, validateFaults(endpoint, faults));
    },
    get: (endpoint) => ({ ...(settings.get(endpoint) ?? {}) }),
    lie: () => lies() < (settings.get('rpc')?.lieRate ?? 0),
    lieBytes,
  };
}
