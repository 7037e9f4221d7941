/**
 * The chain's first state: the LiteSVM instance, the devnet's own keys (faucet, authority) funded,
 * the caller's funded accounts, the genesis hash and the blockhash ring, all drawn from one seed.
 */
import type { FailedTransactionMetadata as FailedTx, LiteSVM } from 'litesvm';
import { InputError } from '../../errors/index.js';
import { encodeBase58 } from '../../solana/index.js';
import { writeDevnetAccount } from './account-file.js';
import { decodeAddress } from './decode-address.js';
import { createBlockhashRing, type BlockhashRing } from './blockhashes.js';
import { AUTHORITY_LAMPORTS, FAUCET_LAMPORTS } from './faucet.js';
import { fundAccount, fundAccounts, seedClusterAccounts } from './funding.js';
import { DEFAULT_TIP_ACCOUNTS } from '../../tips.js';
import { keypairFromSeed, type DevnetKeypair } from './keypair.js';
import { innerOf, loadLiteSvm, type LiteSvmInner } from '../runtime/litesvm.js';
import { mulberry32, randomBytes32 } from './mulberry32.js';

/** An account to write at genesis (`--account`, a ledger's saved accounts). */
export interface GenesisAccount {
  address: string;
  lamports: bigint;
  data: Uint8Array;
  owner: string;
  executable: boolean;
  /** The rentEpoch to serve for it (an account file's, kept as given); without it, u64::MAX as for
   * any rent-exempt account. */
  rentEpoch?: bigint;
}

/** A BPF program to deploy at genesis (`--bpf-program`): its ELF from a file or as bytes. */
export type GenesisProgram = { address: string; file: string } | { address: string; bytes: Uint8Array };

export interface GenesisOptions {
  seed?: number;
  fundedAccounts?: { address: string; lamports: bigint }[];
  tipAccounts?: readonly string[];
  /** Written after the devnet's own accounts, in order (a ledger's first, then the caller's). */
  accounts?: readonly GenesisAccount[];
  programs?: readonly GenesisProgram[];
  /** Resuming a saved ledger at this slot: blockhashes are drawn from a stream of their own, so the
   * resumed chain never hands out a blockhash the first run already used. */
  resumeSlot?: number;
}

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
export function createChainGenesis(options: GenesisOptions): ChainGenesis {
  const seed = options.seed ?? (Math.random() * 2 ** 32) >>> 0;
  const rand = mulberry32(seed);
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
  (options.accounts ?? []).forEach((a, i) => writeDevnetAccount(svm, a, `accounts[${i}]`));
  (options.programs ?? []).forEach((p, i) => addProgram(svm, p, `programs[${i}]`));
  const genesisHash = encodeBase58(randomBytes32(rand));
  const ringRand = options.resumeSlot ? mulberry32((seed ^ Math.imul(options.resumeSlot, 0x9e3779b1)) >>> 0) : rand;
  const ring = createBlockhashRing(svm, ringRand);
  return { svm, inner: innerOf(svm), FailedTransactionMetadata, faucet, authority, genesisHash, ring };
}

function addProgram(svm: LiteSVM, p: GenesisProgram, field: string): void {
  decodeAddress(p.address, `${field}.address`);
  try {
    if ('file' in p) svm.addProgramFromFile(p.address as never, p.file);
    else svm.addProgram(p.address as never, p.bytes);
  } catch (e) {
    // LiteSVM throws a plain Error for an unreadable file or an ELF it cannot load.
    throw new InputError('file' in p ? `${field}.file` : `${field}.bytes`, `cannot load program ${p.address}${'file' in p ? ` from ${p.file}` : ''}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}
