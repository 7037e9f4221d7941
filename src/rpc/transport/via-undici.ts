/**
 * One attempt through undici: every `https:` request. An undici `Agent` keeps one keep-alive `Pool`
 * per origin; undici's TLS client costs about half node:https's CPU per small call (see
 * bench/results/rpc.md). The attempt goes through `dispatch` with a handler of our own rather than
 * `request()`: no body stream is built, the size cap is checked per chunk, and the answer, timeout,
 * abort and failures become the same typed errors and bodies as on the other paths (response.ts).
 * undici is loaded on the first https request: importing it costs ~75 ms, which a process that
 * only verifies proofs or talks plain http to a devnet should not pay.
 */
import type { ConnectionOptions } from 'node:tls';
import type { Agent, Dispatcher } from 'undici';
import { abortError } from '../../abort.js';
import { ErrorCodes, NetworkError } from '../../errors/index.js';
import { interpret, timeoutError, tooLarge, truncated, type ReadResponse, type RequestLike } from './response.js';
import { sharedBody } from './body-in-shared-memory.js';
import type { Target } from './target.js';

export interface UndiciAgentOptions {
  /** Reuse connections; `false` sends `connection: close` and opens one per request. */
  keepAlive: boolean;
  /** Connections per origin. */
  maxSockets: number;
  /** TLS options for the connection (tests hand in their own CA). */
  tls?: ConnectionOptions;
}

/** Idle keep-alive sockets are closed after this long, as node's agents do with keepAliveMsecs. */
const KEEP_ALIVE_MS = 4_000;

/**
 * The agent every https attempt of one transport goes through (one keep-alive pool per origin).
 *
 * @example
 * const agent = await createUndiciAgent({ keepAlive: true, maxSockets: 64 });
 */
export async function createUndiciAgent(o: UndiciAgentOptions): Promise<Agent> {
  const { Agent } = await import('undici');
  return new Agent({
    connections: o.maxSockets,
    pipelining: 1,
    keepAliveTimeout: KEEP_ALIVE_MS,
    keepAliveMaxTimeout: KEEP_ALIVE_MS * 15,
    ...(o.tls ? { connect: o.tls } : {}),
  });
}

const HEADERS = { accept: 'application/json' };
const HEADERS_JSON = { accept: 'application/json', 'content-type': 'application/json' };

/**
 * Send `req` to `target` through `agent`, failing after `timeoutMs` or with a body over `maxBytes`.
 * `keepAlive: false` asks the server to close the connection after the answer.
 *
 * @example
 * const res = await viaUndici(agent, target, req, 10_000, 64 << 20, true);
 */
export function viaUndici(
  agent: Dispatcher,
  target: Target,
  req: RequestLike & { body?: string },
  timeoutMs: number,
  maxBytes: number,
  keepAlive = true,
): Promise<ReadResponse> {
  const display = target.display;
  if (req.signal?.aborted) return Promise.reject(abortError(ErrorCodes.RPC_ABORTED, req.signal, `${req.label ?? req.method} request`));
  return new Promise((resolve, reject) => {
    let settled = false;
    let controller: Dispatcher.DispatchController | undefined;
    // an abort or timeout before undici hands out its controller (the request still queued) is
    // applied as soon as it does
    let cancelled: Error | undefined;
    let status = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    const chunks: Buffer[] = [];
    let total = 0;

    const finish = (err: Error | undefined, value?: ReadResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      if (err) {
        // stop the exchange: the socket is closed rather than reused with an unread body on it
        cancelled = err;
        if (controller && !controller.aborted) controller.abort(err);
        reject(err);
      } else resolve(value!);
    };
    const onAbort = (): void => finish(abortError(ErrorCodes.RPC_ABORTED, req.signal, `${req.label ?? req.method} request`));
    const failed = (cause: Error): NetworkError =>
      new NetworkError(ErrorCodes.RPC_NETWORK, `${req.label ?? req.method} to ${display} failed: ${cause.message}`, {
        context: { url: display, method: req.method },
        cause,
      });

    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (cancelled) c.abort(cancelled);
      },
      onResponseStart(c, statusCode, h) {
        if (settled) return;
        status = statusCode;
        headers = h as Record<string, string | string[] | undefined>;
        const declared = Number(h['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) finish(tooLarge(display, req, declared, maxBytes));
      },
      onResponseData(_c, chunk) {
        if (settled) return;
        total += chunk.length;
        if (total > maxBytes) return finish(tooLarge(display, req, total, maxBytes));
        chunks.push(chunk);
      },
      onResponseEnd() {
        if (settled) return;
        try {
          finish(undefined, interpret(status, headers, req.responseType === 'bytes' ? sharedBody(chunks, total) : Buffer.concat(chunks, total), display, req));
        } catch (e) {
          finish(e as Error);
        }
      },
      onResponseError(_c, err) {
        if (settled) return;
        // a body cut off after the headers is a bad response; anything before them a failed connection
        finish(status !== 0 ? truncated(display, req, err) : failed(err));
      },
    };

    const timer = setTimeout(() => finish(timeoutError(display, req, timeoutMs)), timeoutMs);
    req.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      agent.dispatch(
        {
          origin: `https://${target.host}`,
          path: target.path,
          method: req.method as Dispatcher.HttpMethod,
          headers: req.body === undefined ? HEADERS : HEADERS_JSON,
          ...(req.body === undefined ? {} : { body: req.body }),
          // undici's own idle timers as a second line; the attempt's timer above bounds the whole
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
          reset: !keepAlive,
        },
        handler,
      );
    } catch (cause) {
      // undici checks its arguments as it is called (a closed agent throws here)
      finish(failed(cause as Error));
    }
  });
}
