/**
 * The shared inputs of every build, fetched once and cached for a short while: the latest
 * blockhash, the compute-unit price (estimated × multiplier, capped, or the fallback when the
 * cluster has no estimate) and the automatic tip (clamped to [minimum, cap]). A burst of 1,000
 * transfers costs one `getLatestBlockhash`, not 1,000.
 */
import { abortError, sleep } from '../../abort.js';
import { BadResponseError, ErrorCodes, InputError, RpcError } from '../../errors/index.js';
import type { PriorityFeeEstimate } from '../../rpc/index.js';
import { minimumTip, type ResolvedSenderOptions } from '../config.js';
import type { SenderRpc } from '../client/rpc.js';

interface Cached<T> {
  value?: T;
  at: number;
  inflight?: Promise<T>;
}

export interface BuildInputs {
  /** Latest blockhash (cached); `fresh` forces a new fetch. */
  blockhash(signal: AbortSignal, fresh?: boolean): Promise<{ blockhash: string; lastValidBlockHeight: number }>;
  /** Wait for a blockhash other than `than` (a new one comes with each block). */
  newerBlockhash(than: string, signal: AbortSignal): Promise<{ blockhash: string; lastValidBlockHeight: number }>;
  /** The compute-unit price for a transaction paid by `feeKey`. */
  cuPrice(signal: AbortSignal, feeKey: string): Promise<bigint>;
  /** The tip in lamports when the caller's instructions carry none. */
  tipAmount(signal: AbortSignal): Promise<bigint>;
  /** Wait for `p`, or reject on the caller's own abort. */
  race<T>(p: Promise<T>, signal: AbortSignal): Promise<T>;
}

/**
 * A blockhash past its ttl is still signed with, while a new one is fetched, up to this many ttls
 * old: it lives ~150 blocks (a minute), so one a few seconds old loses a few of them, and the
 * tracker reads its expiry from the lastValidBlockHeight it came with.
 */
const BLOCKHASH_STALE_TTLS = 10;

export function createBuildInputs(rpc: SenderRpc, cfg: ResolvedSenderOptions): BuildInputs {
  const bh: Cached<{ blockhash: string; lastValidBlockHeight: number }> = { at: 0 };
  const fee: Cached<bigint | undefined> = { at: 0 };
  const autoTip: Cached<bigint> = { at: 0 };

  /**
   * The cached value while younger than `ttl`; older, a new fetch (one for every caller). Younger
   * than `staleMs`, the old value is still handed out at once while that fetch runs, so a slow or
   * refused fetch (a 429's Retry-After, a 503's backoff) holds up no build.
   */
  const cached = async <T>(c: Cached<T>, ttl: number, fetch: () => Promise<T>, fresh = false, staleMs = 0): Promise<T> => {
    const age = Date.now() - c.at;
    if (!fresh && c.value !== undefined && age < ttl) return c.value;
    const p = c.inflight ?? refresh(c, fetch);
    if (!fresh && c.value !== undefined && age < staleMs) {
      void p.catch(() => undefined); // a failed fetch is tried again by the next caller past the ttl
      return c.value;
    }
    return p;
  };
  const refresh = <T>(c: Cached<T>, fetch: () => Promise<T>): Promise<T> => {
    const p = fetch().then(
      (v) => {
        c.value = v;
        c.at = Date.now();
        c.inflight = undefined;
        return v;
      },
      (e: unknown) => {
        c.inflight = undefined;
        throw e;
      },
    );
    c.inflight = p;
    return p;
  };

  // Shared fetches run under the builder's own signal-free promise: one caller's abort must not
  // fail everyone waiting on the same fetch. Each caller still stops waiting on its own abort.
  const race = <T>(p: Promise<T>, signal: AbortSignal): Promise<T> => {
    if (signal.aborted) return Promise.reject(abortError(ErrorCodes.SENDER_ABORTED, signal, 'build'));
    return new Promise<T>((resolve, reject) => {
      const on = (): void => reject(abortError(ErrorCodes.SENDER_ABORTED, signal, 'build'));
      signal.addEventListener('abort', on, { once: true });
      p.then(
        (v) => {
          signal.removeEventListener('abort', on);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', on);
          reject(e);
        },
      );
    });
  };

  const blockhash = (signal: AbortSignal, fresh = false) =>
    race(
      cached(
        bh,
        cfg.blockhashTtlMs,
        async () => {
          const { blockhash, lastValidBlockHeight } = await rpc.getLatestBlockhash({ commitment: 'confirmed' });
          return { blockhash, lastValidBlockHeight };
        },
        fresh,
        cfg.blockhashTtlMs * BLOCKHASH_STALE_TTLS,
      ),
      signal,
    );

  const cuPrice = async (signal: AbortSignal, feeKey: string): Promise<bigint> => {
    const c = cfg.cuPrice;
    if (typeof c === 'bigint') return c;
    // `undefined` = the cluster does not serve the method: never cached, so a cluster that gains it
    // (or a transient answer mistaken for it) is asked again on the next build.
    const est = await race(
      cached<bigint | undefined>(fee, c.refreshMs, async () => {
        let r: PriorityFeeEstimate;
        try {
          r = await rpc.getPriorityFeeEstimate({ accountKeys: [feeKey], options: { priorityLevel: c.estimate } });
        } catch (e) {
          // Only "this cluster has no such method" falls back (docs/sender.md: not every cluster
          // serves it). A bad key, a rate limit, a server error or a bug must be seen, not hidden.
          if (isUnsupportedMethod(e)) return undefined;
          throw e;
        }
        // The client checks a present estimate is a finite number; that one is there, and not
        // negative, is the sender's to check.
        const n = r.priorityFeeEstimate;
        if (n === undefined || n < 0) {
          throw new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `getPriorityFeeEstimate: "priorityFeeEstimate" expected a number >= 0, got ${String(n)}`, {
            context: { method: 'getPriorityFeeEstimate', path: 'priorityFeeEstimate', detail: String(n) },
          });
        }
        return BigInt(Math.ceil(n * c.multiplier));
      }),
      signal,
    );
    const price = est ?? cfg.fallbackCuPrice;
    return price > cfg.maxCuPrice ? cfg.maxCuPrice : price;
  };

  const tipAmount = async (signal: AbortSignal): Promise<bigint> => {
    const min = minimumTip(cfg);
    const t = cfg.tip;
    if (t === 'min') return min;
    if (typeof t === 'bigint') return t;
    const floor = await race(
      cached(autoTip, t.refreshMs, async () => {
        const v = await t.auto(signal);
        if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return BigInt(Math.ceil(v));
        if (typeof v === 'bigint' && v >= 0n) return v;
        throw new InputError('tip.auto', `returned ${String(v)}, expected non-negative lamports`);
      }),
      signal,
    );
    // Feeds spike: clamp to [minimum, cap].
    return floor < min ? min : floor > cfg.maxTipLamports ? cfg.maxTipLamports : floor;
  };

  const newerBlockhash = async (than: string, signal: AbortSignal): Promise<{ blockhash: string; lastValidBlockHeight: number }> => {
    for (;;) {
      const h = await blockhash(signal, true);
      if (h.blockhash !== than) return h;
      await sleep(Math.max(50, Math.min(400, cfg.blockhashTtlMs)), signal);
    }
  };

  return { blockhash, newerBlockhash, cuPrice, tipAmount, race };
}

/**
 * True when the RPC answered that it does not serve the method: JSON-RPC -32601 ("Method not
 * found"), or a server error whose message says the method is not supported.
 */
function isUnsupportedMethod(e: unknown): boolean {
  if (!(e instanceof RpcError)) return false;
  return e.rpcCode === -32601 || /method not found|not supported|unsupported method/i.test(e.message);
}
