/**
 * `client.call(method, params)`: the escape hatch for a JSON-RPC method the client has no function
 * for (a new provider method, a standard one not wrapped yet). The method name and the params'
 * form are checked; the result is returned parsed but unchecked, typed as the caller says.
 */
import { isPlainObject, show } from '../../assert.js';
import { InputError } from '../../errors/index.js';
import type { ClientContext } from './context.js';
import type { CallOptions } from '../jsonrpc.js';

// JSON-RPC method names as the service spells them: letters, digits, '_' and '.' (no spaces, no paths)
const METHOD = /^[A-Za-z][A-Za-z0-9_.]{0,127}$/;

/**
 * Any JSON-RPC method on the client's JSON-RPC host, through the same transport (retries, deadline,
 * abort, API key). `params` is an array (positional, as the standard Solana methods take them) or an
 * object (named, as DAS and compression methods take them); omitted, `[]` is sent. The result is
 * not validated: `R` is what you assert it is.
 *
 * @example
 * const version = await client.call<{ 'solana-core': string }>('getVersion');
 * const supply = await client.call('getSupply', [{ commitment: 'finalized' }]);
 */
export async function callMethod<R = unknown>(ctx: ClientContext, method: string, params?: unknown, opts?: CallOptions): Promise<R> {
  if (typeof method !== 'string' || !METHOD.test(method)) {
    throw new InputError('method', `expected a JSON-RPC method name (letters, digits, '_' or '.', up to 128), got ${show(method)}`, { expected: 'method name', got: show(method) });
  }
  if (params !== undefined && !Array.isArray(params) && !(isPlainObject(params) && [Object.prototype, null].includes(Object.getPrototypeOf(params)))) {
    throw new InputError('params', `expected an array (positional) or a plain object (named), got ${show(params)}`, { expected: 'array | object', got: show(params) });
  }
  return ctx.rpc.call<R>({ method, params: params ?? [] }, opts);
}
