/**
 * Submission through `/fast`. The client already posts base64 with `skipPreflight: true,
 * maxRetries: 0` over keep-alive and retries 429 (honouring `Retry-After`) and 5xx/network errors
 * with backoff; this layer decides what a failure MEANS for an intent:
 * - 400 / JSON-RPC -32602 (missing tip, missing CU price, bad parameters): the host refused the
 *   bytes, nothing is live: fail fast with the host's message (`SENDER_REJECTED`).
 * - anything else after the client's retries (still rate limited, server down, network): the bytes
 *   may or may not have arrived, so the intent stays live and the rebroadcast loop tries again.
 * - a 429, when the sender has a second route (`rateLimited: 'rpc'`): the client is asked not to wait
 *   it out, the same bytes go at once through the JSON-RPC host's `sendTransaction` (`submitViaRpc`),
 *   and the sender gives them to `/fast` again after its `Retry-After` (intent/attempt.ts).
 *
 * Also: region choice by timing `GET /ping` on candidate hosts, and idle warming.
 */
import { abortError } from '../../abort.js';
import { CairnError, ErrorCodes, HttpError, NetworkError, RpcError, isAbortError } from '../../errors/index.js';
import { createTransport, type RetryPolicy } from '../../rpc/index.js';
import type { SenderRpc } from './rpc.js';

// The regional plain-HTTP hosts live with the other production hosts (src/clusters.ts).
export { SENDER_REGIONS } from '../../clusters.js';

export type SubmitResult = { ok: true } | { ok: false; fatal: boolean; error: CairnError };

/** True when the host refused the transaction itself (400 / -32602), as opposed to a transient failure. */
function isRejection(e: unknown): boolean {
  if (e instanceof RpcError) {
    const status = (e.context as { status?: number }).status;
    return e.rpcCode === -32602 || status === 400;
  }
  return e instanceof HttpError && e.code === ErrorCodes.RPC_HTTP && e.context.status === 400;
}

/**
 * Whether a transient submit failure deserves the same bytes again at once rather than at the next
 * slot: a server error, a dropped connection or a timeout says nothing about the next request, and
 * the same signed bytes cannot execute twice. A rate limit does: `/fast` asked for a wait (the
 * client waited it out and retried, or the sender took the second route), and more requests to it
 * now would only meet it again.
 */
export function resendAtOnce(e: CairnError): boolean {
  return e.code !== ErrorCodes.RPC_RATE_LIMITED && e.code !== ErrorCodes.RPC_DEADLINE;
}

/**
 * The client's retries for a submit whose 429 the sender handles itself: what it retries by default
 * but the rate limit (for signed bytes that leaves a connection refused before they were written,
 * src/rpc/retry/outcome.ts), so the 429 reaches the sender at once instead of after the `Retry-After` wait.
 */
const RATE_LIMIT_TO_SENDER: Partial<RetryPolicy> = {
  shouldRetry: ({ error }) =>
    !isAbortError(error) &&
    error instanceof CairnError &&
    (error.code === ErrorCodes.RPC_NETWORK || error.code === ErrorCodes.RPC_SERVER || error.code === ErrorCodes.RPC_TIMEOUT),
};

/**
 * Submit once. Never throws for transient failures (they are returned with `fatal: false`); throws
 * only on abort. With `waitOutRateLimit: false` a 429 comes back at once (`RPC_RATE_LIMITED`, its
 * `Retry-After` in `rateLimitWait`) rather than after the client waited it out and retried.
 */
export async function submitOnce(
  rpc: SenderRpc,
  wire: Uint8Array,
  swqosOnly: boolean,
  signal: AbortSignal,
  o: { waitOutRateLimit?: boolean } = {},
): Promise<SubmitResult> {
  try {
    const call = o.waitOutRateLimit === false ? { signal, retry: RATE_LIMIT_TO_SENDER } : { signal };
    await rpc.sendTransaction(wire, swqosOnly ? { swqosOnly: true } : undefined, call);
    return { ok: true };
  } catch (e) {
    if (signal.aborted || isAbortError(e)) throw abortError(ErrorCodes.SENDER_ABORTED, signal, 'submit');
    if (isRejection(e)) {
      const msg = e instanceof Error ? e.message : String(e);
      return {
        ok: false,
        fatal: true,
        error: new CairnError(ErrorCodes.SENDER_REJECTED, `/fast refused the transaction: ${msg}`, { context: { host: msg }, cause: e }),
      };
    }
    // A client that is not cairn's (a SenderRpc of the caller's own) may throw anything: it still
    // reaches the caller as a typed error, the original kept as its cause.
    if (e instanceof CairnError) return { ok: false, fatal: false, error: e };
    const msg = e instanceof Error ? e.message : String(e);
    return { ok: false, fatal: false, error: new NetworkError(ErrorCodes.RPC_NETWORK, `submit failed: ${msg}`, { context: { method: 'sendTransaction' }, cause: e }) };
  }
}

/** True when `e` is a 429 (`/fast` asks for a wait, `Retry-After` or not). */
export function isRateLimited(e: CairnError): boolean {
  return e.code === ErrorCodes.RPC_RATE_LIMITED;
}

/** A 429's `Retry-After` in ms, as the client read it (absent when the host sent none). */
export function rateLimitWait(e: CairnError): number | undefined {
  const ms = (e.context as { retryAfterMs?: unknown }).retryAfterMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** Whether a client has the second route for a rate-limited submit: `call` on its JSON-RPC host. */
export function hasSecondRoute(rpc: SenderRpc): boolean {
  return typeof rpc.call === 'function';
}

/**
 * The second route: the same signed bytes through the JSON-RPC host's `sendTransaction` (base64,
 * `skipPreflight: true`, `maxRetries: 0`: the sender rebroadcasts them itself) — a different service
 * with a quota of its own, and a metered call. Tried once, no retries: the `/fast` resend after the
 * `Retry-After` follows whatever this answers. Answers whether the host took the bytes; throws only
 * on abort.
 *
 * @example
 * if (isRateLimited(r.error) && hasSecondRoute(rpc)) await submitViaRpc(rpc, wire, signal);
 */
export async function submitViaRpc(rpc: SenderRpc, wire: Uint8Array, signal: AbortSignal): Promise<boolean> {
  const b64 = Buffer.from(wire.buffer, wire.byteOffset, wire.byteLength).toString('base64');
  try {
    await rpc.call!('sendTransaction', [b64, { encoding: 'base64', skipPreflight: true, maxRetries: 0 }], { signal, retry: { retries: 0 } });
    return true;
  } catch (e) {
    if (signal.aborted || isAbortError(e)) throw abortError(ErrorCodes.SENDER_ABORTED, signal, 'submit');
    return false;
  }
}

/** A client that can send bundles (cairn's `createClient` has `sendBundle`; an adapted Connection or kit Rpc has not). */
export type BundleRpc = SenderRpc & { sendBundle?: (wires: Uint8Array[], opts?: { signal?: AbortSignal }) => Promise<string> };

/**
 * Submit a bundle once, read as `submitOnce` reads a single transaction's answer: a refusal is
 * fatal, anything else transient (the bundle may have arrived); `bundleId` is what `/fast` answered.
 * Throws only on abort.
 */
export async function submitBundleOnce(
  rpc: BundleRpc,
  wires: Uint8Array[],
  signal: AbortSignal,
): Promise<{ ok: true; bundleId: string } | Extract<SubmitResult, { ok: false }>> {
  try {
    return { ok: true, bundleId: await rpc.sendBundle!(wires, { signal }) };
  } catch (e) {
    if (signal.aborted || isAbortError(e)) throw abortError(ErrorCodes.SENDER_ABORTED, signal, 'submit');
    const msg = e instanceof Error ? e.message : String(e);
    if (isRejection(e)) return { ok: false, fatal: true, error: new CairnError(ErrorCodes.SENDER_REJECTED, `/fast refused the bundle: ${msg}`, { context: { host: msg }, cause: e }) };
    if (e instanceof CairnError) return { ok: false, fatal: false, error: e };
    return { ok: false, fatal: false, error: new NetworkError(ErrorCodes.RPC_NETWORK, `bundle submit failed: ${msg}`, { context: { method: 'sendBundle' }, cause: e }) };
  }
}

/**
 * Time `GET {url}/ping` (no key) through the transport, as the client's `ping` asks it, but on a
 * transport of its own without keep-alive: a fresh connection each sample, so the handshake counts
 * like a cold send would (the client's ping reuses a warm connection, which would hide it).
 */
export async function timePing(baseUrl: string, signal?: AbortSignal, timeoutMs = 3_000): Promise<number> {
  const u = new URL(`${baseUrl.replace(/\/+$/, '')}/ping`);
  const transport = createTransport({ keepAlive: false, retry: { retries: 0 } });
  try {
    const t0 = performance.now();
    const res = await transport.request({ url: u.href, method: 'GET', auth: false, responseType: 'text', label: 'ping', signal, timeoutMs, retry: { retries: 0 } });
    const ms = performance.now() - t0;
    if (typeof res.body !== 'string' || res.body.trim().toLowerCase() !== 'ok') {
      throw new CairnError(ErrorCodes.RPC_SERVER, `ping ${u.host}: HTTP ${res.status}`, { context: { status: res.status } });
    }
    return ms;
  } catch (e) {
    if (signal?.aborted) throw abortError(ErrorCodes.SENDER_ABORTED, signal, 'ping');
    throw e;
  } finally {
    await transport.close();
  }
}

/**
 * Rank sender hosts by median `/ping` round trip (unreachable ones last, with `rttMs: Infinity`).
 *
 * @example
 * const [best] = await rankSenders(Object.values(SENDER_REGIONS), { samples: 3 });
 * const client = createClient({ senderUrl: best.url });
 */
export async function rankSenders(
  urls: readonly string[],
  o: { samples?: number; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<{ url: string; rttMs: number }[]> {
  const samples = o.samples ?? 3;
  const out = await Promise.all(
    urls.map(async (url) => {
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        if (o.signal?.aborted) throw abortError(ErrorCodes.SENDER_ABORTED, o.signal, 'region choice');
        try {
          times.push(await timePing(url, o.signal, o.timeoutMs));
        } catch (e) {
          if (o.signal?.aborted) throw abortError(ErrorCodes.SENDER_ABORTED, o.signal, 'region choice');
          void e;
        }
      }
      times.sort((a, b) => a - b);
      return { url, rttMs: times.length ? times[Math.floor(times.length / 2)] : Infinity };
    }),
  );
  return out.sort((a, b) => a.rttMs - b.rttMs);
}
