/**
 * `outcomes()`: the items this process's `work` and `resume` reach, handed to every stream open at
 * the time, each stream ending when its signal aborts or its consumer stops.
 */
import type { SendManyItem } from '../outcome.js';

export interface Outcomes {
  publish(item: SendManyItem): void;
  stream(signal: AbortSignal): AsyncIterableIterator<SendManyItem>;
  /** Drop every listener (the sender closed). */
  clear(): void;
}

export function createOutcomes(): Outcomes {
  const listeners = new Set<(item: SendManyItem) => void>();
  return {
    publish(item) {
      for (const fn of listeners) fn(item);
    },
    stream: (signal) => outcomeStream(listeners, signal),
    clear: () => listeners.clear(),
  };
}

/** Items published from now on, until the signal aborts or the consumer stops. */
async function* outcomeStream(listeners: Set<(item: SendManyItem) => void>, signal: AbortSignal): AsyncGenerator<SendManyItem> {
  const queue: SendManyItem[] = [];
  let wake: (() => void) | undefined;
  const fn = (item: SendManyItem): void => {
    queue.push(item);
    wake?.();
  };
  const onAbort = (): void => wake?.();
  listeners.add(fn);
  signal.addEventListener('abort', onAbort);
  try {
    for (;;) {
      while (queue.length) yield queue.shift()!;
      if (signal.aborted) return;
      await new Promise<void>((r) => (wake = r));
      wake = undefined;
    }
  } finally {
    listeners.delete(fn);
    signal.removeEventListener('abort', onAbort);
  }
}
