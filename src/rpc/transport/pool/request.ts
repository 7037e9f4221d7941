/**
 * The bytes of one request on the lean pool's wire: request line, the few headers a JSON API needs,
 * and the body, as one string so head and body leave in one write (one syscall, no Nagle wait).
 */
import type { PoolRequest } from './job.js';

/**
 * The whole HTTP/1.1 request for `r`; `keepAlive` false asks the server to close after answering.
 * `r.path` and `r.host` come percent-encoded from a parsed URL, so they carry no CR or LF.
 *
 * @example
 * requestText({ hostname: '127.0.0.1', port: 8899, host: '127.0.0.1:8899', path: '/x', method: 'GET', timeoutMs: 1_000, maxBytes: 1024 }, true);
 * // 'GET /x HTTP/1.1\r\nhost: 127.0.0.1:8899\r\naccept: application/json\r\n\r\n'
 */
export function requestText(r: PoolRequest, keepAlive: boolean): string {
  let text = `${r.method} ${r.path} HTTP/1.1\r\nhost: ${r.host}\r\naccept: application/json\r\n`;
  if (r.body !== undefined) text += `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(r.body)}\r\n`;
  text += keepAlive ? '\r\n' : 'connection: close\r\n\r\n';
  return r.body === undefined ? text : text + r.body;
}
