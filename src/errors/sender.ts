/** The sender's errors with a class of their own: what ended an intent on chain. */
import { CairnError } from './cairn-error.js';

/** Landed on chain with an error. Carries the status `err` and, when fetched, the logs. */
export class TransactionFailedError extends CairnError<'SENDER_TRANSACTION_FAILED'> {}

/**
 * The blockhash of the transaction expired without it landing (checked once more after expiry).
 * `context.signature` is absent when nothing was signed: the RPC handed out a blockhash already past
 * its window, and the intent is read back from the journal.
 */
export class BlockhashExpiredError extends CairnError<'SENDER_BLOCKHASH_EXPIRED'> {}
