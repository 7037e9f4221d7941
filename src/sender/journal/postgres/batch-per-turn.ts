/**
 * Gather what is asked within one event-loop turn into one batch: the first item of a burst schedules
 * a flush one macrotask later, and every item offered before then rides in it. The fleet journal uses
 * it so that the signature claims, or the pre-signing re-reads, of a burst of intents cost one
 * statement instead of one each.
 */
export function batchPerTurn<T>(flush: (batch: T[]) => Promise<void>): (item: T) => void {
  let queue: T[] = [];
  let scheduled = false;
  return (item) => {
    queue.push(item);
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const batch = queue;
      queue = [];
      void flush(batch);
    });
  };
}
