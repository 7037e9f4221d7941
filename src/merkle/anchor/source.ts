/**
 * Where an anchored verifier reads tree accounts: `getMultipleAccounts` (at most 100 addresses per
 * call, the method's limit; one call for a batch that touches ≤ 100 trees), through a cairn client
 * or a URL (plain `fetch`: merkle/ imports nothing from rpc/). Answers are cached per slot: a tree read in the last `cacheMs` (one slot, 400 ms, by
 * default) is not read again, so a stream of batches over the same few trees costs one read per
 * slot, while a root the chain has just added is seen within a slot. A batch that uses an entry in
 * the last quarter of its life reads it again behind itself, so a steady stream of batches does not
 * wait for the chain when an entry expires (each batch still starts at most one read). A root missing
 * from a cached state may be newer than the read: verdicts.ts reads such a tree again (`reread`)
 * before it calls the root unknown.
 */
import { InputError } from '../../errors/index.js';
import { treeStateOf, type RawAccount, type TreeState } from './tree-state.js';

/** What `callRaw` takes (cairn's client's call options; merkle/ does not import rpc/). */
interface CallOptions {
  signal?: AbortSignal;
}

/** The part of a client the anchor uses: cairn's `callRaw`, or any `getMultipleAccounts`. */
export type AnchorRpc =
  | { callRaw(method: string, params: unknown, opts?: CallOptions): Promise<Uint8Array> }
  | { getMultipleAccounts(addresses: string[], params?: { encoding?: 'base64'; commitment?: AnchorCommitment }, opts?: { signal?: AbortSignal }): Promise<(RawAccount | null)[]> };

export type AnchorCommitment = 'processed' | 'confirmed' | 'finalized';

export interface AnchorOptions {
  /** A cairn client (`createClient`), any object with `getMultipleAccounts`, or a JSON-RPC URL. */
  rpc: AnchorRpc | string;
  /** Commitment of the reads (default `confirmed`). */
  commitment?: AnchorCommitment;
  /** How long a tree read is reused, ms (default 400: one slot; 0 reads every batch). */
  cacheMs?: number;
}

export interface AnchorSource {
  /** The state of each tree, read (≤ 100 per call) unless cached. */
  trees(addresses: readonly string[], signal?: AbortSignal): Promise<Map<string, TreeState>>;
  /** The state of each tree read now, past the cache (and cached). */
  reread(addresses: readonly string[], signal?: AbortSignal): Promise<Map<string, TreeState>>;
  /** When (`Date.now()`) the cached state of `address` was read; undefined when none is cached. */
  readAt(address: string): number | undefined;
  /** getMultipleAccounts calls made so far. */
  readonly calls: number;
  close(): Promise<void>;
}

const MAX_PER_CALL = 100;
/** A cached tree used past this share of its life is read again behind the batch that used it. */
const RENEW_AFTER = 0.75;
const COMMITMENTS = ['processed', 'confirmed', 'finalized'];

/** Check anchor options, naming the field. */
export function checkAnchorOptions(a: unknown, field = 'anchor'): AnchorOptions {
  if (a === null || typeof a !== 'object') throw new InputError(field, `expected { rpc, commitment? }, got ${a === null ? 'null' : typeof a}`);
  const o = a as Record<string, unknown>;
  const rpc = o.rpc;
  if (typeof rpc === 'string') {
    let u: URL;
    try {
      u = new URL(rpc);
    } catch {
      throw new InputError(`${field}.rpc`, `expected an http(s) URL, got ${JSON.stringify(rpc.replace(/api-key=[^&]*/g, 'api-key=…'))}`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new InputError(`${field}.rpc`, `expected an http(s) URL, got ${u.protocol}`);
  } else if (rpc === null || typeof rpc !== 'object' || (typeof (rpc as { callRaw?: unknown }).callRaw !== 'function' && typeof (rpc as { getMultipleAccounts?: unknown }).getMultipleAccounts !== 'function')) {
    throw new InputError(`${field}.rpc`, 'expected a URL, a cairn client or an object with getMultipleAccounts');
  }
  if (o.commitment !== undefined && !COMMITMENTS.includes(o.commitment as string)) {
    throw new InputError(`${field}.commitment`, `expected one of ${COMMITMENTS.join(', ')}, got ${JSON.stringify(o.commitment)}`);
  }
  if (o.cacheMs !== undefined && (typeof o.cacheMs !== 'number' || !Number.isFinite(o.cacheMs) || o.cacheMs < 0)) {
    throw new InputError(`${field}.cacheMs`, `expected a number ≥ 0, got ${JSON.stringify(o.cacheMs)}`);
  }
  return a as AnchorOptions;
}

/**
 * A `callRaw` over plain `fetch` for a URL (merkle/ imports nothing from rpc/: a cairn client can be
 * passed instead). The URL may carry its `api-key`; no message ever shows the URL.
 */
function urlCaller(url: string): { callRaw(method: string, params: unknown, opts?: CallOptions): Promise<Uint8Array> } {
  let id = 0;
  return {
    async callRaw(method, params, opts = {}) {
      let res: Response;
      try {
        res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }), ...(opts.signal ? { signal: opts.signal } : {}) });
      } catch (e) {
        if (opts.signal?.aborted) throw opts.signal.reason;
        throw new InputError('anchor.rpc', `${method} failed: ${(e as Error).name === 'TypeError' ? 'the anchor RPC could not be reached' : (e as Error).message}`);
      }
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (!res.ok) throw new InputError('anchor.rpc', `${method}: the anchor RPC answered HTTP ${res.status}`);
      const body = JSON.parse(Buffer.from(bytes).toString('utf8')) as { error?: { code?: number; message?: string } };
      if (body.error) throw new InputError('anchor.rpc', `${method}: the anchor RPC answered error ${body.error.code}: ${String(body.error.message).slice(0, 200)}`);
      return bytes;
    },
  };
}

/**
 * @example
 * const src = createAnchorSource({ rpc: 'http://127.0.0.1:8899' });
 * const states = await src.trees([treeId]); // Map { treeId → { status: 'ok', roots } }
 */
export function createAnchorSource(options: AnchorOptions): AnchorSource {
  const o = checkAnchorOptions(options);
  const commitment = o.commitment ?? 'confirmed';
  const cacheMs = o.cacheMs ?? 400;
  const rpc: AnchorRpc = typeof o.rpc === 'string' ? urlCaller(o.rpc) : o.rpc;
  const cache = new Map<string, { at: number; state: TreeState }>();
  /** Trees being read again ahead of their expiry, and those reads (close waits for them). */
  const renewing = new Set<string>();
  const pending = new Set<Promise<void>>();
  let calls = 0;

  async function read(keys: string[], signal?: AbortSignal): Promise<TreeState[]> {
    calls++;
    const cfg = { encoding: 'base64' as const, commitment };
    if ('callRaw' in rpc) {
      const body = JSON.parse(Buffer.from(await rpc.callRaw('getMultipleAccounts', [keys, cfg], signal ? { signal } : {})).toString('utf8')) as {
        result?: { context?: { slot?: number }; value?: (RawAccount | null)[] };
        context?: { slot?: number };
        value?: (RawAccount | null)[];
      };
      // callRaw answers the whole JSON-RPC envelope; tolerate a bare result too.
      const result = body.result ?? body;
      const value = result.value;
      if (!Array.isArray(value) || value.length !== keys.length) throw new InputError('anchor.rpc', `getMultipleAccounts answered ${Array.isArray(value) ? value.length : 'no'} accounts for ${keys.length} addresses`);
      const slot = typeof result.context?.slot === 'number' ? result.context.slot : -1;
      return value.map((a) => treeStateOf(a, slot));
    }
    const value = await rpc.getMultipleAccounts(keys, cfg, signal ? { signal } : {});
    return value.map((a) => treeStateOf(a, -1));
  }

  /** Read `keys` (≤ 100 a call), cache each state, and put it in `out`. */
  async function fetchStates(keys: string[], signal?: AbortSignal, out?: Map<string, TreeState>): Promise<void> {
    const chunks: string[][] = [];
    for (let i = 0; i < keys.length; i += MAX_PER_CALL) chunks.push(keys.slice(i, i + MAX_PER_CALL));
    const answers = await Promise.all(chunks.map((k) => read(k, signal)));
    const at = Date.now();
    chunks.forEach((ks, c) =>
      ks.forEach((k, i) => {
        const state = answers[c]![i]!;
        out?.set(k, state);
        if (cacheMs > 0) cache.set(k, { at, state });
      }),
    );
    // Old entries go, so a long-lived verifier over many trees does not keep them all.
    if (cache.size > 10_000) for (const [k, v] of cache) if (at - v.at >= cacheMs) cache.delete(k);
  }

  return {
    get calls() {
      return calls;
    },
    async trees(addresses, signal) {
      const now = Date.now();
      const out = new Map<string, TreeState>();
      const want: string[] = [];
      const renew: string[] = [];
      for (const a of new Set(addresses)) {
        const c = cache.get(a);
        if (c && now - c.at < cacheMs) {
          out.set(a, c.state);
          if (now - c.at >= cacheMs * RENEW_AFTER && !renewing.has(a)) renew.push(a);
        } else want.push(a);
      }
      // Entries past most of their life are read again behind this batch, for the next one: a steady
      // stream of batches then never waits for the chain (each batch starts at most one read, as
      // before). A failed renewal is dropped: the entry expires, and the batch that reads it then
      // meets the error.
      // A batch that reads anyway reads them with its own (when they fit its calls).
      if (want.length > 0 && Math.ceil((want.length + renew.length) / MAX_PER_CALL) === Math.ceil(want.length / MAX_PER_CALL)) want.push(...renew);
      else if (renew.length > 0) {
        for (const a of renew) renewing.add(a);
        const p: Promise<void> = fetchStates(renew)
          .catch(() => {})
          .finally(() => {
            for (const a of renew) renewing.delete(a);
            pending.delete(p);
          });
        pending.add(p);
      }
      await fetchStates(want, signal, out);
      return out;
    },
    async reread(addresses, signal) {
      const out = new Map<string, TreeState>();
      await fetchStates([...new Set(addresses)], signal, out);
      return out;
    },
    readAt: (address) => cache.get(address)?.at,
    close: async () => {
      await Promise.all([...pending]);
    },
  };
}
