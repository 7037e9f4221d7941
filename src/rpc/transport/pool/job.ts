/**
 * One request's life in the lean HTTP pool: what the caller hands in (`PoolRequest`), what it gets
 * back, and the job that carries it from the queue to a connection. A job is settled exactly once —
 * by its connection, its timeout, its AbortSignal or the pool's close — and settling clears its timer
 * and abort listener, so nothing of it outlives the answer.
 */
import type { HttpFailure } from './failure.js';

/** One request, already encoded by the caller. */
export interface PoolRequest {
  hostname: string;
  port: number;
  /** `Host` header value (host[:port]). */
  host: string;
  /** Path and query, percent-encoded. */
  path: string;
  method: string;
  body?: string;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  /** Assemble the body in a `SharedArrayBuffer` (for bodies handed to worker threads; see `sharedBody`). */
  shared?: boolean;
  /**
   * False for a request that changes state: it never takes an idle connection (whose server may be
   * closing it this instant) and is never sent again on its own after a connection died under it.
   */
  idempotent?: boolean;
  /**
   * With `idempotent: false`: it may take an idle connection used within `WARM_REUSE_MS` (a signed
   * transaction, which cannot act twice): the handshake a fresh one costs is the latency of every
   * send. It is still never sent again on its own if that connection dies under it.
   */
  warmConnection?: boolean;
}

export interface PoolResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export type PoolCallback = (err: HttpFailure | null, res?: PoolResponse) => void;

/** What jobs, origins and the queue see of a connection (socket.ts). */
export interface Conn {
  readonly origin: Origin;
  job: Job | undefined;
  dead: boolean;
  expiresAt: number;
  /** When it last went idle (`performance.now()`). */
  idleSince: number;
  start(job: Job): void;
  /** Back to the origin's idle list, to be reused before it expires. */
  park(): void;
  /** Destroy without reporting: the job (if any) is settled by the caller. */
  kill(): void;
}

export interface Job {
  req: PoolRequest;
  done: PoolCallback;
  origin: Origin;
  conn: Conn | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  onAbort: (() => void) | undefined;
  /** Already re-sent once after a dead reused connection. */
  resent: boolean;
  settled: boolean;
}

/** The connections and waiting jobs of one `host:port`. */
export interface Origin {
  key: string;
  hostname: string;
  port: number;
  /** Every open connection, idle or busy (close() destroys them all). */
  all: Set<Conn>;
  /** Idle connections, the most recently used last (taken LIFO: the warmest socket first). */
  idle: Conn[];
  /** Open connections, counted against `maxSockets`. */
  count: number;
  /** Jobs waiting for a connection, in order. */
  queue: Job[];
}

/** Report a job's outcome once; later outcomes (a timeout racing the answer) are dropped. */
export function settle(job: Job, err: HttpFailure | null, res?: PoolResponse): void {
  if (job.settled) return;
  job.settled = true;
  if (job.timer !== undefined) clearTimeout(job.timer);
  if (job.onAbort) job.req.signal!.removeEventListener('abort', job.onAbort);
  job.done(err, res);
}

/** Fail a job from outside the connection (timeout, abort): its connection cannot be reused. */
export function cancel(job: Job, failure: HttpFailure): void {
  if (job.settled) return;
  const conn = job.conn;
  if (conn) conn.kill();
  else {
    const i = job.origin.queue.indexOf(job);
    if (i >= 0) job.origin.queue.splice(i, 1);
  }
  settle(job, failure);
}
