/**
 * One slot of the chain: the slot advances, the queued transactions execute in order as its block,
 * and only then are the listeners told (a slow listener never delays execution order) and the
 * waiters for that slot released.
 */
import type { ExecutedTransaction } from '../types.js';
import type { ChainSlots } from './slots.js';
import type { Listeners } from './listeners.js';
import type { SlotWaiters } from './slot-waiters.js';
import type { StatusCache } from './status-cache.js';
import type { SubmissionQueue } from './submission-queue.js';
import type { TransactionExecutor } from '../runtime/batch.js';

/** What a block is made from, and who hears of it. */
export interface BlockParts {
  slots: ChainSlots;
  queue: SubmissionQueue;
  executor: TransactionExecutor;
  statuses: StatusCache;
  transactions: Listeners<ExecutedTransaction>;
  newSlots: Listeners<number>;
  waiters: SlotWaiters;
}

/**
 * Produce the next block.
 *
 * @example
 * const clock = createSlotClock(slotMs, () => produceBlock(parts));
 */
export function produceBlock(parts: BlockParts): void {
  const { slot, blockTime } = parts.slots.advance();
  const batch = parts.queue.take(slot);
  const executed: ExecutedTransaction[] = [];
  parts.executor.executeBatch(batch, slot, blockTime, (_p, tx) => {
    parts.statuses.executed(tx);
    executed.push(tx);
  });
  // Listeners run after the whole batch so a slow listener never delays execution order.
  for (const tx of executed) parts.transactions.notify(tx);
  parts.newSlots.notify(slot);
  parts.waiters.release(slot);
}
