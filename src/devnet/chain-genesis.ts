/**
 * The chain's first state: the LiteSVM instance, the devnet's own keys (faucet, authority) funded,
 * the caller's funded accounts, the genesis hash and the blockhash ring, all drawn from one seed.
 */
import type { FailedTransactionMetadata as FailedTx, LiteSVM } from 'litesvm';
import { encodeBase58 } from '../solana/base58.js';
import { createBlockhashRing, type BlockhashRing } from './blockhash-ring.js';
import { AUTHORITY_LAMPORTS, FAUCET_LAMPORTS } from './faucet.js';
import { fundAccount, fundAccounts, seedClusterAccounts } from './genesis.js';
import { DEFAULT_TIP_ACCOUNTS } from '../tips.js';
import { keypairFromSeed, type DevnetKeypair } from './keypair.js';
import { innerOf, loadLiteSvm, type LiteSvmInner } from './litesvm.js';
import { mulberry32, randomBytes32 } from './mulberry32.js';

export interface ChainGenesis {
  svm: LiteSVM;
  inner: LiteSvmInner;
  /** litesvm's failure class (the package is loaded at run time). */
  FailedTransactionMetadata: typeof FailedTx;
  faucet: DevnetKeypair;
  authority: DevnetKeypair;
  genesisHash: string;
  /** Holds the genesis blockhash; the rest are drawn from the same seed as the chain advances. */
  ring: BlockhashRing;
}

/**
 * The genesis for `seed` (random when absent): the same seed gives the same keys and blockhashes.
 *
 * @example
 * const { svm, faucet, ring } = createChainGenesis({ seed: 1 });
 */
export function createChainGenesis(options: { seed?: number; fundedAccounts?: { address: string; lamports: bigint }[]; tipAccounts?: readonly string[] }): ChainGenesis {
  const rand = mulberry32(options.seed ?? (Math.random() * 2 ** 32) >>> 0);
  const { LiteSVM, FailedTransactionMetadata } = loadLiteSvm();
  const svm = new LiteSVM().withBlockhashCheck(false).withTransactionHistory(0n);
  // Drawn in this order from the seed: faucet, authority, genesis hash, then the blockhashes.
  const faucet = keypairFromSeed(randomBytes32(rand));
  const authority = keypairFromSeed(randomBytes32(rand));
  fundAccount(svm, faucet.address, FAUCET_LAMPORTS, 'faucet');
  fundAccount(svm, authority.address, AUTHORITY_LAMPORTS, 'authority');
  fundAccounts(svm, options.fundedAccounts ?? []);
  // After the caller's accounts, which may already fund a tip account above the minimum.
  seedClusterAccounts(svm, options.tipAccounts ?? DEFAULT_TIP_ACCOUNTS);
  const genesisHash = encodeBase58(randomBytes32(rand));
  const ring = createBlockhashRing(svm, rand);
  return { svm, inner: innerOf(svm), FailedTransactionMetadata, faucet, authority, genesisHash, ring };
}
