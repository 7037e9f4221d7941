/**
 * The tracker's timing logic, with fake timers and a scripted in-memory chain (heights and statuses
 * set by the test). Everything across HTTP is covered against the real devnet in send.test.ts; this
 * file pins the races the devnet cannot stage on demand: a transaction that lands at its last valid
 * height while the tip has already moved past it, and the exact number of calls per tick.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTracker } from '../../src/sender/confirm/tracker.js';
import type { SenderRpc, StatusLike } from '../../src/sender/client/rpc.js';
import { CairnError } from '../../src/errors/index.js';

function scriptedChain() {
  const chain = {
    height: 100,
    statuses: new Map<string, StatusLike>(),
    calls: [] as { method: string; items?: number; history?: boolean }[],
  };
  const rpc: SenderRpc = {
    getLatestBlockhash: async () => ({ blockhash: '11111111111111111111111111111111', lastValidBlockHeight: chain.height + 150, slot: 0 }),
    getBlockHeight: async () => {
      chain.calls.push({ method: 'getBlockHeight' });
      return chain.height;
    },
    getSignatureStatuses: async (sigs, cfg) => {
      chain.calls.push({ method: 'getSignatureStatuses', items: sigs.length, history: !!cfg?.searchTransactionHistory });
      return sigs.map((s) => chain.statuses.get(s) ?? null);
    },
    getTransaction: async () => null,
    simulateTransaction: async () => ({ err: null, logs: [], unitsConsumed: 150 }),
    getPriorityFeeEstimate: async () => ({}),
    sendTransaction: async () => 'x',
  };
  return { chain, rpc };
}

const st = (slot: number, c: 'processed' | 'confirmed' | 'finalized', err: unknown = null): StatusLike => ({
  slot,
  confirmations: c === 'finalized' ? null : 1,
  err,
  confirmationStatus: c,
});

describe('tracker (fake timers)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks once per 256 signatures plus one height per tick, and sleeps when idle', async () => {
    const { chain, rpc } = scriptedChain();
    const t = createTracker({ rpc, pollMs: 100 });
    const sigs = Array.from({ length: 300 }, (_, i) => `sig${i}`);
    const done = sigs.map((signature) => t.track({ signature, lastValidBlockHeight: 1000, commitment: 'confirmed' }));
    await vi.advanceTimersByTimeAsync(100);
    const tick1 = chain.calls.splice(0);
    expect(tick1.filter((c) => c.method === 'getSignatureStatuses').map((c) => c.items)).toEqual([256, 44]);
    expect(tick1.filter((c) => c.method === 'getBlockHeight')).toHaveLength(1);
    for (const s of sigs) chain.statuses.set(s, st(5, 'processed'));
    await vi.advanceTimersByTimeAsync(100);
    expect(t.size).toBe(300); // processed is not confirmed yet
    for (const s of sigs) chain.statuses.set(s, st(5, 'confirmed'));
    chain.calls.length = 0;
    await vi.advanceTimersByTimeAsync(100);
    const results = await Promise.all(done);
    expect(results.every((r) => r.kind === 'confirmed' && r.slot === 5)).toBe(true);
    expect(chain.calls.filter((c) => c.method === 'getSignatureStatuses')).toHaveLength(2);
    expect(t.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    chain.calls.length = 0;
    await vi.advanceTimersByTimeAsync(1000);
    expect(chain.calls).toHaveLength(0);
    t.close();
  });

  it('a transaction landing at its last valid height is found by the final read, not reported expired', async () => {
    const { chain, rpc } = scriptedChain();
    const t = createTracker({ rpc, pollMs: 100 });
    const p = t.track({ signature: 'late', lastValidBlockHeight: 110, commitment: 'confirmed' });
    chain.height = 111; // the tip moved past, the status cache has not caught up yet
    await vi.advanceTimersByTimeAsync(100);
    expect(t.size).toBe(1);
    chain.statuses.set('late', st(42, 'confirmed'));
    await vi.advanceTimersByTimeAsync(100);
    await expect(p).resolves.toMatchObject({ kind: 'confirmed', slot: 42 });
    t.close();
  });

  it('expiry is reported only after one more empty read, with searchTransactionHistory and both heights', async () => {
    const { chain, rpc } = scriptedChain();
    const t = createTracker({ rpc, pollMs: 100 });
    const p = t.track({ signature: 'gone', lastValidBlockHeight: 110, commitment: 'confirmed' });
    await vi.advanceTimersByTimeAsync(100);
    chain.height = 115;
    await vi.advanceTimersByTimeAsync(100);
    let settled = false;
    void p.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false); // height seen past the window, final read not done yet
    chain.calls.length = 0;
    chain.height = 120;
    await vi.advanceTimersByTimeAsync(100);
    await expect(p).resolves.toEqual({ kind: 'expired', lastValidBlockHeight: 110, blockHeight: 115 });
    expect(chain.calls.find((c) => c.method === 'getSignatureStatuses')?.history).toBe(true);
    t.close();
  });

  it('err in a status is a failure, reported at the requested commitment; landing is signalled at once', async () => {
    const { chain, rpc } = scriptedChain();
    const t = createTracker({ rpc, pollMs: 100 });
    chain.statuses.set('bad', st(7, 'processed', { InstructionError: [0, 'Custom'] }));
    const landed: number[] = [];
    const p = t.track({ signature: 'bad', lastValidBlockHeight: 1000, commitment: 'finalized', onLanded: (s) => landed.push(s) });
    await vi.advanceTimersByTimeAsync(100);
    expect(landed).toEqual([7]);
    expect(t.size).toBe(1);
    chain.statuses.set('bad', st(7, 'finalized', { InstructionError: [0, 'Custom'] }));
    await vi.advanceTimersByTimeAsync(100);
    await expect(p).resolves.toMatchObject({ kind: 'failed', slot: 7, err: { InstructionError: [0, 'Custom'] } });
    t.close();
  });

  it('abort rejects at once and stops polling; close rejects the rest with SENDER_CLOSED', async () => {
    const { chain, rpc } = scriptedChain();
    const t = createTracker({ rpc, pollMs: 100 });
    const ac = new AbortController();
    const a = t.track({ signature: 'a', lastValidBlockHeight: 1000, commitment: 'confirmed', signal: ac.signal });
    const b = t.track({ signature: 'b', lastValidBlockHeight: 1000, commitment: 'confirmed' });
    ac.abort();
    await expect(a).rejects.toMatchObject({ code: 'SENDER_ABORTED' });
    expect(t.size).toBe(1);
    t.close();
    await expect(b).rejects.toBeInstanceOf(CairnError);
    await expect(b).rejects.toMatchObject({ code: 'SENDER_CLOSED' });
    chain.calls.length = 0;
    await vi.advanceTimersByTimeAsync(1000);
    expect(chain.calls).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('two callers on one signature: each leaves on its own signal, the other still gets its answer', async () => {
    const { chain, rpc } = scriptedChain();
    const t = createTracker({ rpc, pollMs: 100 });
    const a = new AbortController();
    const b = new AbortController();
    const landedB: number[] = [];
    const pa = t.track({ signature: 'same', lastValidBlockHeight: 1000, commitment: 'confirmed', signal: a.signal });
    const pb = t.track({ signature: 'same', lastValidBlockHeight: 1000, commitment: 'finalized', signal: b.signal, onLanded: (s) => landedB.push(s) });
    a.abort();
    await expect(pa).rejects.toMatchObject({ code: 'SENDER_ABORTED' });
    expect(t.size).toBe(1); // 'b' still waits: the signature is still polled
    chain.statuses.set('same', st(9, 'confirmed'));
    await vi.advanceTimersByTimeAsync(100);
    expect(landedB).toEqual([9]); // the joined caller hears the landing too
    // a third caller joining after the landing learns of it at once, and resolves at its own commitment
    const landedC: number[] = [];
    const pc = t.track({ signature: 'same', lastValidBlockHeight: 1000, commitment: 'confirmed', onLanded: (s) => landedC.push(s) });
    expect(landedC).toEqual([9]);
    await vi.advanceTimersByTimeAsync(100);
    await expect(pc).resolves.toMatchObject({ kind: 'confirmed', commitment: 'confirmed', slot: 9 });
    expect(t.size).toBe(1); // 'b' wants finalized
    b.abort();
    await expect(pb).rejects.toMatchObject({ code: 'SENDER_ABORTED' });
    expect(t.size).toBe(0);
    chain.calls.length = 0;
    await vi.advanceTimersByTimeAsync(1000);
    expect(chain.calls).toHaveLength(0);
    expect(vi.getTimerCount()).toBe(0);
    t.close();
  });

  it('close() rejects every caller of a shared signature, the joined ones included', async () => {
    const { rpc } = scriptedChain();
    const t = createTracker({ rpc, pollMs: 100 });
    const first = new AbortController();
    const p1 = t.track({ signature: 'dup', lastValidBlockHeight: 1000, commitment: 'confirmed', signal: first.signal });
    const p2 = t.track({ signature: 'dup', lastValidBlockHeight: 1000, commitment: 'confirmed' });
    const p3 = t.track({ signature: 'dup', lastValidBlockHeight: 1000, commitment: 'confirmed' });
    first.abort();
    await expect(p1).rejects.toMatchObject({ code: 'SENDER_ABORTED' });
    t.close();
    await expect(p2).rejects.toMatchObject({ code: 'SENDER_CLOSED' });
    await expect(p3).rejects.toMatchObject({ code: 'SENDER_CLOSED' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a joined caller with a later window postpones expiry until that window has passed', async () => {
    const { chain, rpc } = scriptedChain();
    const t = createTracker({ rpc, pollMs: 100 });
    const p1 = t.track({ signature: 'w', lastValidBlockHeight: 110, commitment: 'confirmed' });
    const p2 = t.track({ signature: 'w', lastValidBlockHeight: 130, commitment: 'confirmed' });
    chain.height = 120;
    await vi.advanceTimersByTimeAsync(300);
    expect(t.size).toBe(1); // past 110 but not past 130: not dead yet
    chain.height = 131;
    await vi.advanceTimersByTimeAsync(200);
    const want = { kind: 'expired', lastValidBlockHeight: 130, blockHeight: 131 };
    await expect(p1).resolves.toEqual(want);
    await expect(p2).resolves.toEqual(want);
    t.close();
  });

  it('keeps polling through a failing tick', async () => {
    const { chain, rpc } = scriptedChain();
    let fail = true;
    const orig = rpc.getBlockHeight;
    rpc.getBlockHeight = async (...a) => {
      if (fail) {
        fail = false;
        throw new Error('boom');
      }
      return orig(...a);
    };
    const errors: unknown[] = [];
    const t = createTracker({ rpc, pollMs: 100, onError: (e) => errors.push(e) });
    chain.statuses.set('x', st(3, 'confirmed'));
    const p = t.track({ signature: 'x', lastValidBlockHeight: 1000, commitment: 'confirmed' });
    await vi.advanceTimersByTimeAsync(200);
    await expect(p).resolves.toMatchObject({ kind: 'confirmed' });
    expect(errors).toHaveLength(1);
    expect(t.stats.tickErrors).toBe(1);
    t.close();
  });
});
