/**
 * `startProxy`: a JSON-RPC (and REST pass-through) proxy that verifies every proof-bearing answer
 * before passing it on. A call is forwarded to the upstream as it came (the upstream URL, with its
 * own api-key, is the proxy's: a caller's `api-key` is never forwarded and the upstream's is never
 * shown); the answer's proof items are verified in the worker pool and anchored against the chain
 * (`rpc`, by default the upstream itself). A failing answer becomes a JSON-RPC error
 * `PROOF_REJECTED_CODE` whose `data` names the method, the kind, each failing item and its reason —
 * or, with `mode: 'annotate'`, passes unchanged with a `cairn` member in its envelope saying what
 * failed. Every other call, and every REST path, passes through. Stateless (any number behind a load
 * balancer); `/metrics` serves Prometheus text. Loopback by default; any other host requires a
 * `token` of its own that callers send as `Authorization: Bearer <token>`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InputError, isCairnError } from '../errors/index.js';
import { createVerifierWithTestOptions, checkAnchorOptions } from '../merkle/internal.js';
import type { KindName, AnchorCommitment } from '../merkle/index.js';
import { checkAnswer, checkResultBytes, lookAtAnswer, PROOF_METHODS, type CheckResult } from './proxy-check.js';
import { createProxyMetrics, type ProxyMetrics } from './proxy-metrics.js';
import { anchorCaller, createUpstream, type UpstreamAnswer } from './upstream.js';

/** The JSON-RPC error code of an answer whose proofs failed (server-error range, -32000…-32099). */
export const PROOF_REJECTED_CODE = -32040;

export interface ProxyOptions {
  /** The service to forward to (may carry `?api-key=`; it is never shown nor lent to callers). */
  upstream: string;
  /** Where tree accounts are read to anchor (default: the upstream). */
  rpc?: string;
  commitment?: AnchorCommitment;
  port?: number;
  /** Default 127.0.0.1. Anything else needs `token`. */
  host?: string;
  /** Callers must send `Authorization: Bearer <token>` (required off loopback). */
  token?: string;
  /** `refuse` (default): a failing answer becomes an error; `annotate`: it passes with a `cairn` note. */
  mode?: 'refuse' | 'annotate';
  /** Worker threads of the verifier (default 2). */
  threads?: number;
  /** Key sets for validity proofs (default Light's shipped ones; `cairn-devnet-1` for the devnet). */
  keySets?: string[];
  /** Largest request body, bytes (default 8 MiB); largest upstream answer (default 256 MiB). */
  maxRequestBytes?: number;
  maxResponseBytes?: number;
}

export interface Proxy {
  url: string;
  readonly metrics: ProxyMetrics;
  close(): Promise<void>;
}

/**
 * Answers of at most this many items are verified on the proxy's own thread, not in the pool: about
 * 5 ms of work on the reference machine (asset proofs ~3.5 µs each from bytes, account and address
 * proofs ~0.5 ms). Handing them to a worker meant waking it, and on a loaded host the wake-ups and
 * the round trip cost more than the work (100 devnet asset proofs, load 20–25: 20–25 ms in the pool,
 * 6 ms here). Validity proofs (a pairing each, and the pairing code loaded on first use) always go
 * to the pool.
 */
const INLINE_UP_TO: Partial<Record<KindName, number>> = { 'asset-proof': 1024, 'account-proof': 8, 'address-proof': 8 };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
type Json = Record<string, unknown>;

function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n > max) {
        req.destroy();
        resolve(null);
      } else parts.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

/** The upstream URL for a caller's path and query: the upstream's own query (its key) wins. */
function upstreamUrl(upstream: URL, reqUrl: string): URL {
  const r = new URL(reqUrl, 'http://x');
  const u = new URL(upstream.href);
  if (r.pathname !== '/') u.pathname = (u.pathname.replace(/\/$/, '') + r.pathname).replace(/\/\/+/g, '/');
  for (const [k, v] of r.searchParams) if (k !== 'api-key' && !u.searchParams.has(k)) u.searchParams.append(k, v);
  return u;
}

function send(res: ServerResponse, status: number, body: string | Uint8Array, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Start the proxy.
 *
 * @example
 * const proxy = await startProxy({ upstream: 'https://mainnet.example/?api-key=…' });
 * const conn = new Connection(proxy.url); // proof answers now arrive verified and anchored
 */
export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  let upstream: URL;
  try {
    upstream = new URL(options.upstream);
  } catch {
    throw new InputError('upstream', 'expected an http(s) URL');
  }
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new InputError('upstream', `expected an http(s) URL, got ${upstream.protocol}`);
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host) && !options.token) throw new InputError('token', `a proxy on ${host} (not loopback) must require a token of its own from callers: pass token (--token)`);
  if (options.token !== undefined && (typeof options.token !== 'string' || options.token.length < 16)) throw new InputError('token', 'expected a string of at least 16 characters');
  const mode = options.mode ?? 'refuse';
  if (mode !== 'refuse' && mode !== 'annotate') throw new InputError('mode', `expected refuse or annotate, got ${JSON.stringify(mode)}`);
  const maxRequest = options.maxRequestBytes ?? 8 * 1024 * 1024;
  const maxResponse = options.maxResponseBytes ?? 256 * 1024 * 1024;
  const metrics = createProxyMetrics();
  // The anchor's options checked as given (a bad URL or commitment names its field), then its reads
  // made over the upstream client's kept-alive connections.
  const anchor = checkAnchorOptions({ rpc: options.rpc ?? upstream.href, ...(options.commitment ? { commitment: options.commitment } : {}) });
  const upstreamClient = createUpstream(maxResponse);
  const verifier = createVerifierWithTestOptions({
    threads: options.threads ?? 2,
    inlineUpTo: INLINE_UP_TO,
    anchor: { ...anchor, rpc: anchorCaller(upstreamClient, new URL(anchor.rpc as string)) },
  });
  const keySets = options.keySets ?? [];

  function forward(req: IncomingMessage, body: Buffer | null, signal: AbortSignal): Promise<UpstreamAnswer> {
    const headers: Record<string, string> = {};
    for (const h of ['content-type', 'accept']) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
    return upstreamClient.send(upstreamUrl(upstream, req.url ?? '/'), req.method ?? 'GET', headers, body && body.length ? body : null, signal);
  }

  /** A check that throws: an answer that cannot even be read as its kind is refused like a failing one. */
  const unreadable = (method: string, e: unknown): CheckResult => ({ kind: PROOF_METHODS[method]!, items: 1, failed: [{ index: 0, reason: (e as Error).message, status: 'unreadable' }], anchored: false });

  /** What a call's check makes of its answer (`answer`: made only for a failing one): null to pass it unchanged, or what to send instead. */
  function replacement(method: string, call: Json, r: CheckResult | null, answer: () => Json): Json | null {
    if (!r) return null;
    metrics.verified(r.kind, r.items);
    if (r.failed.length === 0) return null;
    for (const f of r.failed) metrics.refused(f.status ?? 'invalid', 1);
    const a = answer();
    const data = { method, kind: r.kind, items: r.failed };
    if (mode === 'annotate') {
      metrics.annotated();
      return { ...a, cairn: { verified: false, ...data } };
    }
    const first = r.failed[0]!;
    return {
      jsonrpc: '2.0',
      id: a.id ?? call.id ?? null,
      error: { code: PROOF_REJECTED_CODE, message: `cairn proxy: ${r.failed.length} of ${r.items} ${r.kind} item(s) failed verification (item ${first.index}${first.id ? ` ${first.id}` : ''}: ${first.status ?? 'invalid'})`, data },
    };
  }

  /** One call's answer checked: unchanged, refused (an error in its place) or annotated. */
  async function judge(call: Json, answer: Json, signal: AbortSignal): Promise<Json> {
    const method = typeof call.method === 'string' ? call.method : '';
    metrics.request(method);
    if (!(method in PROOF_METHODS) || !('result' in answer)) return answer;
    let r: CheckResult | null;
    try {
      r = await checkAnswer(verifier, method, call.params, answer.result, { keySets, signal });
    } catch (e) {
      r = unreadable(method, e);
    }
    return replacement(method, call, r, () => answer) ?? answer;
  }

  /**
   * One call of a proof method, its answer read from the upstream's bytes (proxy-check.ts
   * `lookAtAnswer`): scanned rather than parsed, its items decoded by the workers, and passed on as
   * those very bytes unless a proof fails. `{ out: null }`: pass it; null: nothing was decided (or
   * counted), and the parsed path (`judge`) takes the answer, with its own verdicts and errors.
   */
  async function judgeBytes(call: Json, bytes: Buffer, signal: AbortSignal): Promise<{ out: Json | null } | null> {
    const method = typeof call.method === 'string' ? call.method : '';
    const kind = PROOF_METHODS[method];
    // A validity proof is read with its request (checkAnswer), and its answer is small.
    if (!kind || kind === 'validity-proof') return null;
    const look = lookAtAnswer(bytes, kind);
    if ('parse' in look) return null;
    let r: CheckResult | null = null;
    if ('result' in look) {
      try {
        r = await checkResultBytes(verifier, method, look, { signal });
      } catch (e) {
        // The chain could not be asked, or the caller went away: the parsed path would meet the same
        // (and wait for it a second time). Anything else is the answer's: the parse says what.
        if (!(signal.aborted || (isCairnError(e, 'INPUT_INVALID') && e.context.field === 'anchor.rpc'))) return null;
        r = unreadable(method, e);
      }
    }
    metrics.request(method);
    return { out: replacement(method, call, r, () => JSON.parse(bytes.toString('utf8')) as Json) };
  }

  async function handle(req: IncomingMessage, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (options.token) {
      const auth = req.headers.authorization;
      if (auth !== `Bearer ${options.token}`) return send(res, 401, JSON.stringify({ error: 'cairn proxy: missing or wrong Authorization: Bearer token' }));
    }
    if (req.method === 'GET' && path === '/metrics') return send(res, 200, metrics.text(), 'text/plain; version=0.0.4');
    const body = req.method === 'GET' || req.method === 'HEAD' ? null : await readBody(req, maxRequest);
    if (body === null && req.method !== 'GET' && req.method !== 'HEAD') return send(res, 413, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `request body over ${maxRequest} bytes` } }));
    let up;
    try {
      up = await forward(req, body, signal);
    } catch (e) {
      metrics.upstreamError();
      return send(res, 502, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `cairn proxy: upstream failed: ${(e as Error).message}` } }));
    }
    // REST and anything not a JSON-RPC POST on / pass through as they came.
    if (req.method !== 'POST' || path !== '/' || !up.type.includes('json')) return send(res, up.status, up.bytes, up.type);
    let calls: unknown;
    try {
      calls = JSON.parse(body!.toString('utf8'));
    } catch {
      return send(res, up.status, up.bytes, up.type);
    }
    let t0 = performance.now();
    if (calls !== null && typeof calls === 'object' && !Array.isArray(calls)) {
      const fast = await judgeBytes(calls as Json, up.bytes, signal);
      if (fast) {
        metrics.added((performance.now() - t0) / 1000);
        return fast.out ? send(res, up.status, JSON.stringify(fast.out)) : send(res, up.status, up.bytes, up.type);
      }
    }
    let answers: unknown;
    try {
      answers = JSON.parse(up.bytes.toString('utf8'));
    } catch {
      return send(res, up.status, up.bytes, up.type);
    }
    t0 = performance.now();
    let out: unknown;
    if (Array.isArray(calls) && Array.isArray(answers)) {
      const byId = new Map(calls.filter((c): c is Json => c !== null && typeof c === 'object').map((c) => [JSON.stringify(c.id), c]));
      const judged = await Promise.all(answers.map((a) => (a && typeof a === 'object' ? judge(byId.get(JSON.stringify((a as Json).id)) ?? {}, a as Json, signal) : a)));
      // Every answer unchanged: the upstream's bytes go on as they came, not re-serialised.
      out = judged.every((a, i) => a === answers[i]) ? answers : judged;
    } else if (calls && typeof calls === 'object' && !Array.isArray(calls) && answers && typeof answers === 'object' && !Array.isArray(answers)) {
      out = await judge(calls as Json, answers as Json, signal);
    } else out = answers;
    metrics.added((performance.now() - t0) / 1000);
    if (out === answers) return send(res, up.status, up.bytes, up.type);
    send(res, up.status, JSON.stringify(out));
  }

  const inflight = new Set<AbortController>();
  const server = createServer((req, res) => {
    const ac = new AbortController();
    inflight.add(ac);
    res.on('close', () => {
      if (!res.writableFinished) ac.abort(new Error('client went away'));
      inflight.delete(ac);
    });
    handle(req, res, ac.signal).catch((e) => {
      if (!res.headersSent) send(res, 500, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `cairn proxy: ${(e as Error).message}` } }));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${shownHost}:${addr.port}`,
    metrics,
    close() {
      closing ??= (async () => {
        for (const ac of inflight) ac.abort(new Error('proxy closing'));
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        upstreamClient.close();
        await verifier.close();
      })();
      return closing;
    },
  };
}
