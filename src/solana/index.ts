/**
 * solana/: the Solana wire format once, and what every other part of cairn takes from it (the
 * sender, the devnet, the RPC client, the verifier, mint and the benchmarks import this file, never
 * the files beside it). Re-exports only, by topic: the transaction wire format on bytes (compile
 * instructions into a legacy or v0 message with web3.js 1.98's exact account ordering, write it, sign
 * it into one buffer, parse wire bytes back), addresses and base58, signers, the normalisers of what
 * users pass, the instructions cairn writes itself and durable nonces, the `/fast` rules, the
 * commitment and priority levels, and kit's shapes.
 */
// The wire format.
export { MAX_TRANSACTION_SIZE } from './wire-types.js';
export type {
  AccountMetaInput,
  AddressTableLookup,
  CompiledInstruction,
  CompileInput,
  InstructionInput,
  LookupTableInput,
  MessageHeader,
  MessageParts,
  ParsedTransaction,
  TransactionVersion,
} from './wire-types.js';
export { compileMessage } from './compile-message.js';
export { encodeMessage, messageSize, writeMessage } from './encode-message.js';
export { serializeTransaction, signMessageParts } from './sign-message.js';
export { parseTransaction } from './parse-transaction.js';
export { bytesEqual } from './bytes-equal.js';

// Addresses and base58 (the one base58 of cairn: bs58 is imported in base58.ts only).
export { addressText, encodeAddress, type AddressLike } from './address.js';
export { encodeBase58, base58Bytes, decodeBase58, address58, b58Decode32IntoJs, b58Decode32Bytes } from './base58.js';

// Signers, and what users pass as an address or a signer (web3.js and kit shapes read by shape).
export { generateSigner, signerFromSecretKey, toSigner, verifySignature, type Signer, type SignerInput, type KeySigner } from './signer.js';
export {
  toAddress,
  addressInputs,
  isPublicKeyLike,
  signerFromInput,
  signMessagePartsAsync,
  type AddressInput,
  type AddressInputs,
  type PublicKeyLike,
  type SignerLike,
  type KeypairLike,
  type KitSignerLike,
} from './inputs.js';
export { asAddress, type Address, type Signature } from './kit-brands.js';
export {
  checkKitLookups,
  readInstructions,
  type InstructionLike,
  type KitInstructionLike,
  type KitAccountMetaLike,
  type KitAccountRole,
} from './kit-instructions.js';

// The instructions cairn writes itself, and durable nonces.
export {
  transferInstruction,
  computeUnitLimitInstruction,
  computeUnitPriceInstruction,
  toU64,
  SYSTEM_PROGRAM,
  COMPUTE_BUDGET_PROGRAM,
} from './instructions.js';
export {
  advanceNonceInstruction,
  advancedNonceOf,
  authorizeNonceInstruction,
  createNonceAccountInstructions,
  durableNonceFromBlockhash,
  initializeNonceInstruction,
  parseNonceAccount,
  withdrawNonceInstruction,
  NONCE_ACCOUNT_LENGTH,
  SYSTEM_ADVANCE_NONCE,
  type NonceAccountState,
} from './nonce.js';

// The `/fast` host's rules, and the two enumerations every part speaks.
export {
  readFastRules,
  readFastRulesOfInstructions,
  isComputeBudgetProgram,
  isSystemProgram,
  tipAccountBytes,
  transferLamportsOf,
  type TipAccounts,
} from './fast-rules.js';
export type { Commitment, PriorityLevel } from './commitment.js';
