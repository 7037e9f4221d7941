/**
 * The anchor source's cache (merkle/anchor/source.ts): a tree read in the last `cacheMs` is not read
 * again; one used in the last quarter of its life is read again behind the batch that used it, so the
 * next batch finds it fresh instead of waiting for the chain; a batch never starts more than one read
 * (an aging tree goes with the batch's own read when it has one); close waits for a read under way.
 */
import { describe, expect, it } from 'vitest';
import { createAnchorSource } from '../../src/merkle/anchor/source.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function counting(delayMs = 0) {
  const calls: string[][] = [];
  return {
    calls,
    rpc: {
      async getMultipleAccounts(keys: string[]) {
        calls.push([...keys]);
        await sleep(delayMs);
        return keys.map(() => null);
      },
    },
  };
}

describe('anchor source cache', () => {
  it('reads an aging tree again behind the batch, so the next batch does not wait', async () => {
    // Reads answer when the test lets them.
    const calls: string[][] = [];
    const gates: Array<() => void> = [];
    const rpc = {
      async getMultipleAccounts(keys: string[]) {
        calls.push([...keys]);
        await new Promise<void>((r) => gates.push(r));
        return keys.map(() => null);
      },
    };
    const open = async () => {
      while (gates.length === 0) await sleep(1);
      gates.shift()!();
    };
    // Long lives, so that a loaded host's late timers still land in the window each step means.
    const src = createAnchorSource({ rpc, cacheMs: 2000 });
    await Promise.all([src.trees(['A']), open()]);
    await src.trees(['A']); // fresh: nothing read
    expect(calls.length).toBe(1);
    await sleep(1600);
    // Aging: answered from the cache while the read it starts is still waiting.
    expect((await src.trees(['A'])).get('A')).toMatchObject({ status: 'tree-not-found' });
    expect(calls.length).toBe(2);
    await src.trees(['A']); // under way already: not read a third time
    expect(calls.length).toBe(2);
    await open();
    await sleep(500); // past the first read's life, within the second's
    await src.trees(['A']);
    expect(calls.length).toBe(2);
    await src.close();
  });

  it('starts at most one read per batch', async () => {
    const { calls, rpc } = counting();
    const src = createAnchorSource({ rpc, cacheMs: 2000 });
    await src.trees(['A']);
    await sleep(1600);
    await src.trees(['B', 'A']); // B unknown, A aging: one read for both
    expect(calls).toEqual([['A'], ['B', 'A']]);
    await src.close();
  });

  it('with cacheMs 0 reads every batch, and close waits for a read under way', async () => {
    const { calls, rpc } = counting(30);
    const src = createAnchorSource({ rpc, cacheMs: 0 });
    await src.trees(['A']);
    await src.trees(['A']);
    expect(calls.length).toBe(2);
    const aging = createAnchorSource({ rpc, cacheMs: 2000 });
    await aging.trees(['C']);
    await sleep(1600);
    await aging.trees(['C']);
    const n = calls.length;
    await aging.close();
    expect(n).toBe(4);
  });
});
