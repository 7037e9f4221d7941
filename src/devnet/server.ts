/**
 * The devnet's HTTP server: the four hosts of the spec on one loopback port — JSON-RPC on `/`,
 * `/fast` and `/ping`, the REST paths under `/v0/…` and `/v1/wallet/…` — plus the Solana
 * websocket subscriptions (`signatureSubscribe`, `slotSubscribe`) that `@solana/web3.js` needs to
 * confirm. Every request passes, in order: routing, the API-key check (401/403/429), the fault
 * injector (latency, 429, 5xx, drops on `/fast`), then the handler. Modules (standard methods,
 * DAS, compression, wallet history, token metadata, webhooks) plug their methods and routes in.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { CairnError, redact } from '../errors.js';
import { stringifyJson } from '../rpc/json.js';
import type { Auth } from './auth.js';
import { encodeBase58 } from '../solana/base58.js';
import type { DevnetChain } from './devnet-chain.js';
import { checkFastSendTransaction, type ResolvedFastRules } from './fast.js';
import type { Faults } from './faults.js';
import { jsonShape } from './json-shape.js';
import { DEFAULT_LIMITS } from './limits.js';
import {
  DevnetRpcError,
  type Commitment,
  type DevnetLimits,
  type DevnetModule,
  type FaultEndpoint,
  type RequestLogEntry,
  type RestRequest,
  type RpcHandler,
} from './types.js';

/** The request log keeps this many most recent entries. */
export const REQUEST_LOG_CAPACITY = 50_000;
/** Websocket messages above this size close the connection (1009): subscriptions are a few hundred bytes. */
export const WS_MAX_MESSAGE_BYTES = 1024 * 1024;
/** No Solana RPC method has a longer name: a longer one is refused, never echoed or logged. */
const MAX_METHOD_NAME = 128;
const BASE58_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;

export interface DevnetServerOptions {
  chain: DevnetChain;
  auth: Auth;
  faults: Faults;
  fastRules: ResolvedFastRules;
  modules: DevnetModule[];
  host?: string;
  port?: number;
  /** Also listen on port + 1 for websockets, where `@solana/web3.js` looks by default (best effort). */
  wsPortPlusOne?: boolean;
  /** Request caps, already validated (`resolveLimits`); default `DEFAULT_LIMITS`. */
  limits?: DevnetLimits;
  log?: (line: string) => void;
}

export interface DevnetServer {
  readonly url: string;
  readonly wsUrl: string;
  requestLog(): RequestLogEntry[];
  clearRequestLog(): void;
  /** The JSON-RPC methods served now (every mounted module's), sorted. */
  methods(): string[];
  /** Mount one more module (methods and routes) while running. */
  mount(m: DevnetModule): void;
  /** Modules still loading: an unknown method or route waits for this before answering "not found". */
  setPending(p: Promise<unknown> | null): void;
  close(): Promise<void>;
}

interface Route {
  method: string;
  parts: string[];
  endpoint: FaultEndpoint;
  handler: (req: RestRequest) => unknown | Promise<unknown>;
}

const COMMITMENT_RANK: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };

function stringify(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch (e) {
    // BigInt somewhere in a handler's result (a u64 above 2^53): written as exact digits, a JSON
    // number as the real service sends it, never rounded through Number.
    if (e instanceof TypeError) return stringifyJson(v);
    throw e;
  }
}

function rpcError(id: unknown, code: number, message: string, data?: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id: id ?? null, error: data === undefined ? { code, message } : { code, message, data } };
}

/** JSON-RPC 2.0 ids are a string, a number or null: anything else is never echoed back. */
function isRpcId(id: unknown): boolean {
  return id === undefined || id === null || typeof id === 'string' || typeof id === 'number';
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Start the HTTP server. Resolves once it listens.
 *
 * @example
 * const server = await startDevnetServer({ chain, auth, faults, fastRules, modules: [solana] });
 * console.log(server.url); // http://127.0.0.1:41234
 */
export async function startDevnetServer(o: DevnetServerOptions): Promise<DevnetServer> {
  const { chain, auth, faults, fastRules } = o;
  const limits = o.limits ?? DEFAULT_LIMITS;
  const log = o.log ?? (() => {});
  const methods = new Map<string, RpcHandler>();
  const routes: Route[] = [];
  const requestLog: RequestLogEntry[] = [];
  /** In-flight requests' controllers, aborted on close. */
  const active = new Set<AbortController>();
  let closing = false;
  let pending: Promise<unknown> | null = null;
  const settle = async () => {
    const p = pending;
    if (p) await p.catch(() => undefined);
  };

  const mount = (m: DevnetModule) => {
    for (const [name, h] of Object.entries(m.methods)) methods.set(name, h);
    for (const [key, handler] of Object.entries(m.routes ?? {})) {
      const [method, path] = key.split(' ');
      if (!method || !path) throw new CairnError('DEVNET_INVALID_CONFIG', `bad route key ${JSON.stringify(key)}`);
      routes.push({ method, parts: path.split('/').filter(Boolean), endpoint: path.startsWith('/v1/wallet') ? 'wallet' : 'rest', handler });
    }
  };
  o.modules.forEach(mount);

  const record = (e: RequestLogEntry) => {
    requestLog.push(e);
    // Trim in chunks: one splice per 10,000 requests instead of a 50,000-element shift per request.
    if (requestLog.length > REQUEST_LOG_CAPACITY + 10_000) requestLog.splice(0, requestLog.length - REQUEST_LOG_CAPACITY);
  };

  const send = (res: ServerResponse, status: number, body: string, headers?: Record<string, string>) => {
    if (res.headersSent || res.destroyed) return;
    // The flat [name, value, …] form skips the header-object bookkeeping on every response.
    const h = ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(body))];
    if (headers) for (const k of Object.keys(headers)) h.push(k, headers[k]!);
    res.writeHead(status, h);
    res.end(body);
  };

  const matchRoute = (method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: string[] } | null => {
    const parts = path.split('/').filter(Boolean);
    const allowed: string[] = [];
    for (const r of routes) {
      if (r.parts.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < parts.length; i++) {
        const rp = r.parts[i]!;
        if (rp.startsWith(':')) {
          try {
            params[rp.slice(1)] = decodeURIComponent(parts[i]!);
          } catch {
            ok = false;
          }
        } else if (rp !== parts[i]) ok = false;
        if (!ok) break;
      }
      if (!ok) continue;
      if (r.method === method) return { route: r, params };
      allowed.push(r.method);
    }
    return allowed.length ? { allowed } : null;
  };

  /** The body, or null once it passes `limits.maxBodyBytes` (declared or streamed): never buffered past it. */
  const readBody = (req: IncomingMessage): Promise<Buffer | null> =>
    new Promise((resolve, reject) => {
      const declared = Number(req.headers['content-length']);
      if (declared > limits.maxBodyBytes) return resolve(null);
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limits.maxBodyBytes) {
          resolve(null);
          req.removeAllListeners('data');
          req.resume();
          return;
        }
        chunks.push(c);
      });
      req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
      req.on('error', reject);
    });

  /** One answer as JSON text; a result that cannot be written (nested past the stack) answers -32603. */
  const answerText = (body: Record<string, unknown>, method: string): string => {
    try {
      return stringify(body);
    } catch (e) {
      log(`devnet: the answer of ${method} cannot be written as JSON: ${e instanceof Error ? e.message : String(e)}`);
      return stringify(rpcError(body.id, -32603, 'Internal error: the result cannot be written as JSON'));
    }
  };
  // UTF-8 takes at most 3 bytes per UTF-16 unit: short texts skip the byte count.
  const overCap = (text: string): boolean => text.length * 3 > limits.maxResponseBytes && Buffer.byteLength(text) > limits.maxResponseBytes;
  const tooLarge = (id: unknown, data?: Record<string, number>, detail = ''): string =>
    stringify(rpcError(id, -32603, `Internal error: the response is larger than ${limits.maxResponseBytes} bytes (the devnet's maxResponseBytes)${detail}`, { maxResponseBytes: limits.maxResponseBytes, ...data }));

  /** Run one JSON-RPC call; returns the response object and the HTTP status it asks for. */
  const callOne = async (
    call: unknown,
    endpoint: 'rpc' | 'fast',
    signalOf: () => AbortSignal,
    drop: boolean,
    swqosOnly: boolean,
  ): Promise<{ body: Record<string, unknown>; status: number; method: string; items?: number }> => {
    if (call === null || typeof call !== 'object' || Array.isArray(call)) {
      return { body: rpcError(null, -32600, 'Invalid request: expected a JSON-RPC 2.0 object'), status: 200, method: '?' };
    }
    const c = call as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
    if (!isRpcId(c.id)) return { body: rpcError(null, -32600, 'Invalid request: "id" must be a string, a number or null'), status: 200, method: '?' };
    const id = c.id ?? null;
    if (c.jsonrpc !== '2.0') return { body: rpcError(id, -32600, 'Invalid request: "jsonrpc" must be "2.0"'), status: 200, method: '?' };
    if (typeof c.method !== 'string') return { body: rpcError(id, -32600, 'Invalid request: "method" must be a string'), status: 200, method: '?' };
    if (c.method.length > MAX_METHOD_NAME) {
      return { body: rpcError(id, -32600, `Invalid request: "method" is ${c.method.length} characters long; no method name is longer than ${MAX_METHOD_NAME}`), status: 200, method: '?' };
    }
    const method = c.method;
    const items = method === 'getSignatureStatuses' && Array.isArray(c.params) && Array.isArray(c.params[0]) ? c.params[0].length : undefined;
    try {
      let result: unknown;
      if (endpoint === 'fast') {
        if (method !== 'sendTransaction') {
          throw new DevnetRpcError(-32601, `Method not found: /fast serves sendTransaction only, got ${JSON.stringify(method)}`, 400);
        }
        const { wire, parsed } = checkFastSendTransaction(c.params, { swqosOnly }, fastRules);
        const signature = encodeBase58(parsed.signatures[0]!);
        // Fault "drop": accepted, answered, never executed.
        result = drop ? signature : chain.submitParsed(wire, parsed, signature).signature;
      } else {
        let h = methods.get(method);
        if (!h && pending) {
          await settle();
          h = methods.get(method);
        }
        if (!h) throw new DevnetRpcError(-32601, `Method not found: ${method}`);
        result = await h(c.params, { signal: signalOf(), endpoint });
      }
      return { body: { jsonrpc: '2.0', id, result: result === undefined ? null : result }, status: 200, method, ...(items !== undefined ? { items } : {}) };
    } catch (e) {
      if (e instanceof DevnetRpcError) {
        return { body: rpcError(id, e.rpcCode, redact(e.message), e.data), status: e.httpStatus, method, ...(items !== undefined ? { items } : {}) };
      }
      if (e instanceof CairnError && e.code === 'INPUT_INVALID') {
        return { body: rpcError(id, -32602, `Invalid params: ${e.message}`), status: 200, method };
      }
      log(`devnet: internal error in ${method}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return { body: rpcError(id, -32603, `Internal error: ${e instanceof Error ? redact(e.message) : String(e)}`), status: 200, method };
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const at = Date.now();
    const rawUrl = req.url ?? '/';
    const q = rawUrl.indexOf('?');
    const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    // Most requests (all of /fast) carry no query string: no URLSearchParams for them.
    const query = q < 0 ? null : new URLSearchParams(rawUrl.slice(q + 1));
    const method = req.method ?? 'GET';
    // The request's AbortSignal (aborted when the client goes away or the devnet stops) is made on
    // first use: /fast never needs one unless a latency fault makes it wait.
    let ac: AbortController | null = null;
    const onClose = () => {
      if (!res.writableFinished) ac?.abort(new Error('client went away'));
    };
    const signalOf = (): AbortSignal => {
      if (ac) return ac.signal;
      ac = new AbortController();
      active.add(ac);
      if (res.destroyed && !res.writableFinished) ac.abort(new Error('client went away'));
      else res.on('close', onClose);
      return ac.signal;
    };
    const goneAway = (): boolean => (ac ? ac.signal.aborted : closing || (res.destroyed && !res.writableFinished));
    try {
      // 1. route
      let endpoint: FaultEndpoint | 'ping';
      let route: { route: Route; params: Record<string, string> } | null = null;
      if (path === '/ping' || path === '/fast/ping') {
        if (method !== 'GET' && method !== 'HEAD') return send(res, 405, stringify({ error: 'use GET /ping' }), { allow: 'GET' });
        endpoint = 'ping';
      } else if (path === '/' || path === '') {
        endpoint = 'rpc';
      } else if (path === '/fast') {
        endpoint = 'fast';
      } else {
        let m = matchRoute(method, path);
        if ((!m || 'allowed' in m) && pending) {
          await settle();
          m = matchRoute(method, path);
        }
        if (!m) {
          record({ at, endpoint: 'rest', method: `${method} ${path}`, status: 404 });
          return send(res, 404, stringify({ error: `no route for ${method} ${path}` }));
        }
        if ('allowed' in m) {
          record({ at, endpoint: 'rest', method: `${method} ${path}`, status: 405 });
          return send(res, 405, stringify({ error: `${method} not allowed on ${path}` }), { allow: m.allowed.join(', ') });
        }
        route = m;
        endpoint = m.route.endpoint;
      }
      // REST calls are logged by their route pattern ("GET /v1/wallet/:wallet/transfers"), never by a
      // concrete path that could carry an address someone considers private.
      const label = route ? `${method} /${route.route.parts.join('/')}` : endpoint === 'ping' ? 'GET /ping' : '';

      // 2. keys
      const ip = req.socket.remoteAddress ?? '';
      const verdict = auth.check(endpoint, query ? query.get('api-key') : null, ip);
      if (!verdict.ok) {
        const headers: Record<string, string> | undefined = verdict.retryAfterSeconds ? { 'retry-after': String(verdict.retryAfterSeconds) } : undefined;
        const code = verdict.status === 429 ? -32005 : verdict.status === 401 ? -32401 : -32403;
        const body = endpoint === 'rpc' || endpoint === 'fast' ? rpcError(null, code, verdict.message) : { error: verdict.message };
        record({ at, endpoint, method: label || endpoint, status: verdict.status });
        return send(res, verdict.status, stringify(body), headers);
      }

      // 3. ping
      if (endpoint === 'ping') {
        record({ at, endpoint, method: 'GET /ping', status: 200 });
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
        return res.end(method === 'HEAD' ? undefined : 'ok');
      }

      // 4. faults
      const fault = faults.decide(endpoint);
      if (fault.latencyMs > 0) await sleep(fault.latencyMs, signalOf());
      // Gone meanwhile (client left, or the devnet is stopping): nothing to answer.
      if (goneAway()) return;
      if (fault.status) {
        const headers: Record<string, string> | undefined = fault.status === 429 ? { 'retry-after': String(fault.retryAfterSeconds ?? 1) } : undefined;
        const code = fault.status === 429 ? -32005 : fault.status === 503 ? -32002 : -32603;
        const message = fault.status === 429 ? 'Too many requests' : fault.status === 503 ? 'Service unavailable' : 'Internal error';
        const body = endpoint === 'rpc' || endpoint === 'fast' ? rpcError(null, code, message) : { error: message };
        record({ at, endpoint, method: label || endpoint, status: fault.status });
        // Drain the request so the keep-alive connection stays usable.
        req.resume();
        return send(res, fault.status, stringify(body), headers);
      }

      // 5. body: its size, nesting and batch length are checked on the raw bytes, before JSON.parse
      // builds anything from them.
      const isRpc = endpoint === 'rpc' || endpoint === 'fast';
      let parsed: unknown = undefined;
      if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
        const raw = await readBody(req);
        if (raw === null) {
          record({ at, endpoint, method: label || endpoint, status: 413 });
          const message = `request body larger than ${limits.maxBodyBytes} bytes (the devnet's maxBodyBytes)`;
          // close: the rest of an oversized body is not worth reading
          return send(res, 413, stringify(isRpc ? rpcError(null, -32600, `Invalid request: ${message}`) : { error: message }), { connection: 'close' });
        }
        if (raw.length) {
          const shape = jsonShape(raw, limits.maxJsonDepth);
          const refusal = shape.tooDeep
            ? `JSON nested deeper than ${limits.maxJsonDepth} levels (the devnet's maxJsonDepth)`
            : isRpc && shape.elements > limits.maxBatchLength
              ? `a batch of ${shape.elements} calls is over the limit of ${limits.maxBatchLength} (the devnet's maxBatchLength)`
              : null;
          if (refusal) {
            const status = isRpc ? (endpoint === 'fast' ? 400 : 200) : 400;
            record({ at, endpoint, method: label || 'invalid-request', status });
            return send(res, status, stringify(isRpc ? rpcError(null, -32600, `Invalid request: ${refusal}`) : { error: `the body is ${refusal}` }));
          }
          try {
            parsed = JSON.parse(raw.toString('utf8'));
          } catch {
            if (endpoint === 'rpc' || endpoint === 'fast') {
              record({ at, endpoint, method: 'parse-error', status: endpoint === 'fast' ? 400 : 200 });
              return send(res, endpoint === 'fast' ? 400 : 200, stringify(rpcError(null, -32700, 'Parse error: the body is not valid JSON')));
            }
            record({ at, endpoint, method: label, status: 400 });
            return send(res, 400, stringify({ error: 'the body is not valid JSON' }));
          }
        }
      } else {
        req.resume();
      }

      // 6. REST
      if (route) {
        try {
          const result = await route.route.handler({ params: route.params, query: query ?? new URLSearchParams(), body: parsed, signal: signalOf() });
          const text = stringify(result ?? null);
          if (overCap(text)) {
            record({ at, endpoint, method: label, status: 500 });
            return send(res, 500, stringify({ error: `the response is larger than ${limits.maxResponseBytes} bytes (the devnet's maxResponseBytes)` }));
          }
          record({ at, endpoint, method: label, status: 200 });
          return send(res, 200, text);
        } catch (e) {
          if (e instanceof DevnetRpcError) {
            const status = e.httpStatus === 200 ? 400 : e.httpStatus;
            record({ at, endpoint, method: label, status });
            return send(res, status, stringify({ error: redact(e.message) }));
          }
          if (e instanceof CairnError && e.code === 'INPUT_INVALID') {
            record({ at, endpoint, method: label, status: 400 });
            return send(res, 400, stringify({ error: e.message }));
          }
          log(`devnet: internal error in ${label}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
          record({ at, endpoint, method: label, status: 500 });
          return send(res, 500, stringify({ error: 'internal error' }));
        }
      }

      // 7. JSON-RPC
      if (method !== 'POST') {
        record({ at, endpoint, method: `${method} ${path}`, status: 405 });
        return send(res, 405, stringify(rpcError(null, -32600, 'JSON-RPC takes POST')), { allow: 'POST' });
      }
      const rpcEndpoint = endpoint as 'rpc' | 'fast';
      const swqosOnly = query !== null && query.get('swqos_only') === 'true';
      if (Array.isArray(parsed)) {
        if (parsed.length === 0) {
          record({ at, endpoint, method: 'batch', status: 200 });
          return send(res, 200, stringify(rpcError(null, -32600, 'Invalid request: empty batch')));
        }
        // Each answer becomes text as it comes and is counted: the batch stops at the first answer
        // that takes the response past maxResponseBytes, and the error says how many calls ran.
        const parts: string[] = [];
        let bytes = parsed.length + 1; // brackets and commas
        for (let i = 0; i < parsed.length; i++) {
          const r = await callOne(parsed[i], rpcEndpoint, signalOf, fault.drop, swqosOnly);
          record({ at, endpoint: rpcEndpoint, method: r.method, status: r.status, ...(r.items !== undefined ? { items: r.items } : {}) });
          const text = answerText(r.body, r.method);
          bytes += Buffer.byteLength(text);
          if (bytes > limits.maxResponseBytes) {
            return send(res, 200, tooLarge(null, { callsRun: i + 1 }, `; ${i + 1} of ${parsed.length} calls ran (their answers are dropped), the rest did not`));
          }
          parts.push(text);
        }
        return send(res, 200, `[${parts.join(',')}]`);
      }
      const r = await callOne(parsed, rpcEndpoint, signalOf, fault.drop, swqosOnly);
      record({ at, endpoint: rpcEndpoint, method: r.method, status: r.status, ...(r.items !== undefined ? { items: r.items } : {}) });
      const text = answerText(r.body, r.method);
      return overCap(text) ? send(res, 200, tooLarge(r.body.id)) : send(res, r.status, text);
    } finally {
      if (ac) {
        res.off('close', onClose);
        active.delete(ac);
      }
    }
  };

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (closing) {
      send(res, 503, stringify({ error: 'devnet stopping' }), { connection: 'close' });
      return;
    }
    handle(req, res).catch((e: unknown) => {
      log(`devnet: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      send(res, 500, stringify({ error: 'internal error' }));
    });
  };

  // ---- websockets: the subscriptions @solana/web3.js uses to confirm.
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_MESSAGE_BYTES });
  let nextSub = 1;
  interface SigSub { id: number; ws: WebSocket; signature: string; commitment: Commitment }
  const sigSubs = new Map<number, SigSub>();
  const slotSubs = new Map<number, WebSocket>();
  const wsSend = (ws: WebSocket, v: unknown) => {
    if (ws.readyState !== ws.OPEN) return;
    // A client that stops reading would make the devnet hold every answer for it: once more than
    // maxResponseBytes wait unsent, it is dropped.
    if (ws.bufferedAmount > limits.maxResponseBytes) return ws.terminate();
    ws.send(stringify(v));
  };
  const checkSig = (s: SigSub) => {
    const st = chain.status(s.signature);
    if (!st || COMMITMENT_RANK[st.confirmationStatus] < COMMITMENT_RANK[s.commitment]) return;
    sigSubs.delete(s.id);
    wsSend(s.ws, { jsonrpc: '2.0', method: 'signatureNotification', params: { result: { context: { slot: chain.slot() }, value: { err: st.err } }, subscription: s.id } });
  };
  const unsubscribeSlot = chain.onSlot((slot) => {
    for (const s of [...sigSubs.values()]) checkSig(s);
    for (const [id, ws] of slotSubs) wsSend(ws, { jsonrpc: '2.0', method: 'slotNotification', params: { result: { parent: slot - 1, root: Math.max(0, slot - chain.finalizeSlots), slot }, subscription: id } });
  });
  const onWsMessage = (ws: WebSocket, data: RawData) => {
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (jsonShape(bytes, limits.maxJsonDepth).tooDeep) {
      return wsSend(ws, rpcError(null, -32600, `Invalid request: JSON nested deeper than ${limits.maxJsonDepth} levels (the devnet's maxJsonDepth)`));
    }
    let msg: unknown;
    try {
      msg = JSON.parse(bytes.toString('utf8'));
    } catch {
      return wsSend(ws, rpcError(null, -32700, 'Parse error'));
    }
    if (Array.isArray(msg)) return wsSend(ws, rpcError(null, -32600, 'Invalid request: the websocket takes one request per message, not a batch'));
    if (msg === null || typeof msg !== 'object') return wsSend(ws, rpcError(null, -32600, 'Invalid request: expected a JSON-RPC 2.0 object'));
    const { id, method, params } = msg as { id?: unknown; method?: unknown; params?: unknown };
    if (!isRpcId(id)) return wsSend(ws, rpcError(null, -32600, 'Invalid request: "id" must be a string, a number or null'));
    if (id === undefined || id === null) return; // notifications (web3.js sends "ping") need no answer
    const p = Array.isArray(params) ? params : [];
    const subscribing = method === 'signatureSubscribe' || method === 'slotSubscribe';
    if (subscribing && sigSubs.size + slotSubs.size >= limits.maxSubscriptions) {
      return wsSend(ws, rpcError(id, -32603, `Internal error: subscription refused: ${limits.maxSubscriptions} subscriptions are open (the devnet's maxSubscriptions)`));
    }
    switch (method) {
      case 'signatureSubscribe': {
        // checked on every slot until it lands: only a real signature is worth keeping
        if (typeof p[0] !== 'string' || !BASE58_SIGNATURE.test(p[0])) return wsSend(ws, rpcError(id, -32602, 'Invalid params: params[0] must be a base58 signature'));
        const c = (p[1] ?? {}) as { commitment?: string };
        const commitment: Commitment = c.commitment === 'processed' || c.commitment === 'confirmed' ? c.commitment : 'finalized';
        const sub: SigSub = { id: nextSub++, ws, signature: p[0], commitment };
        sigSubs.set(sub.id, sub);
        wsSend(ws, { jsonrpc: '2.0', id, result: sub.id });
        return checkSig(sub);
      }
      case 'slotSubscribe': {
        const sid = nextSub++;
        slotSubs.set(sid, ws);
        return wsSend(ws, { jsonrpc: '2.0', id, result: sid });
      }
      case 'signatureUnsubscribe':
      case 'slotUnsubscribe': {
        const sid = p[0];
        const had = typeof sid === 'number' && (method === 'signatureUnsubscribe' ? sigSubs.delete(sid) : slotSubs.delete(sid));
        return wsSend(ws, { jsonrpc: '2.0', id, result: had });
      }
      default:
        return wsSend(ws, rpcError(id, -32601, typeof method === 'string' && method.length <= MAX_METHOD_NAME ? `Method not found: ${method}` : 'Method not found'));
    }
  };
  wss.on('connection', (ws) => {
    ws.on('message', (data) => {
      // A throw here would escape into ws' socket handler and take the whole process down.
      try {
        onWsMessage(ws, data);
      } catch (e) {
        log(`devnet: internal error on the websocket: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        wsSend(ws, rpcError(null, -32603, 'Internal error'));
      }
    });
    ws.on('close', () => {
      for (const [sid, s] of sigSubs) if (s.ws === ws) sigSubs.delete(sid);
      for (const [sid, w] of slotSubs) if (w === ws) slotSubs.delete(sid);
    });
    ws.on('error', () => {});
  });
  const onUpgrade = (req: IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => {
    if (closing) return socket.destroy();
    const q = (req.url ?? '').indexOf('?');
    const verdict = auth.check('rpc', new URLSearchParams(q < 0 ? '' : (req.url ?? '').slice(q + 1)).get('api-key'), req.socket.remoteAddress ?? '');
    if (!verdict.ok) {
      socket.end(`HTTP/1.1 ${verdict.status} ${verdict.status === 401 ? 'Unauthorized' : verdict.status === 403 ? 'Forbidden' : 'Too Many Requests'}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };

  const servers: Server[] = [];
  const listen = (port: number, host: string): Promise<Server> =>
    new Promise((resolve, reject) => {
      const s = createServer({ keepAliveTimeout: 30_000 }, onRequest);
      s.on('upgrade', onUpgrade);
      s.once('error', reject);
      s.listen(port, host, () => {
        s.off('error', reject);
        resolve(s);
      });
    });

  const host = o.host ?? '127.0.0.1';
  let main: Server;
  try {
    main = await listen(o.port ?? 0, host);
  } catch (cause) {
    unsubscribeSlot();
    throw new CairnError('DEVNET_START_FAILED', `devnet cannot listen on ${host}:${o.port ?? 0}: ${(cause as Error).message}`, { cause, context: { host, port: o.port ?? 0 } });
  }
  servers.push(main);
  const port = (main.address() as AddressInfo).port;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  let wsUrl = `ws://${hostInUrl}:${port}`;
  if (o.wsPortPlusOne && port < 65535) {
    try {
      servers.push(await listen(port + 1, host));
      wsUrl = `ws://${hostInUrl}:${port + 1}`;
    } catch {
      log(`devnet: port ${port + 1} is taken; websockets are served on ${port} only`);
    }
  }

  return {
    url: `http://${hostInUrl}:${port}`,
    wsUrl,
    requestLog: () => requestLog.slice(-REQUEST_LOG_CAPACITY),
    methods: () => [...methods.keys()].sort(),
    clearRequestLog: () => {
      requestLog.length = 0;
    },
    mount,
    setPending(p) {
      pending = p;
    },
    async close() {
      if (closing) return;
      closing = true;
      for (const ac of active) ac.abort(new Error('devnet stopping'));
      unsubscribeSlot();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
