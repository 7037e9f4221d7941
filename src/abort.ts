/**
 * The toolkit's abort plumbing, shared by every part: the typed abort error (each part passes its
 * own stable code: `RPC_ABORTED`, `SENDER_ABORTED`, `MERKLE_ABORTED`), a controller linked to
 * callers' signals, and the one abortable wait.
 */
import { setMaxListeners } from 'node:events';
import { AbortError, ErrorCodes, type AbortCode } from './errors/index.js';

/**
 * The `AbortError` for `signal`: `"<what> aborted: <reason>"`, the reason's text in the context and
 * the reason itself as the cause when it is an Error. `terse` gives `"<what> aborted"` with the
 * reason in the context alone: the verifier's message, which stays the same whatever the reason.
 */
export function abortError(code: AbortCode, signal: AbortSignal | undefined, what: string, opts: { terse?: boolean } = {}): AbortError {
  const reason = signal?.reason as unknown;
  if (opts.terse) {
    return new AbortError(code, `${what} aborted`, {
      context: { reason: reason instanceof Error ? reason.message : reason === undefined ? undefined : String(reason) },
    });
  }
  const text = reason instanceof Error ? reason.message : reason === undefined ? 'aborted' : String(reason);
  return new AbortError(code, `${what} aborted: ${text}`, {
    context: { reason: text },
    cause: reason instanceof Error ? reason : undefined,
  });
}

/** A controller aborted when any of `signals` aborts; call `release()` when done, so no listener outlives the operation. */
export function linkSignals(...signals: (AbortSignal | undefined)[]): { signal: AbortSignal; abort: (r?: unknown) => void; release: () => void } {
  const ctl = new AbortController();
  // many operations may follow one linked signal at once; none of them is a leak
  setMaxListeners(0, ctl.signal);
  const offs: (() => void)[] = [];
  for (const s of signals) {
    if (!s) continue;
    if (s.aborted) {
      ctl.abort(s.reason);
      break;
    }
    const on = (): void => ctl.abort(s.reason);
    s.addEventListener('abort', on, { once: true });
    offs.push(() => s.removeEventListener('abort', on));
  }
  return {
    signal: ctl.signal,
    abort: (r) => ctl.abort(r),
    release: () => {
      for (const off of offs) off();
      offs.length = 0;
    },
  };
}

/**
 * Wait `ms`, or reject with an `AbortError` as soon as `signal` aborts. The wait reports
 * `RPC_ABORTED` ("wait aborted: …") wherever it is used: the sender and the mint have always seen that
 * code from their waits. The timer and the listener are always cleaned up, so nothing keeps the
 * process alive. The timer is the global `setTimeout`, looked up at call time, so fake timers drive it.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(ErrorCodes.RPC_ABORTED, signal, 'wait'));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError(ErrorCodes.RPC_ABORTED, signal, 'wait'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
