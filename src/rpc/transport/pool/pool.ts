/**
 * A lean HTTP/1.1 keep-alive client for plain `http:` origins, used by the transport instead of
 * node:http's client, which costs about four times the CPU per small request on this kind of machine
 * (its agent, ClientRequest/IncomingMessage streams and header validation run on every call; see
 * bench/results/rpc.md). It writes one pre-built request per connection at a time (no pipelining),
 * parses the status line, headers and a Content-Length, chunked or read-until-close body, keeps idle
 * connections per origin (LIFO, unref'd so they never hold the process open, dropped before the
 * server's advertised `Keep-Alive: timeout`), and reports failures as plain `HttpFailure` kinds the
 * transport turns into its typed errors. A request that finds its reused idle connection already
 * closed by the server (nothing received) is sent again once on a fresh connection: the server never
 * read it, which is the race every keep-alive client has with a server's idle timeout.
 *
 * This file is the wiring: a job per request with its timeout and abort, and close(). The parts:
 * the request's bytes (request.ts), the response reader (parser.ts), a
 * connection (socket.ts), which connection runs a job (queue.ts), a job's life
 * (job.ts).
 */
import { HttpFailure } from './failure.js';
import { cancel, settle, type Job, type Origin, type PoolCallback, type PoolRequest } from './job.js';
import { createPoolQueue } from './queue.js';

export { HttpFailure } from './failure.js';
export type { PoolCallback, PoolRequest } from './job.js';

export interface HttpPoolOptions {
  /** Reuse connections (default true); `false` sends `connection: close` and opens one per request. */
  keepAlive?: boolean;
  /** Connections per origin (default 64); further requests wait in order. */
  maxSockets?: number;
}

export interface HttpPool {
  request(req: PoolRequest, done: PoolCallback): void;
  /** Destroy every connection and fail queued requests. */
  close(): void;
}

/**
 * Create a pool of keep-alive connections.
 *
 * @example
 * const pool = createHttpPool({ maxSockets: 16 });
 * pool.request({ hostname: '127.0.0.1', port: 8899, host: '127.0.0.1:8899', path: '/', method: 'POST',
 *   body: '{"jsonrpc":"2.0","id":"1","method":"getSlot"}', timeoutMs: 5_000, maxBytes: 1 << 20 },
 *   (err, res) => console.log(err ?? res!.status));
 * pool.close();
 */
export function createHttpPool(options: HttpPoolOptions = {}): HttpPool {
  const queue = createPoolQueue({ keepAlive: options.keepAlive ?? true, maxSockets: options.maxSockets ?? 64 });
  const origins = new Map<string, Origin>();

  function originOf(req: PoolRequest): Origin {
    const key = `${req.hostname}:${req.port}`;
    let o = origins.get(key);
    if (!o) {
      o = { key, hostname: req.hostname, port: req.port, all: new Set(), idle: [], count: 0, queue: [] };
      origins.set(key, o);
    }
    return o;
  }

  return {
    request(req, done) {
      const job: Job = { req, done, origin: originOf(req), conn: undefined, timer: undefined, onAbort: undefined, resent: false, settled: false };
      if (queue.closed) return settle(job, new HttpFailure('network', 'connection pool is closed'));
      const signal = req.signal;
      if (signal) {
        if (signal.aborted) return settle(job, new HttpFailure('abort', 'aborted'));
        job.onAbort = () => cancel(job, new HttpFailure('abort', 'aborted'));
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      job.timer = setTimeout(() => cancel(job, new HttpFailure('timeout', `timed out after ${req.timeoutMs} ms`)), req.timeoutMs);
      queue.dispatch(job);
    },
    close() {
      queue.closed = true;
      for (const o of origins.values()) {
        for (const job of o.queue.splice(0)) settle(job, new HttpFailure('network', 'connection pool is closed'));
        for (const c of [...o.all]) {
          const job = c.job;
          c.kill();
          if (job) settle(job, new HttpFailure('network', 'connection pool is closed'));
        }
      }
    },
  };
}
