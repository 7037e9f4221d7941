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
 */
import net from 'node:net';

/** What went wrong, for the transport to map onto its typed errors. */
export type HttpFailureKind = 'network' | 'truncated' | 'too-large' | 'timeout' | 'abort';

export class HttpFailure extends Error {
  constructor(
    readonly kind: HttpFailureKind,
    message: string,
    /** For `too-large`: the bytes seen (or declared) when the cap was hit. */
    readonly got = 0,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HttpFailure';
  }
}

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
}

export interface PoolResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export type PoolCallback = (err: HttpFailure | null, res?: PoolResponse) => void;

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

/** Largest status line + headers accepted (node:http's default is 16 KiB). */
const MAX_HEAD_BYTES = 64 * 1024;
/** An idle connection is dropped this long before the server's advertised keep-alive timeout. */
const IDLE_MARGIN_MS = 1_000;
const CRLFCRLF = Buffer.from('\r\n\r\n');

const enum Body {
  Length,
  Chunked,
  UntilClose,
}
const enum Chunk {
  Size,
  Data,
  DataEnd,
  Trailer,
}

/** What jobs and origins see of a connection (the class lives inside the pool's closure). */
interface Conn {
  job: Job | undefined;
  dead: boolean;
  expiresAt: number;
  start(job: Job): void;
  kill(): void;
}

interface Job {
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

interface Origin {
  key: string;
  /** Every open connection, idle or busy (close() destroys them all). */
  all: Set<Conn>;
  idle: Conn[];
  count: number;
  queue: Job[];
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
  const keepAlive = options.keepAlive ?? true;
  const maxSockets = options.maxSockets ?? 64;
  const origins = new Map<string, Origin>();
  let closed = false;

  function originOf(req: PoolRequest): Origin {
    const key = `${req.hostname}:${req.port}`;
    let o = origins.get(key);
    if (!o) {
      o = { key, all: new Set(), idle: [], count: 0, queue: [] };
      origins.set(key, o);
    }
    return o;
  }

  function settle(job: Job, err: HttpFailure | null, res?: PoolResponse): void {
    if (job.settled) return;
    job.settled = true;
    if (job.timer !== undefined) clearTimeout(job.timer);
    if (job.onAbort) job.req.signal!.removeEventListener('abort', job.onAbort);
    job.done(err, res);
  }

  /** Fail a job from outside the connection (timeout, abort): its connection cannot be reused. */
  function cancel(job: Job, failure: HttpFailure): void {
    if (job.settled) return;
    const conn = job.conn;
    if (conn) conn.kill();
    else {
      const i = job.origin.queue.indexOf(job);
      if (i >= 0) job.origin.queue.splice(i, 1);
    }
    settle(job, failure);
  }

  function dispatch(job: Job): void {
    const o = job.origin;
    const now = performance.now();
    while (o.idle.length > 0) {
      const conn = o.idle.pop()!;
      if (conn.dead) continue;
      if (now > conn.expiresAt) {
        conn.kill();
        continue;
      }
      conn.start(job);
      return;
    }
    if (o.count < maxSockets) {
      o.count++;
      new Connection(o).start(job);
      return;
    }
    o.queue.push(job);
  }

  /** A connection finished its job (`reusable`) or died: give it the next queued job or park it. */
  function release(conn: Connection, reusable: boolean): void {
    const o = conn.origin;
    if (!reusable) {
      o.count--;
      const next = o.queue.shift();
      if (next) dispatch(next);
      return;
    }
    const next = o.queue.shift();
    if (next) conn.start(next);
    else conn.park();
  }

  class Connection implements Conn {
    readonly socket: net.Socket;
    job: Job | undefined;
    dead = false;
    /** At least one response completed on it: a failure with nothing received may be a stale socket. */
    reused = false;
    expiresAt = Infinity;
    private keepAliveMs = Infinity;
    // response parser state
    private head: Buffer | undefined;
    private gotBytes = false;
    private headDone = false;
    private status = 0;
    private headers: Record<string, string | string[]> = {};
    private closeAfter = false;
    private mode = Body.Length;
    private remaining = 0;
    private chunkState = Chunk.Size;
    private line = '';
    private chunks: Buffer[] = [];
    private total = 0;

    constructor(readonly origin: Origin) {
      const [hostname, port] = splitKey(origin.key);
      this.socket = net.connect({ host: hostname, port });
      this.socket.setNoDelay(true);
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
      this.headDone = false;
      this.head = undefined;
      this.chunks = [];
      this.total = 0;
      this.socket.ref();
      const r = job.req;
      let text = `${r.method} ${r.path} HTTP/1.1\r\nhost: ${r.host}\r\naccept: application/json\r\n`;
      if (r.body !== undefined) text += `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(r.body)}\r\n`;
      text += keepAlive ? '\r\n' : 'connection: close\r\n\r\n';
      // one write, one syscall: head and body together
      this.socket.write(r.body === undefined ? text : text + r.body);
    }

    park(): void {
      this.job = undefined;
      this.expiresAt = performance.now() + this.keepAliveMs - IDLE_MARGIN_MS;
      this.socket.unref();
      this.origin.idle.push(this);
    }

    /** Destroy without reporting: the job (if any) is settled by the caller. */
    kill(): void {
      if (this.dead) return;
      this.dead = true;
      this.job = undefined;
      this.socket.destroy();
      this.origin.all.delete(this);
      const i = this.origin.idle.indexOf(this);
      if (i >= 0) this.origin.idle.splice(i, 1);
      release(this, false);
    }

    private onClose(err: Error | undefined): void {
      if (this.dead) return;
      const job = this.job;
      if (job && !err && this.headDone && this.mode === Body.UntilClose) {
        // a body delimited by the end of the connection is complete now
        this.kill();
        return this.complete(job);
      }
      const stale = job !== undefined && !this.gotBytes && this.reused && !job.resent;
      this.kill();
      if (!job || job.settled) return;
      if (stale) {
        job.resent = true;
        job.conn = undefined;
        return dispatch(job);
      }
      if (this.headDone) {
        return settle(job, new HttpFailure('truncated', 'response body was cut off before its end', 0, { cause: err }));
      }
      const cause = err ?? Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      settle(job, new HttpFailure('network', cause.message, 0, { cause }));
    }

    private fail(kind: HttpFailureKind, message: string, got = 0): void {
      const job = this.job;
      this.kill();
      if (job) settle(job, new HttpFailure(kind, message, got));
    }

    private onData(d: Buffer): void {
      if (this.dead) return;
      const job = this.job;
      if (!job) return this.kill(); // bytes nobody asked for: the connection is out of step
      this.gotBytes = true;
      let off = 0;
      while (!this.headDone) {
        const buf = this.head ? Buffer.concat([this.head, d.subarray(off)]) : d.subarray(off);
        const end = buf.indexOf(CRLFCRLF);
        if (end < 0) {
          if (buf.length > MAX_HEAD_BYTES) return this.fail('network', `response headers exceed ${MAX_HEAD_BYTES} bytes`);
          this.head = buf;
          return;
        }
        this.head = undefined;
        if (!this.parseHead(buf.toString('latin1', 0, end), job)) return;
        d = buf;
        off = end + 4;
      }
      if (off < d.length || this.mode === Body.Length) this.onBody(d, off, job);
    }

    /** False when the connection was failed. An interim 1xx is skipped (headDone stays false). */
    private parseHead(text: string, job: Job): boolean {
      // hand-rolled rather than split + regex: this runs once per response on the hot path
      let eol = text.indexOf('\r\n');
      if (eol < 0) eol = text.length;
      const c9 = text.charCodeAt(9);
      const status = Number(text.slice(9, 12));
      if (!text.startsWith('HTTP/1.') || (eol > 12 && text.charCodeAt(12) !== 32) || eol < 12 || c9 < 49 || c9 > 53 || !Number.isInteger(status)) {
        this.fail('network', `malformed HTTP status line ${JSON.stringify(text.slice(0, Math.min(eol, 40)))}`);
        return false;
      }
      const http10 = text.charCodeAt(7) === 48;
      if (status < 200) return true;
      const headers: Record<string, string | string[]> = {};
      let pos = eol + 2;
      while (pos < text.length) {
        let end = text.indexOf('\r\n', pos);
        if (end < 0) end = text.length;
        const c = text.indexOf(':', pos);
        if (c <= pos || c > end) {
          this.fail('network', `malformed HTTP header line ${JSON.stringify(text.slice(pos, Math.min(end, pos + 40)))}`);
          return false;
        }
        const name = text.slice(pos, c).trim().toLowerCase();
        const value = text.slice(c + 1, end).trim();
        pos = end + 2;
        const prev = headers[name];
        if (name === 'set-cookie') headers[name] = prev === undefined ? [value] : [...(prev as string[]), value];
        else headers[name] = prev === undefined ? value : `${prev as string}, ${value}`;
      }
      this.status = status;
      this.headers = headers;
      const connection = ((headers['connection'] as string | undefined) ?? '').toLowerCase();
      this.closeAfter = !keepAlive || connection.includes('close') || (http10 && !connection.includes('keep-alive'));
      const kaHeader = headers['keep-alive'] as string | undefined;
      if (kaHeader !== undefined) {
        const ka = /timeout=(\d+)/i.exec(kaHeader);
        if (ka) this.keepAliveMs = Number(ka[1]) * 1000;
      }
      const te = headers['transfer-encoding'] as string | undefined;
      const cl = headers['content-length'] as string | undefined;
      if (status === 204 || status === 304 || job.req.method === 'HEAD') {
        this.mode = Body.Length;
        this.remaining = 0;
      } else if (te !== undefined && /chunked\s*$/i.test(te)) {
        this.mode = Body.Chunked;
        this.chunkState = Chunk.Size;
        this.line = '';
      } else if (cl !== undefined) {
        if (!/^\d+$/.test(cl)) {
          this.fail('network', `invalid content-length ${JSON.stringify(cl.slice(0, 40))}`);
          return false;
        }
        const n = Number(cl);
        if (n > job.req.maxBytes) {
          this.fail('too-large', 'declared content-length over the cap', n);
          return false;
        }
        this.mode = Body.Length;
        this.remaining = n;
      } else {
        this.mode = Body.UntilClose;
        this.closeAfter = true;
      }
      this.headDone = true;
      return true;
    }

    private take(d: Buffer, from: number, to: number, job: Job): boolean {
      if (to <= from) return true;
      this.total += to - from;
      if (this.total > job.req.maxBytes) {
        this.fail('too-large', 'response over the cap', this.total);
        return false;
      }
      this.chunks.push(from === 0 && to === d.length ? d : d.subarray(from, to));
      return true;
    }

    private onBody(d: Buffer, off: number, job: Job): void {
      if (this.mode === Body.UntilClose) {
        this.take(d, off, d.length, job);
        return;
      }
      if (this.mode === Body.Length) {
        const n = Math.min(this.remaining, d.length - off);
        if (!this.take(d, off, off + n, job)) return;
        this.remaining -= n;
        off += n;
        if (this.remaining > 0) return;
        if (off < d.length) this.closeAfter = true; // extra bytes: out of step, do not reuse
        return this.complete(job);
      }
      // chunked
      while (off < d.length) {
        if (this.chunkState === Chunk.Data) {
          const n = Math.min(this.remaining, d.length - off);
          if (!this.take(d, off, off + n, job)) return;
          this.remaining -= n;
          off += n;
          if (this.remaining === 0) {
            this.chunkState = Chunk.DataEnd;
            this.line = '';
          }
          continue;
        }
        const nl = d.indexOf(10, off);
        const part = d.toString('latin1', off, nl < 0 ? d.length : nl + 1);
        off = nl < 0 ? d.length : nl + 1;
        this.line += part;
        if (this.line.length > 4096) return this.fail('network', 'malformed chunked encoding (line too long)');
        if (nl < 0) return;
        const line = this.line.slice(0, -1).replace(/\r$/, '');
        this.line = '';
        if (this.chunkState === Chunk.DataEnd) {
          if (line !== '') return this.fail('network', 'malformed chunked encoding (no CRLF after data)');
          this.chunkState = Chunk.Size;
        } else if (this.chunkState === Chunk.Size) {
          const hex = line.split(';', 1)[0]!.trim();
          if (!/^[0-9a-fA-F]{1,12}$/.test(hex)) return this.fail('network', `malformed chunk size ${JSON.stringify(hex.slice(0, 20))}`);
          const size = parseInt(hex, 16);
          if (size === 0) this.chunkState = Chunk.Trailer;
          else {
            if (this.total + size > job.req.maxBytes) return this.fail('too-large', 'chunk over the cap', this.total + size);
            this.remaining = size;
            this.chunkState = Chunk.Data;
          }
        } else if (line === '') {
          // end of trailers: the message is complete
          if (off < d.length) this.closeAfter = true;
          return this.complete(job);
        }
      }
    }

    private complete(job: Job): void {
      const body = job.req.shared ? sharedBody(this.chunks, this.total) : this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.total);
      const res: PoolResponse = { status: this.status, headers: this.headers, body };
      this.chunks = [];
      if (!this.dead) {
        this.job = undefined;
        this.reused = true;
        if (this.closeAfter || closed) this.kill();
        else release(this, true);
      }
      settle(job, null, res);
    }
  }

  return {
    request(req, done) {
      const job: Job = { req, done, origin: originOf(req), conn: undefined, timer: undefined, onAbort: undefined, resent: false, settled: false };
      if (closed) return settle(job, new HttpFailure('network', 'connection pool is closed'));
      const signal = req.signal;
      if (signal) {
        if (signal.aborted) return settle(job, new HttpFailure('abort', 'aborted'));
        job.onAbort = () => cancel(job, new HttpFailure('abort', 'aborted'));
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      job.timer = setTimeout(() => cancel(job, new HttpFailure('timeout', `timed out after ${req.timeoutMs} ms`)), req.timeoutMs);
      dispatch(job);
    },
    close() {
      closed = true;
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

function splitKey(key: string): [string, number] {
  const i = key.lastIndexOf(':');
  return [key.slice(0, i), Number(key.slice(i + 1))];
}

/**
 * The chunks of a body joined in shared memory: the one copy `Buffer.concat` makes, into a
 * `SharedArrayBuffer` instead, so the verifier's workers can read the body where it is rather than
 * from a second copy (~0.1 µs per asset proof on the calling thread, and the body's size in memory).
 */
export function sharedBody(chunks: Buffer[], total: number): Buffer {
  const out = Buffer.from(new SharedArrayBuffer(Math.max(total, 1)), 0, total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
