/**
 * Commitment-true answers of the standard methods: at each commitment, getLatestBlockhash answers
 * the blockhash of the block that commitment sees, with lastValidBlockHeight exactly 150 above
 * getBlockHeight at the same commitment (helius-sdk 3.2 refuses more than 150), and slots order
 * processed ≥ confirmed ≥ finalized. Run on a chain ticked by hand, so every pair of calls sees one slot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChain } from '../../src/devnet/chain/chain.js';
import type { DevnetChain } from '../../src/devnet/chain/contract.js';
import { createSolanaMethods } from '../../src/devnet/methods/solana.js';
import type { RequestContext, RpcHandler } from '../../src/devnet/types.js';
import { buildTx, newKeypair } from '../support/devnet.js';

const ctx: RequestContext = { signal: new AbortController().signal, endpoint: 'rpc' };
const payer = newKeypair();
let chain: DevnetChain;
let m: Record<string, RpcHandler>;
const call = (name: string, params: unknown): any => m[name]!(params, ctx);

beforeAll(() => {
  chain = createChain({ seed: 3, autoStart: false, verifierThread: false, fundedAccounts: [{ address: payer.address, lamports: 10n ** 10n }] });
  m = createSolanaMethods({ chain }).methods;
  for (let i = 0; i < 10; i++) chain.tick();
});
afterAll(async () => {
  await chain?.stop();
});

describe('commitment', () => {
  it('getLatestBlockhash is the blockhash of the block each commitment sees, valid 150 blocks above its height', () => {
    for (const commitment of ['processed', 'confirmed', 'finalized'] as const) {
      const { context, value } = call('getLatestBlockhash', [{ commitment }]);
      const height = call('getBlockHeight', [{ commitment }]);
      expect(value.lastValidBlockHeight - height, commitment).toBe(150);
      expect(context.slot).toBe(call('getSlot', [{ commitment }]));
      if (commitment !== 'processed') expect(value.blockhash).toBe(call('getBlock', [context.slot, { commitment, transactionDetails: 'none' }]).blockhash);
      else expect(value).toEqual(chain.latestBlockhash());
    }
    // the defaults (finalized) as helius-sdk reads them: getLatestBlockhash() and getBlockHeight()
    expect(call('getLatestBlockhash', []).value.lastValidBlockHeight - call('getBlockHeight', [])).toBe(150);
  });

  it('orders slots processed ≥ confirmed ≥ finalized, finalized lagging by the chain finalizeSlots', () => {
    const [p, c, f] = (['processed', 'confirmed', 'finalized'] as const).map((commitment) => call('getSlot', [{ commitment }]));
    expect(p - c).toBe(1);
    expect(p - f).toBe(chain.finalizeSlots);
    expect(call('getEpochInfo', [{ commitment: 'confirmed' }]).blockHeight).toBe(c);
  });

  it('lands a transaction built on the finalized blockhash and expires it 150 blocks after that block', () => {
    const { value } = call('getLatestBlockhash', [{ commitment: 'finalized' }]);
    const sig = chain.submit(buildTx({ payer, blockhash: value.blockhash })).signature;
    chain.tick();
    expect(chain.status(sig)?.err).toBeNull();
    expect(chain.lastValidBlockHeight(value.blockhash)).toBe(value.lastValidBlockHeight);
    expect(call('isBlockhashValid', [value.blockhash, { commitment: 'processed' }]).value).toBe(true);
  });
});
