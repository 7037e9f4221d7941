import { describe, expect, expectTypeOf, it } from 'vitest';
import { createChain } from '../../src/devnet/chain/chain.js';
import { isCairnError, type CairnErrorContext } from '../../src/errors/index.js';

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('chain.waitForSlot on a stopped chain', () => {
  it('a wait begun after stop() is DEVNET_STOPPED with the slot it stopped at and the target', async () => {
    const chain = createChain({ autoStart: false, seed: 1, verifierThread: false });
    chain.tick();
    await chain.stop();
    const e = await rejection(chain.waitForSlot(chain.slot() + 5));
    expect(isCairnError(e, 'DEVNET_STOPPED'), String(e)).toBe(true);
    if (isCairnError(e, 'DEVNET_STOPPED')) {
      expectTypeOf(e.context).toEqualTypeOf<CairnErrorContext['DEVNET_STOPPED']>();
      expectTypeOf(e.context.slot).toEqualTypeOf<number>();
      expectTypeOf(e.context.target).toEqualTypeOf<number | undefined>();
      // @ts-expect-error: a stopped chain carries no field
      void e.context.field;
      expect(e.context).toEqual({ slot: chain.slot(), target: chain.slot() + 5 });
    }
  });

  it('a wait pending when stop() comes is DEVNET_STOPPED too', async () => {
    const chain = createChain({ autoStart: false, seed: 2, verifierThread: false });
    const pending = rejection(chain.waitForSlot(10));
    await chain.stop();
    const e = await pending;
    expect(isCairnError(e, 'DEVNET_STOPPED'), String(e)).toBe(true);
    if (isCairnError(e, 'DEVNET_STOPPED')) expect(e.context.slot).toBe(chain.slot());
  });

  it('a slot already reached resolves even after stop()', async () => {
    const chain = createChain({ autoStart: false, seed: 3, verifierThread: false });
    await chain.stop();
    await expect(chain.waitForSlot(chain.slot())).resolves.toBeUndefined();
  });
});
