/**
 * What an HTTP answer means for a request: a 2xx body read as JSON, text or bytes, and every other
 * outcome (a status, a timeout, a body too large or cut off, a failed connection) as its typed error.
 * Messages name the request by its key-less URL, and server snippets are cut after redacting, so
 * no part of the API key can ride along.
 */
import type http from 'node:http';
import { abortError } from '../../abort.js';
import {
  BadResponseError,
  CairnError,
  ErrorCodes,
  ForbiddenError,
  HttpError,
  NetworkError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  UnauthorizedError,
} from '../../errors/index.js';
import { redactSlice } from '../../redact.js';
import type { HttpFailure } from './pool/pool.js';
import { parseJson } from '../json.js';

/** What of a request the messages and the reading need (a `TransportRequest` is one). */
export interface RequestLike {
  method: string;
  label?: string;
  signal?: AbortSignal;
  responseType?: 'json' | 'text' | 'bytes';
}

/** A read answer: the body parsed (JSON), as text or as the bytes, per `responseType`. */
export interface ReadResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** Server-sent error bodies kept in error contexts are cut to this many characters. */
const ERROR_BODY_CHARS = 2_000;

export function describe(error: unknown): string {
  if (error instanceof CairnError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** A 2xx body as JSON, text or bytes; any other status as its typed error (thrown). */
export function interpret(
  status: number,
  headers: http.IncomingHttpHeaders,
  raw: Buffer,
  display: string,
  req: RequestLike,
): ReadResponse {
  if (status >= 200 && status < 300 && req.responseType === 'bytes') return { status, headers, body: raw };
  const text = raw.toString('utf8');
  if (status < 200 || status >= 300) throw statusError(status, headers, text, display, req);
  if (req.responseType === 'text') return { status, headers, body: text };
  let body: unknown;
  try {
    body = parseJson(text);
  } catch (cause) {
    // A number or a nesting past the JSON limits is a hostile or broken body, not a non-JSON one.
    const over = cause instanceof CairnError && cause.code === ErrorCodes.INPUT_TOO_LARGE;
    throw new BadResponseError(
      ErrorCodes.RPC_BAD_RESPONSE,
      `${req.label ?? req.method} to ${display}: response is ${over ? 'over a JSON limit' : 'not JSON'} (${(cause as Error).message}); body starts ${JSON.stringify(redactSlice(text, 80))}`,
      { context: { url: display, method: req.method, detail: over ? 'over a JSON limit' : 'not JSON' }, cause },
    );
  }
  return { status, headers, body };
}

/** The pool's failure kinds as the same typed errors the node:http path raises. */
export function failureError(f: HttpFailure, display: string, req: RequestLike, timeoutMs: number, maxBytes: number): Error {
  switch (f.kind) {
    case 'abort':
      return abortError(ErrorCodes.RPC_ABORTED, req.signal, `${req.label ?? req.method} request`);
    case 'timeout':
      return timeoutError(display, req, timeoutMs);
    case 'too-large':
      return tooLarge(display, req, f.got, maxBytes);
    case 'truncated':
      return truncated(display, req, f.cause);
    default: {
      const cause = f.cause ?? f;
      return new NetworkError(ErrorCodes.RPC_NETWORK, `${req.label ?? req.method} to ${display} failed: ${(cause as Error).message}`, {
        context: { url: display, method: req.method, ...(f.notSent ? { notSent: true } : {}) },
        cause,
      });
    }
  }
}

export function timeoutError(display: string, req: RequestLike, timeoutMs: number): TimeoutError {
  return new TimeoutError(ErrorCodes.RPC_TIMEOUT, `${req.label ?? req.method} to ${display} timed out after ${timeoutMs} ms`, {
    context: { url: display, method: req.method },
  });
}

export function tooLarge(display: string, req: RequestLike, got: number, max: number): BadResponseError {
  return new BadResponseError(
    ErrorCodes.RPC_RESPONSE_TOO_LARGE,
    `${req.label ?? req.method} to ${display}: response exceeds ${max} bytes (got at least ${got})`,
    { context: { url: display, method: req.method, detail: `limit ${max} bytes` } },
  );
}

export function truncated(display: string, req: RequestLike, cause?: unknown): BadResponseError {
  return new BadResponseError(
    ErrorCodes.RPC_BAD_RESPONSE,
    `${req.label ?? req.method} to ${display}: response body was cut off before its end`,
    { context: { url: display, method: req.method, detail: 'truncated' }, cause },
  );
}

/** Seconds or an HTTP date, per RFC 9110 §10.2.3. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return undefined;
  const s = v.trim();
  // The server's value as it is: the retry policy decides whether it is worth waiting for.
  if (/^\d+(\.\d+)?$/.test(s)) return Math.round(Number(s) * 1000);
  const at = Date.parse(s);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Characters of a server's own error message kept in ours. */
const SERVER_MESSAGE_CHARS = 500;

/** Pull a human message out of an error body: `{error:"…"}`, `{error:{message}}`, `{message}` or text. */
function serverMessage(text: string): string {
  try {
    const j = JSON.parse(text) as { error?: unknown; message?: unknown };
    const e = j?.error;
    if (typeof e === 'string') return redactSlice(e, SERVER_MESSAGE_CHARS);
    if (e && typeof (e as { message?: unknown }).message === 'string') return redactSlice((e as { message: string }).message, SERVER_MESSAGE_CHARS);
    if (typeof j?.message === 'string') return redactSlice(j.message, SERVER_MESSAGE_CHARS);
  } catch {
    /* not JSON: fall through to the text */
  }
  return redactSlice(text, 200);
}

function statusError(
  status: number,
  headers: http.IncomingHttpHeaders,
  text: string,
  display: string,
  req: RequestLike,
): HttpError {
  const body = redactSlice(text, ERROR_BODY_CHARS);
  const ctx = { status, url: display, method: req.method, body };
  const what = `${req.label ?? req.method} to ${display}`;
  const msg = serverMessage(text);
  const said = msg ? `: ${msg}` : '';
  if (status === 401) return new UnauthorizedError(ErrorCodes.RPC_UNAUTHORIZED, `${what} was refused (401, check the API key)${said}`, { context: ctx });
  if (status === 403) return new ForbiddenError(ErrorCodes.RPC_FORBIDDEN, `${what} is forbidden (403: IP restriction, plan or key permission)${said}`, { context: ctx });
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(headers['retry-after']);
    return new RateLimitedError(
      ErrorCodes.RPC_RATE_LIMITED,
      `${what} was rate limited (429${retryAfterMs === undefined ? '' : `, Retry-After ${retryAfterMs} ms`})${said}`,
      { context: { ...ctx, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) } },
    );
  }
  if (status >= 500) return new ServerError(ErrorCodes.RPC_SERVER, `${what} failed with HTTP ${status}${said}`, { context: ctx });
  return new HttpError(ErrorCodes.RPC_HTTP, `${what} failed with HTTP ${status}${said}`, { context: ctx });
}
