/**
 * The devnet chain's contract as the server, the faucet and the state modules see it: the `Chain`
 * of types.ts plus slot time, blockhash validity, accounts, simulation and the listeners. Made by
 * `createChain` (chain.ts).
 */
import type { SimulationMeta } from '../runtime/simulation-meta.js';
import type { LiteSVM } from 'litesvm';
import type { ParsedTransaction } from '../../solana/index.js';
import type { DevnetKeypair } from './keypair.js';
import type { Chain, Commitment } from '../types.js';

export interface SimulationResult {
  err: unknown | null;
  logs: string[];
  unitsConsumed: number;
  /** Post-simulation accounts for the requested addresses (null when absent). */
  accounts?: (AccountView | null)[];
  /** Fee, balances, return data, inner instructions… (runtime/simulation-meta.ts); absent when LiteSVM never ran it. */
  meta?: SimulationMeta;
}

export interface AccountView {
  lamports: bigint;
  owner: string;
  data: Uint8Array;
  executable: boolean;
  space: number;
  /** Set only for an account written with an explicit rentEpoch (account-file.ts); else u64::MAX is served. */
  rentEpoch?: bigint;
}

/** What one transaction's submission looks like when it did not execute (not landed). */
export interface DroppedTransaction {
  signature: string;
  reason: string;
}

/** The chain plus the knobs the server and state modules need. */
export interface DevnetChain extends Chain {
  readonly svm: LiteSVM;
  readonly faucet: DevnetKeypair;
  readonly genesisHash: string;
  readonly finalizeSlots: number;
  slotMs(): number;
  setSlotMs(ms: number): void;
  slotAt(commitment: Commitment): number;
  /** Unix time (s) the slot started; null for unknown slots. */
  blockTime(slot: number): number | null;
  /** Block height after which `blockhash` is no longer accepted, or null when unknown/expired. */
  lastValidBlockHeight(blockhash: string): number | null;
  isBlockhashValid(blockhash: string): boolean;
  account(address: string): AccountView | null;
  minimumBalanceForRentExemption(dataLen: number): bigint;
  simulate(wire: Uint8Array, opts?: { sigVerify?: boolean; replaceRecentBlockhash?: boolean; accounts?: string[] }): SimulationResult;
  /** Compute-unit prices (µlamports) of executed transactions in the last `lookbackSlots` slots,
   * restricted to transactions touching one of `accounts` when given. */
  recentComputeUnitPrices(lookbackSlots: number, accounts?: string[]): number[];
  /** Transactions submitted but not executed yet. */
  pendingCount(): number;
  /** How many executed transactions skipped LiteSVM's own signature check because the verifier
   * thread had already checked them (0 while the thread has not started). */
  preverifiedCount(): number;
  /** Called for submissions that did not land (fee not charged, expired blockhash). */
  onDropped(cb: (d: DroppedTransaction) => void): () => void;
  /** `submit` for bytes already parsed (the `/fast` path parses once to check its rules). */
  submitParsed(wire: Uint8Array, parsed: ParsedTransaction, signature?: string): { signature: string; duplicate: boolean };
  /** Called after every slot (after its batch executed); returns an unsubscribe function. */
  onSlot(cb: (slot: number) => void): () => void;
  /** Advance one slot now (tests; the timer keeps running). */
  tick(): void;
  start(): void;
  stop(): Promise<void>;
}
