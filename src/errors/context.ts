/**
 * What each code's `context` holds, in the style of @solana/kit's `SolanaErrorContext`: one entry per
 * `ErrorCode`, read off the places that throw it. `isCairnError(e, code)` narrows `e.context` to the
 * entry, so `e.context.blockHeight` is typed and a field the code never carries does not compile.
 * An optional field is one that only some throw sites (or only errors rebuilt from a journal) set.
 */
import type { ErrorCode } from './codes.js';

/** Bad caller input: `field` names it (`"retry.retries"`, `"items[3].root"`, …). */
export type InputErrorContext = {
  field: string;
  expected?: string;
  got?: unknown;
};

/** Input over a cap: `limit` is the cap, `got` the size when it is known, `at` where a JSON limit was hit. */
export type InputTooLargeContext = {
  field: string;
  /** The cap (bytes, characters or levels, as the message says). */
  limit: number;
  /** The input's size, when it is known (a stream is left as soon as it passes the cap). */
  got?: number;
  /** The offset in the JSON text where the limit was hit. */
  at?: number;
};

/** An HTTP answer that is a failure, or a request that never got one. */
export type HttpErrorContext = {
  status?: number;
  url?: string;
  method?: string;
  retryAfterMs?: number;
  attempts?: number;
  body?: string;
  /** A failed connection that never carried the request (refused, no such host): nothing was acted on. */
  notSent?: boolean;
};

/** A response that does not match the interface: `path` names where (`result[3].ownership.owner`). */
export type BadResponseContext = {
  url?: string;
  method?: string;
  path?: string;
  detail?: string;
  /** Set by the retry loop: how many attempts were made. */
  attempts?: number;
};

/** A JSON-RPC `error` object the server answered with. */
export type RpcErrorContext = {
  rpcCode: number;
  data?: unknown;
  method?: string;
  status?: number;
  attempts?: number;
};

/** An abort from the caller's signal (or `close()`): `reason` is the signal's reason as text. */
export type AbortContext = {
  reason?: string;
};

/** The call's overall deadline passed; `cause` is the last failure. */
export type DeadlineContext = {
  deadlineMs: number;
  attempts: number;
  url?: string;
  method?: string;
};

/**
 * A state-changing call failed after its request may have reached the service: `findOut` says what
 * learns whether it was acted on; `sent` is true (the request was written before it failed).
 */
export type OutcomeUnknownContext = {
  url?: string;
  method?: string;
  /** The client method or JSON-RPC method, e.g. `mintCompressedNft`. */
  call: string;
  attempts: number;
  findOut: string;
};

/** A mint journal that cannot be used: `path` names it, `id` the intent when one is concerned. */
export type MintJournalContext = {
  path: string;
  id?: string;
  line?: number;
};

/** An API key would have gone over plain http to `host`; `field` names the URL option. */
export type InsecureKeyContext = {
  field: string;
  url: string;
  host: string;
};

/** Fields a sender error carries when it ended an intent: its id, and whether it was read back from the journal. */
export type IntentContext = {
  id?: string;
  fromJournal?: boolean;
};

/** What an error that ended a bundle adds: the place of the transaction it names, and every signature of the bundle. */
export type BundleContext = {
  /** The transaction's place in its bundle. */
  index?: number;
  /** Every signature of the bundle, in order. */
  signatures?: string[];
};

export type TransactionFailedContext = IntentContext & BundleContext & {
  signature: string;
  /** The status `err` (or the simulation's). */
  err: unknown;
  logs?: string[];
  slot?: number;
};

export type BlockhashExpiredContext = IntentContext & BundleContext & {
  /** Absent when the RPC handed out a blockhash already past its window (nothing was signed). */
  signature?: string;
  lastValidBlockHeight: number;
  blockHeight: number;
};

/**
 * Some of a bundle's transactions landed and the others were proven never to (their blockhash
 * expired and a final status read found nothing). A Sender bundle is all or none, so this is the
 * provider breaking its word, or a devnet that runs bundles one transaction at a time: it is
 * reported as it is, and never signed again (what landed would land twice).
 */
export type BundlePartialContext = IntentContext & {
  /** Every signature of the bundle, in order. */
  signatures: string[];
  /** Those that landed, and the slot each landed in (same order). */
  landed: string[];
  slots: number[];
  /** Those proven never to have landed. */
  missing: string[];
  lastValidBlockHeight: number;
  blockHeight: number;
};

export type SenderAbortContext = AbortContext & IntentContext & {
  /** Whether bytes of the intent were submitted: they may still land (and `resume()` finishes it). */
  mayLand?: boolean;
  signature?: string;
  lastValidBlockHeight?: number;
};

export type InvalidTransactionContext = IntentContext & {
  /** `wire` for signed bytes that cannot be sent as they are. */
  field?: string;
  /** The signature slot that is missing or does not verify, and its signer. */
  index?: number;
  signer?: string;
  /** Serialized size and the limit, for a transaction too large. */
  size?: number;
  limit?: number;
  /** What the wire parser found, and at which byte. */
  detail?: string;
  offset?: number;
  /** A durable nonce account that cannot be used (sender/build/nonce.ts), and the authority it is under. */
  account?: string;
  authority?: string;
};

export type MissingTipContext = IntentContext & {
  /** Absent when the sender's own build found the tip short, before signing. */
  signature?: string;
  /** Lamports as decimal text (u64). */
  tipLamports?: string;
  minTipLamports: string;
};

export type MissingCuPriceContext = IntentContext & {
  signature: string;
};

export type RejectedContext = IntentContext & BundleContext & {
  /** What `/fast` answered. */
  host?: string;
  signature?: string;
};

export type JournalContext = IntentContext & {
  /** The CLI argument naming the journal, when `cairn journal` refuses it. */
  field?: string;
  path?: string;
  /** A PostgreSQL journal's table, or the package it needs (`pg`) when that is missing. */
  table?: string;
  package?: string;
  line?: number;
  errno?: string;
};

/**
 * A fenced write refused: the claim this process held on intent `id` lapsed (another may hold it now).
 * A drive that learns of a newer claim before writing anything (sender/fleet/claims.ts, sender/intent/inflight.ts) names no
 * table and no record: `current` is the newer claim's token when it is known.
 */
export type LeaseLostContext = IntentContext & {
  id: string;
  /** The PostgreSQL journal's table, when the journal refused the write. */
  table?: string;
  /** The fencing token the refused write (or the ended drive) carried. */
  fence: number;
  /** The record that was not stored (`sign` for a signature refused before signing). */
  op?: string;
  /** The token of the claim that superseded this one. */
  current?: number;
  signature?: string;
};

/** An intent id offered again with other content than the intent it names (an id is an idempotency key). */
export type IdConflictContext = {
  id: string;
  /** The first differing part, as a field path (`payer`, `instructions[0].data`, `input.wire`, …). */
  field: string;
  /** The same, with a word on how it differs. */
  part: string;
};

export type JournalLockedContext = {
  path: string;
  lockPath: string;
  /** Who holds the lock, when its file can be read. */
  holder?: { pid: number; host: string; since: string };
};

/** A state change the journal could not store: what the sender knows (`state`) and what the journal durably holds (`journalState`). */
export type JournalWriteContext = IntentContext & {
  state?: string;
  journalState?: string;
  signature?: string;
  slot?: number;
  path?: string;
  /** A PostgreSQL journal's table. */
  table?: string;
  errno?: string;
  /** The record's operation, and whether the file was cut back to its last durable byte. */
  op?: string;
  truncated?: boolean;
};

export type SenderClosedContext = {
  /** The journal's path (or a PostgreSQL journal's table), when it is the journal that is closed. */
  path?: string;
  table?: string;
};

export type MintContext = {
  signature: string;
  assetId: string;
};

/** A verdict as the mint's verification reports it (`cairn-solana/merkle`'s `Verdict`). */
export type MintVerificationContext = {
  leaf: { valid: boolean; reason?: string };
  proof: { valid: boolean; reason?: string };
  content: { valid: boolean; reason?: string };
};

export type MintVerifyFailedContext = MintContext & {
  verification: MintVerificationContext;
};

/** How a curve point failed to decode. */
export type PointFailure = 'length' | 'flags' | 'coordinate' | 'not-on-curve' | 'not-in-subgroup';

/** A proof, item or option the Merkle engine cannot use; `field` names it when one part is at fault. */
export type MerkleInputContext = {
  field?: string;
  expected?: string;
  got?: unknown;
  /** For a curve point: why it cannot be used. */
  reason?: PointFailure;
  detail?: string;
};

export type FieldOverflowContext = {
  field: string;
  expected: string;
};

/** A worker died mid-batch (or an error came back from one without a code cairn knows). */
export type WorkerCrashedContext = {
  kind?: string;
  items?: number;
  exitCode?: number;
  error?: string;
};

export type PoolClosedContext = {
  kind?: string;
};

export type KernelUnavailableContext = {
  /** The backend asked for (`native`, `wasm`, `js`) and why it cannot load. */
  backend?: string;
  reason?: string;
  /** The kernel library, when it is not one of cairn's own (`mcl-wasm`). */
  kernel?: string;
};

export type DevnetStartContext = {
  host: string;
  port: number;
};

export type DevnetDependencyContext = {
  /** The package that could not be loaded (`litesvm`, a dependency of it, or its native binding). */
  package: string;
  /** The command that installs it. */
  install: string;
};

export type AirdropContext = {
  signature: string;
};

/** A wait on a stopped devnet chain: `slot` is where the chain stopped, `target` the slot waited for
 * (when the wait began after the stop; waiters pending at the stop all get the same error). */
export type DevnetStoppedContext = {
  slot: number;
  target?: number;
};

/** A broken internal invariant: `invariant` says which. */
export type InternalContext = {
  invariant: string;
};

/** What a subscription may have missed (rpc/subscribe/stream.ts). */
export interface SubscriptionGapContext {
  reason: 'reconnect' | 'overflow';
  lost?: number;
  afterSlot?: number;
  beforeSlot?: number;
}

/** A subscription's buffer filled up. */
export interface SubscriptionOverflowContext {
  bufferSize: number;
}

/** Each code's context. */
export interface CairnErrorContext {
  INPUT_INVALID: InputErrorContext & IntentContext;
  INPUT_TOO_LARGE: InputTooLargeContext;
  RPC_HTTP: HttpErrorContext;
  RPC_UNAUTHORIZED: HttpErrorContext;
  RPC_FORBIDDEN: HttpErrorContext;
  RPC_RATE_LIMITED: HttpErrorContext;
  RPC_SERVER: HttpErrorContext;
  RPC_NETWORK: HttpErrorContext;
  RPC_TIMEOUT: HttpErrorContext;
  RPC_ABORTED: AbortContext;
  RPC_BAD_RESPONSE: BadResponseContext;
  RPC_ID_MISMATCH: BadResponseContext;
  RPC_ERROR: RpcErrorContext;
  RPC_RESPONSE_TOO_LARGE: BadResponseContext;
  RPC_SCHEMA: BadResponseContext;
  RPC_DEADLINE: DeadlineContext;
  RPC_INSECURE_KEY: InsecureKeyContext;
  RPC_OUTCOME_UNKNOWN: OutcomeUnknownContext;
  RPC_SUBSCRIPTION_GAP: SubscriptionGapContext;
  RPC_SUBSCRIPTION_OVERFLOW: SubscriptionOverflowContext;
  SENDER_INVALID_TRANSACTION: InvalidTransactionContext;
  SENDER_MISSING_TIP: MissingTipContext;
  SENDER_MISSING_CU_PRICE: MissingCuPriceContext;
  SENDER_REJECTED: RejectedContext;
  SENDER_TRANSACTION_FAILED: TransactionFailedContext;
  SENDER_BLOCKHASH_EXPIRED: BlockhashExpiredContext;
  SENDER_JOURNAL: JournalContext;
  SENDER_JOURNAL_LOCKED: JournalLockedContext;
  SENDER_JOURNAL_FAILED: JournalWriteContext;
  SENDER_PENDING: JournalWriteContext;
  SENDER_CLOSED: SenderClosedContext;
  SENDER_LEASE_LOST: LeaseLostContext;
  SENDER_ID_CONFLICT: IdConflictContext;
  SENDER_BUNDLE_PARTIAL: BundlePartialContext;
  SENDER_ABORTED: SenderAbortContext;
  MINT_FAILED: MintContext;
  MINT_VERIFY_FAILED: MintVerifyFailedContext;
  MINT_JOURNAL: MintJournalContext;
  MERKLE_INVALID_INPUT: MerkleInputContext;
  MERKLE_FIELD_OVERFLOW: FieldOverflowContext;
  MERKLE_WORKER_CRASHED: WorkerCrashedContext;
  MERKLE_POOL_CLOSED: PoolClosedContext;
  MERKLE_ABORTED: AbortContext;
  MERKLE_KERNEL_UNAVAILABLE: KernelUnavailableContext;
  DEVNET_START_FAILED: DevnetStartContext;
  DEVNET_DEPENDENCY_MISSING: DevnetDependencyContext;
  DEVNET_INVALID_CONFIG: Record<never, never>;
  DEVNET_AIRDROP_FAILED: AirdropContext;
  DEVNET_STOPPED: DevnetStoppedContext;
  INTERNAL: InternalContext;
}

// Every code has an entry, and nothing else does: a code added to ErrorCodes without one fails here.
type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const everyCodeHasAContext: Exact<keyof CairnErrorContext, ErrorCode> = true;
void everyCodeHasAContext;
