import { describe, expect, it } from 'vitest';
import { isCairnError } from '../../src/errors/index.js';
import { createCompressionStore, newTokenAccount } from '../../src/devnet/compression/store.js';
import { Keypair } from '@solana/web3.js';

const key = () => Keypair.generate().publicKey.toBytes();

describe('compression store: spending an account twice', () => {
  it('is an InputError naming "account", not a plain Error', () => {
    const store = createCompressionStore();
    const [opened] = store.apply({ signature: 'a', slot: 1, blockTime: 1, spend: [], addresses: [], open: [newTokenAccount({ mint: key(), owner: key(), amount: 1n, delegate: null, frozen: false })] }).opened;
    store.apply({ signature: 'b', slot: 2, blockTime: 2, spend: [opened!], addresses: [], open: [] });
    let caught: unknown;
    try {
      store.apply({ signature: 'c', slot: 3, blockTime: 3, spend: [opened!], addresses: [], open: [] });
    } catch (e) {
      caught = e;
    }
    expect(isCairnError(caught, 'INPUT_INVALID')).toBe(true);
    if (isCairnError(caught, 'INPUT_INVALID')) {
      expect(caught.context.field).toBe('account');
      expect(caught.message).toMatch(/is already spent/);
    }
  });
});
