/**
 * The sender: build, tip, sign, submit through `/fast`, rebroadcast, batched confirmation and an
 * exactly-once journal. `createSender` is the entry point; the rest is exported for callers that
 * want one piece (the byte-exact fast path, wire inspection, the tracker, the journal).
 */
export { createSender } from './send.js';
export type { Sender, SenderConfig, SendOptions, SenderStats } from './core.js';
export type { FleetSender, FleetSenderConfig, FleetStatus } from './fleet/sender.js';
export type { FleetIntent, FleetBundleIntent, FleetBundleTransaction } from './fleet/intents.js';
export type { WorkOptions, WorkSummary } from './fleet/work.js';
export { openPostgresJournal } from './journal/postgres/journal.js';
export type { PostgresJournal, PostgresJournalOptions, PgPoolLike, FleetMetrics, Claim, IntentStatus } from './journal/postgres/journal.js';
export type { SendOutcome, SendManyItem, SendTimings } from './outcome.js';
export type { SendManyOptions } from './send-many.js';
export { MAX_BUNDLE_TRANSACTIONS } from './bundle.js';
export type { BundleOptions, BundleOutcome } from './bundle.js';
export type { WatchStats } from './confirm/watch.js';
export type { ResumeOptions } from './intent/resume.js';
export type { SendInput, InstructionsInput, TransactionInput, WireInput, NonceInput } from './input/prepare.js';
// What `{ transaction }` and `instructions` take besides web3.js's: kit's messages, transactions and instructions.
export type { TransactionLike, Web3TransactionLike, Web3VersionedTransactionLike, KitTransactionMessageLike, KitTransactionLike } from './input/transaction.js';
export type { InstructionLike, KitInstructionLike, KitAccountMetaLike, KitAccountRole } from '../solana/index.js';
export { resolveSenderConfig, DEFAULT_TIP_ACCOUNTS, DEFAULT_MIN_TIP_LAMPORTS, minimumTip } from './config.js';
export type { SenderOptions, ResolvedSenderOptions, TipSetting, CuPriceSetting, CuLimitSetting, PriorityLevel } from './config.js';
export { compileMessage, signMessageParts, serializeTransaction, parseTransaction, encodeMessage, MAX_TRANSACTION_SIZE } from '../solana/index.js';
export type { InstructionInput, AccountMetaInput, LookupTableInput, MessageParts, ParsedTransaction, CompileInput, TransactionVersion } from '../solana/index.js';
export { transferInstruction, computeUnitLimitInstruction, computeUnitPriceInstruction, SYSTEM_PROGRAM, COMPUTE_BUDGET_PROGRAM } from '../solana/index.js';
// Durable nonces: a nonce account per intent (`send({ ..., nonce })`, `enqueue([{ ..., nonce }])`).
export {
  createNonceAccountInstructions,
  initializeNonceInstruction,
  advanceNonceInstruction,
  authorizeNonceInstruction,
  withdrawNonceInstruction,
  parseNonceAccount,
  durableNonceFromBlockhash,
  NONCE_ACCOUNT_LENGTH,
} from '../solana/index.js';
export type { NonceAccountState } from '../solana/index.js';
export { signerFromSecretKey, generateSigner, toSigner, verifySignature } from '../solana/index.js';
export type { Signer, SignerInput, KeySigner } from '../solana/index.js';
// Addresses and signatures typed as kit's, so they go into kit calls without a cast (kit-brands.ts says how).
export { asAddress } from '../solana/index.js';
export type { Address, Signature } from '../solana/index.js';
// What a payer or signer parameter takes, and what backs the sender: cairn's client, a web3.js Connection or a kit Rpc.
export type { AddressInput, PublicKeyLike, SignerLike, KeypairLike, KitSignerLike } from '../solana/index.js';
export type { SenderClientInput } from './client/adapters.js';
export { assertSendable, summarizeWire } from './input/inspect.js';
export type { WireSummary, InspectOptions } from './input/inspect.js';
export { createTracker, MAX_SIGNATURES_PER_STATUS_CALL } from './confirm/tracker.js';
export type { Tracker, TrackRequest, TrackResult, TrackerStats } from './confirm/tracker.js';
export { openJournal, readJournal } from './journal/file/journal.js';
export type { Journal, JournalRecord, IntentView, IntentState } from './journal/file/journal.js';
export type { NonceRef, BundleTransaction, BundleEnd } from './journal/records.js';
export { SenderEvents } from './events.js';
export type { SenderEventMap, SenderEventName } from './events.js';
export { rankSenders, timePing, SENDER_REGIONS } from './client/submit.js';
export type { SenderRpc } from './client/rpc.js';
