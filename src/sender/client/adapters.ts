/**
 * Clients users already have, as a sender's RPC: a web3.js `Connection` or a kit `Rpc` is mapped
 * onto the `SenderRpc` methods (src/sender/client/rpc.ts); cairn's own client, or anything with those
 * methods, passes through. Detected by shape: `cairn-solana/sender` never loads web3.js or kit.
 *
 * A `Connection` or kit `Rpc` sends through its own RPC's `sendTransaction` (skipPreflight, no
 * retries: the sender rebroadcasts), not through a `/fast` host. Their errors become `CairnError`s.
 */
import { abortError } from '../../abort.js';
import { CairnError, ErrorCodes, InputError, RpcError } from '../../errors/index.js';
import type { CallOptions, AccountInfo, LatestBlockhash, PriorityFeeEstimate, SignatureStatus, SimulationResult } from '../../rpc/index.js';
import type { SenderRpc } from './rpc.js';

const REQUIRED = ['getLatestBlockhash', 'getBlockHeight', 'getSignatureStatuses', 'getTransaction', 'simulateTransaction', 'getPriorityFeeEstimate', 'sendTransaction'] as const;

/** A web3.js `Connection`: the public methods the adapter calls, and its JSON-RPC escape hatch. */
interface ConnectionLike {
  rpcEndpoint: string;
  getLatestBlockhashAndContext(commitment?: string): Promise<{ context: { slot: number }; value: { blockhash: string; lastValidBlockHeight: number } }>;
  getBlockHeight(commitment?: string): Promise<number>;
  getSignatureStatuses(sigs: string[], config?: { searchTransactionHistory?: boolean }): Promise<{ value: (SignatureStatus | null)[] }>;
  sendRawTransaction(wire: Uint8Array, options?: { skipPreflight?: boolean; maxRetries?: number }): Promise<string>;
  /** web3.js 1.x's raw call (used for methods it has no wrapper for that takes bytes: simulate, fee estimate, getTransaction as JSON). */
  _rpcRequest(method: string, args: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string; data?: unknown } }>;
}

/** A kit `Rpc`: every method returns a pending request with `send({ abortSignal })`. */
type KitRpc = Record<string, (...args: unknown[]) => { send(o?: { abortSignal?: AbortSignal }): Promise<unknown> }>;

/** What `createSender({ client })` accepts. */
export type SenderClientInput = SenderRpc | object;

function isConnection(c: object): c is ConnectionLike {
  const o = c as Partial<ConnectionLike>;
  return typeof o.rpcEndpoint === 'string' && typeof o.getLatestBlockhashAndContext === 'function' && typeof o.sendRawTransaction === 'function';
}

function isKitRpc(c: object): boolean {
  // A kit Rpc is a Proxy that answers every property name with a method; no other client does.
  return typeof (c as Record<string, unknown>)['cairn-probe: kit rpc'] === 'function';
}

/**
 * The `SenderRpc` behind `client`: cairn's client (or anything with its methods) as it is, a
 * `Connection` or kit `Rpc` adapted, anything else an `InputError` naming `client` and what it lacks.
 */
export function toSenderRpc(client: unknown, field = 'client'): SenderRpc {
  if (client === null || typeof client !== 'object') {
    throw new InputError(field, `expected a cairn client, a web3.js Connection or a kit Rpc, got ${client === null ? 'null' : typeof client}`);
  }
  if (isConnection(client)) return fromConnection(client, field);
  if (isKitRpc(client)) return fromKitRpc(client as KitRpc);
  const missing = REQUIRED.filter((m) => typeof (client as Record<string, unknown>)[m] !== 'function');
  if (missing.length > 0) {
    throw new InputError(field, `expected a cairn client, a web3.js Connection or a kit Rpc; this object lacks ${missing.join(', ')}`, {
      expected: REQUIRED.join(', '),
      got: missing.join(', '),
    });
  }
  return client as SenderRpc;
}

/** A foreign client's failure as a CairnError: a JSON-RPC code becomes an `RpcError` (so -32601 reads as "not served"). */
function wrap(e: unknown, method: string): CairnError {
  if (e instanceof CairnError) return e;
  const err = e as { code?: unknown; message?: unknown; context?: { __code?: unknown }; data?: unknown };
  const rpcCode = typeof err?.code === 'number' ? err.code : typeof err?.context?.__code === 'number' ? err.context.__code : undefined;
  const message = typeof err?.message === 'string' ? err.message : String(e);
  if (rpcCode !== undefined) {
    return new RpcError(ErrorCodes.RPC_ERROR, `${method}: ${message}`, { context: { rpcCode, method, ...(err.data !== undefined ? { data: err.data } : {}) }, cause: e });
  }
  return new CairnError(ErrorCodes.RPC_NETWORK, `${method}: ${message}`, { context: { method }, cause: e });
}

/** Run `f`, stop waiting on `signal` (web3.js calls take no signal), and type its failure. */
async function call<T>(method: string, signal: AbortSignal | undefined, f: () => Promise<T>): Promise<T> {
  if (signal?.aborted) throw abortError(ErrorCodes.RPC_ABORTED, signal, method);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(ErrorCodes.RPC_ABORTED, signal, method));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  try {
    return await Promise.race([f(), aborted]);
  } catch (e) {
    throw wrap(e, method);
  } finally {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

const b64 = (w: Uint8Array | string): string => (typeof w === 'string' ? w : Buffer.from(w.buffer, w.byteOffset, w.byteLength).toString('base64'));
const bytes = (w: Uint8Array | string): Uint8Array => (typeof w === 'string' ? Buffer.from(w, 'base64') : w);
/** kit answers u64 fields as bigint; the sender reads numbers (block heights and slots fit). */
const num = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : (v as number));

function fromConnection(c: ConnectionLike, field: string): SenderRpc {
  if (typeof c._rpcRequest !== 'function') {
    throw new InputError(field, 'this Connection has no _rpcRequest (web3.js 1.x has it): simulateTransaction and getPriorityFeeEstimate need it', {
      expected: 'web3.js 1.x Connection',
    });
  }
  const raw = async (method: string, args: unknown[]): Promise<unknown> => {
    const r = await c._rpcRequest(method, args);
    if (r.error) throw new RpcError(ErrorCodes.RPC_ERROR, `${method}: ${r.error.message}`, { context: { rpcCode: r.error.code, method, data: r.error.data } });
    return r.result;
  };
  const o = (opts: CallOptions | undefined): AbortSignal | undefined => opts?.signal;
  return {
    getLatestBlockhash: (p, opts) =>
      call('getLatestBlockhash', o(opts), async (): Promise<LatestBlockhash> => {
        const r = await c.getLatestBlockhashAndContext(p?.commitment);
        return { blockhash: r.value.blockhash, lastValidBlockHeight: r.value.lastValidBlockHeight, slot: r.context.slot };
      }),
    getBlockHeight: (p, opts) => call('getBlockHeight', o(opts), () => c.getBlockHeight(p?.commitment)),
    getSignatureStatuses: (sigs, cfg, opts) => call('getSignatureStatuses', o(opts), async () => (await c.getSignatureStatuses(sigs, cfg)).value),
    getTransaction: (sig, cfg, opts) =>
      call('getTransaction', o(opts), async () => (await raw('getTransaction', [sig, { encoding: 'json', maxSupportedTransactionVersion: 0, ...(cfg ?? {}) }])) as Record<string, unknown> | null),
    simulateTransaction: (wire, cfg, opts) =>
      call('simulateTransaction', o(opts), async () => ((await raw('simulateTransaction', [b64(wire), { encoding: 'base64', ...(cfg ?? {}) }])) as { value: SimulationResult }).value),
    getPriorityFeeEstimate: (p, opts) => call('getPriorityFeeEstimate', o(opts), async () => (await raw('getPriorityFeeEstimate', [p])) as PriorityFeeEstimate),
    sendTransaction: (wire, _cfg, opts) => call('sendTransaction', o(opts), () => c.sendRawTransaction(bytes(wire), { skipPreflight: true, maxRetries: 0 })),
    // Durable-nonce intents read their nonce accounts (base64; only owner and data are read).
    getMultipleAccounts: (addrs, p, opts) =>
      call('getMultipleAccounts', o(opts), () => inChunks(addrs, async (a) => ((await raw('getMultipleAccounts', [a, accountCfg(p?.commitment)])) as { value: (AccountInfo | null)[] }).value)),
  };
}

/** getMultipleAccounts takes at most 100 addresses per call. */
async function inChunks<T>(addrs: string[], f: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < addrs.length; i += 100) out.push(...(await f(addrs.slice(i, i + 100))));
  return out;
}

const accountCfg = (commitment: string | undefined) => ({ encoding: 'base64', ...(commitment ? { commitment } : {}) });

function fromKitRpc(rpc: KitRpc): SenderRpc {
  const send = (method: string, signal: AbortSignal | undefined, ...args: unknown[]): Promise<unknown> =>
    call(method, signal, () => rpc[method](...args).send(signal ? { abortSignal: signal } : undefined));
  return {
    getLatestBlockhash: async (p, opts) => {
      const r = (await send('getLatestBlockhash', opts?.signal, p?.commitment ? { commitment: p.commitment } : {})) as {
        context: { slot: bigint };
        value: { blockhash: string; lastValidBlockHeight: bigint };
      };
      return { blockhash: r.value.blockhash, lastValidBlockHeight: num(r.value.lastValidBlockHeight), slot: num(r.context.slot) };
    },
    getBlockHeight: async (p, opts) => num(await send('getBlockHeight', opts?.signal, p?.commitment ? { commitment: p.commitment } : {})),
    getSignatureStatuses: async (sigs, cfg, opts) => {
      const r = (await send('getSignatureStatuses', opts?.signal, sigs, cfg ?? {})) as { value: (Record<string, unknown> | null)[] };
      return r.value.map((s) =>
        (s === null ? null : ({ ...s, slot: num(s.slot), confirmations: s.confirmations === null ? null : num(s.confirmations) } as SignatureStatus)),
      );
    },
    getTransaction: async (sig, cfg, opts) =>
      (await send('getTransaction', opts?.signal, sig, { encoding: 'json', maxSupportedTransactionVersion: 0, ...(cfg ?? {}) })) as Record<string, unknown> | null,
    simulateTransaction: async (wire, cfg, opts) => {
      const r = (await send('simulateTransaction', opts?.signal, b64(wire), { encoding: 'base64', ...(cfg ?? {}) })) as { value: SimulationResult };
      const v = r.value;
      return { ...v, ...(v.unitsConsumed !== undefined ? { unitsConsumed: num(v.unitsConsumed) } : {}) };
    },
    getPriorityFeeEstimate: async (p, opts) => {
      const r = (await send('getPriorityFeeEstimate', opts?.signal, p)) as { priorityFeeEstimate?: unknown };
      return r.priorityFeeEstimate === undefined ? {} : { priorityFeeEstimate: num(r.priorityFeeEstimate) };
    },
    sendTransaction: async (wire, _cfg, opts) =>
      (await send('sendTransaction', opts?.signal, b64(wire), { encoding: 'base64', skipPreflight: true, maxRetries: 0n })) as string,
    getMultipleAccounts: (addrs, p, opts) =>
      inChunks(addrs, async (a) => ((await send('getMultipleAccounts', opts?.signal, a, accountCfg(p?.commitment))) as { value: (AccountInfo | null)[] }).value),
  };
}
