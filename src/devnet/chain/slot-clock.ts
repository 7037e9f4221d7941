/**
 * The chain's slot timer: calls `tick` every `slotMs` once started; a new slot length takes effect
 * at once (the current wait restarts), and stopping ends it for good.
 */
import { InputError } from '../../errors/index.js';

export interface SlotClock {
  slotMs(): number;
  setSlotMs(ms: number): void;
  start(): void;
  stop(): void;
}

/** Throws `InputError` on field `slotMs` unless `ms` is a number ≥ 1. */
export function checkSlotMs(ms: number): void {
  if (!Number.isFinite(ms) || ms < 1) throw new InputError('slotMs', `expected a number ≥ 1, got ${ms}`);
}

/** The clock, not started; `initialMs` is checked by the caller (before it builds anything else). */
export function createSlotClock(initialMs: number, tick: () => void): SlotClock {
  let slotMs = initialMs;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      tick();
      schedule();
    }, slotMs);
  };
  return {
    slotMs: () => slotMs,
    setSlotMs(ms) {
      checkSlotMs(ms);
      slotMs = ms;
      if (timer && !stopped) {
        clearTimeout(timer);
        schedule();
      }
    },
    start() {
      if (!timer && !stopped) schedule();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
