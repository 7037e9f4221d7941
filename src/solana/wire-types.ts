/**
 * The shapes of the transaction wire layer: what `compileMessage` takes (instructions, account metas,
 * lookup tables, all web3.js-compatible), the message parts it produces and `encodeMessage` writes,
 * and what `parseTransaction` reads back.
 */
import type { AddressLike } from './address.js';
import type { InstructionLike } from './kit-instructions.js';

/** The largest transaction a validator accepts (IPv6 MTU minus headers). */
export const MAX_TRANSACTION_SIZE = 1232;

export interface AccountMetaInput {
  pubkey: AddressLike;
  isSigner: boolean;
  isWritable: boolean;
}

/** An instruction: same shape as web3.js `TransactionInstruction` (which is accepted as is). */
export interface InstructionInput {
  programId: AddressLike;
  keys: readonly AccountMetaInput[];
  data: Uint8Array;
}

/** An address lookup table: `{ key, addresses }`, or web3.js `AddressLookupTableAccount` (`state.addresses`). */
export type LookupTableInput =
  | { key: AddressLike; addresses: readonly AddressLike[] }
  | { key: AddressLike; state: { addresses: readonly AddressLike[] } };

export type TransactionVersion = 'legacy' | 0;

export interface CompileInput {
  payer: AddressLike;
  /** web3.js-shaped instructions (`TransactionInstruction`) or kit's (`{ programAddress, accounts, data }`). */
  instructions: readonly InstructionLike[];
  /** Base58 text or 32 bytes. */
  recentBlockhash: string | Uint8Array;
  version?: TransactionVersion;
  lookupTables?: readonly LookupTableInput[];
}

/** `CompileInput` with its instructions read into one shape (compile-message.ts does it once). */
export type CompileParts = Omit<CompileInput, 'instructions'> & { instructions: readonly InstructionInput[] };

export interface MessageHeader {
  numRequiredSignatures: number;
  numReadonlySignedAccounts: number;
  numReadonlyUnsignedAccounts: number;
}

export interface CompiledInstruction {
  programIdIndex: number;
  accounts: ArrayLike<number>;
  data: Uint8Array;
}

export interface AddressTableLookup {
  key: Uint8Array;
  writableIndexes: ArrayLike<number>;
  readonlyIndexes: ArrayLike<number>;
}

/** A message as parts; `encodeMessage` writes it, `parseTransaction` reads it. */
export interface MessageParts {
  version: TransactionVersion;
  header: MessageHeader;
  staticKeys: Uint8Array[];
  recentBlockhash: Uint8Array;
  instructions: CompiledInstruction[];
  lookups: AddressTableLookup[];
}

export interface ParsedTransaction {
  signatures: Uint8Array[];
  /** The message bytes (what the signatures sign): a view into the wire bytes. */
  message: Uint8Array;
  parts: MessageParts;
}
