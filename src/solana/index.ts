/**
 * The transaction wire format, on bytes — one import for its parts: compile instructions into a
 * legacy or v0 message with web3.js 1.98's exact account ordering (compile-message.ts), write it
 * (encode-message.ts), sign it into one buffer (sign-message.ts), and parse wire bytes back
 * (parse-transaction.ts). Kept because the sender, the devnet and the tests all import from here.
 */
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
