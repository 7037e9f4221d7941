/**
 * Promises waiting for a slot (`chain.waitForSlot`): each resolves once the chain reaches its slot,
 * rejects on its caller's abort, and all of them reject when the chain stops.
 */

export interface SlotWaiters {
  /** Resolves once `release` has been called with a slot ≥ `target`; rejects on `signal`. */
  wait(target: number, signal?: AbortSignal): Promise<void>;
  /** The chain reached `slot`: resolve the waiters it satisfies. */
  release(slot: number): void;
  /** The chain stopped: reject every waiter, each with its own `reason()`. */
  rejectAll(reason: () => Error): void;
}

export function createSlotWaiters(): SlotWaiters {
  const waiters: { slot: number; resolve: () => void; reject: (e: unknown) => void; cleanup: () => void }[] = [];
  return {
    wait(target, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason ?? new Error('aborted'));
          return;
        }
        const onAbort = () => {
          const i = waiters.indexOf(w);
          if (i >= 0) waiters.splice(i, 1);
          reject(signal!.reason ?? new Error('aborted'));
        };
        const w = { slot: target, resolve, reject, cleanup: () => signal?.removeEventListener('abort', onAbort) };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.push(w);
      });
    },
    release(slot) {
      for (let i = waiters.length - 1; i >= 0; i--) {
        const w = waiters[i]!;
        if (w.slot <= slot) {
          waiters.splice(i, 1);
          w.cleanup();
          w.resolve();
        }
      }
    },
    rejectAll(reason) {
      for (const w of waiters.splice(0)) {
        w.cleanup();
        w.reject(reason());
      }
    },
  };
}
