/**
 * The HTTP/1.1 response reader of the lean pool: status line, headers (an interim 1xx skipped), and a
 * Content-Length, chunked or read-until-close body under a size cap. It knows no socket: the
 * connection feeds it bytes as they arrive and acts on what `feed` returns, so one parser per
 * connection is reused for every response on it. Hand-rolled rather than split + regex: it runs on
 * every response, on the pool's hot path.
 */
import type { HttpFailureKind } from './failure.js';
import type { PoolRequest } from './job.js';
import { sharedBody } from '../body-in-shared-memory.js';

/** `feed` results: wants more bytes, has a whole response, or failed (see `failKind`). */
export const MORE = 0;
export const COMPLETE = 1;
export const FAILED = 2;
export type FeedResult = typeof MORE | typeof COMPLETE | typeof FAILED;

/** Largest status line + headers accepted (node:http's default is 16 KiB). */
export const MAX_HEAD_BYTES = 64 * 1024;
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

/**
 * One connection's response reader, reused for each response on it (`reset` between them).
 *
 * @example
 * const p = new ResponseParser(true);
 * p.reset();
 * if (p.feed(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok'), req) === COMPLETE) p.takeBody(false); // <Buffer 6f 6b>
 */
export class ResponseParser {
  /** The response's status and headers, once its head is read. */
  status = 0;
  headers: Record<string, string | string[]> = {};
  /** The connection must not carry another request after this response. */
  closeAfter = false;
  /** The server's advertised `Keep-Alive: timeout`, in ms; kept from response to response. */
  keepAliveMs = Infinity;
  /** The head is read: a failure from here on cuts off a body, not a response. */
  headDone = false;
  /** Set when `feed` returns `FAILED`. */
  failKind: HttpFailureKind = 'network';
  failMessage = '';
  failGot = 0;
  private head: Buffer | undefined;
  private mode = Body.Length;
  private remaining = 0;
  private chunkState = Chunk.Size;
  private line = '';
  private chunks: Buffer[] = [];
  private total = 0;

  /** `keepAlive` false: every response closes its connection. */
  constructor(private readonly keepAlive: boolean) {}

  /** Ready for the next response on the connection. */
  reset(): void {
    this.headDone = false;
    this.head = undefined;
    this.chunks = [];
    this.total = 0;
  }

  /** A body delimited by the end of the connection: the close completes it. */
  get endsAtClose(): boolean {
    return this.headDone && this.mode === Body.UntilClose;
  }

  /** Read `d` (the next bytes on the connection) as part of the answer to `req`. */
  feed(d: Buffer, req: PoolRequest): FeedResult {
    let off = 0;
    while (!this.headDone) {
      const buf = this.head ? Buffer.concat([this.head, d.subarray(off)]) : d.subarray(off);
      const end = buf.indexOf(CRLFCRLF);
      if (end < 0) {
        if (buf.length > MAX_HEAD_BYTES) return this.fail('network', `response headers exceed ${MAX_HEAD_BYTES} bytes`);
        this.head = buf;
        return MORE;
      }
      this.head = undefined;
      if (!this.parseHead(buf.toString('latin1', 0, end), req)) return FAILED;
      d = buf;
      off = end + 4;
    }
    if (off < d.length || this.mode === Body.Length) return this.onBody(d, off, req);
    return MORE;
  }

  /** The body read so far, joined (in shared memory for `shared`); the parser lets go of it. */
  takeBody(shared: boolean | undefined): Buffer {
    const body = shared ? sharedBody(this.chunks, this.total) : this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.total);
    this.chunks = [];
    return body;
  }

  private fail(kind: HttpFailureKind, message: string, got = 0): typeof FAILED {
    this.failKind = kind;
    this.failMessage = message;
    this.failGot = got;
    return FAILED;
  }

  /** False when the response failed. An interim 1xx is skipped (headDone stays false). */
  private parseHead(text: string, req: PoolRequest): boolean {
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
    this.closeAfter = !this.keepAlive || connection.includes('close') || (http10 && !connection.includes('keep-alive'));
    const kaHeader = headers['keep-alive'] as string | undefined;
    if (kaHeader !== undefined) {
      const ka = /timeout=(\d+)/i.exec(kaHeader);
      if (ka) this.keepAliveMs = Number(ka[1]) * 1000;
    }
    return this.bodyMode(status, headers, req);
  }

  /** How the body is delimited: none (204, 304, HEAD), chunked, a Content-Length, or the close. */
  private bodyMode(status: number, headers: Record<string, string | string[]>, req: PoolRequest): boolean {
    const te = headers['transfer-encoding'] as string | undefined;
    const cl = headers['content-length'] as string | undefined;
    if (status === 204 || status === 304 || req.method === 'HEAD') {
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
      if (n > req.maxBytes) {
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

  private take(d: Buffer, from: number, to: number, req: PoolRequest): boolean {
    if (to <= from) return true;
    this.total += to - from;
    if (this.total > req.maxBytes) {
      this.fail('too-large', 'response over the cap', this.total);
      return false;
    }
    this.chunks.push(from === 0 && to === d.length ? d : d.subarray(from, to));
    return true;
  }

  private onBody(d: Buffer, off: number, req: PoolRequest): FeedResult {
    if (this.mode === Body.UntilClose) return this.take(d, off, d.length, req) ? MORE : FAILED;
    if (this.mode === Body.Length) {
      const n = Math.min(this.remaining, d.length - off);
      if (!this.take(d, off, off + n, req)) return FAILED;
      this.remaining -= n;
      off += n;
      if (this.remaining > 0) return MORE;
      if (off < d.length) this.closeAfter = true; // extra bytes: out of step, do not reuse
      return COMPLETE;
    }
    return this.onChunked(d, off, req);
  }

  private onChunked(d: Buffer, off: number, req: PoolRequest): FeedResult {
    while (off < d.length) {
      if (this.chunkState === Chunk.Data) {
        const n = Math.min(this.remaining, d.length - off);
        if (!this.take(d, off, off + n, req)) return FAILED;
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
      if (nl < 0) return MORE;
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
          if (this.total + size > req.maxBytes) return this.fail('too-large', 'chunk over the cap', this.total + size);
          this.remaining = size;
          this.chunkState = Chunk.Data;
        }
      } else if (line === '') {
        // end of trailers: the message is complete
        if (off < d.length) this.closeAfter = true;
        return COMPLETE;
      }
    }
    return MORE;
  }
}
