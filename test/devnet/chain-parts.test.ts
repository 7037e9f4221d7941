/**
 * The parts createChain wires (src/devnet/chain/ and runtime/), each on its own: the seeded
 * genesis, the slot and height bookkeeping at each commitment, the listener sets and the
 * submission queue's duplicate check.
 */
import { describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { BLOCKHASH_VALIDITY } from '../../src/devnet/chain/blockhashes.js';
import { createChainGenesis } from '../../src/devnet/chain/genesis.js';
import { createChainSlots } from '../../src/devnet/chain/slots.js';
import { createListeners } from '../../src/devnet/chain/listeners.js';
import { parseSubmitted } from '../../src/devnet/chain/parse-submitted.js';
import { createStatusCache } from '../../src/devnet/chain/status-cache.js';
import { createSubmissionQueue } from '../../src/devnet/chain/submission-queue.js';
import { buildTx, newKeypair } from '../support/devnet.js';

describe('createChainGenesis', () => {
  it('the same seed gives the same keys, genesis hash and blockhashes', () => {
    const a = createChainGenesis({ seed: 42 });
    const b = createChainGenesis({ seed: 42 });
    expect([a.faucet.address, a.authority.address, a.genesisHash, a.ring.latest().blockhash]).toEqual([
      b.faucet.address,
      b.authority.address,
      b.genesisHash,
      b.ring.latest().blockhash,
    ]);
    expect(createChainGenesis({ seed: 43 }).genesisHash).not.toBe(a.genesisHash);
  });
});

describe('createChainSlots', () => {
  it('counts slots from 0, each commitment behind by its lag, never below 0', () => {
    const { svm, ring } = createChainGenesis({ seed: 1 });
    const slots = createChainSlots(svm, ring, 3);
    expect([slots.slot(), slots.blockHeight(), slots.slotAt('processed'), slots.slotAt('confirmed'), slots.slotAt('finalized')]).toEqual([0, 0, 0, 0, 0]);
    expect(slots.blockTime(0)).toBeTypeOf('number');
    expect(slots.blockTime(1)).toBeNull();
    for (let i = 1; i <= 5; i++) expect(slots.advance().slot).toBe(i);
    expect([slots.slot(), slots.blockHeight(), slots.slotAt('processed'), slots.slotAt('confirmed'), slots.slotAt('finalized')]).toEqual([5, 5, 5, 4, 2]);
    expect(slots.blockTime(5)).toBeTypeOf('number');
    expect(svm.getClock().slot).toBe(5n);
  });

  it('answers blockhashes from the current height', () => {
    const { svm, ring } = createChainGenesis({ seed: 2 });
    const slots = createChainSlots(svm, ring, 3);
    const first = slots.latestBlockhash();
    expect(first.lastValidBlockHeight).toBe(BLOCKHASH_VALIDITY);
    slots.advance();
    const next = slots.latestBlockhash();
    expect(next.blockhash).not.toBe(first.blockhash);
    expect(next.lastValidBlockHeight).toBe(1 + BLOCKHASH_VALIDITY);
    expect(slots.lastValidBlockHeight(first.blockhash)).toBe(BLOCKHASH_VALIDITY);
    expect(slots.isValidBlockhashBytes(bs58.decode(next.blockhash))).toBe(true);
    expect(slots.lastValidBlockHeight(bs58.encode(new Uint8Array(32).fill(9)))).toBeNull();
  });
});

describe('createListeners', () => {
  it('notify keeps going past a listener that throws; callEach does not; add returns the remover', () => {
    const l = createListeners<number>();
    const seen: number[] = [];
    l.add(() => {
      throw new Error('listener bug');
    });
    const off = l.add((v) => seen.push(v));
    l.notify(1);
    expect(seen).toEqual([1]);
    expect(() => l.callEach(2)).toThrow('listener bug');
    off();
    l.notify(3);
    expect(seen).toEqual([1]);
  });
});

describe('createSubmissionQueue', () => {
  it('queues once per signature, and take() hands the queue to a slot', async () => {
    const statuses = createStatusCache(3);
    const queue = createSubmissionQueue(statuses, false);
    const wire = buildTx({ payer: newKeypair(), blockhash: bs58.encode(new Uint8Array(32).fill(1)), cuPrice: 5 });
    const parsed = parseSubmitted(wire);
    const signature = bs58.encode(parsed.signatures[0]!);
    expect(queue.submit(wire, parsed, signature, 0)).toEqual({ signature, duplicate: false });
    expect(queue.submit(wire, parsed, signature, 0)).toEqual({ signature, duplicate: true });
    expect(queue.length).toBe(1);
    expect(queue.take(1).map((p) => p.signature)).toEqual([signature]);
    expect(queue.length).toBe(0);
    // Still known (pending until it executes or is dropped): not queued a second time.
    expect(queue.submit(wire, parsed, signature, 1).duplicate).toBe(true);
    await queue.close();
  });
});
