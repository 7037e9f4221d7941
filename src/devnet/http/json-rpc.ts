/**
 * JSON-RPC 2.0 framing shared by the devnet's HTTP and websocket endpoints: answers as JSON text
 * (u64s above 2^53 written exactly), error objects, and the checks on a call's id and method name.
 */
import { stringifyJson } from '../../json/index.js';

/** No Solana RPC method has a longer name: a longer one is refused, never echoed or logged. */
export const MAX_METHOD_NAME = 128;

/** A value as JSON text; a BigInt (a u64 above 2^53) becomes exact digits. */
export function stringify(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch (e) {
    // BigInt somewhere in a handler's result (a u64 above 2^53): written as exact digits, a JSON
    // number as the real service sends it, never rounded through Number.
    if (e instanceof TypeError) return stringifyJson(v);
    throw e;
  }
}

export function rpcError(id: unknown, code: number, message: string, data?: unknown): Record<string, unknown> {
  return { jsonrpc: '2.0', id: id ?? null, error: data === undefined ? { code, message } : { code, message, data } };
}

/** JSON-RPC 2.0 ids are a string, a number or null: anything else is never echoed back. */
export function isRpcId(id: unknown): boolean {
  return id === undefined || id === null || typeof id === 'string' || typeof id === 'number';
}
