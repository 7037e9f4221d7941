/**
 * Direct tests of the lean pool's response reader (src/rpc/transport/pool/parser.ts): bytes in, a
 * response or a failure out, with no socket. The paths the pool tests reach only through a server
 * (header folding, HTTP/1.0, no-body statuses, the head cap, Keep-Alive) are pinned here.
 */
import { describe, expect, it } from 'vitest';
import { COMPLETE, FAILED, MAX_HEAD_BYTES, MORE, ResponseParser } from '../../src/rpc/transport/pool/parser.js';
import type { PoolRequest } from '../../src/rpc/transport/pool/job.js';

const req = (extra: Partial<PoolRequest> = {}): PoolRequest => ({
  hostname: '127.0.0.1',
  port: 1,
  host: '127.0.0.1:1',
  path: '/',
  method: 'GET',
  timeoutMs: 1_000,
  maxBytes: 1_000,
  ...extra,
});
const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');

/** Feed `text` split into pieces of `step` bytes; the result of the last feed. */
function feedAll(p: ResponseParser, text: string, r = req(), step = Infinity): number {
  const b = bytes(text);
  let out = MORE as number;
  for (let i = 0; i < b.length && out === MORE; i += step) out = p.feed(b.subarray(i, Math.min(b.length, i + step)), r);
  return out;
}

describe('http-pool-parser', () => {
  it('reads a Content-Length response split anywhere, and is ready for the next one after reset', () => {
    for (const step of [1, 3, 7, Infinity]) {
      const p = new ResponseParser(true);
      p.reset();
      expect(feedAll(p, 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhello', req(), step)).toBe(COMPLETE);
      expect(p.status).toBe(200);
      expect(p.headers).toEqual({ 'content-length': '5', 'x-a': '1' });
      expect(p.takeBody(false).toString()).toBe('hello');
      expect(p.closeAfter).toBe(false);
      p.reset();
      expect(feedAll(p, 'HTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\nok', req(), step)).toBe(COMPLETE);
      expect(p.status).toBe(201);
      expect(p.takeBody(false).toString()).toBe('ok');
    }
  });

  it('joins repeated headers with ", " and keeps each set-cookie', () => {
    const p = new ResponseParser(true);
    p.reset();
    feedAll(p, 'HTTP/1.1 200 OK\r\nVary: a\r\nvary: b\r\nSet-Cookie: x=1\r\nset-cookie: y=2\r\ncontent-length: 0\r\n\r\n');
    expect(p.headers['vary']).toBe('a, b');
    expect(p.headers['set-cookie']).toEqual(['x=1', 'y=2']);
  });

  it('no body for 204, 304 and HEAD, whatever the headers say', () => {
    for (const [head, method] of [
      ['HTTP/1.1 204 No Content\r\ncontent-length: 10', 'GET'],
      ['HTTP/1.1 304 Not Modified\r\ntransfer-encoding: chunked', 'GET'],
      ['HTTP/1.1 200 OK\r\ncontent-length: 10', 'HEAD'],
    ] as const) {
      const p = new ResponseParser(true);
      p.reset();
      expect(feedAll(p, `${head}\r\n\r\n`, req({ method }))).toBe(COMPLETE);
      expect(p.takeBody(false).length).toBe(0);
    }
  });

  it('closes after: connection: close, HTTP/1.0 without keep-alive, extra bytes, or keepAlive off', () => {
    const cases: [string, boolean, boolean][] = [
      ['HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n\r\n', true, true],
      ['HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n', true, true],
      ['HTTP/1.0 200 OK\r\nconnection: keep-alive\r\ncontent-length: 0\r\n\r\n', true, false],
      ['HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\nxy', true, true],
      ['HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n', false, true],
    ];
    for (const [text, keepAlive, closeAfter] of cases) {
      const p = new ResponseParser(keepAlive);
      p.reset();
      expect(feedAll(p, text)).toBe(COMPLETE);
      expect([text, p.closeAfter]).toEqual([text, closeAfter]);
    }
  });

  it('takes the server’s Keep-Alive timeout, and keeps it across resets', () => {
    const p = new ResponseParser(true);
    expect(p.keepAliveMs).toBe(Infinity);
    p.reset();
    feedAll(p, 'HTTP/1.1 200 OK\r\nkeep-alive: max=100, timeout=5\r\ncontent-length: 0\r\n\r\n');
    expect(p.keepAliveMs).toBe(5_000);
    p.reset();
    feedAll(p, 'HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
    expect(p.keepAliveMs).toBe(5_000);
  });

  it('a body delimited by the close ends at the close, under the cap', () => {
    const p = new ResponseParser(true);
    p.reset();
    expect(p.endsAtClose).toBe(false);
    expect(feedAll(p, 'HTTP/1.1 200 OK\r\n\r\nabc')).toBe(MORE);
    expect(p.endsAtClose).toBe(true);
    expect(p.closeAfter).toBe(true);
    expect(p.takeBody(false).toString()).toBe('abc');
    p.reset();
    expect(feedAll(p, `HTTP/1.1 200 OK\r\n\r\n${'z'.repeat(11)}`, req({ maxBytes: 10 }))).toBe(FAILED);
    expect([p.failKind, p.failGot]).toEqual(['too-large', 11]);
  });

  it('assembles the body in shared memory when asked', () => {
    const p = new ResponseParser(true);
    p.reset();
    feedAll(p, 'HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\nabcd', req(), 2);
    const body = p.takeBody(true);
    expect(body.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(body.toString()).toBe('abcd');
  });

  it('fails, naming what it found: header line, content-length, head size, chunk size, cap', () => {
    const cases: [string, 'network' | 'too-large', RegExp, number][] = [
      ['HTTP/1.1 200 OK\r\nno colon here\r\n\r\n', 'network', /malformed HTTP header line "no colon here"/, 0],
      ['HTTP/1.1 200 OK\r\ncontent-length: 1e3\r\n\r\n', 'network', /invalid content-length "1e3"/, 0],
      ['HTTP/1.1 2000 OK\r\n\r\n', 'network', /malformed HTTP status line/, 0],
      [`HTTP/1.1 200 OK\r\nx: ${'a'.repeat(MAX_HEAD_BYTES)}`, 'network', /response headers exceed 65536 bytes/, 0],
      ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n', 'network', /malformed chunk size "zz"/, 0],
      ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabX\r\n', 'network', /no CRLF after data/, 0],
      ['HTTP/1.1 200 OK\r\ncontent-length: 1001\r\n\r\n', 'too-large', /declared content-length over the cap/, 1001],
    ];
    for (const [text, kind, message, got] of cases) {
      const p = new ResponseParser(true);
      p.reset();
      expect(feedAll(p, text, req(), 4096)).toBe(FAILED);
      expect(p.failKind).toBe(kind);
      expect(p.failMessage).toMatch(message);
      expect(p.failGot).toBe(got);
    }
  });
});
