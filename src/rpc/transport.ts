/**
 * The one way a request leaves cairn. `createTransport` owns the keep-alive connections: plain
 * `http:` goes through the lean HTTP/1.1 pool of http-pool.ts (about a quarter of node:http's client
 * CPU per small request, see bench/results/rpc.md), `https:` through node:https's agent. For every
 * request it adds the API key as the `api-key` query parameter (and nowhere else), applies a
 * per-attempt timeout, links the caller's AbortSignal, caps the response size, maps HTTP statuses to
 * typed errors (401, 403, 429 with `Retry-After`, 5xx, other 4xx) and retries through the policy in
 * `retry.ts`, all within the call's overall deadline (attempts and waits together). URLs in errors and
 * log lines never carry the key: they are built from the key-less URL and pass through `redact()`;
 * snippets of server bodies are cut after redacting, so a cut never leaves the start of a key. A key
 * never goes over plain http to a host that is not loopback (insecure-key.ts). What an answer means
 * (a body, or a typed error) is http-response.ts. The URL work is done
 * once per distinct URL, not per call.
 */
import http from 'node:http';
import https from 'node:https';
import { abortError } from '../abort.js';
import {
  CairnError,
  ErrorCodes,
  InputError,
  NetworkError,
  redact,
  registerSecret,
} from '../errors.js';
import { redactSlice } from '../redact.js';
import { createHttpPool, sharedBody } from './http-pool.js';
import { describe, failureError, interpret, timeoutError, tooLarge, truncated } from './http-response.js';
import { refuseInsecureKey } from './insecure-key.js';
import {
  checkDuration,
  DEFAULT_DEADLINE_MS,
  deadlineError,
  resolveRetryPolicy,
  withRetry,
  type Deadline,
  type RetryPolicy,
} from './retry.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** One request as the layers above describe it. `url` never contains the key. */
export interface TransportRequest {
  /** Absolute URL without the `api-key` parameter (the transport adds it). */
  url: string;
  method: HttpMethod;
  /** Extra query parameters; `undefined` values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Request body, already serialised (JSON). */
  body?: string;
  /** Add the API key to this request (default true). The /fast and /ping hosts do not need it. */
  auth?: boolean;
  /** How to read a 2xx body: parsed JSON (default), text, or the bytes as received (a Buffer over a
   * SharedArrayBuffer, which the verifier's workers read in place). */
  responseType?: 'json' | 'text' | 'bytes';
  /** A short label for errors and logs, e.g. the JSON-RPC method name. */
  label?: string;
  signal?: AbortSignal;
  /** Per-attempt timeout in ms (overrides the transport's). */
  timeoutMs?: number;
  /** Overall deadline in ms from now: attempts and waits together (overrides the transport's). */
  deadlineMs?: number;
  /**
   * The deadline as a point on `performance.now()`'s clock, shared by every request of one call (a
   * batch split into chunks); wins over `deadlineMs`, which then only names it in the error.
   */
  deadlineAt?: number;
  retry?: Partial<RetryPolicy>;
}

export interface TransportResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON (bigints for unsafe integers), the text or the bytes, per `responseType`. */
  body: unknown;
  /** Attempts it took (1 = no retry). */
  attempts: number;
}

/** The seam the client talks through; tests and the devnet may hand in their own. */
export interface Transport {
  request(req: TransportRequest): Promise<TransportResponse>;
  /** Close idle keep-alive sockets and refuse further requests. */
  close(): Promise<void>;
}

export interface TransportOptions {
  /** API key, sent only as the `api-key` query parameter. */
  apiKey?: string;
  /** Per-attempt timeout in ms (default 30,000). */
  timeoutMs?: number;
  /**
   * Overall deadline of one request in ms: every attempt, backoff wait and Retry-After wait together
   * (default 60,000). Past it the request fails with `RPC_DEADLINE`, the last failure as its cause.
   */
  deadlineMs?: number;
  /**
   * Send the API key over plain `http:` to a host that is not loopback (default false: such a
   * request is refused with `RPC_INSECURE_KEY` before anything is sent).
   */
  allowInsecureKey?: boolean;
  /** Largest response body accepted, in bytes (default 64 MiB). */
  maxResponseBytes?: number;
  /** Retry policy for every request (per-call values override it). */
  retry?: Partial<RetryPolicy>;
  /** Receives one line per retry and per failed request, already redacted. */
  logger?: (line: string) => void;
  /** Reuse connections (default true). `false` opens a fresh connection per request (benchmarks). */
  keepAlive?: boolean;
  /** Sockets per host (default 64). */
  maxSockets?: number;
  /**
   * HTTP client for plain `http:` URLs: `'lean'` (default, http-pool.ts: about a quarter of
   * node:http's CPU per request) or `'node:http'`. `https:` always uses node:https.
   */
  client?: 'lean' | 'node:http';
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * Build a transport.
 *
 * @example
 * const t = createTransport({ apiKey: process.env.KEY, timeoutMs: 10_000 });
 * const r = await t.request({ url: 'http://127.0.0.1:8899/', method: 'POST', body: '{"jsonrpc":"2.0","id":"1","method":"getSlot"}' });
 * await t.close();
 */
export function createTransport(options: TransportOptions = {}): Transport {
  const apiKey = options.apiKey;
  registerSecret(apiKey);
  const timeoutDefault = checkDuration(options.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS);
  const deadlineDefault = checkDuration(options.deadlineMs, 'deadlineMs', DEFAULT_DEADLINE_MS);
  const allowInsecureKey = options.allowInsecureKey === true;
  const maxBytes = checkPositive(options.maxResponseBytes, 'maxResponseBytes', DEFAULT_MAX_RESPONSE_BYTES);
  const basePolicy = resolveRetryPolicy(options.retry);
  const log = options.logger ? (line: string) => options.logger!(redact(line)) : undefined;
  const keepAlive = options.keepAlive ?? true;
  const maxSockets = options.maxSockets ?? 64;
  const agentOpts = { keepAlive, maxSockets, keepAliveMsecs: 1_000, scheduling: 'lifo' as const };
  const httpAgent = new http.Agent(agentOpts);
  const httpsAgent = new https.Agent(agentOpts);
  let closed = false;

  const pool = options.client === 'node:http' ? undefined : createHttpPool({ keepAlive, maxSockets });
  const targets = new TargetCache(allowInsecureKey);

  async function request(req: TransportRequest): Promise<TransportResponse> {
    if (closed) throw new CairnError(ErrorCodes.RPC_NETWORK, 'transport is closed', { context: {} });
    const timeoutMs = req.timeoutMs === undefined ? timeoutDefault : checkDuration(req.timeoutMs, 'timeoutMs', timeoutDefault);
    const deadlineMs = req.deadlineMs === undefined ? deadlineDefault : checkDuration(req.deadlineMs, 'deadlineMs', deadlineDefault);
    const deadlineAt = req.deadlineAt ?? performance.now() + deadlineMs;
    if (typeof deadlineAt !== 'number' || Number.isNaN(deadlineAt)) throw new InputError('deadlineAt', 'expected a point on performance.now()\'s clock');
    const policy = req.retry ? resolveRetryPolicy(basePolicy, req.retry) : basePolicy;
    const target = targets.get(req, req.auth === false ? undefined : apiKey);
    const display = target.display;
    // each attempt gets its timeout or the time left, whichever ends first
    const send = (): Promise<Omit<TransportResponse, 'attempts'>> => {
      const t = Math.min(timeoutMs, Math.max(1, Math.ceil(deadlineAt - performance.now())));
      return pool && target.protocol === 'http:' ? viaPool(target, req, t) : viaNodeHttp(target, req, t);
    };
    const label = req.label ? `${req.label} ` : '';
    const deadline = (): Deadline => ({ at: deadlineAt, ms: deadlineMs, what: `${label}${req.method} ${display}`, context: { url: display, method: req.method } });
    // the success path skips the retry loop: one attempt, no extra closures; a failure enters the
    // loop as its first attempt, so policy, deadline, logging and abort handling are exactly withRetry's
    if (req.signal?.aborted) throw abortError(ErrorCodes.RPC_ABORTED, req.signal, 'request');
    if (deadlineAt <= performance.now()) throw deadlineError(deadline(), 0);
    let attempts = 1;
    let first: unknown;
    try {
      const res = (await send()) as TransportResponse;
      res.attempts = 1;
      return res;
    } catch (error) {
      first = error;
    }
    try {
      const res = await withRetry(
        (attempt) => {
          attempts = attempt;
          return attempt === 1 ? Promise.reject(first) : send();
        },
        policy,
        req.signal,
        log
          ? ({ attempt, error, delayMs }) =>
              log(`cairn rpc: ${label}${req.method} ${display} failed (attempt ${attempt}): ${describe(error)}; retrying in ${delayMs} ms`)
          : undefined,
        deadline(),
      );
      return { ...res, attempts };
    } catch (error) {
      log?.(`cairn rpc: ${label}${req.method} ${display} gave up after ${attempts} attempt(s): ${describe(error)}`);
      throw error;
    }
  }

  /** Plain http: through the lean keep-alive pool (http-pool.ts). */
  function viaPool(target: Target, req: TransportRequest, timeoutMs: number): Promise<Omit<TransportResponse, 'attempts'>> {
    return new Promise((resolve, reject) => {
      pool!.request(
        { hostname: target.hostname, port: target.port, host: target.host, path: target.path, method: req.method, body: req.body, timeoutMs, maxBytes, signal: req.signal, ...(req.responseType === 'bytes' ? { shared: true } : {}) },
        (err, res) => {
          if (err) return reject(failureError(err, target.display, req, timeoutMs, maxBytes));
          try {
            resolve(interpret(res!.status, res!.headers, res!.body, target.display, req));
          } catch (e) {
            reject(e);
          }
        },
      );
    });
  }

  /** https: (and every URL with `client: 'node:http'`) through node's agents. */
  function viaNodeHttp(target: Target, req: TransportRequest, timeoutMs: number): Promise<Omit<TransportResponse, 'attempts'>> {
    const display = target.display;
    const ctxBase = { url: display, method: req.method };
    return new Promise((resolve, reject) => {
      let settled = false;
      const isHttps = target.protocol === 'https:';
      const headers: Record<string, string | number> = { accept: 'application/json' };
      const bodyBuf = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
      if (bodyBuf) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = bodyBuf.length;
      }
      const finish = (err: unknown, value?: Omit<TransportResponse, 'attempts'>): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
        if (err) {
          r.destroy();
          reject(err);
        } else resolve(value!);
      };
      const onAbort = (): void => finish(abortError(ErrorCodes.RPC_ABORTED, req.signal, `${req.label ?? req.method} request`));
      const timer = setTimeout(() => finish(timeoutError(display, req, timeoutMs)), timeoutMs);
      const r = (isHttps ? https : http).request(
        target.href,
        { method: req.method, headers, agent: isHttps ? httpsAgent : httpAgent },
        (res) => {
          const status = res.statusCode ?? 0;
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > maxBytes) {
            finish(tooLarge(display, req, declared, maxBytes));
            res.destroy();
            return;
          }
          const chunks: Buffer[] = [];
          let total = 0;
          res.on('data', (c: Buffer) => {
            total += c.length;
            if (total > maxBytes) {
              finish(tooLarge(display, req, total, maxBytes));
              res.destroy();
              return;
            }
            chunks.push(c);
          });
          res.on('error', (cause) => finish(truncated(display, req, cause)));
          res.on('aborted', () => finish(truncated(display, req)));
          res.on('end', () => {
            if (settled) return;
            if (!res.complete) return finish(truncated(display, req));
            try {
              finish(null, interpret(status, res.headers, req.responseType === 'bytes' ? sharedBody(chunks, total) : Buffer.concat(chunks, total), display, req));
            } catch (e) {
              finish(e);
            }
          });
        },
      );
      r.on('error', (cause) => {
        if (settled) return;
        finish(
          new NetworkError(ErrorCodes.RPC_NETWORK, `${req.label ?? req.method} to ${display} failed: ${(cause as Error).message}`, {
            context: ctxBase,
            cause,
          }),
        );
      });
      if (req.signal?.aborted) return onAbort();
      req.signal?.addEventListener('abort', onAbort, { once: true });
      r.end(bodyBuf);
    });
  }

  return {
    request,
    async close() {
      closed = true;
      pool?.close();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/** A size option: `fallback` when absent, else a positive finite number. */
function checkPositive(v: number | undefined, field: string, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
    throw new InputError(field, `expected a positive number, got ${String(v)}`, { expected: 'positive number', got: v });
  }
  return v;
}

/** Where one request goes: the URL as sent (with the key) and as shown (without it). */
interface Target {
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

/** Targets per URL are built once: parsing and re-serialising a URL on every call costs more than the request's own encoding. */
class TargetCache {
  private readonly map = new Map<string, Target>();

  constructor(private readonly allowInsecureKey: boolean) {}

  get(req: TransportRequest, apiKey: string | undefined): Target {
    let plain = true;
    if (req.query) for (const k in req.query) if (req.query[k] !== undefined) plain = false;
    if (!plain) return buildTarget(req, apiKey, this.allowInsecureKey);
    const key = apiKey === undefined ? `-${req.url}` : `+${req.url}`;
    let t = this.map.get(key);
    if (t === undefined) {
      t = buildTarget(req, apiKey, this.allowInsecureKey);
      // a bounded cache: callers with endless distinct URLs only lose the speed-up
      if (this.map.size >= 256) this.map.clear();
      this.map.set(key, t);
    }
    return t;
  }
}

function buildTarget(req: TransportRequest, apiKey: string | undefined, allowInsecureKey: boolean): Target {
  let target: URL;
  try {
    target = new URL(req.url);
  } catch (cause) {
    throw new InputError('url', `expected an absolute URL, got ${JSON.stringify(redactSlice(String(req.url), 200))}`, { cause });
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
