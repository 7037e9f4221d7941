/**
 * The slot-paced rebroadcast loop (src/sender/intent/rebroadcast.ts) on a scripted tracker: the
 * test announces slots when it chooses and the submit answers at once, so which slot notification
 * decides a resend is pinned — one read at the same moment as the host's answer does not (the host
 * may have taken the bytes after that slot began), the next one does.
 */
import { describe, expect, it } from 'vitest';
import { startRebroadcasts } from '../../src/sender/intent/rebroadcast.js';
import { resolveSenderConfig } from '../../src/sender/config.js';
import type { Tracker } from '../../src/sender/confirm/tracker.js';

function scriptedTracker(slotMs: number, announcesDoneSlots = true) {
  const fns = new Set<(slot: number) => void>();
  let slot = 10;
  const tracker = {
    get slot() {
      return slot;
    },
    slotMs,
    announcesDoneSlots,
    onSlot(fn: (s: number) => void) {
      fns.add(fn);
      return () => fns.delete(fn);
    },
  } as unknown as Tracker;
  return {
    tracker,
    announce(s: number) {
      slot = s;
      for (const fn of [...fns]) fn(s);
    },
  };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('slot-paced rebroadcasts', () => {
  it('a slot announced at the same moment as the answer decides nothing; the next one resends', async () => {
    const { tracker, announce } = scriptedTracker(200);
    const sent: number[] = [];
    const rb = new AbortController();
    const stop = startRebroadcasts({
      tracker,
      cfg: resolveSenderConfig({ rebroadcastMs: 60_000 }),
      counters: { rebroadcasts: 0 },
      signal: rb.signal,
      landed: () => false,
      ready: () => true,
      submit: async () => void sent.push(performance.now()),
    });
    // answered at slot 10 just now: slot 11 comes in the same moment (a stalled loop, a longer path)
    announce(11);
    await tick();
    expect(sent).toHaveLength(0);
    // half a slot later, slot 12: the bytes had a whole slot to land and did not
    await new Promise((r) => setTimeout(r, 120));
    announce(12);
    await tick();
    expect(sent).toHaveLength(1);
    // answered at 12 just now: 13 at once decides nothing, 14 later resends
    announce(13);
    await tick();
    expect(sent).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 120));
    announce(14);
    await tick();
    expect(sent).toHaveLength(2);
    stop();
    rb.abort();
  });

  it("silence means nothing before the signature's subscription is acknowledged, nor a slot that only started (Agave announces slots as they start)", async () => {
    for (const [doneSlots, ackAfter, resentAt] of [
      [true, 12, 12],
      [false, 10, 12],
    ] as const) {
      const { tracker, announce } = scriptedTracker(20, doneSlots);
      let acked = false;
      const sentAt: number[] = [];
      const stop = startRebroadcasts({
        tracker,
        cfg: resolveSenderConfig({ rebroadcastMs: 60_000 }),
        counters: { rebroadcasts: 0 },
        signal: new AbortController().signal,
        landed: () => false,
        ready: () => acked,
        submit: async () => void sentAt.push(tracker.slot!),
      });
      for (let s = 11; s <= 12; s++) {
        await new Promise((r) => setTimeout(r, 15));
        if (s >= ackAfter) acked = true;
        announce(s);
        await tick();
      }
      expect(sentAt).toEqual([resentAt]);
      stop();
    }
  });

  it('landed bytes are never resent', async () => {
    const { tracker, announce } = scriptedTracker(20);
    let sends = 0;
    const stop = startRebroadcasts({
      tracker,
      cfg: resolveSenderConfig({ rebroadcastMs: 60_000 }),
      counters: { rebroadcasts: 0 },
      signal: new AbortController().signal,
      landed: () => true,
      ready: () => true,
      submit: async () => void sends++,
    });
    for (let s = 11; s < 20; s++) {
      await new Promise((r) => setTimeout(r, 15));
      announce(s);
    }
    expect(sends).toBe(0);
    stop();
  });

  it('a submit answered with a Retry-After after the loop stopped arms no hold: nothing is left behind, nothing resent', async () => {
    const { tracker, announce } = scriptedTracker(200);
    const rb = new AbortController();
    let answer!: (wait: number) => void;
    let submits = 0;
    const stop = startRebroadcasts({
      tracker,
      cfg: resolveSenderConfig({ rebroadcastMs: 60_000 }),
      counters: { rebroadcasts: 0 },
      signal: rb.signal,
      landed: () => false,
      ready: () => true,
      // the resend's bytes took the second route: the answer (a Retry-After of 50 ms) comes later
      submit: () => (submits++, new Promise<number>((r) => (answer = r))),
    });
    await new Promise((r) => setTimeout(r, 120));
    announce(12);
    await tick();
    expect(submits).toBe(1);
    // the attempt ends while that submit is still out (it landed, or failed), then the answer comes
    stop();
    const before = process.getActiveResourcesInfo().filter((x) => x === 'Timeout').length;
    answer(50);
    await tick();
    expect(process.getActiveResourcesInfo().filter((x) => x === 'Timeout').length).toBe(before);
    await new Promise((r) => setTimeout(r, 80));
    expect(submits).toBe(1);
  });
});
