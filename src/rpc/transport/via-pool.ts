/**
 * One attempt over plain http through the lean keep-alive pool (pool/pool.ts): the pool's failure
 * kinds and the answer become the same typed errors and bodies as on the node:http path.
 */
import type { HttpPool } from './pool/pool.js';
import { failureError, interpret, type ReadResponse, type RequestLike } from './response.js';
import type { Target } from './target.js';

/**
 * Send `req` to `target` on `pool`, failing after `timeoutMs` or with a body over `maxBytes`.
 *
 * @example
 * const res = await viaPool(pool, targets.get(req, key), req, 10_000, 64 << 20);
 */
export function viaPool(
  pool: HttpPool,
  target: Target,
  req: RequestLike & { body?: string; idempotent?: boolean; warmConnection?: boolean },
  timeoutMs: number,
  maxBytes: number,
): Promise<ReadResponse> {
  return new Promise((resolve, reject) => {
    pool.request(
      { hostname: target.hostname, port: target.port, host: target.host, path: target.path, method: req.method, body: req.body, timeoutMs, maxBytes, signal: req.signal, ...(req.responseType === 'bytes' ? { shared: true } : {}), ...(req.idempotent === false ? { idempotent: false } : {}), ...(req.warmConnection ? { warmConnection: true } : {}) },
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
