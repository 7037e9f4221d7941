/**
 * Targets that misbehave on purpose, each on the second case it runs in a thread: the harness must
 * report every kind of failure it promises to (an untyped error, a broken property, a crashed thread,
 * a hang past the time bound) with the case's input, count typed errors by code, and go on past them.
 * Not part of a normal run: `npx tsx soak/fuzz.ts --group selftest`, and test/fuzz/harness.test.ts.
 */
import fc from 'fast-check';
import { InputError } from '../../src/errors/index.js';
import { Broken, type Target, type TargetGroup } from './target.js';

function misbehaving(name: string, act: (input: unknown) => void | Promise<void>): Target {
  let runs = 0;
  return {
    name: `selftest:${name}`,
    arb: fc.record({ n: fc.nat(), s: fc.string({ maxLength: 8 }) }),
    async run(input) {
      if (++runs === 2) await act(input);
      return runs % 2 === 0 ? 'invalid' : 'ok';
    },
  };
}

export async function selftestTargets(): Promise<TargetGroup> {
  const targets = [
    misbehaving('typed', () => {
      throw new InputError('n', 'a typed error: counted, not a failure');
    }),
    misbehaving('untyped', (x) => {
      (x as { missing: { field: number } }).missing.field = 1;
    }),
    misbehaving('property', () => {
      throw new Broken('a property that does not hold');
    }),
    misbehaving('crash', async () => {
      // thrown from a callback while the case waits: the thread dies
      setImmediate(() => {
        throw new Error('the thread crashed');
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }),
    misbehaving('hang', () => {
      for (;;);
    }),
  ];
  return { targets, close: async () => {} };
}
