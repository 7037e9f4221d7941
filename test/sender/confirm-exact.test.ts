/**
 * Which slot a signature notification names, staged on a scripted socket: a notification names the
 * slot the server was at when it sent it, the transaction's own only when told before that slot was
 * announced. The devnet orders its messages one way and cannot be made to send a late subscription's
 * notification on demand; here the test delivers slot and signature notifications in the order it
 * chooses (as the socket would, through the arrival hook, then the consumer), and a scripted chain
 * answers the polls with the true slot.
 */
import { describe, expect, it } from 'vitest';
import { createTracker } from '../../src/sender/confirm/tracker.js';
import { createWatch } from '../../src/sender/confirm/watch.js';
import type { SenderRpc, StatusLike } from '../../src/sender/client/rpc.js';
import { ON_ARRIVAL, type SignatureNotification, type SlotNotification, type Subscriber, type Subscription } from '../../src/rpc/subscribe/subscriber.js';

type Hooked<N> = { onNotification?: (n: N) => void; [ON_ARRIVAL]?: (n: N) => void; commitment?: string };

function scriptedSocket() {
  const slots = new Set<Hooked<SlotNotification>>();
  const sigs = new Map<string, Hooked<SignatureNotification>[]>();
  const states = new Set<(up: boolean) => void>();
  const subscription = <N>(leave: () => void): Subscription<N> => ({
    close: async () => leave(),
    closed: false,
    [Symbol.asyncIterator]: () => {
      throw new Error('read through callbacks');
    },
  });
  const subscriber = {
    slot: async (o: Hooked<SlotNotification>) => {
      slots.add(o);
      return subscription(() => slots.delete(o));
    },
    signature: async (signature: string, o: Hooked<SignatureNotification>) => {
      const list = sigs.get(signature) ?? [];
      sigs.set(signature, list);
      list.push(o);
      return subscription(() => list.splice(list.indexOf(o), 1));
    },
    socket: {
      stats: { sent: 0, received: 0, connects: 1, reconnects: 0, pingTimeouts: 0 },
      up: true,
      url: 'ws://scripted',
      onState: (fn: (up: boolean) => void) => {
        states.add(fn);
        return () => states.delete(fn);
      },
    },
  } as unknown as Subscriber;
  const deliver = <N>(o: Hooked<N>, n: N): void => {
    o[ON_ARRIVAL]?.(n);
    o.onNotification?.(n);
  };
  return {
    subscriber,
    /** The server announces `slot`. */
    announce(slot: number) {
      for (const o of [...slots]) deliver(o, { slot, parent: slot - 1, root: 0 });
    },
    /** The server tells `signature` reached `commitment`, naming `slot`. */
    tell(signature: string, commitment: 'processed' | 'confirmed', slot: number) {
      for (const o of [...(sigs.get(signature) ?? [])]) if (o.commitment === commitment) deliver(o, { slot, err: null });
    },
    drop() {
      for (const fn of [...states]) fn(false);
    },
  };
}

function scriptedChain() {
  const statuses = new Map<string, StatusLike>();
  let statusCalls = 0;
  const rpc = {
    getBlockHeight: async () => 100,
    getSignatureStatuses: async (sigs: string[]) => {
      statusCalls++;
      return sigs.map((s) => statuses.get(s) ?? null);
    },
  } as unknown as SenderRpc;
  return { rpc, statuses, statusCalls: () => statusCalls };
}

const settle = () => new Promise((r) => setTimeout(r, 20));
const SIG = '5'.repeat(88);

async function staged(pollMs = 60_000) {
  const sock = scriptedSocket();
  const chain = scriptedChain();
  const watch = createWatch(sock.subscriber);
  const tracker = createTracker({ rpc: chain.rpc, pollMs, watch });
  const told: string[] = [];
  tracker.warm();
  await settle();
  const cancel = tracker.prewatch(SIG, 'confirmed');
  await settle();
  const result = tracker.track({
    signature: SIG,
    lastValidBlockHeight: 1_000,
    commitment: 'confirmed',
    onSeen: () => told.push('seen'),
    onLanded: (slot) => told.push(`landed ${slot}`),
  });
  // the first slot announced starts one full poll (nothing has landed yet); the next is pollMs × 1.5 away
  sock.announce(10);
  await settle();
  return { sock, chain, tracker, told, result, cancel, polls: chain.statusCalls() };
}

describe('the slot a notification names', () => {
  it('told before its slot was announced, a processed notification gives the slot: no poll', async () => {
    const { sock, chain, tracker, told, result, polls } = await staged();
    expect(tracker.ready(SIG)).toBe(true); // its subscription is acknowledged
    expect(tracker.announcesDoneSlots).toBe(false); // nothing says yet in which order this server tells
    sock.tell(SIG, 'processed', 11); // sent as slot 11 was processed, before its announcement
    expect(tracker.announcesDoneSlots).toBe(true);
    sock.announce(11);
    sock.tell(SIG, 'confirmed', 12);
    const r = await result;
    expect(r).toMatchObject({ kind: 'confirmed', slot: 11 });
    expect(told).toEqual(['seen', 'landed 11']);
    expect(chain.statusCalls()).toBe(polls);
    tracker.close();
  });

  it('naming a slot already announced (it had landed before the subscription reached the server), it only says landed: a poll reads the slot', async () => {
    const { sock, chain, tracker, told, result, polls } = await staged();
    sock.announce(11);
    sock.announce(12);
    chain.statuses.set(SIG, { slot: 11, confirmations: 1, err: null, confirmationStatus: 'confirmed' });
    sock.tell(SIG, 'processed', 12);
    expect(told).toEqual(['seen']); // at once: rebroadcasts stop before the slot is read
    expect(tracker.announcesDoneSlots).toBe(false);
    sock.tell(SIG, 'confirmed', 12);
    const r = await result;
    expect(r).toMatchObject({ kind: 'confirmed', slot: 11 });
    expect(told).toEqual(['seen', 'landed 11']);
    expect(chain.statusCalls()).toBeGreaterThan(polls);
    tracker.close();
  });

  it('a confirmed notification never gives the landing slot, however early', async () => {
    const { sock, chain, tracker, result } = await staged();
    chain.statuses.set(SIG, { slot: 11, confirmations: 1, err: null, confirmationStatus: 'confirmed' });
    sock.tell(SIG, 'confirmed', 12); // the processed one was lost
    const r = await result;
    expect(r).toMatchObject({ kind: 'confirmed', slot: 11 });
    tracker.close();
  });

  it('after the socket dropped, what the old one announced orders nothing: the notification is read by a poll', async () => {
    const { sock, chain, tracker, result, polls } = await staged();
    sock.drop();
    chain.statuses.set(SIG, { slot: 11, confirmations: 1, err: null, confirmationStatus: 'confirmed' });
    sock.tell(SIG, 'processed', 14); // on the new socket, before any announcement on it
    sock.tell(SIG, 'confirmed', 14);
    const r = await result;
    expect(r).toMatchObject({ kind: 'confirmed', slot: 11 });
    expect(chain.statusCalls()).toBeGreaterThan(polls);
    tracker.close();
  });

  it('a notification that comes while a poll runs is read by the poll right after it', async () => {
    const sock = scriptedSocket();
    const statuses = new Map<string, StatusLike>();
    let release!: () => void;
    let calls = 0;
    const rpc = {
      getBlockHeight: async () => 100,
      getSignatureStatuses: async (sigs: string[]) => {
        calls++;
        // the first read hangs until the test lets it go, and answers what it saw when it was asked
        const seen = sigs.map((s) => statuses.get(s) ?? null);
        if (calls === 1) await new Promise<void>((r) => (release = r));
        return seen;
      },
    } as unknown as SenderRpc;
    const tracker = createTracker({ rpc, pollMs: 60_000, watch: createWatch(sock.subscriber) });
    tracker.warm();
    await settle();
    const result = tracker.track({ signature: SIG, lastValidBlockHeight: 1_000, commitment: 'confirmed' });
    await settle();
    sock.announce(10); // starts the first (full) poll, which hangs
    await settle();
    expect(calls).toBe(1);
    statuses.set(SIG, { slot: 11, confirmations: 1, err: null, confirmationStatus: 'confirmed' });
    sock.announce(11);
    sock.tell(SIG, 'confirmed', 12);
    release();
    const r = await result;
    expect(r).toMatchObject({ kind: 'confirmed', slot: 11 });
    expect(calls).toBe(2);
    tracker.close();
  });
});
