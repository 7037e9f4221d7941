/**
 * The proxy's way to its upstream: node:http(s) over keep-alive connections, the answer read into one
 * buffer of its announced length (no chunk list, no concatenation), rather than `fetch`, whose web
 * streams cost the proxy's thread ~2 ms more per 1 MB answer than the whole request does this way
 * (and ~1 ms per 100 KB: as much as verifying the 100 proofs in it). What `fetch` did besides is kept:
 * redirects are followed (at most 20; a 303, or a 301/302 of a POST, becomes a GET without a body), and
 * a compressed answer (gzip, deflate, br) is decoded. An error names what failed, never the URL (it may
 * carry the upstream's api-key).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { InputError } from '../errors/index.js';

/** An upstream's answer: its status, content type and body. */
export interface UpstreamAnswer {
  status: number;
  type: string;
  bytes: Buffer;
}

export interface Upstream {
  /** Send a request; rejects with an `Error` whose message never holds the URL. */
  send(url: URL, method: string, headers: Record<string, string>, body: Buffer | null, signal: AbortSignal): Promise<UpstreamAnswer>;
  /** Close the kept-alive connections. */
  close(): void;
}

const MAX_REDIRECTS = 20;

/**
 * @example
 * const up = createUpstream(256 * 1024 * 1024);
 * const { status, bytes } = await up.send(new URL('http://127.0.0.1:8899'), 'POST', { 'content-type': 'application/json' }, body, signal);
 */
export function createUpstream(maxResponse: number): Upstream {
  const http = new HttpAgent({ keepAlive: true });
  const https = new HttpsAgent({ keepAlive: true });

  function once(url: URL, method: string, headers: Record<string, string>, body: Buffer | null, signal: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const h = body ? { ...headers, 'content-length': String(body.length) } : headers;
      const req = (secure ? httpsRequest : httpRequest)(url, { method, headers: h, agent: secure ? https : http, signal }, resolve);
      req.on('error', (e: NodeJS.ErrnoException) => reject(signal.aborted ? signal.reason : new Error(e.code ? `request failed (${e.code})` : 'request failed')));
      req.end(body ?? undefined);
    });
  }

  /** The answer's body, decoded when compressed, read into one buffer (refused past `maxResponse`). */
  function read(res: IncomingMessage): Promise<Buffer> {
    const encoding = String(res.headers['content-encoding'] ?? 'identity').toLowerCase();
    const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : null;
    const announced = decoder ? NaN : Number(res.headers['content-length']);
    const stream: Readable = decoder ? res.pipe(decoder) : res;
    return new Promise((resolve, reject) => {
      if (announced > maxResponse) {
        res.destroy();
        return reject(new Error(`upstream answer of ${announced} bytes is over ${maxResponse}`));
      }
      // Its announced length: one buffer filled in place. Else chunks, joined once at the end.
      let whole: Buffer | null = Number.isSafeInteger(announced) && announced >= 0 ? Buffer.allocUnsafe(announced) : null;
      const parts: Buffer[] = [];
      let n = 0;
      stream.on('data', (c: Buffer) => {
        if (n + c.length > maxResponse) {
          res.destroy();
          decoder?.destroy();
          return reject(new Error(`upstream answer of ${n + c.length} bytes is over ${maxResponse}`));
        }
        if (whole && n + c.length <= whole.length) c.copy(whole, n);
        else {
          if (whole) parts.push(whole.subarray(0, n));
          whole = null;
          parts.push(c);
        }
        n += c.length;
      });
      stream.on('end', () => resolve(whole ? whole.subarray(0, n) : Buffer.concat(parts, n)));
      stream.on('error', (e: Error) => reject(new Error(`reading the answer failed (${(e as NodeJS.ErrnoException).code ?? e.message})`)));
      res.on('error', (e: Error) => reject(new Error(`reading the answer failed (${(e as NodeJS.ErrnoException).code ?? e.message})`)));
      // Cut short (the connection dropped, or the call was aborted): never left pending.
      res.on('close', () => {
        if (!res.complete) reject(new Error('reading the answer failed (the connection closed)'));
      });
    });
  }

  return {
    async send(url, method, headers, body, signal) {
      let at = url;
      let m = method;
      let b = body;
      let h = headers;
      for (let hop = 0; ; hop++) {
        const res = await once(at, m, h, b, signal);
        const status = res.statusCode ?? 502;
        const location = res.headers.location;
        if (status >= 300 && status < 400 && status !== 304 && location) {
          res.resume();
          if (hop >= MAX_REDIRECTS) throw new Error('too many redirects');
          at = new URL(location, at);
          if (at.protocol !== 'http:' && at.protocol !== 'https:') throw new Error(`redirected to a ${at.protocol} URL`);
          if (status === 303 || ((status === 301 || status === 302) && m === 'POST')) {
            if (m !== 'HEAD') m = 'GET';
            b = null;
            h = Object.fromEntries(Object.entries(h).filter(([k]) => k !== 'content-type'));
          }
          continue;
        }
        return { status, type: String(res.headers['content-type'] ?? 'application/json'), bytes: await read(res) };
      }
    },
    close() {
      http.destroy();
      https.destroy();
    },
  };
}

/**
 * The anchor's reads (`getMultipleAccounts`) over the same client, as merkle/anchor/source.ts reads a
 * URL: the same JSON-RPC request and the same errors (`anchor.rpc`: could not be reached, an HTTP
 * status, a JSON-RPC error), on the connections the upstream's answers already keep open — `fetch`
 * cost each read ~1–2 ms of the proxy's thread, and a read is made every few hundred milliseconds.
 *
 * @example
 * const v = createVerifier({ anchor: { rpc: anchorCaller(up, new URL(upstream)) } });
 */
export function anchorCaller(up: Upstream, url: URL): { callRaw(method: string, params: unknown, opts?: { signal?: AbortSignal }): Promise<Uint8Array> } {
  let id = 0;
  const never = new AbortController().signal;
  return {
    async callRaw(method, params, opts = {}) {
      const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }));
      let res: UpstreamAnswer;
      try {
        res = await up.send(url, 'POST', { 'content-type': 'application/json' }, body, opts.signal ?? never);
      } catch (e) {
        if (opts.signal?.aborted) throw opts.signal.reason;
        throw new InputError('anchor.rpc', `${method} failed: ${/^request failed/.test((e as Error).message) ? 'the anchor RPC could not be reached' : (e as Error).message}`);
      }
      if (res.status < 200 || res.status > 299) throw new InputError('anchor.rpc', `${method}: the anchor RPC answered HTTP ${res.status}`);
      const answer = JSON.parse(res.bytes.toString('utf8')) as { error?: { code?: number; message?: string } };
      if (answer.error) throw new InputError('anchor.rpc', `${method}: the anchor RPC answered error ${answer.error.code}: ${String(answer.error.message).slice(0, 200)}`);
      return res.bytes;
    },
  };
}
