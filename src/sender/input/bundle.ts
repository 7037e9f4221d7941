/**
 * What `sendBundle` takes, normalised: 1..5 inputs that cairn builds (instructions and a payer, or an
 * unsigned transaction; never signed bytes, never a durable nonce), as the plans of ONE intent. The
 * bundle's key (intent/key.ts) is over every plan in order, so the same id offered with another
 * transaction, payer, amount or order is refused.
 */
import { InputError } from '../../errors/index.js';
import type { ResolvedSenderOptions } from '../config.js';
import { intentKey, type IntentKey } from '../intent/key.js';
import { planToJournal } from '../journal/plan.js';
import type { JournalPlan } from '../journal/records.js';
import { prepareInput, type Prepared, type SendInput } from './prepare.js';

/** A Sender bundle holds at most this many transactions. */
export const MAX_BUNDLE_TRANSACTIONS = 5;

/** One transaction of a bundle as cairn builds it. */
export type BundlePlan = Extract<Prepared, { kind: 'plan' }>;

/** A bundle normalised: its plans in order (the tip goes in the last). */
export interface PreparedBundle {
  kind: 'bundle';
  plans: BundlePlan[];
}

/**
 * Check `inputs` at the boundary (InputError naming `inputs` or `inputs[i]`).
 *
 * @example
 * const b = prepareBundle([{ instructions: [a], payer }, { instructions: [c], payer }], cfg);
 * b.plans.length; // 2
 */
export function prepareBundle(inputs: readonly SendInput[], cfg: ResolvedSenderOptions): PreparedBundle {
  if (!Array.isArray(inputs) || inputs.length < 1 || inputs.length > MAX_BUNDLE_TRANSACTIONS) {
    throw new InputError('inputs', `expected an array of 1..${MAX_BUNDLE_TRANSACTIONS} transactions, got ${Array.isArray(inputs) ? inputs.length : typeof inputs}`);
  }
  const plans = inputs.map((input, i) => {
    const p = prepareInput(input, cfg);
    // cairn builds every transaction of a bundle: that is how the tip goes in once, on one blockhash
    if (p.kind !== 'plan') throw new InputError(`inputs[${i}]`, 'a bundle takes { instructions, payer } (cairn builds it: a CU price in each, the tip once, one blockhash), not signed bytes');
    if (p.nonce) throw new InputError(`inputs[${i}].nonce`, 'a bundle lives on one recent blockhash; durable nonces are not taken');
    return p;
  });
  return { kind: 'bundle', plans };
}

/** What the journal stores of a bundle (no secrets), and the key its id stands for. */
export function bundleRecord(b: PreparedBundle): { plans: JournalPlan[]; key: IntentKey } {
  const plans = b.plans.map((p) => planToJournal(p));
  return { plans, key: intentKey({ plans }) };
}
