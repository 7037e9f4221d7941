/**
 * `sendMany`: many intents with bounded concurrency, yielded as they end (not in input order), from
 * an iterable or an async iterable read only as fast as slots free up. A consumer that stops early
 * (break / throw) aborts what is still running.
 */
import { randomUUID } from 'node:crypto';
import { linkSignals } from '../abort.js';
import { CairnError, ErrorCodes, InputError } from '../errors/index.js';
import type { SendInput } from './input/prepare.js';
import type { SendManyItem, SendOutcome } from './outcome.js';
import type { Commitment } from './client/rpc.js';

export interface SendManyOptions {
  concurrency?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Idempotency key per input (default: random). */
  idOf?: ((input: SendInput, index: number) => string) | undefined;
  commitment?: Commitment | undefined;
  onExpired?: 'fail' | 'resign' | undefined;
}

/** What sendMany needs of its sender. */
export interface SendManyDeps {
  assertOpen(): void;
  /** The sender's default concurrency. */
  concurrency: number;
  send(input: SendInput, options: { id: string; signal: AbortSignal; commitment?: Commitment; onExpired?: 'fail' | 'resign' }): Promise<SendOutcome>;
}

export async function* sendMany(
  d: SendManyDeps,
  inputs: Iterable<SendInput> | AsyncIterable<SendInput>,
  o: SendManyOptions = {},
): AsyncGenerator<SendManyItem> {
  d.assertOpen();
  const concurrency = o.concurrency ?? d.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new InputError('concurrency', `expected a positive integer, got ${String(concurrency)}`);
  if (!inputs || (typeof (inputs as Iterable<SendInput>)[Symbol.iterator] !== 'function' && typeof (inputs as AsyncIterable<SendInput>)[Symbol.asyncIterator] !== 'function')) {
    throw new InputError('inputs', 'expected an iterable or async iterable of send inputs');
  }
  const link = linkSignals(o.signal);
  const it: AsyncIterator<SendInput> | Iterator<SendInput> =
    typeof (inputs as AsyncIterable<SendInput>)[Symbol.asyncIterator] === 'function'
      ? (inputs as AsyncIterable<SendInput>)[Symbol.asyncIterator]()
      : (inputs as Iterable<SendInput>)[Symbol.iterator]();
  const ready: SendManyItem[] = [];
  let wake: (() => void) | undefined;
  let running = 0;
  let index = 0;
  let exhausted = false;
  try {
    for (;;) {
      while (!exhausted && running < concurrency) {
        const next = await it.next();
        if (next.done) {
          exhausted = true;
          break;
        }
        const i = index++;
        const input = next.value;
        let id: string;
        try {
          id = o.idOf ? o.idOf(input, i) : randomUUID();
        } catch (e) {
          // The caller's own function threw: that is its input failing, named by the option.
          ready.push({ index: i, id: '', ok: false, error: e instanceof CairnError ? e : new InputError('idOf', `threw: ${e instanceof Error ? e.message : String(e)}`, { cause: e }) });
          continue;
        }
        running++;
        d.send(input, {
          id,
          signal: link.signal,
          ...(o.commitment ? { commitment: o.commitment } : {}),
          ...(o.onExpired ? { onExpired: o.onExpired } : {}),
        }).then(
          (outcome) => ready.push({ index: i, id, ok: true, outcome }),
          (error: unknown) => ready.push({ index: i, id, ok: false, error: asCairnError(error) }),
        ).finally(() => {
          running--;
          wake?.();
        });
      }
      if (ready.length > 0) {
        yield ready.shift()!;
        continue;
      }
      if (exhausted && running === 0) return;
      await new Promise<void>((r) => (wake = r));
      wake = undefined;
    }
  } finally {
    // Consumer stopped early (break / throw): stop what is still running.
    if (running > 0) link.abort(new Error('sendMany stopped by its consumer'));
    link.release();
  }
}

/**
 * Every item's error is a CairnError with a code (README: `r.error.code`). A send rejects only with
 * those; anything else is a broken invariant, typed INTERNAL with the original as its cause.
 */
export function asCairnError(e: unknown): CairnError {
  if (e instanceof CairnError) return e;
  return new CairnError(ErrorCodes.INTERNAL, `send failed with an untyped error: ${e instanceof Error ? e.message : String(e)}`, {
    context: { invariant: 'send rejects with CairnError' },
    cause: e,
  });
}
