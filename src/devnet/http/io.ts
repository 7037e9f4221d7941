/**
 * The devnet's HTTP plumbing: a request body read under its size cap (never buffered past it), and
 * a JSON answer written with its length.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The body, or null once it passes `maxBodyBytes` (declared or streamed): never buffered past it. */
export function readBody(req: IncomingMessage, maxBodyBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (declared > maxBodyBytes) return resolve(null);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBodyBytes) {
        resolve(null);
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Answer with JSON text, unless the response is already sent or gone. */
export function send(res: ServerResponse, status: number, body: string, headers?: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  // The flat [name, value, …] form skips the header-object bookkeeping on every response.
  const h = ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(body))];
  if (headers) for (const k of Object.keys(headers)) h.push(k, headers[k]!);
  res.writeHead(status, h);
  res.end(body);
}
