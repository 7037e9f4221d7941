/**
 * JSON-RPC dispatch: one call checked as JSON-RPC 2.0 and answered by the method table, or, on
 * `/fast`, by the `/fast` rules and the chain (sendTransaction and sendBundle). Errors become JSON-RPC error
 * objects with the HTTP status they ask for; internal errors are logged and redacted.
 */
import { isPlainObject } from '../../assert.js';
import { CairnError, redact } from '../../errors/index.js';
import { encodeBase58, type ParsedTransaction } from '../../solana/index.js';
import type { DevnetChain } from '../chain/contract.js';
import { checkFastSendTransaction, fastSendBundle, type ResolvedFastRules } from './fast.js';
import { isRpcId, MAX_METHOD_NAME, rpcError } from './json-rpc.js';
import { DevnetRpcError, type RpcHandler } from '../types.js';

export interface RpcAnswer {
  /** The response object; null for a notification, which gets none. */
  body: Record<string, unknown> | null;
  status: number;
  method: string;
  /** `getSignatureStatuses`: how many signatures it asked about (the request log counts them). */
  items?: number;
}

export interface RpcCall {
  endpoint: 'rpc' | 'fast';
  /** The request's AbortSignal, made on first use. */
  signalOf: () => AbortSignal;
  /** Fault "drop" on `/fast`: accept and answer, never execute. */
  drop: boolean;
  /** Fault "drop" for `sendTransaction` on the JSON-RPC host, drawn per accepted send. */
  dropSend?: () => boolean;
  swqosOnly: boolean;
}

export interface RpcDispatchDeps {
  chain: DevnetChain;
  fastRules: ResolvedFastRules;
  methods: ReadonlyMap<string, RpcHandler>;
  log: (line: string) => void;
}

/**
 * Standard methods a web3.js or kit user may call that the devnet does not serve, with the reason
 * its -32601 gives: an honest refusal rather than a made-up answer.
 */
const UNSERVED: Readonly<Record<string, string>> = {
  getBlockCommitment: 'the devnet has no votes',
};

/** Run one JSON-RPC call; returns the response object (null for a notification) and the HTTP status it asks for. */
export async function dispatchRpc(deps: RpcDispatchDeps, call: unknown, c0: RpcCall): Promise<RpcAnswer> {
  const { endpoint, signalOf, drop, swqosOnly } = c0;
  if (!isPlainObject(call)) {
    return { body: rpcError(null, -32600, 'Invalid request: expected a JSON-RPC 2.0 object'), status: 200, method: '?' };
  }
  const c = call as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  if (!isRpcId(c.id)) return { body: rpcError(null, -32600, 'Invalid request: "id" must be a string, a number or null'), status: 200, method: '?' };
  const id = c.id ?? null;
  if (c.jsonrpc !== '2.0') return { body: rpcError(id, -32600, 'Invalid request: "jsonrpc" must be "2.0"'), status: 200, method: '?' };
  if (typeof c.method !== 'string') return { body: rpcError(id, -32600, 'Invalid request: "method" must be a string'), status: 200, method: '?' };
  // A notification (no "id" member at all; `"id": null` is a call) gets no answer (JSON-RPC 2.0 §4.1).
  // Agave's jsonrpc-core does not run it either: every RPC method is registered as a call, and a
  // notification finds no notification handler. The devnet does the same.
  if (!Object.hasOwn(c, 'id')) return { body: null, status: 200, method: c.method.length > MAX_METHOD_NAME ? '?' : c.method };
  if (c.method.length > MAX_METHOD_NAME) {
    return { body: rpcError(id, -32600, `Invalid request: "method" is ${c.method.length} characters long; no method name is longer than ${MAX_METHOD_NAME}`), status: 200, method: '?' };
  }
  const method = c.method;
  const items = method === 'getSignatureStatuses' && Array.isArray(c.params) && Array.isArray(c.params[0]) ? c.params[0].length : undefined;
  try {
    let result: unknown;
    if (endpoint === 'fast') {
      // Fault "drop": accepted, answered, never executed.
      const submit = (wire: Uint8Array, parsed: ParsedTransaction, signature: string): string =>
        (drop ? signature : deps.chain.submitParsed(wire, parsed, signature).signature);
      if (method === 'sendBundle') {
        result = fastSendBundle(c.params, deps.fastRules, submit);
      } else if (method === 'sendTransaction') {
        const { wire, parsed } = checkFastSendTransaction(c.params, { swqosOnly }, deps.fastRules);
        result = submit(wire, parsed, encodeBase58(parsed.signatures[0]!));
      } else {
        throw new DevnetRpcError(-32601, `Method not found: /fast serves sendTransaction and sendBundle only, got ${JSON.stringify(method)}`, 400);
      }
    } else {
      const h = deps.methods.get(method);
      if (!h) throw new DevnetRpcError(-32601, UNSERVED[method] ? `Method not found: ${method} is not served by the devnet: ${UNSERVED[method]}` : `Method not found: ${method}`);
      result = await h(c.params, { signal: signalOf(), endpoint, ...(c0.dropSend ? { dropSend: c0.dropSend } : {}) });
    }
    return { body: { jsonrpc: '2.0', id, result: result === undefined ? null : result }, status: 200, method, ...(items !== undefined ? { items } : {}) };
  } catch (e) {
    if (e instanceof DevnetRpcError) {
      return { body: rpcError(id, e.rpcCode, redact(e.message), e.data), status: e.httpStatus, method, ...(items !== undefined ? { items } : {}) };
    }
    if (e instanceof CairnError && e.code === 'INPUT_INVALID') {
      return { body: rpcError(id, -32602, `Invalid params: ${e.message}`), status: 200, method };
    }
    deps.log(`devnet: internal error in ${method}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return { body: rpcError(id, -32603, `Internal error: ${e instanceof Error ? redact(e.message) : String(e)}`), status: 200, method };
  }
}
