/**
 * One attempt through node's own clients: plain `http:` requests when the transport was built with
 * `client: 'node:http'`, and `https:` ones when it was built with `https: 'node:https'` (kept for the
 * benchmark's comparison; undici carries https by default). Same timeout, abort, size cap and typed errors as
 * the lean pool's path.
 */
import http from 'node:http';
import https from 'node:https';
import { abortError } from '../../abort.js';
import { ErrorCodes, NetworkError } from '../../errors/index.js';
import { interpret, timeoutError, tooLarge, truncated, type ReadResponse, type RequestLike } from './response.js';
import { sharedBody } from './body-in-shared-memory.js';
import type { Target } from './target.js';

/** The keep-alive agents an attempt goes through, one per scheme. */
export interface NodeAgents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * Send `req` to `target` through `agents`, failing after `timeoutMs` or with a body over `maxBytes`.
 *
 * @example
 * const res = await viaNodeHttp({ http: new http.Agent(), https: new https.Agent() }, target, req, 10_000, 64 << 20);
 */
export function viaNodeHttp(
  agents: NodeAgents,
  target: Target,
  req: RequestLike & { body?: string },
  timeoutMs: number,
  maxBytes: number,
): Promise<ReadResponse> {
  const display = target.display;
  return new Promise((resolve, reject) => {
    let settled = false;
    const isHttps = target.protocol === 'https:';
    const headers: Record<string, string | number> = { accept: 'application/json' };
    const bodyBuf = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
    if (bodyBuf) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = bodyBuf.length;
    }
    const finish = (err: unknown, value?: ReadResponse): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      if (err) {
        r.destroy();
        reject(err);
      } else resolve(value!);
    };
    const failed = (cause: unknown): NetworkError =>
      new NetworkError(ErrorCodes.RPC_NETWORK, `${req.label ?? req.method} to ${display} failed: ${(cause as Error).message}`, {
        context: { url: display, method: req.method },
        cause,
      });
    const onAbort = (): void => finish(abortError(ErrorCodes.RPC_ABORTED, req.signal, `${req.label ?? req.method} request`));
    const onResponse = (res: http.IncomingMessage): void => {
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
    };
    let r: http.ClientRequest;
    try {
      r = (isHttps ? https : http).request(target.href, { method: req.method, headers, agent: isHttps ? agents.https : agents.http }, onResponse);
    } catch (cause) {
      // node:http checks its arguments as it is called; no timer or listener is armed yet, so none is left
      return reject(failed(cause));
    }
    const timer = setTimeout(() => finish(timeoutError(display, req, timeoutMs)), timeoutMs);
    r.on('error', (cause) => {
      if (settled) return;
      finish(failed(cause));
    });
    if (req.signal?.aborted) return onAbort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    r.end(bodyBuf);
  });
}
