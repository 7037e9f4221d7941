/**
 * The chain's slot and height bookkeeping: the current slot (the devnet's block height equals it:
 * no slot is skipped), the slot each commitment sees, each slot's block time, and the blockhash
 * answers that depend on the height. The one place that says which slot "now" is, at any commitment.
 */
import type { LiteSVM } from 'litesvm';
import { BLOCKHASH_VALIDITY, type BlockhashRing } from './blockhashes.js';
import type { Commitment, LatestBlockhash } from '../types.js';

/** The SlotHashes sysvar holds this many recent slots (as on a real cluster). */
const SLOT_HASHES_KEPT = 512;

/** Block times kept: older slots answer null. */
const BLOCK_TIMES_KEPT = 10_000;

export interface ChainSlots {
  /** The newest (processed) slot. */
  slot(): number;
  /** The block height: the slot, as no slot is skipped. */
  blockHeight(): number;
  /** The newest slot `commitment` sees: processed, one behind (confirmed), `finalizeSlots` behind (finalized). */
  slotAt(commitment: Commitment): number;
  /** Unix time (s) the slot started; null for unknown slots. */
  blockTime(slot: number): number | null;
  /** Move to the next slot: LiteSVM's clock and the blockhash ring follow; its block time is now. */
  advance(): { slot: number; blockTime: number };
  latestBlockhash(): LatestBlockhash;
  /** Block height after which `blockhash` is no longer accepted, or null when unknown/expired. */
  lastValidBlockHeight(blockhash: string): number | null;
  /** Whether a message's blockhash bytes are still valid at the current height. */
  isValidBlockhashBytes(bytes: Uint8Array): boolean;
}

/**
 * Slots from `startSlot` (0: genesis; a resumed ledger's slot), its block time now.
 *
 * @example
 * const slots = createChainSlots(svm, ring, 3);
 * slots.advance(); // { slot: 1, blockTime }
 * slots.slotAt('finalized'); // 0
 */
export function createChainSlots(svm: LiteSVM, ring: BlockhashRing, finalizeSlots: number, startSlot = 0): ChainSlots {
  let slot = startSlot;
  const blockTimes = new Map<number, number>([[startSlot, Math.floor(Date.now() / 1000)]]);
  if (startSlot > 0) {
    // Resuming a ledger: the clock and the blockhash ring continue from the saved slot.
    svm.warpToSlot(BigInt(startSlot));
    ring.advance(startSlot);
  }
  // LiteSVM's warpToSlot leaves SlotHashes as it was (one made-up entry), so programs that check a
  // recent slot — the lookup-table program's CreateLookupTable — refuse every real one. A block's
  // SlotHashes holds its parent and older slots, newest first, as a real bank's does.
  const slotHashes: { slot: bigint; hash: string }[] = [];
  svm.setSlotHashes(slotHashes as never);
  return {
    slot: () => slot,
    blockHeight: () => slot,
    slotAt: (c) => Math.max(0, c === 'processed' ? slot : c === 'confirmed' ? slot - 1 : slot - finalizeSlots),
    blockTime: (s) => blockTimes.get(s) ?? null,
    advance() {
      slotHashes.unshift({ slot: BigInt(slot), hash: ring.latest().blockhash });
      if (slotHashes.length > SLOT_HASHES_KEPT) slotHashes.pop();
      svm.setSlotHashes(slotHashes as never);
      slot++;
      svm.warpToSlot(BigInt(slot));
      ring.advance(slot);
      const blockTime = Math.floor(Date.now() / 1000);
      blockTimes.set(slot, blockTime);
      if (blockTimes.size > BLOCK_TIMES_KEPT) blockTimes.delete(slot - BLOCK_TIMES_KEPT);
      return { slot, blockTime };
    },
    latestBlockhash: () => ({ blockhash: ring.latest().blockhash, lastValidBlockHeight: slot + BLOCKHASH_VALIDITY }),
    lastValidBlockHeight: (hash) => ring.lastValidBlockHeight(hash, slot),
    isValidBlockhashBytes: (bytes) => ring.isValidBytes(bytes, slot),
  };
}
