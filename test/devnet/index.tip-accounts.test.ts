import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { newAddress, rpc } from '../support/devnet.js';

describe('startDevnet: custom fast.tipAccounts exist at genesis', () => {
  const custom = [newAddress(), newAddress()];
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ slotMs: 50, seed: 3, stateModules: false, fast: { tipAccounts: custom } });
  });
  afterAll(() => devnet?.stop());

  it('each custom tip account is there, rent-exempt, before any transaction', async () => {
    expect(devnet.chain.ledger()).toHaveLength(0);
    const rentExempt = devnet.chain.minimumBalanceForRentExemption(0);
    for (const t of custom) {
      const a = devnet.chain.account(t);
      expect(a, t).not.toBeNull();
      expect(a!.lamports).toBe(rentExempt);
      const r = await rpc(devnet.url, 'getBalance', [t, { commitment: 'processed' }]);
      expect(r.body.result.value).toBe(Number(rentExempt));
    }
  });

  it('a bad tip account is refused before a chain is made', async () => {
    await expect(startDevnet({ stateModules: false, fast: { tipAccounts: ['not-base58-0OIl'] } })).rejects.toMatchObject({ code: 'INPUT_INVALID', context: { field: 'fast.tipAccounts[0]' } });
  });
});
