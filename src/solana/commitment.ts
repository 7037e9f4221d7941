/**
 * The two Solana enumerations every part speaks: a commitment level and the priority-fee levels of
 * `getPriorityFeeEstimate`. Defined once here, at the bottom of the stack, so the client, the sender
 * and the devnet cannot drift apart.
 */

/** How final a transaction or a read is: `processed` < `confirmed` < `finalized`. */
export type Commitment = 'processed' | 'confirmed' | 'finalized';

/** A `getPriorityFeeEstimate` level, from the cheapest to the most aggressive. */
export type PriorityLevel = 'Min' | 'Low' | 'Medium' | 'High' | 'VeryHigh' | 'UnsafeMax';
