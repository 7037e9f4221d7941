/**
 * The verifier's scheduler: chunks made on demand, at most `maxRunning` running and `window` not
 * yet yielded, their results yielded in order.
 */
import { abortError } from '../../abort.js';
import { ErrorCodes } from '../../errors/index.js';

/**
 * Run chunks from `next` with at most `maxRunning` on the pool and `window` not yet yielded, and
 * yield what each run gives, in order (a failure at its place in the order). A new chunk starts as
 * soon as any running one finishes (not only the oldest), so a thread that finishes early is fed at
 * once.
 */
export async function* pipeline<C, R>(
  next: (size: number) => Promise<C | null> | C | null,
  run: (chunk: C) => Promise<R>,
  size: number,
  window: number,
  maxRunning: number,
  signal?: AbortSignal,
): AsyncGenerator<R> {
  const pending: { p: Promise<R>; done: boolean }[] = [];
  let running = 0;
  let wake: (() => void) | null = null;
  let exhausted = false;
  for (;;) {
    if (signal?.aborted) throw abortError(ErrorCodes.MERKLE_ABORTED, signal, 'verification', { terse: true });
    while (!exhausted && running < maxRunning && pending.length < window) {
      let chunk: C | null;
      try {
        chunk = await next(size);
      } catch (e) {
        // A chunk that cannot be made fails at its place in the order, after the ones before it.
        const p = Promise.reject(e) as Promise<R>;
        p.catch(() => {});
        pending.push({ p, done: true });
        exhausted = true;
        break;
      }
      if (chunk === null) {
        exhausted = true;
        break;
      }
      const entry = { p: run(chunk), done: false };
      running++;
      // Chunks behind a failed one may fail too; every rejection is observed here so none goes
      // unhandled, and the first failure in order is the one the consumer sees.
      const onDone = (): void => {
        entry.done = true;
        running--;
        const w = wake;
        wake = null;
        w?.();
      };
      entry.p.then(onDone, onDone);
      pending.push(entry);
    }
    const head = pending[0];
    if (!head) return;
    if (head.done) {
      pending.shift();
      yield await head.p;
      continue;
    }
    await new Promise<void>((r) => (wake = r));
  }
}
