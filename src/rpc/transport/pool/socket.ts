/**
 * One keep-alive connection of the lean pool: a TCP socket carrying one request at a time (no
 * pipelining). It writes the request, feeds the answer's bytes to its parser (parser.ts),
 * settles the job, and hands itself back to the pool's queue to take the next job, to idle (unref'd,
 * so it never holds the process open) or to be dropped. A reused connection that closes before a
 * single byte of answer is the race with the server's idle timeout: the server never read the
 * request, so the job is sent once more on another connection.
 */
import net from 'node:net';
import { HttpFailure } from './failure.js';
import { settle, type Conn, type Job, type Origin, type PoolResponse } from './job.js';
import { COMPLETE, MORE, ResponseParser } from './parser.js';
import { requestText } from './request.js';

/** An idle connection is dropped this long before the server's advertised keep-alive timeout. */
const IDLE_MARGIN_MS = 1_000;

/** What a connection needs of its pool (queue.ts). */
export interface ConnectionHost {
  readonly keepAlive: boolean;
  /** The pool is closed: a connection that finishes its job is destroyed, not kept. */
  readonly closed: boolean;
  /** Run a job on another connection (its own died before any answer came). */
  dispatch(job: Job): void;
  /** A connection finished its job (`reusable`) or died. */
  release(conn: Conn, reusable: boolean): void;
}

/**
 * A connection to `origin`, opened at once; `start` sends a job on it.
 *
 * @example
 * new Connection(origin, queue).start(job); // what the queue does when no idle connection is left
 */
export class Connection implements Conn {
  readonly socket: net.Socket;
  job: Job | undefined;
  dead = false;
  /** At least one response completed on it: a failure with nothing received may be a stale socket. */
  reused = false;
  expiresAt = Infinity;
  idleSince = 0;
  private gotBytes = false;
  /** The TCP connection was established: a failure before it means no byte of a request went out. */
  private connected = false;
  private readonly parser: ResponseParser;

  constructor(
    readonly origin: Origin,
    private readonly host: ConnectionHost,
  ) {
    this.parser = new ResponseParser(host.keepAlive);
    this.socket = net.connect({ host: origin.hostname, port: origin.port });
    this.socket.setNoDelay(true);
    this.socket.once('connect', () => {
      this.connected = true;
    });
    this.socket.on('data', (d: Buffer) => this.onData(d));
    this.socket.on('error', (e: Error) => this.onClose(e));
    this.socket.on('end', () => this.onClose(undefined));
    this.socket.on('close', () => this.onClose(undefined));
    origin.all.add(this);
  }

  start(job: Job): void {
    this.job = job;
    job.conn = this;
    this.gotBytes = false;
    this.parser.reset();
    this.socket.ref();
    this.socket.write(requestText(job.req, this.host.keepAlive));
  }

  park(): void {
    this.job = undefined;
    this.idleSince = performance.now();
    this.expiresAt = this.idleSince + this.parser.keepAliveMs - IDLE_MARGIN_MS;
    this.socket.unref();
    this.origin.idle.push(this);
  }

  kill(): void {
    if (this.dead) return;
    this.dead = true;
    this.job = undefined;
    this.socket.destroy();
    this.origin.all.delete(this);
    const i = this.origin.idle.indexOf(this);
    if (i >= 0) this.origin.idle.splice(i, 1);
    this.host.release(this, false);
  }

  private onClose(err: Error | undefined): void {
    if (this.dead) return;
    const job = this.job;
    if (job && !err && this.parser.endsAtClose) {
      // a body delimited by the end of the connection is complete now
      this.kill();
      return this.complete(job);
    }
    // a request that changes state is not sent again: the server may have read it before closing
    const stale = job !== undefined && !this.gotBytes && this.reused && !job.resent && job.req.idempotent !== false;
    this.kill();
    if (!job || job.settled) return;
    if (stale) {
      job.resent = true;
      job.conn = undefined;
      return this.host.dispatch(job);
    }
    if (this.parser.headDone) {
      return settle(job, new HttpFailure('truncated', 'response body was cut off before its end', 0, { cause: err }));
    }
    const cause = err ?? Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    settle(job, new HttpFailure('network', cause.message, 0, { cause, notSent: !this.connected }));
  }

  private onData(d: Buffer): void {
    if (this.dead) return;
    const job = this.job;
    if (!job) return this.kill(); // bytes nobody asked for: the connection is out of step
    this.gotBytes = true;
    const r = this.parser.feed(d, job.req);
    if (r === MORE) return;
    if (r === COMPLETE) return this.complete(job);
    const p = this.parser;
    this.kill();
    settle(job, new HttpFailure(p.failKind, p.failMessage, p.failGot));
  }

  private complete(job: Job): void {
    const p = this.parser;
    const res: PoolResponse = { status: p.status, headers: p.headers, body: p.takeBody(job.req.shared) };
    if (!this.dead) {
      this.job = undefined;
      this.reused = true;
      if (p.closeAfter || this.host.closed) this.kill();
      else this.host.release(this, true);
    }
    settle(job, null, res);
  }
}
