/**
 * Params of the standard Solana methods, checked as the real RPC checks them: the params array, a
 * configuration object, base58 addresses, commitments (with web3.js' deprecated aliases), and
 * transaction bytes in their declared encoding. Refusals are -32602 "Invalid params".
 */
import { base58Bytes, type ParsedTransaction } from '../../solana/index.js';
import { isPlainObject } from '../../assert.js';
import { base58TooLong } from '../../base58-bound.js';
import { CairnError } from '../../errors/index.js';
import { decodeTransactionParam } from '../http/fast.js';
import { parseSubmitted } from '../chain/parse-submitted.js';
import { bad } from './invalid.js';
import { u64Param } from './u64.js';
import { DevnetRpcError, type Commitment } from '../types.js';

/** What a real cluster reports as rentEpoch for a rent-exempt account: u64::MAX, exact (a JS number would round it past 2^64). */
export const RENT_EXEMPT_EPOCH = 18446744073709551615n;

export function arr(params: unknown, method: string, min: number): unknown[] {
  if (params === undefined || params === null) {
    if (min === 0) return [];
    throw bad(`${method} expects a params array with at least ${min} element(s)`);
  }
  if (!Array.isArray(params)) throw bad(`${method} expects params as an array`);
  if (params.length < min) throw bad(`${method} expects at least ${min} param(s), got ${params.length}`);
  return params;
}

export function cfg(v: unknown, field: string): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (!isPlainObject(v)) throw bad(`${field} must be a configuration object`);
  return v as Record<string, unknown>;
}

export function addressParam(v: unknown, field: string): string {
  if (typeof v !== 'string') throw bad(`${field} must be a base58 address string`);
  if (base58TooLong(v, 32)) throw bad(`${field} must decode to 32 bytes, got ${v.length} characters`);
  let b: Uint8Array;
  try {
    b = base58Bytes(v);
  } catch {
    throw bad(`${field} is not valid base58: ${JSON.stringify(v.slice(0, 64))}`);
  }
  if (b.length !== 32) throw bad(`${field} must decode to 32 bytes, got ${b.length}`);
  return v;
}

export function commitmentOf(c: Record<string, unknown>, def: Commitment = 'finalized'): Commitment {
  const v = c.commitment ?? def;
  if (v === 'processed' || v === 'confirmed' || v === 'finalized') return v;
  // web3.js' deprecated aliases
  if (v === 'recent' || v === 'single' || v === 'singleGossip') return v === 'recent' ? 'processed' : 'confirmed';
  if (v === 'max' || v === 'root') return 'finalized';
  throw bad(`commitment must be processed, confirmed or finalized, got ${JSON.stringify(v)}`);
}

export function txBytesParam(v: unknown, c: Record<string, unknown>): Uint8Array {
  const encoding = c.encoding ?? 'base58';
  try {
    return decodeTransactionParam(v, String(encoding));
  } catch (e) {
    if (e instanceof DevnetRpcError) throw new DevnetRpcError(-32602, e.message.replace('Invalid request', 'Invalid params'));
    throw e;
  }
}

export function decodeOrThrow(wire: Uint8Array): ParsedTransaction {
  try {
    return parseSubmitted(wire);
  } catch (e) {
    throw bad(`transaction: ${e instanceof CairnError ? e.message : String(e)}`);
  }
}

/**
 * `minContextSlot` in a config object: -32602 unless a slot, -32016 (with the node's slot in
 * `data.contextSlot`) while the devnet has not reached it, as a real node answers.
 */
export function checkMinContextSlot(chain: { slot(): number }, config: unknown): void {
  if (!isPlainObject(config) || config.minContextSlot === undefined) return;
  const m = u64Param(config.minContextSlot, 'minContextSlot');
  if (m > BigInt(chain.slot())) throw new DevnetRpcError(-32016, 'Minimum context slot has not been reached', 200, { contextSlot: chain.slot() });
}
