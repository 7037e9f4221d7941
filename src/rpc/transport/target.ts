/**
 * Where a request goes, and the API key's one place in it: the `api-key` query parameter of the URL
 * as sent. The URL as shown (errors, logs) is built before the key is added, so it never holds it;
 * a key is refused on plain http to a host that is not loopback (insecure-key.ts). Parsing and
 * re-serialising a URL costs more than a request's own encoding, so targets are cached per URL.
 */
import { InputError } from '../../errors/index.js';
import { redactSlice } from '../../redact.js';
import { refuseInsecureKey } from './insecure-key.js';

/** What of a request its target depends on (a `TransportRequest` is one). */
export interface TargetRequest {
  /** Absolute URL without the `api-key` parameter. */
  url: string;
  /** Extra query parameters; `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
}

/** Where one request goes: the URL as sent (with the key) and as shown (without it). */
export interface Target {
  protocol: string;
  hostname: string;
  port: number;
  /** `Host` header value. */
  host: string;
  /** Path and query as sent, with the key. */
  path: string;
  /** Full URL as sent, with the key. */
  href: string;
  /** The key-less URL for errors and logs. */
  display: string;
}

/** Distinct URLs kept; callers with endless distinct URLs only lose the speed-up. */
const MAX_CACHED = 256;

/**
 * Targets per URL, built once. Requests with query parameters are built each time (their URLs vary).
 *
 * @example
 * const targets = new TargetCache(false);
 * targets.get({ url: 'http://127.0.0.1:8899/' }, key).path; // '/?api-key=…'
 */
export class TargetCache {
  private readonly map = new Map<string, Target>();

  constructor(private readonly allowInsecureKey: boolean) {}

  get(req: TargetRequest, apiKey: string | undefined): Target {
    let plain = true;
    if (req.query) for (const k in req.query) if (req.query[k] !== undefined) plain = false;
    if (!plain) return buildTarget(req, apiKey, this.allowInsecureKey);
    const key = apiKey === undefined ? `-${req.url}` : `+${req.url}`;
    let t = this.map.get(key);
    if (t === undefined) {
      t = buildTarget(req, apiKey, this.allowInsecureKey);
      if (this.map.size >= MAX_CACHED) this.map.clear();
      this.map.set(key, t);
    }
    return t;
  }
}

/** The target of `req`, with `apiKey` (if any) as its `api-key` parameter. Throws `InputError` for a bad URL. */
export function buildTarget(req: TargetRequest, apiKey: string | undefined, allowInsecureKey: boolean): Target {
  let target: URL;
  try {
    target = new URL(req.url);
  } catch (cause) {
    throw new InputError('url', `expected an absolute URL, got ${JSON.stringify(redactSlice(String(req.url), 200))}`, { cause });
  }
  // node:http would throw a plain TypeError for any other scheme, after the key was added
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new InputError('url', `expected an http: or https: URL, got ${JSON.stringify(target.protocol)}`, { expected: 'http: or https:', got: target.protocol });
  }
  if (target.searchParams.has('api-key')) {
    throw new InputError('url', 'the API key must come from the apiKey option, not the URL');
  }
  if (apiKey && !allowInsecureKey) refuseInsecureKey(target, 'url');
  for (const [k, v] of Object.entries(req.query ?? {})) {
    if (v !== undefined) target.searchParams.set(k, String(v));
  }
  const display = target.toString();
  if (apiKey) target.searchParams.set('api-key', apiKey);
  const hostname = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
  const port = target.port ? Number(target.port) : target.protocol === 'https:' ? 443 : 80;
  return { protocol: target.protocol, hostname, port, host: target.host, path: target.pathname + target.search, href: target.href, display };
}
