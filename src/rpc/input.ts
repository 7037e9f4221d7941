/**
 * The rpc client's own input helpers: webhook ids, a signed transaction's wire form, and the
 * chunking and bounded fan-out of batch calls. The general assertions live in src/assert.ts.
 */
import { show } from '../assert.js';
import { InputError } from '../errors/index.js';

/** Webhook ids. */
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A signed transaction as bytes, or as a base64 string; returns base64. */
export function wireToBase64(field: string, wire: unknown): string {
  if (wire instanceof Uint8Array) {
    if (wire.length === 0) throw new InputError(field, 'expected a non-empty transaction, got 0 bytes', { expected: 'bytes', got: 0 });
    return Buffer.from(wire.buffer, wire.byteOffset, wire.byteLength).toString('base64');
  }
  if (typeof wire === 'string' && wire.length > 0 && wire.length % 4 === 0 && BASE64.test(wire)) return wire;
  throw new InputError(field, `expected the signed transaction as a Uint8Array or a base64 string, got ${show(wire)}`, {
    expected: 'Uint8Array | base64',
    got: show(wire),
  });
}

/** Split `items` into chunks of at most `size`. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Map `items` through `fn` with at most `limit` in flight, results in input order. Each call gets a
 * signal linked to the caller's: the first failure rejects at once AND aborts the calls still in
 * flight (and their retries), so nothing keeps running after the caller has its error.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal | undefined,
  fn: (item: T, index: number, signal: AbortSignal) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  const ac = new AbortController();
  const onAbort = () => ac.abort(signal?.reason);
  if (signal?.aborted) ac.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!ac.signal.aborted && next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i, ac.signal);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
    if (ac.signal.aborted) throw ac.signal.reason ?? new Error('aborted');
    return out;
  } catch (e) {
    ac.abort(new Error('a sibling request failed'));
    throw e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
