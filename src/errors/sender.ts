/** The sender's errors with a class of their own: what ended an intent on chain. */
import { CairnError } from './cairn-error.js';

/** Landed on chain with an error. Carries the status `err` and, when fetched, the logs. */
export class TransactionFailedError extends CairnError<{ signature: string; err: unknown; logs?: string[]; slot?: number }> {}

/** The blockhash of the transaction expired without it landing (checked once more after expiry). */
export class BlockhashExpiredError extends CairnError<{
  signature: string;
  lastValidBlockHeight: number;
  blockHeight: number;
}> {}
