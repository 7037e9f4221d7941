/**
 * The one way a request leaves cairn. `createTransport` owns the keep-alive connections: plain
 * `http:` goes through the lean HTTP/1.1 pool of pool/ (less client CPU per small request
 * than node:http and undici alike, see bench/results/rpc.md), `https:` through undici's keep-alive
 * pools (about half node:https's client CPU per call in the same run). For every
 * request it adds the API key as the `api-key` query parameter (and nowhere else), applies a
 * per-attempt timeout, links the caller's AbortSignal, caps the response size, maps HTTP statuses to
 * typed errors (401, 403, 429 with `Retry-After`, 5xx, other 4xx) and retries through the policy in
 * `retry/policy.ts`, all within the call's overall deadline (attempts and waits together). URLs in errors and
 * log lines never carry the key: they are built from the key-less URL and pass through `redact()`;
 * snippets of server bodies are cut after redacting, so a cut never leaves the start of a key. A key
 * never goes over plain http to a host that is not loopback (insecure-key.ts). What an answer means
 * (a body, or a typed error) is response.ts. The URL work is done
 * once per distinct URL, not per call.
 *
 * This file is the wiring and the public types. The parts: where a request goes and its key
 * (target.ts), its attempts, retries and deadline (attempts.ts), one attempt over
 * the lean pool (via-pool.ts), undici (via-undici.ts) or node's clients
 * (via-node-http.ts). A URL that is
 * not http(s), a method that is not a token or a body that is not a string is an `InputError` before
 * anything is sent (node:http threw a plain TypeError for them; the pool wrote them as they were).
 */
import http from 'node:http';
import https from 'node:https';
import type { ConnectionOptions } from 'node:tls';
import type { Agent as UndiciAgent } from 'undici';
import { CairnError, ErrorCodes, InputError, redact, registerSecret } from '../../errors/index.js';
import { createHttpPool } from './pool/pool.js';
import { checkDuration, DEFAULT_DEADLINE_MS, resolveRetryPolicy, type RetryPolicy } from '../retry/policy.js';
import { callLimits, runAttempts, type SendAttempt } from './attempts.js';
import { TargetCache, type Target } from './target.js';
import { viaNodeHttp } from './via-node-http.js';
import { viaPool } from './via-pool.js';
import { createUndiciAgent, viaUndici } from './via-undici.js';

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
  /**
   * False for a request that changes state on the service (a mint, a webhook's creation): it is
   * sent again only after a failure that proves it was not acted on (refused before it was written,
   * a 429); any other failure after it was written is `RPC_OUTCOME_UNKNOWN`. Default true.
   */
  idempotent?: boolean;
  /** With `idempotent: false`: what learns the outcome, for the `RPC_OUTCOME_UNKNOWN` error. */
  findOut?: string;
  /**
   * With `idempotent: false`: the request may still take a recently used keep-alive connection
   * (signed transactions, which cannot act twice: retry/idempotency.ts `signedBytes`); without it a
   * state-changing request opens a fresh one on the lean pool.
   */
  warmConnection?: boolean;
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
   * HTTP client for plain `http:` URLs: `'lean'` (default, pool/pool.ts: about a quarter of
   * node:http's CPU per request) or `'node:http'`. `https:` always uses undici.
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
  return createTransportWith(options, {});
}

/** What tests and benchmarks may set beyond the public options (not re-exported by the package). */
export interface TransportInternals {
  /** TLS options of https connections, e.g. the CA of a loopback test server. */
  tls?: ConnectionOptions;
  /** The https client: undici (default) or node:https (kept for the benchmark's comparison). */
  https?: 'undici' | 'node:https';
}

/**
 * `createTransport` with the internals set.
 *
 * @example
 * const t = createTransportWith({}, { tls: { ca: readFileSync('test/support/tls/cert.pem') } });
 */
export function createTransportWith(options: TransportOptions, internals: TransportInternals): Transport {
  const apiKey = options.apiKey;
  registerSecret(apiKey);
  const defaults = {
    timeoutMs: checkDuration(options.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS),
    deadlineMs: checkDuration(options.deadlineMs, 'deadlineMs', DEFAULT_DEADLINE_MS),
    policy: resolveRetryPolicy(options.retry),
  };
  const maxBytes = checkPositive(options.maxResponseBytes, 'maxResponseBytes', DEFAULT_MAX_RESPONSE_BYTES);
  const log = options.logger ? (line: string) => options.logger!(redact(line)) : undefined;
  const keepAlive = options.keepAlive ?? true;
  const maxSockets = options.maxSockets ?? 64;
  const agentOpts = { keepAlive, maxSockets, keepAliveMsecs: 1_000, scheduling: 'lifo' as const };
  const agents = { http: new http.Agent(agentOpts), https: new https.Agent({ ...agentOpts, ...internals.tls }) };
  const pool = options.client === 'node:http' ? undefined : createHttpPool({ keepAlive, maxSockets });
  const useUndici = internals.https !== 'node:https';
  // made on the first https request (undici's import is not free); `undici` once it is ready, so
  // later calls take no extra turn
  let undiciLoading: Promise<UndiciAgent> | undefined;
  let undici: UndiciAgent | undefined;
  const loadUndici = (): Promise<UndiciAgent> =>
    (undiciLoading ??= createUndiciAgent({ keepAlive, maxSockets, ...(internals.tls ? { tls: internals.tls } : {}) }).then((a) => {
      undici = a;
      return a;
    }));
  const viaUndiciFirst = async (target: Target, req: TransportRequest, timeoutMs: number) => {
    let agent: UndiciAgent;
    try {
      agent = await loadUndici();
    } catch (cause) {
      throw new CairnError(ErrorCodes.RPC_NETWORK, `${req.label ?? req.method} to ${target.display} failed: undici could not be loaded`, { context: { url: target.display, method: req.method }, cause });
    }
    if (closed) throw new CairnError(ErrorCodes.RPC_NETWORK, 'transport is closed', { context: {} });
    return viaUndici(agent, target, req, timeoutMs, maxBytes, keepAlive);
  };
  const targets = new TargetCache(options.allowInsecureKey === true);
  let closed = false;

  // plain http: through the lean pool unless node:http was asked for (it measures ahead of undici
  // there); https: through undici
  const send: SendAttempt<TransportRequest, Target> = (target, req, timeoutMs) =>
    (target.protocol === 'http:'
      ? pool
        ? viaPool(pool, target, req, timeoutMs, maxBytes)
        : viaNodeHttp(agents, target, req, timeoutMs, maxBytes)
      : !useUndici
        ? viaNodeHttp(agents, target, req, timeoutMs, maxBytes)
        : undici
          ? viaUndici(undici, target, req, timeoutMs, maxBytes, keepAlive)
          : viaUndiciFirst(target, req, timeoutMs));

  return {
    async request(req) {
      if (closed) throw new CairnError(ErrorCodes.RPC_NETWORK, 'transport is closed', { context: {} });
      const limits = callLimits(req, defaults);
      const target = targets.get(req, req.auth === false ? undefined : apiKey);
      checkWire(req);
      return runAttempts(req, target, limits, send, log);
    },
    async close() {
      closed = true;
      pool?.close();
      agents.http.destroy();
      agents.https.destroy();
      // destroy, not close: requests still in flight fail now instead of holding close() open
      if (undiciLoading) await (await undiciLoading.catch(() => undefined))?.destroy();
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

/** An HTTP method token (RFC 9110 §5.6.2), as node:http checks it. */
const METHOD_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * What goes on the wire as it is: a method that is not a token would break the request line (or
 * make node:http throw a plain TypeError), a body that is not a string has no defined bytes.
 */
function checkWire(req: TransportRequest): void {
  if (typeof req.method !== 'string' || !METHOD_TOKEN.test(req.method)) {
    throw new InputError('method', `expected an HTTP method token, got ${JSON.stringify(String(req.method).slice(0, 40))}`, { expected: 'HTTP method', got: req.method });
  }
  if (req.body !== undefined && typeof req.body !== 'string') {
    throw new InputError('body', `expected a string (serialised JSON) or undefined, got ${typeof req.body}`, { expected: 'string', got: typeof req.body });
  }
}
