/**
 * Durable nonces: a System-owned account of 80 bytes that holds a "nonce value" a transaction may
 * carry in place of a recent blockhash. Such a transaction stays valid until the nonce moves — its
 * FIRST instruction must be AdvanceNonceAccount, which moves it, so the signed bytes land at most
 * once and, once the nonce moved for any reason, can never land. Same bytes and account metas as
 * web3.js's `SystemProgram.createNonceAccount`/`nonceInitialize`/`nonceAdvance`/`nonceAuthorize`/
 * `nonceWithdraw`, and the same account layout as its `NonceAccount.fromAccountData`.
 */
import { createHash } from 'node:crypto';
import { InputError } from '../errors/index.js';
import { addressBytes, type AddressLike } from './address.js';
import { decodeBase58, encodeBase58 } from './base58.js';
import { SYSTEM_PROGRAM, toU64 } from './instructions.js';
import type { InstructionInput } from './wire-types.js';

/** Size of a nonce account's data. */
export const NONCE_ACCOUNT_LENGTH = 80;
const SYSVAR_RECENT_BLOCKHASHES = 'SysvarRecentB1ockHashes11111111111111111111';
const SYSVAR_RENT = 'SysvarRent111111111111111111111111111111111';

/** System Program instruction indexes (u32 LE, the first four data bytes). */
const SYSTEM_CREATE_ACCOUNT = 0;
export const SYSTEM_ADVANCE_NONCE = 4;
const SYSTEM_WITHDRAW_NONCE = 5;
const SYSTEM_INITIALIZE_NONCE = 6;
const SYSTEM_AUTHORIZE_NONCE = 7;

/** A nonce account's state, read from its 80 bytes. */
export interface NonceAccountState {
  /** 0: legacy (nonce derived from the raw blockhash), 1: current. */
  version: 0 | 1;
  state: 'uninitialized' | 'initialized';
  /** Who may advance, withdraw from or re-authorize it (initialized only). */
  authority?: string;
  /** The durable nonce: what a transaction carries as its `recentBlockhash` (initialized only). */
  nonce?: string;
  /** The fee calculator stored with the nonce (initialized only). */
  lamportsPerSignature?: bigint;
}

function systemData(index: number, extra: number): { data: Uint8Array; view: DataView } {
  const data = new Uint8Array(4 + extra);
  const view = new DataView(data.buffer);
  view.setUint32(0, index, true);
  return { data, view };
}

/**
 * The two instructions that make `nonce` a nonce account: CreateAccount (80 bytes, owned by the
 * System program, `lamports` from `from`; both sign) then InitializeNonceAccount with `authority`.
 * `lamports` should be the rent-exempt minimum for 80 bytes (`getMinimumBalanceForRentExemption(80)`).
 *
 * @example
 * const ixs = createNonceAccountInstructions({ from: payer.address, nonce: nonceKey.address, authority: payer.address, lamports: 1_447_680n });
 */
export function createNonceAccountInstructions(o: {
  from: AddressLike;
  nonce: AddressLike;
  authority: AddressLike;
  lamports: bigint | number;
}): InstructionInput[] {
  const { data, view } = systemData(SYSTEM_CREATE_ACCOUNT, 8 + 8 + 32);
  view.setBigUint64(4, toU64(o.lamports, 'lamports'), true);
  view.setBigUint64(12, BigInt(NONCE_ACCOUNT_LENGTH), true);
  data.set(addressBytes(SYSTEM_PROGRAM, 'owner'), 20);
  const create: InstructionInput = {
    programId: SYSTEM_PROGRAM,
    keys: [
      { pubkey: o.from, isSigner: true, isWritable: true },
      { pubkey: o.nonce, isSigner: true, isWritable: true },
    ],
    data,
  };
  return [create, initializeNonceInstruction(o.nonce, o.authority)];
}

/** InitializeNonceAccount: `nonce` (already 80 bytes, System-owned, rent-exempt) gets `authority`. */
export function initializeNonceInstruction(nonce: AddressLike, authority: AddressLike): InstructionInput {
  const { data } = systemData(SYSTEM_INITIALIZE_NONCE, 32);
  data.set(addressBytes(authority, 'authority'), 4);
  return {
    programId: SYSTEM_PROGRAM,
    keys: [
      { pubkey: nonce, isSigner: false, isWritable: true },
      { pubkey: SYSVAR_RECENT_BLOCKHASHES, isSigner: false, isWritable: false },
      { pubkey: SYSVAR_RENT, isSigner: false, isWritable: false },
    ],
    data,
  };
}

/**
 * AdvanceNonceAccount: moves the nonce to a value derived from the current blockhash. A durable-nonce
 * transaction carries it as its FIRST instruction (the runtime looks there); `authority` signs.
 *
 * @example
 * const ixs = [advanceNonceInstruction(nonceAccount, payer.address), transferInstruction(payer.address, to, 5000n)];
 */
export function advanceNonceInstruction(nonce: AddressLike, authority: AddressLike): InstructionInput {
  return {
    programId: SYSTEM_PROGRAM,
    keys: [
      { pubkey: nonce, isSigner: false, isWritable: true },
      { pubkey: SYSVAR_RECENT_BLOCKHASHES, isSigner: false, isWritable: false },
      { pubkey: authority, isSigner: true, isWritable: false },
    ],
    data: systemData(SYSTEM_ADVANCE_NONCE, 0).data,
  };
}

/** AuthorizeNonceAccount: hand the nonce to `newAuthority`; the current `authority` signs. */
export function authorizeNonceInstruction(nonce: AddressLike, authority: AddressLike, newAuthority: AddressLike): InstructionInput {
  const { data } = systemData(SYSTEM_AUTHORIZE_NONCE, 32);
  data.set(addressBytes(newAuthority, 'newAuthority'), 4);
  return {
    programId: SYSTEM_PROGRAM,
    keys: [
      { pubkey: nonce, isSigner: false, isWritable: true },
      { pubkey: authority, isSigner: true, isWritable: false },
    ],
    data,
  };
}

/** WithdrawNonceAccount: `lamports` to `to` (all of them closes the account); `authority` signs. */
export function withdrawNonceInstruction(nonce: AddressLike, authority: AddressLike, to: AddressLike, lamports: bigint | number): InstructionInput {
  const { data, view } = systemData(SYSTEM_WITHDRAW_NONCE, 8);
  view.setBigUint64(4, toU64(lamports, 'lamports'), true);
  return {
    programId: SYSTEM_PROGRAM,
    keys: [
      { pubkey: nonce, isSigner: false, isWritable: true },
      { pubkey: to, isSigner: false, isWritable: true },
      { pubkey: SYSVAR_RECENT_BLOCKHASHES, isSigner: false, isWritable: false },
      { pubkey: SYSVAR_RENT, isSigner: false, isWritable: false },
      { pubkey: authority, isSigner: true, isWritable: false },
    ],
    data,
  };
}

/**
 * Read a nonce account from its data: 80 bytes, else an `InputError` naming `field` (so is an
 * unknown version or state tag).
 *
 * @example
 * const s = parseNonceAccount(account.data);
 * if (s.state === 'initialized') recentBlockhash = s.nonce;
 */
export function parseNonceAccount(data: Uint8Array, field = 'data'): NonceAccountState {
  if (!(data instanceof Uint8Array)) throw new InputError(field, 'expected bytes');
  if (data.length !== NONCE_ACCOUNT_LENGTH) {
    throw new InputError(field, `expected ${NONCE_ACCOUNT_LENGTH} bytes of a nonce account, got ${data.length}`, { expected: `${NONCE_ACCOUNT_LENGTH} bytes`, got: data.length });
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const version = view.getUint32(0, true);
  const state = view.getUint32(4, true);
  if (version > 1) throw new InputError(field, `expected nonce version 0 or 1, got ${version}`, { got: version });
  if (state > 1) throw new InputError(field, `expected nonce state 0 (uninitialized) or 1 (initialized), got ${state}`, { got: state });
  if (state === 0) return { version: version as 0 | 1, state: 'uninitialized' };
  return {
    version: version as 0 | 1,
    state: 'initialized',
    authority: encodeBase58(data.subarray(8, 40)),
    nonce: encodeBase58(data.subarray(40, 72)),
    lamportsPerSignature: view.getBigUint64(72, true),
  };
}

/**
 * The durable nonce an advance stores at `blockhash` (current-version accounts): SHA-256 of
 * "DURABLE_NONCE" and the blockhash, as the runtime's `DurableNonce::from_blockhash` — so it never
 * equals a real blockhash and a nonce transaction can never pass as a recent-blockhash one.
 */
export function durableNonceFromBlockhash(blockhash: string | Uint8Array): string {
  const bytes = typeof blockhash === 'string' ? decodeBase58(blockhash, 32, 'blockhash') : blockhash;
  if (bytes.length !== 32) throw new InputError('blockhash', `expected 32 bytes, got ${bytes.length}`);
  return encodeBase58(createHash('sha256').update('DURABLE_NONCE').update(bytes).digest());
}

/**
 * The nonce account a message's first instruction advances, when it is a durable-nonce message:
 * that instruction is the System program's AdvanceNonceAccount (data `04 00 00 00`) and names the
 * account first. Works on compiled messages: `keys` are the message's account keys in order.
 */
export function advancedNonceOf(
  instructions: readonly { programIdIndex: number; accounts: ArrayLike<number>; data: Uint8Array }[],
  keys: readonly Uint8Array[],
): { nonceIndex: number; authorityIndex?: number } | undefined {
  const ix = instructions[0];
  if (!ix || ix.data.length < 4 || ix.accounts.length < 1) return undefined;
  const program = keys[ix.programIdIndex];
  if (!program || program.some((b) => b !== 0)) return undefined; // the System program is 32 zero bytes
  if (new DataView(ix.data.buffer, ix.data.byteOffset, 4).getUint32(0, true) !== SYSTEM_ADVANCE_NONCE) return undefined;
  return { nonceIndex: ix.accounts[0]!, ...(ix.accounts.length >= 3 ? { authorityIndex: ix.accounts[2]! } : {}) };
}
