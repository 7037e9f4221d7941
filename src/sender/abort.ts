/**
 * Abort plumbing for the sender: a typed `SENDER_ABORTED` error, and a linked controller that follows
 * a caller's signal (and is released in `finally`, so no listener outlives its operation). The one
 * abortable wait of the toolkit is `sleep` in src/rpc/retry.ts; the sender uses that one.
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
