/**
 * Which connection runs a job: the most recently idle one of its origin that has not expired (LIFO:
 * the warmest socket, and the cold ones age out), else a new one while the origin is under
 * `maxSockets`, else the job waits in order. A connection that finishes takes the next waiting job
 * or goes idle; one that dies frees its place for the next waiting job.
 */
import type { Conn, Job } from './job.js';
import { Connection, type ConnectionHost } from './socket.js';

/**
 * A signed transaction (`warmConnection`) takes an idle connection used this recently: servers
 * close idle connections after seconds (5 s is the common default), and one used a moment ago is
 * not the one being closed. Older idle ones are left to reads, which can be sent again.
 */
export const WARM_REUSE_MS = 2_000;

/** The pool's scheduling, which its connections call back into. */
export interface PoolQueue extends ConnectionHost {
  /** Set by the pool's close(): finished connections are destroyed from then on. */
  closed: boolean;
}

/**
 * The queue of a pool whose connections send `connection: close` unless `keepAlive`, at most
 * `maxSockets` per origin.
 *
 * @example
 * const queue = createPoolQueue({ keepAlive: true, maxSockets: 64 });
 * queue.dispatch(job); // job.origin says where it goes
 */
export function createPoolQueue(options: { keepAlive: boolean; maxSockets: number }): PoolQueue {
  const { maxSockets } = options;
  const queue: PoolQueue = {
    keepAlive: options.keepAlive,
    closed: false,
    dispatch(job: Job): void {
      const o = job.origin;
      const now = performance.now();
      // A request that changes state skips the idle connections: one the server is closing for its
      // idle timeout would take the request down with it, and it could not be sent again safely. A
      // signed transaction takes the warmest if it was used a moment ago: it cannot act twice, and
      // a fresh connection would add a handshake to every send.
      const warm = job.req.idempotent === false && job.req.warmConnection === true;
      while (o.idle.length > 0 && (job.req.idempotent !== false || (warm && now - o.idle[o.idle.length - 1]!.idleSince <= WARM_REUSE_MS))) {
        const conn = o.idle.pop()!;
        if (conn.dead) continue;
        if (now > conn.expiresAt) {
          conn.kill();
          continue;
        }
        conn.start(job);
        return;
      }
      // no room for the fresh connection a state-changing request needs: close the coldest idle one
      if (job.req.idempotent === false && o.count >= maxSockets && o.idle.length > 0) o.idle[0]!.kill();
      if (o.count < maxSockets) {
        o.count++;
        new Connection(o, queue).start(job);
        return;
      }
      o.queue.push(job);
    },
    release(conn: Conn, reusable: boolean): void {
      const o = conn.origin;
      if (!reusable) {
        o.count--;
        const next = o.queue.shift();
        if (next) queue.dispatch(next);
        return;
      }
      const next = o.queue.shift();
      if (next) conn.start(next);
      else conn.park();
    },
  };
  return queue;
}
