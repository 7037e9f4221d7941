/**
 * The devnet's chain: LiteSVM executes every transaction for real (signatures, fees, rent, program
 * errors, logs) while this module supplies what LiteSVM does not model — a slot clock, batched
 * execution at slot boundaries, commitment levels, and a status cache that never executes a
 * signature twice. Its parts: the slot timer (slot-clock.ts), the blockhash ring
 * (blockhash-ring.ts), the batch executor (transaction-executor.ts), the signature-verifier thread
 * (signature-verifier.ts), the status cache and ledger (status-cache.ts), simulation
 * (simulate-transaction.ts), genesis balances (genesis.ts) and the faucet (faucet.ts).
 */
import { InputError } from '../errors.js';
import { encodeBase58 } from '../solana/base58.js';
import type { ParsedTransaction } from '../solana/wire.js';
import { createBlockhashRing, BLOCKHASH_VALIDITY } from './blockhash-ring.js';
import { decodeAddress } from './decode-address.js';
import type { DevnetChain, DroppedTransaction } from './devnet-chain.js';
import { airdropWire, AUTHORITY_LAMPORTS, FAUCET_LAMPORTS } from './faucet.js';
import { fundAccount, fundAccounts } from './genesis.js';
import { keypairFromSeed } from './keypair.js';
import { innerOf, loadLiteSvm } from './litesvm.js';
import { mulberry32, randomBytes32 } from './mulberry32.js';
import { parseSubmitted } from './parse-submitted.js';
import { createSignatureVerifier, VERIFIER_START_QUEUE, type PendingSubmission, type SignatureVerifier } from './signature-verifier.js';
import { simulateTransaction } from './simulate-transaction.js';
import { checkSlotMs, createSlotClock } from './slot-clock.js';
import { createSlotWaiters } from './slot-waiters.js';
import { createStatusCache } from './status-cache.js';
import { createTransactionExecutor } from './transaction-executor.js';
import type { ExecutedTransaction, LatestBlockhash } from './types.js';

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
  /** Start the slot timer at once (default true). */
  autoStart?: boolean;
  /** Pre-verify signatures on a worker thread under bursts (default true; false keeps the chain on
   * one thread — execution results are the same either way). */
  verifierThread?: boolean;
}

/** Listeners run after the whole batch, and one's bug must not stop the chain. */
function notify<T>(listeners: Iterable<(v: T) => void>, value: T): void {
  for (const cb of listeners) {
    try {
      cb(value);
    } catch {
      /* a listener's bug must not stop the chain */
    }
  }
}

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
  const rand = mulberry32(options.seed ?? (Math.random() * 2 ** 32) >>> 0);

  const { LiteSVM, FailedTransactionMetadata } = loadLiteSvm();
  const svm = new LiteSVM().withBlockhashCheck(false).withTransactionHistory(0n);
  const inner = innerOf(svm);

  // Drawn in this order from the seed: faucet, authority, genesis hash, then the blockhashes.
  const faucet = keypairFromSeed(randomBytes32(rand));
  const authorityKp = keypairFromSeed(randomBytes32(rand));
  fundAccount(svm, faucet.address, FAUCET_LAMPORTS, 'faucet');
  fundAccount(svm, authorityKp.address, AUTHORITY_LAMPORTS, 'authority');
  fundAccounts(svm, options.fundedAccounts ?? []);

  let slot = 0;
  const blockTimes = new Map<number, number>();
  const genesisHash = encodeBase58(randomBytes32(rand));
  const ring = createBlockhashRing(svm, rand);
  blockTimes.set(0, Math.floor(Date.now() / 1000));

  const statuses = createStatusCache(finalizeSlots);
  let queue: PendingSubmission[] = [];
  const txListeners = new Set<(tx: ExecutedTransaction) => void>();
  const dropListeners = new Set<(d: DroppedTransaction) => void>();
  const slotListeners = new Set<(slot: number) => void>();
  const waiters = createSlotWaiters();
  let stopped = false;
  let verifier: SignatureVerifier | null = null;
  if (options.verifierThread !== undefined && typeof options.verifierThread !== 'boolean') {
    throw new InputError('verifierThread', `expected a boolean, got ${JSON.stringify(options.verifierThread)}`);
  }
  const useVerifier = options.verifierThread ?? true;

  const executor = createTransactionExecutor({
    inner,
    FailedTransactionMetadata,
    isBlockhashValid: (bytes) => ring.isValidBytes(bytes, slot),
    drop(p, reason) {
      statuses.forget(p.signature);
      for (const cb of dropListeners) cb({ signature: p.signature, reason });
    },
  });

  const tick = () => {
    if (stopped) return;
    slot++;
    svm.warpToSlot(BigInt(slot));
    ring.advance(slot);
    const blockTime = Math.floor(Date.now() / 1000);
    blockTimes.set(slot, blockTime);
    if (blockTimes.size > 10_000) blockTimes.delete(slot - 10_000);
    const batch = queue;
    queue = [];
    verifier?.executing(slot);
    const executed: ExecutedTransaction[] = [];
    executor.executeBatch(batch, slot, blockTime, (_p, tx) => {
      statuses.executed(tx);
      executed.push(tx);
    });
    // Listeners run after the whole batch so a slow listener never delays execution order.
    for (const tx of executed) notify(txListeners, tx);
    notify(slotListeners, slot);
    waiters.release(slot);
  };

  const clock = createSlotClock(slotMs, tick);

  const lastValidBlockHeight = (hash: string): number | null => ring.lastValidBlockHeight(hash, slot);

  const chain: DevnetChain = {
    svm,
    faucet,
    genesisHash,
    finalizeSlots,
    authority: { address: authorityKp.address, secretKey: authorityKp.secretKey },
    slot: () => slot,
    blockHeight: () => slot,
    slotAt: (c) => Math.max(0, c === 'processed' ? slot : c === 'confirmed' ? slot - 1 : slot - finalizeSlots),
    slotMs: () => clock.slotMs(),
    setSlotMs: (ms) => clock.setSlotMs(ms),
    latestBlockhash: (): LatestBlockhash => ({ blockhash: ring.latest().blockhash, lastValidBlockHeight: slot + BLOCKHASH_VALIDITY }),
    lastValidBlockHeight,
    isBlockhashValid: (h) => lastValidBlockHeight(h) !== null,
    blockTime: (s) => blockTimes.get(s) ?? null,
    submit(wire) {
      return chain.submitParsed(wire, parseSubmitted(wire));
    },
    submitParsed(wire, parsed: ParsedTransaction, signature = encodeBase58(parsed.signatures[0]!)) {
      if (statuses.has(signature)) return { signature, duplicate: true };
      const p: PendingSubmission = { signature, wire, parsed };
      statuses.pending(p);
      queue.push(p);
      // Low traffic (tests, bots) never starts the verifier thread; a burst does.
      if (!verifier && useVerifier && queue.length >= VERIFIER_START_QUEUE && !stopped) verifier = createSignatureVerifier();
      verifier?.submit(p, slot + 1);
      return { signature, duplicate: false };
    },
    status: (signature) => statuses.status(signature, slot),
    transaction: (signature) => statuses.transaction(signature),
    ledger: () => statuses.ledger(),
    balance(address) {
      return BigInt(inner.getBalance(decodeAddress(address, 'address')) ?? 0n);
    },
    account(address) {
      const a = svm.getAccount(address as never);
      if (!a.exists) return null;
      return { lamports: BigInt(a.lamports), owner: a.programAddress, data: a.data, executable: a.executable, space: Number(a.space) };
    },
    minimumBalanceForRentExemption: (len) => svm.minimumBalanceForRentExemption(BigInt(len)),
    airdrop(address, lamports) {
      return chain.submit(airdropWire(faucet, address, lamports, ring.latest().bytes)).signature;
    },
    simulate(wire, opts) {
      const deps = { inner, FailedTransactionMetadata, latestBlockhashBytes: () => ring.latest().bytes, isBlockhashValid: chain.isBlockhashValid, account: chain.account };
      return simulateTransaction(deps, wire, opts);
    },
    recentComputeUnitPrices: (lookbackSlots, accounts) => statuses.recentComputeUnitPrices(slot, lookbackSlots, accounts),
    pendingCount: () => queue.length,
    preverifiedCount: () => executor.preverified(),
    waitForSlot(target, signal) {
      if (slot >= target) return Promise.resolve();
      if (stopped) return Promise.reject(new Error('devnet chain stopped'));
      return waiters.wait(target, signal);
    },
    onTransaction(cb) {
      txListeners.add(cb);
      return () => txListeners.delete(cb);
    },
    onSlot(cb) {
      slotListeners.add(cb);
      return () => slotListeners.delete(cb);
    },
    onDropped(cb) {
      dropListeners.add(cb);
      return () => dropListeners.delete(cb);
    },
    tick,
    start() {
      if (!stopped) clock.start();
    },
    async stop() {
      stopped = true;
      clock.stop();
      const v = verifier;
      verifier = null;
      await v?.close();
      waiters.rejectAll(() => new Error('devnet chain stopped'));
    },
  };
  if (options.autoStart !== false) chain.start();
  return chain;
}
