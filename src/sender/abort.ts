/**
 * Abort plumbing for the sender: a typed `SENDER_ABORTED` error, a linked controller that follows a
 * caller's signal (and is released in `finally`, so no listener outlives its operation), and an
 * abortable sleep whose timer never keeps the process alive after an abort.
 */
import { setMaxListeners } from 'node:events';
import { AbortError, ErrorCodes } from '../errors.js';

export function senderAbortError(signal: AbortSignal | undefined, what: string): AbortError {
  const reason = signal?.reason;
  const text = reason instanceof Error ? reason.message : reason === undefined ? 'aborted' : String(reason);
  return new AbortError(ErrorCodes.SENDER_ABORTED, `${what} aborted: ${text}`, {
    context: { reason: text },
    cause: reason instanceof Error ? reason : undefined,
  });
}

/** A controller aborted when any of `signals` aborts; call `release()` when done. */
export function linkSignals(...signals: (AbortSignal | undefined)[]): { signal: AbortSignal; abort: (r?: unknown) => void; release: () => void } {
  const ctl = new AbortController();
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

/** Wait `ms` or reject with SENDER_ABORTED as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(senderAbortError(signal, 'wait'));
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(senderAbortError(signal, 'wait'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
