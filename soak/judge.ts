/**
 * Judging a phase: the ledger says what each intent paid; the answers say what the sender told its
 * callers. An intent is "lost" when it did not land and has no true final answer, "reported failed
 * but landed" when any caller got an error for it (other than "pending", or an abort in a process
 * that was then killed) while the ledger shows it paid.
 */
import { ErrorCodes } from '../src/errors/index.js';
import type { ChildAnswer } from './job.js';
import { intentKey, type Intent } from './intents.js';
import type { Execution } from './ledger.js';
import type { ChildRun } from './run-child.js';

export interface Verdict {
  offered: number;
  landedOnce: number;
  provenExpired: number;
  failed: number;
  /** must be 0 */
  lost: number;
  /** must be 0 */
  landedTwice: number;
  /** must be 0 */
  reportedFailedButLanded: number;
  /** must be 0: answered ok with a signature the ledger does not show paying this intent. */
  okWrongSignature: number;
  /** Told failed (truly: nothing was live), then paid once when the caller offered the id again. */
  failedThenPaidOnReoffer: number;
  /** Landed but no caller was ever told (the process died first and nobody asked again). */
  landedUnanswered: number;
  /** Executed with an error (the fee was paid, the transfer was not). */
  executedWithError: number;
  /** Answers refused because another process holds the journal (SENDER_JOURNAL_LOCKED). */
  refusedLocked: number;
  /** Up to 10 examples per must-be-0 figure, for the report. */
  examples: Record<string, string[]>;
}

/** The figures a verdict counts, summed over phases by the report. */
export const COUNTS = [
  'offered',
  'landedOnce',
  'provenExpired',
  'failed',
  'lost',
  'landedTwice',
  'reportedFailedButLanded',
  'okWrongSignature',
  'failedThenPaidOnReoffer',
  'landedUnanswered',
  'executedWithError',
] as const satisfies readonly (keyof Verdict)[];
export type Counts = Pick<Verdict, (typeof COUNTS)[number]>;

/** Slots after a process ended in which a transaction it submitted may still execute. */
const QUEUE_SLOTS = 2;

/** An answer a caller really got and must be able to act on. */
const counts = (a: ChildAnswer, run: ChildRun): boolean =>
  !(a.code === ErrorCodes.SENDER_PENDING || a.code === ErrorCodes.SENDER_JOURNAL_LOCKED || (a.code === ErrorCodes.SENDER_ABORTED && run.killed));

/**
 * @example
 * const v = judge(intents, [run1, run2], executionsByKey(devnet.control.ledger(), payer));
 * v.lost; // 0
 */
export function judge(intents: readonly Intent[], runs: readonly ChildRun[], paid: ReadonlyMap<string, Execution[]>): Verdict {
  const v: Verdict = {
    offered: intents.length,
    landedOnce: 0,
    provenExpired: 0,
    failed: 0,
    lost: 0,
    landedTwice: 0,
    reportedFailedButLanded: 0,
    okWrongSignature: 0,
    failedThenPaidOnReoffer: 0,
    landedUnanswered: 0,
    executedWithError: 0,
    refusedLocked: 0,
    examples: {},
  };
  const example = (figure: string, text: string): void => {
    const list = (v.examples[figure] ??= []);
    if (list.length < 10) list.push(text);
  };
  const answers = new Map<string, { a: ChildAnswer; run: ChildRun }[]>();
  for (const run of runs) {
    for (const raw of run.answers) {
      // "It landed, but the journal could not record it" tells the caller the payment happened:
      // judged as the ok answer it amounts to (its signature must be the one that landed).
      const a: ChildAnswer = raw.code === ErrorCodes.SENDER_JOURNAL_FAILED && raw.state === 'confirmed' ? { ...raw, ok: true } : raw;
      if (a.code === ErrorCodes.SENDER_JOURNAL_LOCKED) v.refusedLocked++;
      let list = answers.get(a.id);
      if (!list) answers.set(a.id, (list = []));
      list.push({ a, run });
    }
  }
  for (const it of intents) {
    const execs = paid.get(intentKey(it.to, it.lamports)) ?? [];
    const landed = execs.filter((e) => e.ok);
    if (execs.length > landed.length) v.executedWithError++;
    const heard = (answers.get(it.id) ?? []).filter(({ a, run }) => counts(a, run));
    const said = heard.map(({ a }) => a);
    const final = said.at(-1);
    const failures = said.filter((a) => !a.ok);
    // An error is false when the payment was already live in that process, or a later resume() found the intent still open.
    const falseFailures = heard.flatMap(({ a, run }, i) => {
      if (a.ok || landed.length === 0) return [];
      if (run.endSlot === undefined || landed[0]!.slot <= run.endSlot + QUEUE_SLOTS) return [{ a, why: 'paid while that process ran' }];
      return heard.slice(i + 1).some((h) => h.a.ok && h.a.via === 'resume') ? [{ a, why: 'a later resume() finished it' }] : [];
    });
    const how = (a: ChildAnswer | undefined) => (a ? (a.ok ? `ok ${a.signature}` : `${a.code}: ${a.message}`) : 'no answer');
    if (landed.length >= 2) {
      v.landedTwice++;
      example('landedTwice', `${it.id}: ${landed.map((e) => e.signature).join(', ')}`);
    } else if (landed.length === 1) v.landedOnce++;
    if (landed.length >= 1) {
      if (falseFailures.length > 0) {
        v.reportedFailedButLanded++;
        const f = falseFailures[0]!;
        example('reportedFailedButLanded', `${it.id}: ${how(f.a)}; landed ${landed[0]!.signature} in slot ${landed[0]!.slot} (${f.why})`);
      } else if (failures.length > 0) v.failedThenPaidOnReoffer++;
      if (!final) v.landedUnanswered++;
      const wrong = said.find((a) => a.ok && !landed.some((e) => e.signature === a.signature));
      if (wrong) {
        v.okWrongSignature++;
        example('okWrongSignature', `${it.id}: told ${wrong.signature}; landed ${landed.map((e) => e.signature).join(', ')}`);
      }
      continue;
    }
    // Nothing paid: only a final error is a true answer (an "ok" would be a lie).
    if (final && !final.ok) {
      if (final.code === ErrorCodes.SENDER_BLOCKHASH_EXPIRED) v.provenExpired++;
      else v.failed++;
    } else {
      v.lost++;
      example('lost', `${it.id}: ${how(final)}`);
    }
  }
  return v;
}
