/**
 * The truth: what the devnet executed. Every transaction of the ledger is decoded and each System
 * transfer FROM the payer is filed under its recipient and amount (the intent's key), so a phase is
 * judged by what was paid, never by what the sender said.
 */
import bs58 from 'bs58';
import type { Devnet, ExecutedTransaction } from '../src/devnet/index.js';
import { parseTransaction } from '../src/solana/index.js';
import { intentKey } from './intents.js';

/** One execution of an intent's transfer. */
export interface Execution {
  signature: string;
  slot: number;
  /** False when the transaction executed with an error (the transfer was rolled back; the fee was paid). */
  ok: boolean;
}

/**
 * Transfers from `payer`, by intent key, in execution order.
 *
 * @example
 * const paid = executionsByKey(devnet.control.ledger(), payer.address);
 * paid.get(intentKey(to, 10_000_007n))?.filter((e) => e.ok).length; // 1
 */
export function executionsByKey(ledger: readonly ExecutedTransaction[], payer: string): Map<string, Execution[]> {
  const payerHex = Buffer.from(bs58.decode(payer)).toString('hex');
  const out = new Map<string, Execution[]>();
  for (const tx of ledger) {
    const { parts } = parseTransaction(tx.wire);
    for (const ix of parts.instructions) {
      const program = parts.staticKeys[ix.programIdIndex];
      // System program (all-zero id), instruction 2 = Transfer { lamports: u64 }, accounts [from, to].
      if (!program || !program.every((b) => b === 0) || ix.data.length !== 12 || ix.data[0] !== 2 || ix.accounts.length < 2) continue;
      const from = parts.staticKeys[ix.accounts[0]!];
      const to = parts.staticKeys[ix.accounts[1]!];
      if (!from || !to || Buffer.from(from).toString('hex') !== payerHex) continue;
      const lamports = new DataView(ix.data.buffer, ix.data.byteOffset, 12).getBigUint64(4, true);
      const key = intentKey(bs58.encode(to), lamports);
      let list = out.get(key);
      if (!list) out.set(key, (list = []));
      list.push({ signature: tx.signature, slot: tx.slot, ok: tx.err === null });
    }
  }
  return out;
}

/**
 * Wait until whatever was submitted has had its chance to execute: with every sender process gone,
 * nothing new can arrive, and a queued transaction runs in the next slot.
 */
export async function settleLedger(devnet: Devnet, slots = 3): Promise<void> {
  await devnet.chain.waitForSlot(devnet.chain.slot() + slots);
}
