/**
 * The soak's judge on hand-made ledgers and answers: each must-be-0 figure fires on the case it
 * names, and true answers (a proven expiry, a failure that did not land, "nothing was done" then a
 * payment on re-offer) are not counted against the sender.
 */
import { describe, expect, it } from 'vitest';
import { judge } from '../../soak/judge.js';
import type { ChildAnswer } from '../../soak/job.js';
import { intentKey, makeIntents } from '../../soak/intents.js';
import type { Execution } from '../../soak/ledger.js';
import type { ChildRun } from '../../soak/run-child.js';

const intents = makeIntents('t', 8, 10_000_000n, ['A', 'B']);
const run = (answers: Partial<ChildAnswer>[], endSlot: number, killed = false): ChildRun => ({
  answers: answers.map((a) => ({ t: 'answer', via: 'send', ok: false, id: '', ...a }) as ChildAnswer),
  fatal: [],
  rejections: [],
  killed,
  hung: false,
  lingered: false,
  exit: killed ? 'SIGKILL' : 0,
  stderr: '',
  ms: 0,
  endSlot,
});
const paid = (entries: [number, Execution[]][]): Map<string, Execution[]> =>
  new Map(entries.map(([i, e]) => [intentKey(intents[i]!.to, intents[i]!.lamports), e]));

describe('soak judge', () => {
  it('counts each case under its figure', () => {
    const ledger = paid([
      [0, [{ signature: 's0', slot: 5, ok: true }]],
      [1, [{ signature: 's1a', slot: 5, ok: true }, { signature: 's1b', slot: 9, ok: true }]],
      [2, [{ signature: 's2', slot: 8, ok: true }]],
      [5, [{ signature: 's5', slot: 30, ok: true }]],
      [6, [{ signature: 's6', slot: 6, ok: true }]],
    ]);
    const first = run(
      [
        { id: 't-0', ok: true, signature: 's0' },
        { id: 't-2', code: 'SENDER_JOURNAL_FAILED' }, // paid in slot 8 while this process ran (ended at 10)
        { id: 't-3', code: 'SENDER_BLOCKHASH_EXPIRED' },
        { id: 't-4', ok: true, signature: 'never' }, // ok, but nothing paid
        { id: 't-5', code: 'SENDER_JOURNAL_FAILED' }, // true then: paid in slot 30 on re-offer
        { id: 't-6', ok: true, signature: 'other' },
        { id: 't-7', code: 'SENDER_ABORTED' }, // killed process: not an answer
      ],
      10,
      true,
    );
    const second = run([{ id: 't-5', ok: true, signature: 's5' }], 40);
    const v = judge(intents, [first, second], ledger);
    expect(v).toMatchObject({
      offered: 8,
      landedOnce: 4,
      landedTwice: 1,
      reportedFailedButLanded: 1,
      failedThenPaidOnReoffer: 1,
      provenExpired: 1,
      okWrongSignature: 1,
      landedUnanswered: 1,
      lost: 2,
    });
    expect(v.examples.lost).toEqual(['t-4: ok never', 't-7: no answer']);
  });

  it('an error a later resume() contradicts is false even when the payment came after the process', () => {
    const ledger = paid([[0, [{ signature: 's0', slot: 50, ok: true }]]]);
    const v = judge(intents.slice(0, 1), [run([{ id: 't-0', code: 'SENDER_RPC' }], 10), run([{ id: 't-0', ok: true, signature: 's0', via: 'resume' }], 60)], ledger);
    expect(v.reportedFailedButLanded).toBe(1);
    expect(v.failedThenPaidOnReoffer).toBe(0);
  });

  it('"pending" and a refusal for a locked journal are not failures', () => {
    const ledger = paid([[0, [{ signature: 's0', slot: 5, ok: true }]]]);
    const v = judge(intents.slice(0, 1), [run([{ id: 't-0', code: 'SENDER_PENDING' }, { id: 't-0', code: 'SENDER_JOURNAL_LOCKED' }], 10)], ledger);
    expect(v).toMatchObject({ landedOnce: 1, reportedFailedButLanded: 0, refusedLocked: 1, landedUnanswered: 1 });
  });

  it('"landed, but the journal could not record it" is judged as the ok it amounts to, signature included', () => {
    const ledger = paid([
      [0, [{ signature: 's0', slot: 5, ok: true }]],
      [1, [{ signature: 's1', slot: 5, ok: true }]],
    ]);
    const answers = [
      { id: 't-0', code: 'SENDER_JOURNAL_FAILED', state: 'confirmed', signature: 's0' },
      { id: 't-1', code: 'SENDER_JOURNAL_FAILED', state: 'confirmed', signature: 'not-s1' },
    ];
    const v = judge(intents.slice(0, 2), [run(answers, 10)], ledger);
    expect(v).toMatchObject({ landedOnce: 2, reportedFailedButLanded: 0, okWrongSignature: 1, landedUnanswered: 0 });
  });
});
