/**
 * The devnet's chain: LiteSVM executes every transaction for real (signatures, fees, rent, program
 * errors, logs) while this module supplies what LiteSVM does not model — a slot clock, batched
 * execution at slot boundaries, commitment levels, and a status cache that never executes a
 * signature twice. This file wires its parts: the genesis state (genesis.ts), the slot and
 * height bookkeeping (slots.ts), the submission queue and its signature-verifier thread
 * (submission-queue.ts), block production (produce-block.ts) over the batch executor
 * (runtime/batch.ts), the slot timer (slot-clock.ts), the status cache and ledger
 * (status-cache.ts), simulation (runtime/simulate.ts) and the faucet (faucet.ts).
 */
import { CairnError, ErrorCodes, InputError } from '../../errors/index.js';
import { encodeBase58, durableNonceFromBlockhash, type ParsedTransaction } from '../../solana/index.js';
import { explicitRentEpochs } from './account-file.js';
import { createChainGenesis, type GenesisAccount, type GenesisProgram } from './genesis.js';
import { createChainSlots } from './slots.js';
import { decodeAddress } from './decode-address.js';
import { storeAdvancedNonce } from '../runtime/durable-nonce.js';
import type { DevnetChain, DroppedTransaction } from './contract.js';
import { airdropWire } from './faucet.js';
import { createListeners } from './listeners.js';
import { parseSubmitted } from './parse-submitted.js';
import { produceBlock } from './produce-block.js';
import { simulateTransaction } from '../runtime/simulate.js';
import { checkSlotMs, createSlotClock } from './slot-clock.js';
import { createSlotWaiters } from './slot-waiters.js';
import { createStatusCache } from './status-cache.js';
import { createSubmissionQueue } from './submission-queue.js';
import { createTransactionExecutor } from '../runtime/batch.js';
import type { ExecutedTransaction } from '../types.js';

/** Slots between a transaction's slot and its `finalized` status. A real cluster needs ~32; the
 * devnet uses 3 so that tests and bots see finality within ~1.2 s at the default 400 ms slot. */
export const DEFAULT_FINALIZE_SLOTS = 3;

export interface ChainOptions {
  /** Slot length in ms (default 400). */
  slotMs?: number;
  /** Slots until `finalized` (default 3). */
  finalizeSlots?: number;
  /** Seeds the devnet's own keys and blockhashes; random when absent. */
  seed?: number;
  fundedAccounts?: { address: string; lamports: bigint }[];
  /** The `/fast` tip accounts to create at genesis, rent-exempt (default: tips.ts' list). */
  tipAccounts?: readonly string[];
  /** Start the slot timer at once (default true). */
  autoStart?: boolean;
  /** Pre-verify signatures on a worker thread under bursts (default true; false keeps the chain on
   * one thread — execution results are the same either way). */
  verifierThread?: boolean;
  /** Accounts written at genesis after the devnet's own (`--account`, a ledger's accounts). */
  accounts?: readonly GenesisAccount[];
  /** BPF programs deployed at genesis (`--bpf-program`). */
  programs?: readonly GenesisProgram[];
  /** A saved ledger to resume: the slot to continue from and the transactions already executed
   * (their statuses and `getTransaction` answers come back; they are not executed again). */
  resume?: { slot: number; transactions: readonly ExecutedTransaction[] };
}

/** What a wait for a slot gets once the chain has stopped (no slot will come): `DEVNET_STOPPED`. */
const chainStopped = (slot: number, target?: number): CairnError =>
  new CairnError(ErrorCodes.DEVNET_STOPPED, target === undefined ? `devnet chain stopped at slot ${slot}` : `devnet chain stopped at slot ${slot}; slot ${target} will not come`, {
    context: target === undefined ? { slot } : { slot, target },
  });

/**
 * Create the devnet chain. The slot timer starts at once unless `autoStart: false`.
 *
 * @example
 * const chain = createChain({ slotMs: 100 });
 * const { signature } = chain.submit(wire);
 * await chain.waitForSlot(chain.slot() + 1);
 * chain.status(signature); // { confirmationStatus: 'processed', … }
 * await chain.stop();
 */
export function createChain(options: ChainOptions = {}): DevnetChain {
  const slotMs = options.slotMs ?? 400;
  checkSlotMs(slotMs);
  const finalizeSlots = options.finalizeSlots ?? DEFAULT_FINALIZE_SLOTS;
  const resumeSlot = options.resume?.slot ?? 0;
  if (!Number.isSafeInteger(resumeSlot) || resumeSlot < 0) throw new InputError('resume.slot', `expected an integer ≥ 0, got ${String(resumeSlot)}`);
  const { svm, inner, FailedTransactionMetadata, faucet, authority, genesisHash, ring } = createChainGenesis({
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.fundedAccounts ? { fundedAccounts: options.fundedAccounts } : {}),
    ...(options.tipAccounts ? { tipAccounts: options.tipAccounts } : {}),
    ...(options.accounts ? { accounts: options.accounts } : {}),
    ...(options.programs ? { programs: options.programs } : {}),
    ...(resumeSlot > 0 ? { resumeSlot } : {}),
  });
  const slots = createChainSlots(svm, ring, finalizeSlots, resumeSlot);
  const rentEpochs = explicitRentEpochs(svm);
  const statuses = createStatusCache(finalizeSlots);
  for (const tx of options.resume?.transactions ?? []) statuses.executed(tx);
  const transactions = createListeners<ExecutedTransaction>();
  const dropped = createListeners<DroppedTransaction>();
  const newSlots = createListeners<number>();
  const waiters = createSlotWaiters();
  let stopped = false;
  if (options.verifierThread !== undefined && typeof options.verifierThread !== 'boolean') {
    throw new InputError('verifierThread', `expected a boolean, got ${JSON.stringify(options.verifierThread)}`);
  }
  const queue = createSubmissionQueue(statuses, options.verifierThread ?? true);
  const executor = createTransactionExecutor({
    inner,
    FailedTransactionMetadata,
    isBlockhashValid: slots.isValidBlockhashBytes,
    drop(p, reason) {
      statuses.forget(p.signature);
      dropped.callEach({ signature: p.signature, reason });
    },
    readAccount(address) {
      const a = svm.getAccount(address as never);
      return a.exists ? { owner: a.programAddress, data: a.data } : null;
    },
    nextDurableNonce: () => durableNonceFromBlockhash(ring.latest().bytes),
    storeNonce: (address, nonce) => storeAdvancedNonce(svm, address, nonce),
    bankBlockhash: () => ring.latest().bytes,
  });
  const tick = (): void => {
    if (!stopped) produceBlock({ slots, queue, executor, statuses, transactions, newSlots, waiters });
  };
  const clock = createSlotClock(slotMs, tick);

  const chain: DevnetChain = {
    svm,
    faucet,
    genesisHash,
    finalizeSlots,
    authority: { address: authority.address, secretKey: authority.secretKey },
    slot: slots.slot,
    blockHeight: slots.blockHeight,
    slotAt: slots.slotAt,
    slotMs: () => clock.slotMs(),
    setSlotMs: (ms) => clock.setSlotMs(ms),
    latestBlockhash: slots.latestBlockhash,
    lastValidBlockHeight: slots.lastValidBlockHeight,
    isBlockhashValid: (h) => slots.lastValidBlockHeight(h) !== null,
    blockTime: slots.blockTime,
    submit: (wire) => chain.submitParsed(wire, parseSubmitted(wire)),
    submitParsed: (wire, parsed: ParsedTransaction, signature = encodeBase58(parsed.signatures[0]!)) => queue.submit(wire, parsed, signature, slots.slot()),
    status: (signature) => statuses.status(signature, slots.slot()),
    transaction: (signature) => statuses.transaction(signature),
    ledger: () => statuses.ledger(),
    balance: (address) => BigInt(inner.getBalance(decodeAddress(address, 'address')) ?? 0n),
    account(address) {
      const a = svm.getAccount(address as never);
      if (!a.exists) return null;
      const rentEpoch = rentEpochs.get(address);
      return {
        lamports: BigInt(a.lamports),
        owner: a.programAddress,
        data: a.data,
        executable: a.executable,
        space: Number(a.space),
        ...(rentEpoch !== undefined ? { rentEpoch } : {}),
      };
    },
    minimumBalanceForRentExemption: (len) => svm.minimumBalanceForRentExemption(BigInt(len)),
    airdrop: (address, lamports) => chain.submit(airdropWire(faucet, address, lamports, ring.latest().bytes)).signature,
    simulate(wire, opts) {
      const deps = {
        inner,
        FailedTransactionMetadata,
        latestBlockhashBytes: () => ring.latest().bytes,
        isBlockhashValid: chain.isBlockhashValid,
        account: chain.account,
        nextDurableNonce: () => durableNonceFromBlockhash(ring.latest().bytes),
      };
      return simulateTransaction(deps, wire, opts);
    },
    recentComputeUnitPrices: (lookbackSlots, accounts) => statuses.recentComputeUnitPrices(slots.slot(), lookbackSlots, accounts),
    pendingCount: () => queue.length,
    preverifiedCount: () => executor.preverified(),
    waitForSlot(target, signal) {
      if (slots.slot() >= target) return Promise.resolve();
      if (stopped) return Promise.reject(chainStopped(slots.slot(), target));
      return waiters.wait(target, signal);
    },
    onTransaction: transactions.add,
    onSlot: newSlots.add,
    onDropped: dropped.add,
    tick,
    start() {
      if (!stopped) clock.start();
    },
    async stop() {
      stopped = true;
      clock.stop();
      await queue.close();
      waiters.rejectAll(() => chainStopped(slots.slot()));
    },
  };
  if (options.autoStart !== false) chain.start();
  return chain;
}
