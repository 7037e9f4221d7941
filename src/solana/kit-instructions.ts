/**
 * `@solana/kit` instructions (`{ programAddress, accounts: [{ address, role }], data }`) read as the
 * web3.js-shaped `InstructionInput` the compiler and the journal work on, converted once at the
 * boundary. Detected by shape, never by `instanceof` (kit is not a dependency, see inputs.ts). A
 * kit account meta may carry its signer (`AccountSignerMeta.signer`): those are collected so the
 * caller need not list them again, as kit's own `signTransactionMessageWithSigners` does.
 */
import { InputError } from '../errors/index.js';
import { toAddress, type KitSignerLike } from './inputs.js';
import type { AccountMetaInput, InstructionInput } from './wire-types.js';

/**
 * kit's `AccountRole`: bit 1 says signer, bit 0 writable (`READONLY` 0, `WRITABLE` 1,
 * `READONLY_SIGNER` 2, `WRITABLE_SIGNER` 3).
 */
export type KitAccountRole = 0 | 1 | 2 | 3;

/** A kit account meta (`AccountMeta`, `AccountSignerMeta` or `AccountLookupMeta`) as cairn reads it. */
export interface KitAccountMetaLike {
  readonly address: string;
  readonly role: KitAccountRole;
  /** An `AccountSignerMeta`'s signer: cairn signs with it. */
  readonly signer?: KitSignerLike;
  /** An `AccountLookupMeta`'s table: the caller passes the table's addresses in `lookupTables`. */
  readonly lookupTableAddress?: string;
  readonly addressIndex?: number;
}

/**
 * A kit `Instruction`. `data` is kit's `ReadonlyUint8Array` (a `Uint8Array` at run time); typed
 * loosely so kit's branded and readonly arrays are taken as they are.
 */
export interface KitInstructionLike {
  readonly programAddress: string;
  readonly accounts?: readonly KitAccountMetaLike[];
  readonly data?: { readonly length: number; readonly [index: number]: number };
}

/** An instruction as every cairn entry point takes it: web3.js-shaped or kit's. */
export type InstructionLike = InstructionInput | KitInstructionLike;

/** True for a kit instruction: `programAddress` text and no web3.js `programId`. */
function isKitInstruction(v: unknown): v is KitInstructionLike {
  return v !== null && typeof v === 'object' && typeof (v as { programAddress?: unknown }).programAddress === 'string' && !('programId' in v);
}

const EMPTY = new Uint8Array(0);

/** What a list of instructions of either shape reads as. */
export interface ReadInstructions {
  instructions: InstructionInput[];
  /** Signers carried by kit account metas, once per address. */
  signers: KitSignerLike[];
  /** Lookup tables named by kit lookup metas, with the first account that used each. */
  lookupTables: Map<string, string>;
}

/** One kit instruction as an `InstructionInput`; `field` names it (`instructions[2]`) in errors. */
function fromKitInstruction(ix: KitInstructionLike, field: string, into?: ReadInstructions): InstructionInput {
  const programId = toAddress(ix.programAddress, `${field}.programAddress`);
  const accounts = ix.accounts ?? [];
  if (!Array.isArray(accounts)) throw new InputError(`${field}.accounts`, 'expected an array of account metas ({ address, role })');
  const keys: AccountMetaInput[] = new Array(accounts.length);
  for (let j = 0; j < accounts.length; j++) {
    const a = accounts[j] as KitAccountMetaLike;
    const f = `${field}.accounts[${j}]`;
    if (!a || typeof a !== 'object') throw new InputError(f, 'expected an account meta { address, role }');
    const pubkey = toAddress(a.address, `${f}.address`);
    const role = a.role as unknown;
    if (role !== 0 && role !== 1 && role !== 2 && role !== 3) {
      throw new InputError(`${f}.role`, `expected a kit AccountRole (0 READONLY, 1 WRITABLE, 2 READONLY_SIGNER, 3 WRITABLE_SIGNER), got ${String(role)}`, { got: String(role) });
    }
    keys[j] = { pubkey, isSigner: (role & 2) !== 0, isWritable: (role & 1) !== 0 };
    if (into && a.signer !== undefined && a.signer !== null && !into.signers.some((s) => s.address === a.signer!.address)) into.signers.push(a.signer);
    if (into && typeof a.lookupTableAddress === 'string' && !into.lookupTables.has(a.lookupTableAddress)) into.lookupTables.set(a.lookupTableAddress, `${f}`);
  }
  const d = ix.data;
  let data: Uint8Array;
  if (d === undefined) data = EMPTY;
  else if (d instanceof Uint8Array) data = d;
  else throw new InputError(`${field}.data`, `expected a Uint8Array (kit's ReadonlyUint8Array), got ${d === null ? 'null' : typeof d}`);
  return { programId, keys, data };
}

/**
 * Instructions of either shape as `InstructionInput`s, plus what kit's carried (signers, lookup
 * tables). A list with no kit instruction comes back as it is: the hot path pays one scan.
 */
export function readInstructions(list: readonly InstructionLike[], field: string): ReadInstructions {
  const out: ReadInstructions = { instructions: list as InstructionInput[], signers: [], lookupTables: new Map() };
  if (!Array.isArray(list)) return out;
  let copy: InstructionInput[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const ix = list[i];
    if (isKitInstruction(ix)) (copy ??= list.slice() as InstructionInput[])[i] = fromKitInstruction(ix, `${field}[${i}]`, out);
  }
  if (copy) out.instructions = copy;
  return out;
}

/**
 * Every lookup table a kit lookup meta names must be among `tables`: the compiler needs the table's
 * addresses to index into it, and a kit meta carries only its own.
 */
export function checkKitLookups(read: ReadInstructions, tables: readonly { key: unknown }[] | undefined, field: string): void {
  if (read.lookupTables.size === 0) return;
  const keys = new Set((tables ?? []).map((t, i) => toAddress(t?.key, `${field}[${i}].key`)));
  for (const [table, where] of read.lookupTables) {
    if (!keys.has(table)) {
      throw new InputError(field, `${where} is looked up in table ${table}: pass { key, addresses } of that table in ${field} (kit's fetchAddressesForLookupTables gives them)`, { got: table });
    }
  }
}
