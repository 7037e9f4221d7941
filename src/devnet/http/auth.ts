/**
 * API keys, as the real service enforces them: the key travels only in the `api-key` query
 * parameter; a missing or unknown key is 401; a key without permission for the endpoint, or a
 * request from an address outside the key's allow-list, is 403; a key over its rate is 429 with
 * `Retry-After`. Rates are a token bucket per key: `rps` tokens per second, `burst` capacity.
 * With no keys configured every request passes (the embedded default needs no set-up). `/fast` and
 * `/ping` need no key; a key given on `/fast` must be valid and its rate applies (custom-TPS users).
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../../errors/index.js';
import type { FaultEndpoint } from '../types.js';

export interface DevnetKey {
  key: string;
  /** Display name (never the key itself in logs). */
  name?: string;
  /** Requests per second (default: unlimited). */
  rps?: number;
  /** Bucket capacity for short spikes (default: `rps`). */
  burst?: number;
  /** Endpoints this key may use (default: all). */
  endpoints?: FaultEndpoint[];
  /** Allowed client IPs or IPv4 CIDR ranges (default: any). */
  allowIps?: string[];
  /** The key owner's wallet, reported as a webhook's `wallet`. */
  wallet?: string;
}

export type AuthOutcome =
  | { ok: true; key?: DevnetKey }
  | { ok: false; status: 401 | 403 | 429; message: string; retryAfterSeconds?: number };

export interface Auth {
  check(endpoint: FaultEndpoint | 'ping', apiKey: string | null, ip: string): AuthOutcome;
  add(key: DevnetKey): void;
  readonly open: boolean;
}

const ENDPOINTS = new Set(['rpc', 'fast', 'rest', 'wallet']);

export function validateKey(k: DevnetKey, where = 'keys'): DevnetKey {
  if (k === null || typeof k !== 'object') throw new InputError(where, 'expected an object');
  if (typeof k.key !== 'string' || k.key.length < 4 || /[\s&#?]/.test(k.key)) {
    throw new InputError(`${where}.key`, 'expected a string of at least 4 characters without spaces, &, # or ?');
  }
  for (const f of ['rps', 'burst'] as const) {
    const v = k[f];
    if (v !== undefined && (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v))) {
      throw new InputError(`${where}.${f}`, `expected a number > 0, got ${JSON.stringify(v)}`);
    }
  }
  if (k.endpoints !== undefined) {
    if (!Array.isArray(k.endpoints) || k.endpoints.some((e) => !ENDPOINTS.has(e))) {
      throw new InputError(`${where}.endpoints`, 'expected an array of rpc, fast, rest, wallet');
    }
  }
  if (k.allowIps !== undefined) {
    if (!Array.isArray(k.allowIps)) throw new InputError(`${where}.allowIps`, 'expected an array of IPs or CIDR ranges');
    for (const r of k.allowIps) parseRange(r, `${where}.allowIps`);
  }
  return k;
}

/** Read a keys file: a JSON array of `DevnetKey`. */
export function loadKeysFile(path: string): DevnetKey[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new InputError('keys', `cannot read ${path} as JSON`, { cause });
  }
  if (!Array.isArray(raw)) throw new InputError('keys', `${path}: expected a JSON array of keys`);
  return raw.map((k, i) => validateKey(k as DevnetKey, `keys[${i}]`));
}

function ipv4ToInt(ip: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!m) return null;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const p = Number(m[i]);
    if (p > 255) return null;
    n = n * 256 + p;
  }
  return n;
}

type Range = { kind: 'v4'; base: number; bits: number } | { kind: 'exact'; ip: string };

function parseRange(r: unknown, field: string): Range {
  if (typeof r !== 'string' || !r) throw new InputError(field, `expected an IP or CIDR string, got ${JSON.stringify(r)}`);
  const [ip, bitsText] = r.split('/');
  const v4 = ipv4ToInt(ip!);
  if (v4 !== null) {
    const bits = bitsText === undefined ? 32 : Number(bitsText);
    if (!Number.isInteger(bits) || bits < 0 || bits > 32) throw new InputError(field, `bad prefix length in ${r}`);
    return { kind: 'v4', base: v4, bits };
  }
  if (bitsText !== undefined) throw new InputError(field, `CIDR ranges are supported for IPv4 only: ${r}`);
  return { kind: 'exact', ip: ip!.toLowerCase() };
}

function ipAllowed(ranges: Range[], ip: string): boolean {
  const clean = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  const v4 = ipv4ToInt(clean);
  for (const r of ranges) {
    if (r.kind === 'exact' && r.ip === clean.toLowerCase()) return true;
    if (r.kind === 'v4' && v4 !== null) {
      if (r.bits === 0) return true;
      const mask = r.bits === 32 ? 0xffffffff : ~((1 << (32 - r.bits)) - 1) >>> 0;
      if (((v4 & mask) >>> 0) === ((r.base & mask) >>> 0)) return true;
    }
  }
  return false;
}

interface KeyState {
  key: DevnetKey;
  ranges: Range[] | null;
  tokens: number;
  last: number;
}

/**
 * Create the key checker.
 *
 * @example
 * const auth = createAuth([{ key: 'k1', rps: 5 }]);
 * auth.check('rpc', 'k1', '127.0.0.1'); // { ok: true, key }
 */
export function createAuth(keys: DevnetKey[] = [], now: () => number = () => performance.now()): Auth {
  const byKey = new Map<string, KeyState>();
  const add = (k: DevnetKey) => {
    validateKey(k);
    byKey.set(k.key, {
      key: k,
      ranges: k.allowIps ? k.allowIps.map((r) => parseRange(r, 'allowIps')) : null,
      tokens: k.burst ?? k.rps ?? 0,
      last: now(),
    });
  };
  keys.forEach(add);
  return {
    get open() {
      return byKey.size === 0;
    },
    add,
    check(endpoint, apiKey, ip) {
      if (byKey.size === 0 || endpoint === 'ping') return { ok: true };
      if (endpoint === 'fast' && !apiKey) return { ok: true };
      if (!apiKey) return { ok: false, status: 401, message: 'missing API key: pass it in the api-key query parameter' };
      const st = byKey.get(apiKey);
      if (!st) return { ok: false, status: 401, message: 'invalid API key provided' };
      if (st.ranges && !ipAllowed(st.ranges, ip)) {
        return { ok: false, status: 403, message: 'IP address not allowed for this API key' };
      }
      if (st.key.endpoints && !st.key.endpoints.includes(endpoint)) {
        return { ok: false, status: 403, message: `this API key has no access to the ${endpoint} endpoint` };
      }
      const rps = st.key.rps;
      if (rps !== undefined) {
        const cap = st.key.burst ?? rps;
        const t = now();
        st.tokens = Math.min(cap, st.tokens + ((t - st.last) / 1000) * rps);
        st.last = t;
        if (st.tokens < 1) {
          const wait = (1 - st.tokens) / rps;
          return { ok: false, status: 429, message: 'Too many requests', retryAfterSeconds: Math.max(1, Math.ceil(wait)) };
        }
        st.tokens -= 1;
      }
      return { ok: true, key: st.key };
    },
  };
}
