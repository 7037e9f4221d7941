/**
 * JSON-RPC 2.0 over the transport: string ids unique per client, the echoed id checked, `error`
 * objects turned into `RpcError { rpcCode, message, data }`, and the `result` validated against the
 * method's shape before anyone reads it. JSON-RPC errors that arrive with an HTTP 4xx (the /fast
 * host answers 400 with -32602) are surfaced as `RpcError` too, carrying the HTTP status.
 */
import { BadResponseError, CairnError, ErrorCodes, HttpError, RpcError } from '../errors/index.js';
import { parseJson, stringifyJson } from './json.js';
import { rpcMethodSafety } from './retry/idempotency.js';
import type { RetryPolicy } from './retry/policy.js';
import type { Transport, TransportRequest } from './transport/create-transport.js';
import { assertShape, type Validator } from './validate.js';
import { scanJson, rememberTape, T_ARRAY, T_OBJECT } from '../json/index.js';

/** Per-call options every client method takes last. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Per-attempt timeout in ms (overrides the client's). */
  timeoutMs?: number;
  /**
   * Overall deadline of the call in ms: every attempt, backoff and Retry-After wait, and every
   * request of a call split into several, together (overrides the client's; default 60,000). Past it
   * the call fails with `RPC_DEADLINE`, the last failure as its cause.
   */
  deadlineMs?: number;
  /** The same deadline as a point on `performance.now()`'s clock; the client sets it from `deadlineMs`. */
  deadlineAt?: number;
  /** Retry policy overrides for this call. */
  retry?: Partial<RetryPolicy>;
}

export interface JsonRpcCall<T> {
  method: string;
  params: unknown;
  /** Shape of `result`; when absent the result is returned unchecked. */
  validate?: Validator<T>;
  /** Host URL (default: the client's JSON-RPC base URL). */
  url?: string;
  query?: TransportRequest['query'];
  /** Add the API key (default true). */
  auth?: boolean;
}

export interface JsonRpc {
  call<T>(call: JsonRpcCall<T>, opts?: CallOptions): Promise<T>;
  /**
   * The call, answered with the response body's bytes as received (envelope checked: JSON, the
   * id, no `error`), for `createVerifier().verify(kind, bytes)`: nothing is parsed on this thread.
   */
  callRaw(call: Omit<JsonRpcCall<unknown>, 'validate'>, opts?: CallOptions): Promise<Uint8Array>;
}

let clientSeq = 0;

/**
 * A JSON-RPC caller bound to a transport and a default URL.
 *
 * @example
 * const rpc = createJsonRpc(transport, 'http://127.0.0.1:8899');
 * const slot = await rpc.call({ method: 'getSlot', params: [] });
 */
export function createJsonRpc(transport: Transport, defaultUrl: string): JsonRpc {
  // ids: a per-client prefix plus a counter, so concurrent clients in one process never collide
  const prefix = `c${(++clientSeq).toString(36)}-`;
  let seq = 0;
  async function send(c: Omit<JsonRpcCall<unknown>, 'validate'>, opts: CallOptions, responseType: 'json' | 'bytes'): Promise<{ id: string; body: unknown }> {
    const id = prefix + (++seq).toString(36);
    const body = stringifyJson({ jsonrpc: '2.0', id, method: c.method, params: c.params });
    // a call that changes state is never sent again in the dark (retry/idempotency.ts, retry/outcome.ts)
    const safety = rpcMethodSafety(c.method);
    try {
      const res = await transport.request({
        url: c.url ?? defaultUrl,
        method: 'POST',
        body,
        query: c.query,
        auth: c.auth,
        label: c.method,
        signal: opts.signal,
        timeoutMs: opts.timeoutMs,
        deadlineMs: opts.deadlineMs,
        deadlineAt: opts.deadlineAt,
        retry: opts.retry,
        ...(safety.changesState ? { idempotent: false, findOut: safety.findOut } : {}),
        ...(safety.signedBytes ? { warmConnection: true } : {}),
        ...(responseType === 'bytes' ? { responseType } : {}),
      });
      return { id, body: res.body };
    } catch (e) {
      throw rpcErrorFromHttp(e, c.method) ?? e;
    }
  }
  return {
    async call<T>(c: JsonRpcCall<T>, opts: CallOptions = {}): Promise<T> {
      const { id, body } = await send(c, opts, 'json');
      return unwrap<T>(body, id, c.method, c.validate);
    },
    async callRaw(c, opts = {}) {
      const { id, body } = await send(c, opts, 'bytes');
      // A transport of one's own (tests, the devnet in-process) may answer parsed JSON regardless.
      const bytes = body instanceof Uint8Array ? body : Buffer.from(typeof body === 'string' ? body : stringifyJson(body));
      checkRawEnvelope(bytes, id, c.method);
      return bytes;
    },
  };
}

/** Check the envelope and id, raise `error`, validate and return `result`. */
export function unwrap<T>(body: unknown, id: string, method: string, validate?: Validator<T>): T {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw notAnEnvelope(method, Array.isArray(body) ? 'an array' : typeof body);
  const env = body as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
  checkEnvelope(env, 'result' in env, id, method);
  return validate ? assertShape(validate, env.result, 'result', method) : (env.result as T);
}

function notAnEnvelope(method: string, got: string): BadResponseError {
  return new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `${method}: expected a JSON-RPC response object, got ${got}`, {
    context: { method, path: '$', detail: 'not an envelope' },
  });
}

/** `jsonrpc: "2.0"`, `error` (raised as `RpcError`), the id, and a `result` (`hasResult`). */
function checkEnvelope(env: { jsonrpc?: unknown; id?: unknown; error?: unknown }, hasResult: boolean, id: string, method: string): void {
  if (env.jsonrpc !== '2.0') {
    throw new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `${method}: expected "jsonrpc": "2.0", got ${JSON.stringify(env.jsonrpc) ?? 'nothing'}`, {
      context: { method, path: 'jsonrpc' },
    });
  }
  if (env.error !== undefined && env.error !== null) {
    // an error may come with a null id (parse errors); only a different non-null id is a mismatch
    if (env.id !== id && env.id !== null && env.id !== undefined) throw idMismatch(method, id, env.id);
    throw toRpcError(env.error, method);
  }
  if (env.id !== id) throw idMismatch(method, id, env.id);
  if (!hasResult) {
    throw new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `${method}: response has neither "result" nor "error"`, {
      context: { method, path: 'result' },
    });
  }
}

/**
 * `unwrap`'s checks on a raw body, read through its structure (src/json/index.ts) instead of a parse: only the
 * envelope's small members are decoded, never `result`. The scan is kept with the bytes, so
 * verifying them does not scan again.
 */
function checkRawEnvelope(bytes: Uint8Array, id: string, method: string): void {
  let tape;
  try {
    tape = scanJson(bytes);
  } catch (cause) {
    const over = cause instanceof CairnError && cause.code === ErrorCodes.INPUT_TOO_LARGE;
    const what = over ? 'over a JSON limit' : 'not JSON';
    throw new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `${method}: response is ${what} (${(cause as Error).message})`, {
      context: { method, path: '$', detail: what },
      cause,
    });
  }
  if (tape.type(0) !== T_OBJECT) throw notAnEnvelope(method, tape.type(0) === T_ARRAY ? 'an array' : 'a scalar');
  const member = (name: string): unknown => {
    const e = tape.member(0, name);
    return e < 0 ? undefined : tape.value(e);
  };
  checkEnvelope({ jsonrpc: member('jsonrpc'), id: member('id'), error: member('error') }, tape.member(0, 'result') >= 0, id, method);
  rememberTape(tape);
}

function idMismatch(method: string, sent: string, got: unknown): BadResponseError {
  return new BadResponseError(
    ErrorCodes.RPC_ID_MISMATCH,
    `${method}: response id ${JSON.stringify(got) ?? 'undefined'} does not match request id ${JSON.stringify(sent)}`,
    { context: { method, path: 'id', detail: `sent ${sent}` } },
  );
}

function toRpcError(error: unknown, method: string, status?: number): RpcError {
  const e = error as { code?: unknown; message?: unknown; data?: unknown };
  const rpcCode = typeof e?.code === 'number' ? e.code : Number.NaN;
  const message = typeof e?.message === 'string' ? e.message : typeof error === 'string' ? error : 'unknown JSON-RPC error';
  return new RpcError(ErrorCodes.RPC_ERROR, `${method} failed: ${message} (JSON-RPC ${Number.isNaN(rpcCode) ? '?' : rpcCode})`, {
    context: { rpcCode, data: e?.data, method, ...(status ? { status } : {}) },
  });
}

/**
 * A plain 4xx (not 401/403/429, which keep their own types) whose body is a JSON-RPC error becomes
 * that `RpcError`, with the HTTP error as its cause.
 */
function rpcErrorFromHttp(e: unknown, method: string): RpcError | undefined {
  if (!(e instanceof HttpError) || e.code !== ErrorCodes.RPC_HTTP) return undefined;
  const text = e.context.body;
  if (!text) return undefined;
  try {
    const body = parseJson(text) as { error?: unknown };
    if (body && typeof body === 'object' && body.error && typeof body.error === 'object') {
      const err = toRpcError(body.error, method, e.context.status);
      return new RpcError(ErrorCodes.RPC_ERROR, err.message, { context: err.context, cause: e });
    }
  } catch {
    /* not JSON: keep the HttpError */
  }
  return undefined;
}
