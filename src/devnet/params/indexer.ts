/**
 * Parameter checks for the devnet's DAS and compression handlers. Every failure is a JSON-RPC
 * `-32602 Invalid params` whose message names the field and says what was expected and what came,
 * the way the real service answers a malformed request (never a crash, never a silently ignored item).
 */
import { base58Bytes } from '../../solana/index.js';
import { isPlainObject } from '../../assert.js';
import { base58TooLong } from '../../base58-bound.js';
import { DevnetRpcError } from '../types.js';

const INVALID_PARAMS = -32602;

export function invalid(field: string, message: string): DevnetRpcError {
  return new DevnetRpcError(INVALID_PARAMS, `Invalid params: "${field}": ${message}`, 200, { field });
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 48 ? v.slice(0, 48) + '…' : v);
  return typeof v;
}

/** The params object of a method that takes named params. */
export function paramsObject(params: unknown, method: string): Record<string, unknown> {
  if (params === undefined || params === null) return {};
  if (!isPlainObject(params)) {
    throw invalid('params', `${method} takes an object, got ${describe(params)}`);
  }
  return params as Record<string, unknown>;
}

/** A base58 string of exactly `len` bytes; returns the decoded bytes. */
export function b58(v: unknown, field: string, len = 32): Uint8Array {
  if (typeof v !== 'string' || v.length === 0) throw invalid(field, `expected a base58 string, got ${describe(v)}`);
  if (base58TooLong(v, len)) throw invalid(field, `expected ${len} bytes of base58, got ${v.length} characters`);
  let out: Uint8Array;
  try {
    out = base58Bytes(v);
  } catch {
    throw invalid(field, `not valid base58: ${describe(v)}`);
  }
  if (out.length !== len) throw invalid(field, `expected ${len} bytes of base58, got ${out.length}`);
  return out;
}

export function optB58(v: unknown, field: string, len = 32): Uint8Array | undefined {
  return v === undefined || v === null ? undefined : b58(v, field, len);
}

export function str(v: unknown, field: string, opts: { maxBytes?: number; required?: boolean } = {}): string | undefined {
  if (v === undefined || v === null) {
    if (opts.required) throw invalid(field, 'is required');
    return undefined;
  }
  if (typeof v !== 'string') throw invalid(field, `expected a string, got ${describe(v)}`);
  if (opts.maxBytes !== undefined) {
    const n = Buffer.byteLength(v, 'utf8');
    if (n > opts.maxBytes) throw invalid(field, `at most ${opts.maxBytes} bytes (UTF-8), got ${n}`);
  }
  return v;
}

export function bool(v: unknown, field: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw invalid(field, `expected a boolean, got ${describe(v)}`);
  return v;
}

export function int(v: unknown, field: string, min: number, max: number): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw invalid(field, `expected an integer ${min}..${max}, got ${typeof v === 'number' ? v : describe(v)}`);
  }
  return v;
}

export function arr(v: unknown, field: string, opts: { max?: number; min?: number } = {}): unknown[] {
  if (!Array.isArray(v)) throw invalid(field, `expected an array, got ${describe(v)}`);
  if (opts.max !== undefined && v.length > opts.max) throw invalid(field, `at most ${opts.max} items, got ${v.length}`);
  if (opts.min !== undefined && v.length < opts.min) throw invalid(field, `at least ${opts.min} item(s), got ${v.length}`);
  return v;
}

export function obj(v: unknown, field: string): Record<string, unknown> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isPlainObject(v)) throw invalid(field, `expected an object, got ${describe(v)}`);
  return v as Record<string, unknown>;
}

/** Raw-byte order of two equal-length byte strings (DAS sorts ids "in binary"). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** Resolve after `signal` aborts or `p` settles, whichever first. */
export function withSignal<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
