/**
 * A set of listeners the chain calls (executed transactions, dropped submissions, new slots), each
 * added with an unsubscribe function.
 */

export interface Listeners<T> {
  /** Add `cb`; returns the function that removes it. */
  add(cb: (value: T) => void): () => void;
  /** Call every listener; one that throws does not stop the others, nor the chain. */
  notify(value: T): void;
  /** Call every listener; a throw goes to the caller (the drop listeners, as they always were). */
  callEach(value: T): void;
}

/**
 * @example
 * const onSlot = createListeners<number>();
 * const off = onSlot.add((s) => console.log(s));
 * onSlot.notify(1);
 * off();
 */
export function createListeners<T>(): Listeners<T> {
  const set = new Set<(value: T) => void>();
  return {
    add(cb) {
      set.add(cb);
      return () => set.delete(cb);
    },
    notify(value) {
      for (const cb of set) {
        try {
          cb(value);
        } catch {
          /* a listener's bug must not stop the chain */
        }
      }
    },
    callEach(value) {
      for (const cb of set) cb(value);
    },
  };
}
