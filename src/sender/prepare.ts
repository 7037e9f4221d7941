/**
 * What a caller may hand a sender (instructions + signers, an unsigned web3.js transaction, or
 * signed wire bytes) and its normalised form: a plan cairn can (re)build and sign, or fixed signed
 * bytes already checked against the `/fast` rules. Validated here, at the boundary.
 */
import { InputError } from '../errors.js';
import { addressText, type AddressLike } from '../solana/address.js';
import { encodeBase58 } from '../solana/base58.js';
import { isPublicKeyLike, toAddress, toSigner, type AddressInput, type SignerLike } from '../solana/inputs.js';
import type { Signer } from '../solana/signer.js';
import { parseTransaction, type InstructionInput, type LookupTableInput, type TransactionVersion } from '../solana/wire.js';
import { minimumTip, type ResolvedSenderOptions } from './config.js';
import { assertSendable } from './inspect.js';

/** Instructions and signers: cairn builds the transaction. */
export interface InstructionsInput {
  instructions: readonly InstructionInput[];
  /** Fee payer (signs). */
  payer: SignerLike;
  /** Other signers the instructions need. */
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
 * An unsigned web3.js `Transaction` or `VersionedTransaction`: cairn keeps its instructions, adds
 * what is missing (CU limit, CU price, tip), puts in a fresh blockhash (so it knows the expiry) and
 * signs with `signers`.
 */
export interface TransactionInput {
  transaction: unknown;
  signers: readonly SignerLike[];
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
    const payer = toSigner(input.payer, 'input.payer');
    const signers = [payer, ...(input.signers ?? []).map((s, i) => toSigner(s, `input.signers[${i}]`))];
    const version = input.version ?? (input.lookupTables?.length ? 0 : 'legacy');
    const nonce = input.nonce === undefined ? undefined : nonceOf(input.nonce, signers);
    return { kind: 'plan', payer: payer.address, instructions: [...input.instructions], version, lookupTables: [...(input.lookupTables ?? [])], signers, ...(nonce ? { nonce } : {}) };
  }
  if ('transaction' in input) return fromWeb3(input);
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
    const s = toSigner(n.authority, `${field}.authority`);
    authority = s.address;
    if (signers && !signers.some((x) => x.address === authority)) signers.push(s);
  }
  return { account, authority };
}

function fromWeb3(input: TransactionInput): Prepared {
  const tx = input.transaction as {
    instructions?: InstructionInput[];
    feePayer?: AddressLike;
    message?: { serialize(): Uint8Array; version?: unknown };
    version?: unknown;
  };
  if (!Array.isArray(input.signers) || input.signers.length === 0) throw new InputError('input.signers', 'expected at least the fee payer');
  const signers = input.signers.map((s, i) => toSigner(s, `input.signers[${i}]`));
  if (tx && Array.isArray(tx.instructions)) {
    // legacy web3.js Transaction
    const payer = tx.feePayer ? addressText(tx.feePayer, 'transaction.feePayer') : signers[0].address;
    return { kind: 'plan', payer, instructions: [...tx.instructions], version: 'legacy', lookupTables: [], signers };
  }
  if (tx && tx.message && typeof tx.message.serialize === 'function') {
    // VersionedTransaction: decompile its message back into instructions
    const msg = tx.message.serialize();
    const n = (msg[0] & 0x80 ? msg[1] : msg[0]) ?? 0;
    const fake = new Uint8Array(1 + 64 * n + msg.length);
    fake[0] = n; // < 128 signers always fits one compact-u16 byte
    fake.set(msg, 1 + 64 * n);
    const { parts } = parseTransaction(fake);
    const keys: string[] = parts.staticKeys.map((k) => encodeBase58(k));
    const h = parts.header;
    const nStatic = keys.length;
    const writable = (i: number): boolean =>
      i < h.numRequiredSignatures ? i < h.numRequiredSignatures - h.numReadonlySignedAccounts : i < nStatic - h.numReadonlyUnsignedAccounts;
    const flags = keys.map((_, i) => ({ signer: i < h.numRequiredSignatures, writable: writable(i) }));
    const tables = input.lookupTables ?? [];
    const looked: { key: string; w: boolean }[] = [];
    const lw: string[] = [];
    const lr: string[] = [];
    for (const l of parts.lookups) {
      const key = encodeBase58(l.key);
      const table = tables.find((t) => addressText(t.key, 'lookupTables[].key') === key);
      if (!table) throw new InputError('input.lookupTables', `the message uses lookup table ${key}; pass its addresses to rebuild it`);
      const addrs = 'addresses' in table ? table.addresses : table.state.addresses;
      for (const i of Array.from(l.writableIndexes)) lw.push(addressText(addrs[i], 'lookup address'));
      for (const i of Array.from(l.readonlyIndexes)) lr.push(addressText(addrs[i], 'lookup address'));
    }
    for (const a of lw) looked.push({ key: a, w: true });
    for (const a of lr) looked.push({ key: a, w: false });
    const all = [...keys.map((k, i) => ({ key: k, signer: flags[i].signer, writable: flags[i].writable })), ...looked.map((l) => ({ key: l.key, signer: false, writable: l.w }))];
    const instructions: InstructionInput[] = parts.instructions.map((ix) => ({
      programId: keys[ix.programIdIndex],
      keys: Array.from(ix.accounts).map((a) => ({ pubkey: all[a].key, isSigner: all[a].signer, isWritable: all[a].writable })),
      data: new Uint8Array(ix.data),
    }));
    return { kind: 'plan', payer: keys[0], instructions, version: parts.version, lookupTables: [...tables], signers };
  }
  throw new InputError('input.transaction', 'expected a web3.js Transaction or VersionedTransaction');
}
