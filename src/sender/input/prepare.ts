/**
 * What a caller may hand a sender (instructions + signers, an unsigned web3.js transaction, or
 * signed wire bytes) and its normalised form: a plan cairn can (re)build and sign, or fixed signed
 * bytes already checked against the `/fast` rules. Validated here, at the boundary.
 */
import { InputError } from '../../errors/index.js';
import {
  isPublicKeyLike,
  toAddress,
  signerFromInput,
  type AddressInput,
  type SignerLike,
  checkKitLookups,
  readInstructions,
  type InstructionLike,
  type Signer,
  type InstructionInput,
  type LookupTableInput,
  type TransactionVersion,
} from '../../solana/index.js';
import { minimumTip, type ResolvedSenderOptions } from '../config.js';
import { assertSendable } from './inspect.js';
import { readTransaction, type TransactionLike } from './transaction.js';

/** Instructions and signers: cairn builds the transaction. */
export interface InstructionsInput {
  /** web3.js-shaped (`TransactionInstruction`) or kit's (`{ programAddress, accounts, data }`), mixed freely. */
  instructions: readonly InstructionLike[];
  /** Fee payer (signs). */
  payer: SignerLike;
  /** Other signers the instructions need (kit account metas that carry a signer need not be repeated here). */
  signers?: readonly SignerLike[];
  version?: TransactionVersion;
  lookupTables?: readonly LookupTableInput[];
  /**
   * Sign with a durable nonce instead of a recent blockhash: the transaction gets AdvanceNonceAccount
   * as its first instruction and the account's nonce value as its blockhash, so its signed bytes stay
   * valid past 150 blocks — until the nonce moves — and any process may rebroadcast them. One nonce
   * account per intent; `authority` signs the advance (a signer, or the address of the payer or of
   * one of `signers`).
   */
  nonce?: NonceInput;
}

/** The nonce account a durable-nonce intent advances, and its authority. */
export interface NonceInput {
  account: AddressInput;
  authority: AddressInput | SignerLike;
}

/**
 * A transaction built elsewhere — a web3.js `Transaction` or `VersionedTransaction`, a kit transaction
 * message or compiled `Transaction`: cairn keeps its instructions, adds what is missing (CU limit, CU
 * price, tip), puts in a fresh blockhash (so it knows the expiry; a kit durable-nonce message keeps
 * its nonce) and signs with `signers`.
 */
export interface TransactionInput {
  transaction: TransactionLike;
  /** Required, but for a kit message whose fee payer and metas carry their signers. */
  signers?: readonly SignerLike[];
  /** Needed to rebuild a v0 message that uses lookup tables. */
  lookupTables?: readonly LookupTableInput[];
}

/** Signed wire bytes: sent as they are, after checking tip and CU price. */
export interface WireInput {
  wire: Uint8Array;
  /** The blockhash's last valid block height, when known (else cairn assumes the longest possible life). */
  lastValidBlockHeight?: number;
}

export type SendInput = InstructionsInput | TransactionInput | WireInput | Uint8Array;

/** A send normalised: either a plan cairn can (re)build and sign, or fixed signed bytes. */
export type Prepared =
  | { kind: 'plan'; payer: string; instructions: InstructionInput[]; version: TransactionVersion; lookupTables: LookupTableInput[]; signers: Signer[]; nonce?: { account: string; authority: string } }
  | { kind: 'wire'; wire: Uint8Array; signature: string; recentBlockhash: string; lastValidBlockHeight?: number };

/** Turn any accepted input into a `Prepared`, validating at the boundary. */
export function prepareInput(input: SendInput, cfg: ResolvedSenderOptions): Prepared {
  if (input instanceof Uint8Array) input = { wire: input };
  if (!input || typeof input !== 'object') throw new InputError('input', 'expected { instructions, payer }, { transaction, signers } or { wire }');
  if ('wire' in input) {
    if (!(input.wire instanceof Uint8Array)) throw new InputError('input.wire', 'expected a Uint8Array');
    const s = assertSendable(input.wire, { tipAccounts: cfg.tipAccounts, minTipLamports: minimumTip(cfg) });
    const lv = input.lastValidBlockHeight;
    if (lv !== undefined && (!Number.isSafeInteger(lv) || lv < 0)) throw new InputError('input.lastValidBlockHeight', 'expected a non-negative integer');
    return { kind: 'wire', wire: input.wire, signature: s.signature, recentBlockhash: s.recentBlockhash, ...(lv !== undefined ? { lastValidBlockHeight: lv } : {}) };
  }
  if ('instructions' in input) {
    if (!Array.isArray(input.instructions) || input.instructions.length === 0) {
      throw new InputError('input.instructions', 'expected a non-empty array of instructions');
    }
    const read = readInstructions(input.instructions, 'input.instructions');
    checkKitLookups(read, input.lookupTables, 'input.lookupTables');
    const payer = signerFromInput(input.payer, 'input.payer');
    const signers = [payer, ...(input.signers ?? []).map((s, i) => signerFromInput(s, `input.signers[${i}]`))];
    // signers kit account metas carry, unless given already
    for (const k of read.signers) if (!signers.some((s) => s.address === k.address)) signers.push(signerFromInput(k, `input.instructions signer ${k.address}`));
    const version = input.version ?? (input.lookupTables?.length ? 0 : 'legacy');
    const nonce = input.nonce === undefined ? undefined : nonceOf(input.nonce, signers);
    return { kind: 'plan', payer: payer.address, instructions: [...read.instructions], version, lookupTables: [...(input.lookupTables ?? [])], signers, ...(nonce ? { nonce } : {}) };
  }
  if ('transaction' in input) return fromTransaction(input);
  throw new InputError('input', 'expected { instructions, payer }, { transaction, signers } or { wire }');
}

/**
 * A nonce input checked: its account an address, its authority a signer (added to `signers`) or the
 * address of one of them. With `signers` undefined (a fleet's `enqueue`, which stores no key) any
 * authority address is taken: the working process must hold its key.
 */
export function nonceOf(n: NonceInput, signers: Signer[] | undefined, field = 'input.nonce'): { account: string; authority: string } {
  if (!n || typeof n !== 'object') throw new InputError(field, 'expected { account, authority }');
  const account = toAddress(n.account, `${field}.account`);
  let authority: string;
  if (typeof n.authority === 'string' || isPublicKeyLike(n.authority)) {
    authority = toAddress(n.authority, `${field}.authority`);
    if (signers && !signers.some((s) => s.address === authority)) {
      throw new InputError(`${field}.authority`, `${authority} signs the nonce advance: pass it as a signer (here, or in signers)`, { got: authority });
    }
  } else {
    const s = signerFromInput(n.authority, `${field}.authority`);
    authority = s.address;
    if (signers && !signers.some((x) => x.address === authority)) signers.push(s);
  }
  return { account, authority };
}

function fromTransaction(input: TransactionInput): Prepared {
  const t = readTransaction(input.transaction, input.signers, input.lookupTables);
  return { kind: 'plan', ...t };
}
