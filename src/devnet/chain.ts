/**
 * The devnet's chain: LiteSVM executes every transaction for real (signatures, fees, rent, program
 * errors, logs) while this module supplies what LiteSVM does not model — a slot clock, a ring of
 * recent blockhashes honouring the 150-block validity window, batched execution at slot boundaries,
 * commitment levels, and a status cache that never executes a signature twice.
 *
 * Why the ring: LiteSVM knows only its latest blockhash (one `expireBlockhash()` and the previous one
 * fails with `BlockhashNotFound`), so it runs with `withBlockhashCheck(false)` and the window is
 * enforced here, before execution.
 *
 * Why "not landed": a transaction whose fee payer was not charged (bad signature, unknown fee payer,
 * not enough for the fee, expired blockhash) is never included in a block on a real cluster. Such a
 * transaction gets no status and no ledger entry; rebroadcasting the same bytes later may still land.
 *
 * Why a worker thread: signature checks are most of LiteSVM's cost per transfer and need no chain
 * state, so under a burst a second LiteSVM pre-verifies queued transactions off the main thread (see
 * `createSignatureVerifier`); execution itself stays here, in order, at the slot boundary.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { base58TooLong } from '../base58-bound.js';
import type { LiteSVM, FailedTransactionMetadata as FailedTx } from 'litesvm';
import { CairnError, InputError } from '../errors.js';
import { address58, base58Bytes, encodeBase58 } from '../solana/base58.js';
import { isComputeBudgetProgram } from '../solana/fast-rules.js';
import { transferInstruction } from '../solana/instructions.js';
import { signerFromSecretKey } from '../solana/signer.js';
import { compileMessage, parseTransaction, signMessageParts, type ParsedTransaction } from '../solana/wire.js';
import type { Chain, Commitment, ExecutedTransaction, LatestBlockhash, SignatureStatus } from './types.js';

/** Slots between a transaction's slot and its `finalized` status. A real cluster needs ~32; the
 * devnet uses 3 so that tests and bots see finality within ~1.2 s at the default 400 ms slot. */
export const DEFAULT_FINALIZE_SLOTS = 3;
/** A blockhash is valid for this many blocks after the one that produced it (as on mainnet). */
export const BLOCKHASH_VALIDITY = 150;

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';

// ---------------------------------------------------------------------------------------------
// Wire format: the solana layer's parser, with the service's own refusals

/**
 * Parse signed wire bytes (legacy or v0) with the solana layer's parser (solana/wire.ts), so the
 * devnet accepts exactly what cairn builds and checks. Throws `InputError` (field `transaction`) on
 * anything malformed, with the parser's detail and byte offset; never reads past the buffer.
 *
 * @example
 * const tx = parseSubmitted(Buffer.from(base64, 'base64'));
 * encodeBase58(tx.signatures[0]); // the transaction's signature
 */
export function parseSubmitted(bytes: Uint8Array): ParsedTransaction {
  if (!(bytes instanceof Uint8Array)) throw new InputError('transaction', 'expected bytes');
  let parsed: ParsedTransaction;
  try {
    parsed = parseTransaction(bytes);
  } catch (e) {
    const detail = e instanceof CairnError && typeof e.context.detail === 'string' ? `${e.context.detail} at byte ${String(e.context.offset)}` : (e as Error).message;
    throw new InputError('transaction', detail, { cause: e });
  }
  // The parser takes a message nobody signed; the service does not.
  if (parsed.signatures.length === 0) throw new InputError('transaction', 'has no signatures');
  return parsed;
}

/**
 * Compute-budget settings of a transaction (price in µlamports/CU, or null), for its fee. Read as the
 * runtime charges (a longer instruction still sets it), not by the `/fast` policy of
 * solana/fast-rules.ts, which wants the exact layout.
 */
export function computeBudgetOf(tx: ParsedTransaction): { unitPrice: bigint | null; unitLimit: number | null } {
  let unitPrice: bigint | null = null;
  let unitLimit: number | null = null;
  const keys = tx.parts.staticKeys;
  for (const ix of tx.parts.instructions) {
    const program = keys[ix.programIdIndex];
    if (!program || !isComputeBudgetProgram(program)) continue;
    const d = ix.data;
    if (d[0] === 3 && d.length >= 9) {
      unitPrice = new DataView(d.buffer, d.byteOffset + 1, 8).getBigUint64(0, true);
    } else if (d[0] === 2 && d.length >= 5) {
      unitLimit = new DataView(d.buffer, d.byteOffset + 1, 4).getUint32(0, true);
    }
  }
  return { unitPrice, unitLimit };
}

/** Whether key `index` of the message is writable (legacy rules over the static keys). */
export function isWritableIndex(tx: ParsedTransaction, index: number): boolean {
  const h = tx.parts.header;
  if (index < h.numRequiredSignatures) return index < h.numRequiredSignatures - h.numReadonlySignedAccounts;
  return index < tx.parts.staticKeys.length - h.numReadonlyUnsignedAccounts;
}

// ---------------------------------------------------------------------------------------------
// Transaction errors, in the JSON shape the RPC reports in `err`

const TX_ERRORS = [
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound', 'InsufficientFundsForFee',
  'InvalidAccountForFee', 'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep', 'MissingSignatureForFee',
  'InvalidAccountIndex', 'SignatureFailure', 'InvalidProgramForExecution', 'SanitizeFailure', 'ClusterMaintenance',
  'AccountBorrowOutstanding', 'WouldExceedMaxBlockCostLimit', 'UnsupportedVersion', 'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit', 'WouldExceedAccountDataBlockLimit', 'TooManyAccountLocks',
  'AddressLookupTableNotFound', 'InvalidAddressLookupTableOwner', 'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex', 'InvalidRentPayingAccount', 'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit', 'MaxLoadedAccountsDataSizeExceeded', 'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit', 'UnbalancedTransaction', 'ProgramCacheHitMaxLimit', 'CommitCancelled',
];
const IX_ERRORS = [
  'GenericError', 'InvalidArgument', 'InvalidInstructionData', 'InvalidAccountData', 'AccountDataTooSmall',
  'InsufficientFunds', 'IncorrectProgramId', 'MissingRequiredSignature', 'AccountAlreadyInitialized',
  'UninitializedAccount', 'UnbalancedInstruction', 'ModifiedProgramId', 'ExternalAccountLamportSpend',
  'ExternalAccountDataModified', 'ReadonlyLamportChange', 'ReadonlyDataModified', 'DuplicateAccountIndex',
  'ExecutableModified', 'RentEpochModified', 'NotEnoughAccountKeys', 'AccountDataSizeChanged',
  'AccountNotExecutable', 'AccountBorrowFailed', 'AccountBorrowOutstanding', 'DuplicateAccountOutOfSync',
  'InvalidError', 'ExecutableDataModified', 'ExecutableLamportChange', 'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId', 'CallDepth', 'MissingAccount', 'ReentrancyNotAllowed', 'MaxSeedLengthExceeded',
  'InvalidSeeds', 'InvalidRealloc', 'ComputationalBudgetExceeded', 'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure', 'ProgramFailedToComplete', 'ProgramFailedToCompile', 'Immutable',
  'IncorrectAuthority', 'AccountNotRentExempt', 'InvalidAccountOwner', 'ArithmeticOverflow', 'UnsupportedSysvar',
  'IllegalOwner', 'MaxAccountsDataAllocationsExceeded', 'MaxAccountsExceeded', 'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits', 'BorshIoError',
];

/** Convert LiteSVM's error object into the RPC's JSON `err` (`"AlreadyProcessed"`,
 * `{"InstructionError":[0,{"Custom":1}]}`, `{"InsufficientFundsForRent":{"account_index":1}}`). */
export function txErrorToJson(e: unknown): unknown {
  if (typeof e === 'number') return TX_ERRORS[e] ?? `Unknown(${e})`;
  const o = e as { constructor?: { name?: string }; index?: number; accountIndex?: number; err?: () => unknown };
  const name = o?.constructor?.name ?? '';
  if (name.endsWith('InstructionError') && typeof o.err === 'function') {
    const inner = o.err() as unknown;
    let ie: unknown;
    if (typeof inner === 'number') ie = IX_ERRORS[inner] ?? `Unknown(${inner})`;
    else if (inner && typeof (inner as { code?: unknown }).code === 'number') ie = { Custom: (inner as { code: number }).code };
    else if (inner && typeof (inner as { msg?: unknown }).msg === 'string') ie = { BorshIoError: (inner as { msg: string }).msg };
    else ie = String(inner);
    return { InstructionError: [o.index, ie] };
  }
  if (name.endsWith('DuplicateInstruction')) return { DuplicateInstruction: o.index };
  if (name.endsWith('InsufficientFundsForRent')) return { InsufficientFundsForRent: { account_index: o.accountIndex } };
  if (name.endsWith('ProgramExecutionTemporarilyRestricted')) {
    return { ProgramExecutionTemporarilyRestricted: { account_index: o.accountIndex } };
  }
  return String(e);
}

// ---------------------------------------------------------------------------------------------
// Signing helpers (the devnet's own faucet and authority sign with the solana layer's signer)

export interface DevnetKeypair {
  address: string;
  publicKey: Uint8Array;
  /** 64 bytes: seed ‖ public key (the Solana CLI layout). */
  secretKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

/** A keypair from a 32-byte seed, made by the solana layer's signer (the sender's). */
export function keypairFromSeed(seed: Uint8Array): DevnetKeypair {
  if (seed.length !== 32) throw new InputError('seed', `expected 32 bytes, got ${seed.length}`);
  const signer = signerFromSecretKey(seed, 'seed');
  return {
    address: signer.address,
    publicKey: signer.publicKey,
    secretKey: signer.secretKey(),
    // A plain Uint8Array, as before (node:crypto answers a Buffer).
    sign: (m) => new Uint8Array(signer.sign(m)),
  };
}

/** A signed legacy System transfer (the devnet's airdrops), built and signed as the sender builds. */
export function buildTransferWire(from: DevnetKeypair, to: Uint8Array, lamports: bigint, blockhash: Uint8Array): Uint8Array {
  const parts = compileMessage({ payer: from.publicKey, instructions: [transferInstruction(from.publicKey, to, lamports)], recentBlockhash: blockhash });
  return signMessageParts(parts, [from]).wire;
}

// ---------------------------------------------------------------------------------------------
// The chain

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

export interface SimulationResult {
  err: unknown | null;
  logs: string[];
  unitsConsumed: number;
  /** Post-simulation accounts for the requested addresses (null when absent). */
  accounts?: (AccountView | null)[];
}

export interface AccountView {
  lamports: bigint;
  owner: string;
  data: Uint8Array;
  executable: boolean;
  space: number;
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

interface Pending {
  signature: string;
  wire: Uint8Array;
  parsed: ParsedTransaction;
  /** Set once the verifier thread has checked every signature and found them valid. */
  verified?: boolean;
}

/** Pending submissions in one slot before the signature-verifier thread is started. */
export const VERIFIER_START_QUEUE = 32;
/** Most transactions in one message to the verifier thread, and the longest a batch waits to fill. */
const VERIFIER_BATCH = 64;
const VERIFIER_WAIT_MS = 5;

/**
 * Signature pre-verification on a worker thread. Ed25519 verification is ~85% of what LiteSVM
 * spends on a plain transfer (0.10 of 0.12 ms here; 0.015 ms with sigverify off), and it needs no
 * chain state, so a second LiteSVM on another thread checks the signatures of queued transactions
 * while the main thread serves HTTP. Its verdict is only ever used one way: a transaction it found
 * valid executes with LiteSVM's own sigverify turned off; everything else (found invalid, verdict
 * not back yet, verifier failed) executes with sigverify on, exactly as without the verifier. The
 * verifier runs the same LiteSVM code (sanitize, then verify, then account loading), so a
 * simulation that fails only at account loading (`AccountNotFound`, the fee payer unknown to its
 * empty bank) or succeeds has passed verification.
 */
const VERIFIER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { LiteSVM, FailedTransactionMetadata } = require(workerData.litesvm);
const inner = new LiteSVM().withBlockhashCheck(false).withTransactionHistory(0n).inner;
const executing = new Int32Array(workerData.executing);
parentPort.on('message', (m) => {
  const n = m.offsets.length - 1;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    // Behind (a busy machine): the main thread has executed this batch already, verifying inline.
    if (Atomics.load(executing, 0) >= m.due) break;
    const w = m.bytes.subarray(m.offsets[i], m.offsets[i + 1]);
    let r;
    try {
      r = m.versions[i] ? inner.simulateVersionedTransaction(w) : inner.simulateLegacyTransaction(w);
    } catch {
      continue;
    }
    if (!(r instanceof FailedTransactionMetadata) || r.err() === ${2 /* TransactionErrorFieldless.AccountNotFound */}) out[i] = 1;
  }
  parentPort.postMessage({ id: m.id, out }, [out.buffer]);
});
`;

interface SignatureVerifier {
  /** Queue a submission that will execute in slot `due`. */
  submit(p: Pending, due: number): void;
  /** The chain is executing `slot` now: batches due by then are no longer worth verifying. */
  executing(slot: number): void;
  close(): Promise<void>;
}

function createSignatureVerifier(): SignatureVerifier {
  let worker: Worker | null = null;
  // The slot being executed, shared with the verifier so that it skips work the chain no longer needs.
  const executing = new Int32Array(new SharedArrayBuffer(4));
  try {
    // No inherited loader flags (tsx, vitest): the verifier is plain CommonJS and starts faster bare.
    worker = new Worker(VERIFIER_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: { litesvm: createRequire(import.meta.url).resolve('litesvm'), executing: executing.buffer },
    });
  } catch {
    worker = null;
  }
  // A verifier must never keep a process alive or take the chain down with it: unref'd, and any
  // error just ends it (transactions then verify inline, as they always could).
  worker?.unref();
  const inflight = new Map<number, Pending[]>();
  let nextId = 0;
  let batch: Pending[] = [];
  let batchDue = 0;
  let scheduled: NodeJS.Timeout | null = null;
  const end = () => {
    worker = null;
    inflight.clear();
    batch = [];
  };
  worker?.on('error', end);
  worker?.on('exit', end);
  worker?.on('message', (m: { id: number; out: Uint8Array }) => {
    const ps = inflight.get(m.id);
    if (!ps) return;
    inflight.delete(m.id);
    for (let i = 0; i < ps.length; i++) if (m.out[i] === 1) ps[i]!.verified = true;
  });
  // Submissions travel in batches (up to VERIFIER_BATCH, or what VERIFIER_WAIT_MS gathered) in one buffer: a
  // message per transaction would cost the main thread more than the verification it saves.
  const flush = () => {
    if (scheduled) clearTimeout(scheduled);
    scheduled = null;
    const ps = batch;
    batch = [];
    if (!worker || ps.length === 0) return;
    let size = 0;
    for (const p of ps) size += p.wire.length;
    const bytes = new Uint8Array(size);
    const offsets = new Uint32Array(ps.length + 1);
    const versions = new Uint8Array(ps.length);
    let o = 0;
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i]!;
      bytes.set(p.wire, o);
      o += p.wire.length;
      offsets[i + 1] = o;
      versions[i] = p.parsed.parts.version === 'legacy' ? 0 : 1;
    }
    const id = nextId++;
    inflight.set(id, ps);
    worker.postMessage({ id, due: batchDue, bytes, offsets, versions }, [bytes.buffer, offsets.buffer, versions.buffer]);
  };
  return {
    submit(p, due) {
      if (!worker) return;
      if (batch.length && due !== batchDue) flush();
      batchDue = due;
      batch.push(p);
      if (batch.length >= VERIFIER_BATCH) flush();
      else if (!scheduled) {
        scheduled = setTimeout(flush, VERIFIER_WAIT_MS);
        scheduled.unref();
      }
    },
    executing(slot) {
      Atomics.store(executing, 0, slot | 0);
    },
    async close() {
      if (scheduled) clearTimeout(scheduled);
      scheduled = null;
      const w = worker;
      end();
      await w?.terminate();
    },
  };
}

/** mulberry32: a small deterministic PRNG for seeded keys and blockhashes. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomBytes32(rand: () => number): Uint8Array {
  const b = new Uint8Array(32);
  for (let i = 0; i < 32; i++) b[i] = Math.floor(rand() * 256);
  return b;
}

/**
 * litesvm, loaded on first use: it (with @solana/kit behind it) is ~40% of `import 'cairn'` and only
 * the devnet needs it. It is a CommonJS package, so a synchronous require keeps `createChain` sync.
 */
function loadLiteSvm(): typeof import('litesvm') {
  return createRequire(import.meta.url)('litesvm') as typeof import('litesvm');
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
  let slotMs = options.slotMs ?? 400;
  if (!Number.isFinite(slotMs) || slotMs < 1) throw new InputError('slotMs', `expected a number ≥ 1, got ${slotMs}`);
  const finalizeSlots = options.finalizeSlots ?? DEFAULT_FINALIZE_SLOTS;
  const rand = mulberry32(options.seed ?? (Math.random() * 2 ** 32) >>> 0);

  const { LiteSVM, FailedTransactionMetadata } = loadLiteSvm();
  const svm = new LiteSVM().withBlockhashCheck(false).withTransactionHistory(0n);
  // The N-API object behind LiteSVM takes wire bytes directly: skipping kit's decode/encode round
  // trip halves the cost per transaction on the hot path.
  const inner = (svm as unknown as { inner: LiteSvmInner }).inner;

  const faucet = keypairFromSeed(randomBytes32(rand));
  const authorityKp = keypairFromSeed(randomBytes32(rand));
  // Genesis balances are written straight into the accounts: LiteSVM's own airdrop source holds
  // too little for a faucet, and genesis is not a transaction anyway.
  const fund = (address: string, lamports: bigint, field: string) => {
    const key = decodeAddress(address, field);
    const prev = svm.getAccount(address as never);
    svm.setAccount({
      address: address as never,
      lamports: ((prev.exists ? BigInt(prev.lamports) : 0n) + lamports) as never,
      programAddress: (prev.exists ? prev.programAddress : SYSTEM_PROGRAM) as never,
      executable: prev.exists ? prev.executable : false,
      data: prev.exists ? prev.data : new Uint8Array(0),
      space: prev.exists ? prev.space : 0n,
    } as never);
    void key;
  };
  fund(faucet.address, 10n ** 18n, 'faucet');
  fund(authorityKp.address, 10n ** 15n, 'authority');
  (options.fundedAccounts ?? []).forEach((f, i) => {
    if (f === null || typeof f !== 'object') throw new InputError(`fundedAccounts[${i}]`, 'expected { address, lamports }');
    if (typeof f.lamports !== 'bigint' || f.lamports < 0n) {
      throw new InputError(`fundedAccounts[${i}].lamports`, `expected a bigint ≥ 0, got ${String(f.lamports)}`);
    }
    fund(f.address, f.lamports, `fundedAccounts[${i}].address`);
  });

  // The ring: blockhash → the block height that produced it. Pruned to the validity window.
  const blockhashes = new Map<string, { height: number; bytes: Uint8Array }>();
  const heightByHex = new Map<string, number>();
  const hashOrder: string[] = [];
  let slot = 0;
  let latest: { blockhash: string; bytes: Uint8Array } = { blockhash: "", bytes: new Uint8Array(32) };
  const blockTimes = new Map<number, number>();
  const genesisHash = encodeBase58(randomBytes32(rand));

  const newBlockhash = () => {
    // LiteSVM's own blockhash changes too, so that recentBlockhashes/SlotHashes-reading programs see
    // progress; the devnet's hash is its own (seeded) value.
    svm.expireBlockhash();
    const bytes = randomBytes32(rand);
    const blockhash = encodeBase58(bytes);
    blockhashes.set(blockhash, { height: slot, bytes });
    heightByHex.set(Buffer.from(bytes).toString('hex'), slot);
    hashOrder.push(blockhash);
    while (hashOrder.length > BLOCKHASH_VALIDITY + 2) {
      const old = hashOrder.shift()!;
      const e = blockhashes.get(old);
      if (e) heightByHex.delete(Buffer.from(e.bytes).toString('hex'));
      blockhashes.delete(old);
    }
    latest = { blockhash, bytes };
  };
  newBlockhash();
  blockTimes.set(0, Math.floor(Date.now() / 1000));

  const seen = new Map<string, ExecutedTransaction | Pending>();
  const ledger: ExecutedTransaction[] = [];
  let queue: Pending[] = [];
  const txListeners = new Set<(tx: ExecutedTransaction) => void>();
  const dropListeners = new Set<(d: DroppedTransaction) => void>();
  const slotListeners = new Set<(slot: number) => void>();
  const slotWaiters: { slot: number; resolve: () => void; reject: (e: unknown) => void; cleanup: () => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let verifier: SignatureVerifier | null = null;
  let preverified = 0;
  if (options.verifierThread !== undefined && typeof options.verifierThread !== 'boolean') {
    throw new InputError('verifierThread', `expected a boolean, got ${JSON.stringify(options.verifierThread)}`);
  }
  const useVerifier = options.verifierThread ?? true;

  const lastValidBlockHeight = (hash: string): number | null => {
    const e = blockhashes.get(hash);
    if (!e) return null;
    const last = e.height + BLOCKHASH_VALIDITY;
    return slot <= last ? last : null;
  };

  const blockhashValidBytes = (b: Uint8Array): boolean => {
    const h = heightByHex.get(Buffer.from(b.buffer, b.byteOffset, 32).toString('hex'));
    return h !== undefined && slot <= h + BLOCKHASH_VALIDITY;
  };

  const drop = (p: Pending, reason: string) => {
    seen.delete(p.signature);
    for (const cb of dropListeners) cb({ signature: p.signature, reason });
  };

  /**
   * Balances as they stand between two transactions of the batch being executed, by address: a
   * transaction's post-balances are the next one's pre-balances, so a batch of transfers from one
   * payer reads each balance once instead of twice per transaction. Only valid inside one
   * synchronous batch (nothing else can touch the accounts meanwhile); cleared before each batch.
   */
  const balanceCache = new Map<string, number>();
  /** LiteSVM's sigverify switch as last set by execute() (on outside tick()). */
  let sigverifyOn = true;
  const balanceOf = (address: string, key: Uint8Array): number => {
    let b = balanceCache.get(address);
    if (b === undefined) {
      b = Number(inner.getBalance(key) ?? 0n);
      balanceCache.set(address, b);
    }
    return b;
  };

  const execute = (p: Pending, blockTime: number): ExecutedTransaction | null => {
    const d = p.parsed;
    const { header, version } = d.parts;
    if (!blockhashValidBytes(d.parts.recentBlockhash)) {
      drop(p, 'BlockhashNotFound');
      return null;
    }
    const keys = d.parts.staticKeys;
    const n = keys.length;
    const addresses = new Array<string>(n);
    const preBalances = new Array<number>(n);
    for (let k = 0; k < n; k++) {
      addresses[k] = address58(keys[k]!);
      preBalances[k] = balanceOf(addresses[k]!, keys[k]!);
    }
    // Signatures already checked by the verifier thread are not checked twice (see VERIFIER_SOURCE).
    // The switch is flipped only when it changes; tick() turns verification back on at the end.
    if (p.verified === true) preverified++;
    if (p.verified === true ? sigverifyOn : !sigverifyOn) {
      sigverifyOn = !sigverifyOn;
      inner.setSigverify(sigverifyOn);
    }
    const r = version === 'legacy' ? inner.sendLegacyTransaction(p.wire) : inner.sendVersionedTransaction(p.wire);
    // The runtime refuses any lamport change on a read-only account, so only the writable ones (by
    // the message header) are read again.
    const writableSigned = header.numRequiredSignatures - header.numReadonlySignedAccounts;
    const writableUnsignedEnd = n - header.numReadonlyUnsignedAccounts;
    const postBalances = new Array<number>(n);
    for (let k = 0; k < n; k++) {
      if (k < writableSigned || (k >= header.numRequiredSignatures && k < writableUnsignedEnd)) {
        postBalances[k] = Number(inner.getBalance(keys[k]!) ?? 0n);
        balanceCache.set(addresses[k]!, postBalances[k]!);
      } else postBalances[k] = preBalances[k]!;
    }
    // Accounts loaded through address-table lookups are not in `keys`: they may have changed unseen.
    if (d.parts.lookups.length > 0) balanceCache.clear();
    const failed = r instanceof FailedTransactionMetadata;
    const meta = failed ? (r as FailedTx).meta() : (r as unknown as ReturnType<FailedTx['meta']>);
    // Fee payer not charged on a failure: the transaction would never have been in a block.
    if (failed && preBalances[0] === postBalances[0]) {
      drop(p, String(txErrorToJson((r as FailedTx).err())));
      return null;
    }
    const budget = computeBudgetOf(d);
    const unitPrice = budget.unitPrice;
    const tx: ExecutedTransaction = {
      signature: p.signature,
      slot,
      blockTime,
      wire: p.wire,
      accountKeys: addresses,
      err: failed ? txErrorToJson((r as FailedTx).err()) : null,
      logs: meta.logs(),
      // A failed transaction moves nothing but the fee; a successful one's fee follows the runtime's
      // formula (the payer's balance change also holds its transfers).
      fee: failed ? preBalances[0]! - postBalances[0]! : feeOf(d, budget),
      computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      preBalances,
      postBalances,
      computeUnitPrice: unitPrice === null ? 0 : Number(unitPrice),
    };
    return tx;
  };

  const tick = () => {
    if (stopped) return;
    slot++;
    svm.warpToSlot(BigInt(slot));
    newBlockhash();
    const blockTime = Math.floor(Date.now() / 1000);
    blockTimes.set(slot, blockTime);
    if (blockTimes.size > 10_000) blockTimes.delete(slot - 10_000);
    const batch = queue;
    queue = [];
    verifier?.executing(slot);
    balanceCache.clear();
    const executed: ExecutedTransaction[] = [];
    try {
      for (const p of batch) {
        const tx = execute(p, blockTime);
        if (!tx) continue;
        seen.set(p.signature, tx);
        ledger.push(tx);
        executed.push(tx);
      }
    } finally {
      balanceCache.clear();
      if (!sigverifyOn) {
        sigverifyOn = true;
        inner.setSigverify(true);
      }
    }
    // Listeners run after the whole batch so a slow listener never delays execution order.
    for (const tx of executed) {
      for (const cb of txListeners) {
        try {
          cb(tx);
        } catch {
          /* a listener's bug must not stop the chain */
        }
      }
    }
    for (const cb of slotListeners) {
      try {
        cb(slot);
      } catch {
        /* as above */
      }
    }
    for (let i = slotWaiters.length - 1; i >= 0; i--) {
      const w = slotWaiters[i]!;
      if (w.slot <= slot) {
        slotWaiters.splice(i, 1);
        w.cleanup();
        w.resolve();
      }
    }
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      tick();
      schedule();
    }, slotMs);
  };

  const chain: DevnetChain = {
    svm,
    faucet,
    genesisHash,
    finalizeSlots,
    authority: { address: authorityKp.address, secretKey: authorityKp.secretKey },
    slot: () => slot,
    blockHeight: () => slot,
    slotAt: (c) => Math.max(0, c === 'processed' ? slot : c === 'confirmed' ? slot - 1 : slot - finalizeSlots),
    slotMs: () => slotMs,
    setSlotMs(ms) {
      if (!Number.isFinite(ms) || ms < 1) throw new InputError('slotMs', `expected a number ≥ 1, got ${ms}`);
      slotMs = ms;
      if (timer && !stopped) {
        clearTimeout(timer);
        schedule();
      }
    },
    latestBlockhash: (): LatestBlockhash => ({ blockhash: latest.blockhash, lastValidBlockHeight: slot + BLOCKHASH_VALIDITY }),
    lastValidBlockHeight,
    isBlockhashValid: (h) => lastValidBlockHeight(h) !== null,
    blockTime: (s) => blockTimes.get(s) ?? null,
    submit(wire) {
      return chain.submitParsed(wire, parseSubmitted(wire));
    },
    submitParsed(wire, parsed, signature = encodeBase58(parsed.signatures[0]!)) {
      if (seen.has(signature)) return { signature, duplicate: true };
      const p: Pending = { signature, wire, parsed };
      seen.set(signature, p);
      queue.push(p);
      // Low traffic (tests, bots) never starts the verifier thread; a burst does.
      if (!verifier && useVerifier && queue.length >= VERIFIER_START_QUEUE && !stopped) verifier = createSignatureVerifier();
      verifier?.submit(p, slot + 1);
      return { signature, duplicate: false };
    },
    status(signature): SignatureStatus | null {
      const e = seen.get(signature);
      if (!e || !('slot' in e)) return null;
      const age = slot - e.slot;
      const confirmationStatus: Commitment = age >= finalizeSlots ? 'finalized' : age >= 1 ? 'confirmed' : 'processed';
      return { slot: e.slot, confirmations: confirmationStatus === 'finalized' ? null : age, err: e.err, confirmationStatus };
    },
    transaction(signature) {
      const e = seen.get(signature);
      return e && 'slot' in e ? e : null;
    },
    ledger: () => ledger,
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
      if (typeof lamports !== 'bigint' || lamports <= 0n) throw new InputError('lamports', `expected a bigint > 0, got ${String(lamports)}`);
      const to = decodeAddress(address, 'address');
      return chain.submit(buildTransferWire(faucet, to, lamports, latest.bytes)).signature;
    },
    simulate(wire, opts = {}) {
      const d = parseSubmitted(wire);
      let w = wire;
      if (opts.replaceRecentBlockhash) {
        w = Uint8Array.from(wire);
        const off = d.parts.recentBlockhash.byteOffset - wire.byteOffset;
        w.set(latest.bytes, off);
      } else if (!chain.isBlockhashValid(encodeBase58(d.parts.recentBlockhash))) {
        return { err: 'BlockhashNotFound', logs: [], unitsConsumed: 0 };
      }
      const sigVerify = opts.sigVerify ?? true;
      if (!sigVerify) inner.setSigverify(false);
      let r: unknown;
      try {
        r = d.parts.version === 'legacy' ? inner.simulateLegacyTransaction(w) : inner.simulateVersionedTransaction(w);
      } finally {
        if (!sigVerify) inner.setSigverify(true);
      }
      if (r instanceof FailedTransactionMetadata) {
        const m = r.meta();
        return { err: txErrorToJson(r.err()), logs: m.logs(), unitsConsumed: Number(m.computeUnitsConsumed()) };
      }
      const info = r as { meta(): { logs(): string[]; computeUnitsConsumed(): bigint }; postAccounts(): { address: Uint8Array; account(): { lamports(): bigint; data(): Uint8Array; owner(): Uint8Array; executable(): boolean } }[] };
      const m = info.meta();
      const out: SimulationResult = { err: null, logs: m.logs(), unitsConsumed: Number(m.computeUnitsConsumed()) };
      if (opts.accounts) {
        const post = new Map<string, AccountView>();
        for (const pa of info.postAccounts()) {
          const acc = pa.account();
          const data = acc.data();
          post.set(encodeBase58(pa.address), { lamports: acc.lamports(), owner: encodeBase58(acc.owner()), data, executable: acc.executable(), space: data.length });
        }
        out.accounts = opts.accounts.map((a) => post.get(a) ?? chain.account(a));
      }
      return out;
    },
    recentComputeUnitPrices(lookbackSlots, accounts) {
      const from = slot - lookbackSlots;
      const want = accounts && accounts.length ? new Set(accounts) : null;
      const out: number[] = [];
      for (let i = ledger.length - 1; i >= 0; i--) {
        const tx = ledger[i]!;
        if (tx.slot <= from) break;
        if (want && !tx.accountKeys.some((k) => want.has(k))) continue;
        out.push(tx.computeUnitPrice);
      }
      return out;
    },
    pendingCount: () => queue.length,
    preverifiedCount: () => preverified,
    waitForSlot(target, signal) {
      if (slot >= target) return Promise.resolve();
      if (stopped) return Promise.reject(new Error('devnet chain stopped'));
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) {
          reject(signal.reason ?? new Error('aborted'));
          return;
        }
        const onAbort = () => {
          const i = slotWaiters.indexOf(w);
          if (i >= 0) slotWaiters.splice(i, 1);
          reject(signal!.reason ?? new Error('aborted'));
        };
        const w = { slot: target, resolve, reject, cleanup: () => signal?.removeEventListener('abort', onAbort) };
        signal?.addEventListener('abort', onAbort, { once: true });
        slotWaiters.push(w);
      });
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
      if (!timer && !stopped) schedule();
    },
    async stop() {
      stopped = true;
      const v = verifier;
      verifier = null;
      await v?.close();
      if (timer) clearTimeout(timer);
      timer = undefined;
      for (const w of slotWaiters.splice(0)) {
        w.cleanup();
        w.reject(new Error('devnet chain stopped'));
      }
    },
  };
  if (options.autoStart !== false) chain.start();
  return chain;
}

const BUILTIN_PROGRAMS = new Set([
  SYSTEM_PROGRAM,
  COMPUTE_BUDGET_PROGRAM,
  'Vote111111111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
]);

/**
 * The runtime's fee: 5,000 lamports per signature plus ⌈price × limit / 10^6⌉. Without a
 * `setComputeUnitLimit` the limit is 3,000 CU per builtin instruction and 200,000 per other one,
 * capped at 1.4M (Agave's defaults; LiteSVM charges the same, checked on this machine).
 */
export function feeOf(d: ParsedTransaction, budget: { unitPrice: bigint | null; unitLimit: number | null } = computeBudgetOf(d)): number {
  const { unitPrice, unitLimit } = budget;
  let limit = unitLimit;
  if (limit === null) {
    limit = 0;
    for (const ix of d.parts.instructions) {
      const key = d.parts.staticKeys[ix.programIdIndex];
      limit += key && BUILTIN_PROGRAMS.has(address58(key)) ? 3_000 : 200_000;
    }
  }
  limit = Math.min(limit, 1_400_000);
  const prio = unitPrice === null ? 0n : (unitPrice * BigInt(limit) + 999_999n) / 1_000_000n;
  return 5_000 * d.parts.header.numRequiredSignatures + Number(prio);
}

function decodeAddress(address: string, field: string): Uint8Array {
  if (base58TooLong(address, 32)) throw new InputError(field, `expected a 32-byte address, got ${address.length} characters`);
  let b: Uint8Array;
  try {
    b = base58Bytes(address);
  } catch (cause) {
    throw new InputError(field, `not a base58 address: ${JSON.stringify(address)}`, { cause });
  }
  if (b.length !== 32) throw new InputError(field, `expected a 32-byte address, got ${b.length} bytes`);
  return b;
}

interface LiteSvmInner {
  getBalance(address: Uint8Array): bigint | null;
  sendLegacyTransaction(wire: Uint8Array): unknown;
  sendVersionedTransaction(wire: Uint8Array): unknown;
  simulateLegacyTransaction(wire: Uint8Array): unknown;
  simulateVersionedTransaction(wire: Uint8Array): unknown;
  setSigverify(on: boolean): void;
}
