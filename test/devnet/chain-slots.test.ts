/**
 * The chain's slot bookkeeping as programs see it: the SlotHashes sysvar follows the slots (its
 * parent and older, newest first, each with that slot's blockhash), which the lookup-table program
 * needs to accept a recent slot.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createChain } from '../../src/devnet/chain/chain.js';
import type { DevnetChain } from '../../src/devnet/chain/contract.js';

let chain: DevnetChain | undefined;
afterAll(async () => {
  await chain?.stop();
});

describe('chain slots', () => {
  it('keeps SlotHashes: the parent and older slots, newest first, with their blockhashes', () => {
    chain = createChain({ seed: 5, autoStart: false, verifierThread: false });
    const hashes = [chain.latestBlockhash().blockhash];
    for (let i = 0; i < 3; i++) {
      chain.tick();
      hashes.push(chain.latestBlockhash().blockhash);
    }
    const sh = chain.svm.getSlotHashes();
    expect(sh.map((h) => h.slot)).toEqual([2n, 1n, 0n]);
    expect(sh.map((h) => h.hash)).toEqual([hashes[2], hashes[1], hashes[0]]);
  });
});
