/**
 * One HTTP request through the devnet, in order: routing (`/`, `/fast`, `/ping`, the REST routes),
 * the API-key check (401/403/429), the fault injector (latency, 429, 5xx, drops on `/fast`, answers
 * lost after the request was served), the body's caps (size, nesting, batch length — checked on the raw bytes before JSON.parse), then the
 * REST handler or JSON-RPC dispatch, whose answer is held to the response-size cap.
 */
import { parseLossless } from '../../json/index.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sleep } from '../../abort.js';
import { CairnError, redact } from '../../errors/index.js';
import type { Auth } from './auth.js';
import type { Faults } from '../faults/endpoints.js';
import { readBody, send } from './io.js';
import { jsonShape } from './json-shape.js';
import type { RpcAnswer, RpcCall } from './dispatch.js';
import { rpcError, stringify } from './json-rpc.js';
import type { RouteMatch, RouteTable } from './routes.js';
import { DevnetRpcError, type DevnetLimits, type FaultEndpoint, type RequestLogEntry } from '../types.js';

export interface RequestHandlerDeps {
  auth: Auth;
  faults: Faults;
  routes: RouteTable;
  limits: DevnetLimits;
  dispatch(call: unknown, c: RpcCall): Promise<RpcAnswer>;
  record(e: RequestLogEntry): void;
  log: (line: string) => void;
  /** True once the server is stopping: a request still waiting has nothing to answer. */
  closing(): boolean;
}

/** One request being answered: where it went, and how to log and answer it. */
interface Exchange {
  at: number;
  res: ServerResponse;
  endpoint: FaultEndpoint;
  /** The log's name for it: a REST route's pattern, never a concrete path. */
  label: string;
  signalOf(): AbortSignal;
  /** The `lostRate` fault drew this request: serve it, then cut the connection instead of answering. */
  lost: boolean;
}

type Matched = Exclude<RouteMatch, { allowed: string[] } | null>;

export interface RequestHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** The devnet is stopping: abort every request still waiting (latency faults, slow handlers). */
  abortAll(): void;
}

/** The handler of every request; it never rejects for an answer it can still give. */
export function createRequestHandler(deps: RequestHandlerDeps): RequestHandler {
  const { auth, faults, record } = deps;
  /** In-flight requests' controllers, aborted on close. */
  const active = new Set<AbortController>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
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
    const goneAway = (): boolean => (ac ? ac.signal.aborted : deps.closing() || (res.destroyed && !res.writableFinished));
    try {
      // 1. route
      let endpoint: FaultEndpoint | 'ping';
      let route: Matched | null = null;
      if (path === '/ping' || path === '/fast/ping') {
        if (method !== 'GET' && method !== 'HEAD') return send(res, 405, stringify({ error: 'use GET /ping' }), { allow: 'GET' });
        endpoint = 'ping';
      } else if (path === '/' || path === '') {
        endpoint = 'rpc';
      } else if (path === '/fast') {
        endpoint = 'fast';
      } else {
        const m = deps.routes.match(method, path);
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
        return void res.end(method === 'HEAD' ? undefined : 'ok');
      }

      // 4. faults
      const fault = faults.decide(endpoint);
      // An abort (client gone, devnet stopping) only cuts the latency short: goneAway() decides what follows.
      if (fault.latencyMs > 0) await sleep(fault.latencyMs, signalOf()).catch(() => undefined);
      // Gone meanwhile (client left, or the devnet is stopping): nothing to answer.
      if (goneAway()) return;
      const x: Exchange = { at, res, endpoint, label, signalOf, lost: fault.lost === true };
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

      // 5. body
      const body = await readRequestJson(deps, x, req, method);
      if (body.answered) return;

      // 6. REST
      if (route) return await answerRest(deps, x, route, query, body.parsed);

      // 7. JSON-RPC
      if (method !== 'POST') {
        record({ at, endpoint, method: `${method} ${path}`, status: 405 });
        return send(res, 405, stringify(rpcError(null, -32600, 'JSON-RPC takes POST')), { allow: 'POST' });
      }
      const call: RpcCall = {
        endpoint: endpoint as 'rpc' | 'fast',
        signalOf,
        drop: fault.drop,
        ...(endpoint === 'rpc' ? { dropSend: () => faults.dropSend('rpc') } : {}),
        swqosOnly: query !== null && query.get('swqos_only') === 'true',
      };
      return await answerRpc(deps, x, body.parsed, call);
    } finally {
      if (ac) {
        res.off('close', onClose);
        active.delete(ac);
      }
    }
  };

  return {
    handle,
    abortAll() {
      for (const ac of active) ac.abort(new Error('devnet stopping'));
    },
  };
}

/** The body as JSON, its size, nesting and batch length checked on the raw bytes, before JSON.parse
 * builds anything from them; `answered` when a refusal has been sent instead. */
async function readRequestJson(
  deps: RequestHandlerDeps,
  x: Exchange,
  req: IncomingMessage,
  method: string,
): Promise<{ answered: true } | { answered: false; parsed: unknown }> {
  const { limits, record } = deps;
  const { at, res, endpoint, label } = x;
  const isRpc = endpoint === 'rpc' || endpoint === 'fast';
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') {
    req.resume();
    return { answered: false, parsed: undefined };
  }
  const raw = await readBody(req, limits.maxBodyBytes);
  if (raw === null) {
    record({ at, endpoint, method: label || endpoint, status: 413 });
    const message = `request body larger than ${limits.maxBodyBytes} bytes (the devnet's maxBodyBytes)`;
    // close: the rest of an oversized body is not worth reading
    send(res, 413, stringify(isRpc ? rpcError(null, -32600, `Invalid request: ${message}`) : { error: message }), { connection: 'close' });
    return { answered: true };
  }
  if (!raw.length) return { answered: false, parsed: undefined };
  const shape = jsonShape(raw, limits.maxJsonDepth);
  const refusal = shape.tooDeep
    ? `JSON nested deeper than ${limits.maxJsonDepth} levels (the devnet's maxJsonDepth)`
    : isRpc && shape.elements > limits.maxBatchLength
      ? `a batch of ${shape.elements} calls is over the limit of ${limits.maxBatchLength} (the devnet's maxBatchLength)`
      : null;
  if (refusal) {
    const status = isRpc ? (endpoint === 'fast' ? 400 : 200) : 400;
    record({ at, endpoint, method: label || 'invalid-request', status });
    send(res, status, stringify(isRpc ? rpcError(null, -32600, `Invalid request: ${refusal}`) : { error: `the body is ${refusal}` }));
    return { answered: true };
  }
  try {
    // JSON-RPC bodies are read losslessly: a u64 param past 2^53 (a slot, a lamport count) arrives
    // as an exact bigint, as Agave's serde reads it, never as a rounded double.
    return { answered: false, parsed: isRpc ? parseLossless(raw.toString('utf8'), 'bigint') : JSON.parse(raw.toString('utf8')) };
  } catch {
    if (isRpc) {
      record({ at, endpoint, method: 'parse-error', status: endpoint === 'fast' ? 400 : 200 });
      send(res, endpoint === 'fast' ? 400 : 200, stringify(rpcError(null, -32700, 'Parse error: the body is not valid JSON')));
    } else {
      record({ at, endpoint, method: label, status: 400 });
      send(res, 400, stringify({ error: 'the body is not valid JSON' }));
    }
    return { answered: true };
  }
}

/** UTF-8 takes at most 3 bytes per UTF-16 unit: short texts skip the byte count. */
function overCap(text: string, limits: DevnetLimits): boolean {
  return text.length * 3 > limits.maxResponseBytes && Buffer.byteLength(text) > limits.maxResponseBytes;
}

/** The answer of a served request, or (the `lostRate` fault) the connection cut instead: acted on, answer lost. */
function reply(x: Exchange, status: number, body: string, headers?: Record<string, string>): void {
  if (x.lost) return void x.res.destroy();
  send(x.res, status, body, headers);
}

async function answerRest(deps: RequestHandlerDeps, x: Exchange, route: Matched, query: URLSearchParams | null, parsed: unknown): Promise<void> {
  const { limits, record } = deps;
  const { at, endpoint, label } = x;
  try {
    const result = await route.route.handler({ params: route.params, query: query ?? new URLSearchParams(), body: parsed, signal: x.signalOf() });
    const text = stringify(result ?? null);
    if (overCap(text, limits)) {
      record({ at, endpoint, method: label, status: 500 });
      return reply(x, 500, stringify({ error: `the response is larger than ${limits.maxResponseBytes} bytes (the devnet's maxResponseBytes)` }));
    }
    record({ at, endpoint, method: label, status: 200 });
    return reply(x, 200, text);
  } catch (e) {
    if (e instanceof DevnetRpcError) {
      const status = e.httpStatus === 200 ? 400 : e.httpStatus;
      record({ at, endpoint, method: label, status });
      return reply(x, status, stringify({ error: redact(e.message) }));
    }
    if (e instanceof CairnError && e.code === 'INPUT_INVALID') {
      record({ at, endpoint, method: label, status: 400 });
      return reply(x, 400, stringify({ error: e.message }));
    }
    deps.log(`devnet: internal error in ${label}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    record({ at, endpoint, method: label, status: 500 });
    return reply(x, 500, stringify({ error: 'internal error' }));
  }
}

async function answerRpc(deps: RequestHandlerDeps, x: Exchange, parsed: unknown, call: RpcCall): Promise<void> {
  const { limits, record, log } = deps;
  const { at, endpoint } = x;
  /** One answer as JSON text; a result that cannot be written (nested past the stack) answers -32603. */
  const answerText = (body: Record<string, unknown>, method: string): string => {
    try {
      return stringify(body);
    } catch (e) {
      log(`devnet: the answer of ${method} cannot be written as JSON: ${e instanceof Error ? e.message : String(e)}`);
      return stringify(rpcError(body.id, -32603, 'Internal error: the result cannot be written as JSON'));
    }
  };
  const tooLarge = (id: unknown, data?: Record<string, number>, detail = ''): string =>
    stringify(rpcError(id, -32603, `Internal error: the response is larger than ${limits.maxResponseBytes} bytes (the devnet's maxResponseBytes)${detail}`, { maxResponseBytes: limits.maxResponseBytes, ...data }));
  const logged = (r: RpcAnswer) =>
    record({ at, endpoint: call.endpoint, method: r.method, status: r.status, ...(r.items !== undefined ? { items: r.items } : {}) });

  if (Array.isArray(parsed)) {
    if (parsed.length === 0) {
      record({ at, endpoint, method: 'batch', status: 200 });
      return reply(x, 200, stringify(rpcError(null, -32600, 'Invalid request: empty batch')));
    }
    // Each answer becomes text as it comes and is counted: the batch stops at the first answer
    // that takes the response past maxResponseBytes, and the error says how many calls ran.
    const parts: string[] = [];
    let bytes = parsed.length + 1; // brackets and commas
    for (let i = 0; i < parsed.length; i++) {
      const r = await deps.dispatch(parsed[i], call);
      logged(r);
      if (r.body === null) continue; // a notification adds no element
      const text = answerText(r.body, r.method);
      bytes += Buffer.byteLength(text);
      if (bytes > limits.maxResponseBytes) {
        return reply(x, 200, tooLarge(null, { callsRun: i + 1 }, `; ${i + 1} of ${parsed.length} calls ran (their answers are dropped), the rest did not`));
      }
      parts.push(text);
    }
    // Only notifications: no body at all, as Agave's jsonrpc-http-server answers (200, empty).
    return reply(x, 200, parts.length === 0 ? '' : `[${parts.join(',')}]`);
  }
  const r = await deps.dispatch(parsed, call);
  logged(r);
  if (r.body === null) return reply(x, 200, '');
  const text = answerText(r.body, r.method);
  return overCap(text, limits) ? reply(x, 200, tooLarge(r.body.id)) : reply(x, r.status, text);
}
