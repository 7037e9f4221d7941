/**
 * A `{ transaction, signers }` send read into a plan cairn rebuilds and signs: a web3.js `Transaction`
 * (its instructions and fee payer), a web3.js `VersionedTransaction` or a kit compiled `Transaction`
 * (their message decompiled back into instructions), or a kit transaction message (its instructions,
 * fee payer, the signers its metas carry, and a durable-nonce lifetime as the plan's nonce). Each is
 * recognised by shape: neither library is a dependency.
 */
import { InputError } from '../../errors/index.js';
import {
  addressText,
  type AddressLike,
  encodeBase58,
  toAddress,
  signerFromInput,
  type KitSignerLike,
  type SignerLike,
  checkKitLookups,
  readInstructions,
  type KitInstructionLike,
  SYSTEM_PROGRAM,
  type Signer,
  parseTransaction,
  type InstructionInput,
  type LookupTableInput,
  type TransactionVersion,
} from '../../solana/index.js';

/** A web3.js legacy `Transaction`, as cairn reads it. */
export interface Web3TransactionLike {
  readonly instructions: readonly InstructionInput[];
  readonly feePayer?: AddressLike | null | undefined;
}

/** A web3.js `VersionedTransaction` (its message's bytes are what cairn reads). */
export interface Web3VersionedTransactionLike {
  readonly message: { serialize(): Uint8Array };
}

/**
 * A kit transaction message (`createTransactionMessage({ version })` piped through kit's setters):
 * its fee payer may be an address or a signer (`setTransactionMessageFeePayerSigner`); its lifetime
 * is replaced by a fresh blockhash, unless it is a durable nonce (then the nonce is kept).
 */
export interface KitTransactionMessageLike {
  readonly version: 'legacy' | 0 | 1;
  readonly instructions: readonly KitInstructionLike[];
  readonly feePayer?: { readonly address: string };
  readonly lifetimeConstraint?: { readonly blockhash: string } | { readonly nonce: string };
}

/** A kit compiled `Transaction` (`compileTransaction`, `signTransactionMessageWithSigners`): re-signed by cairn. */
export interface KitTransactionLike {
  readonly messageBytes: { readonly length: number; readonly [index: number]: number };
  readonly signatures: Readonly<Record<string, unknown>>;
}

/** Every transaction object `{ transaction, signers }` accepts. */
export type TransactionLike = Web3TransactionLike | Web3VersionedTransactionLike | KitTransactionMessageLike | KitTransactionLike;

/** What a transaction reads as: the plan's parts, before signing. */
export interface ReadTransaction {
  payer: string;
  instructions: InstructionInput[];
  version: TransactionVersion;
  lookupTables: LookupTableInput[];
  signers: Signer[];
  nonce?: { account: string; authority: string };
}

const ADVANCE_NONCE = 4;

function isKitMessage(tx: object): tx is KitTransactionMessageLike {
  return 'version' in tx && Array.isArray((tx as { instructions?: unknown }).instructions) && !('message' in tx);
}

/** Signers given, then those a kit message carries, once per address. */
function signersOf(given: readonly SignerLike[] | undefined, carried: readonly KitSignerLike[]): Signer[] {
  if (given !== undefined && !Array.isArray(given)) throw new InputError('input.signers', 'expected an array of signers');
  const out = (given ?? []).map((s, i) => signerFromInput(s, `input.signers[${i}]`));
  carried.forEach((k, i) => {
    if (!out.some((s) => s.address === k.address)) out.push(signerFromInput(k, `input.transaction signer ${i} (${String(k.address)})`));
  });
  if (out.length === 0) throw new InputError('input.signers', 'expected at least the fee payer');
  return out;
}

/** Read any accepted transaction into a plan's parts, validating at the boundary. */
export function readTransaction(
  tx: TransactionLike,
  given: readonly SignerLike[] | undefined,
  lookupTables: readonly LookupTableInput[] | undefined,
): ReadTransaction {
  if (!tx || typeof tx !== 'object') {
    throw new InputError('input.transaction', 'expected a web3.js Transaction or VersionedTransaction, or a kit transaction message or Transaction');
  }
  if (isKitMessage(tx)) return fromKitMessage(tx, given, lookupTables);
  if ('messageBytes' in tx) {
    const bytes = tx.messageBytes;
    if (!(bytes instanceof Uint8Array)) throw new InputError('input.transaction.messageBytes', 'expected the compiled message bytes (a Uint8Array)');
    return fromMessageBytes(bytes, signersOf(given, []), lookupTables);
  }
  if ('message' in tx && tx.message && typeof tx.message.serialize === 'function') {
    return fromMessageBytes(tx.message.serialize(), signersOf(given, []), lookupTables);
  }
  const legacy = tx as Web3TransactionLike;
  if (Array.isArray(legacy.instructions)) {
    const signers = signersOf(given, []);
    const payer = legacy.feePayer ? addressText(legacy.feePayer, 'transaction.feePayer') : signers[0].address;
    return { payer, instructions: [...legacy.instructions], version: 'legacy', lookupTables: [], signers };
  }
  throw new InputError('input.transaction', 'expected a web3.js Transaction or VersionedTransaction, or a kit transaction message or Transaction');
}

function fromKitMessage(
  m: KitTransactionMessageLike,
  given: readonly SignerLike[] | undefined,
  lookupTables: readonly LookupTableInput[] | undefined,
): ReadTransaction {
  const version = m.version;
  if (version !== 'legacy' && version !== 0) {
    throw new InputError('input.transaction.version', `cairn builds legacy and v0 messages; this kit message is version ${JSON.stringify(version)}`, { got: String(version) });
  }
  const read = readInstructions(m.instructions as readonly KitInstructionLike[], 'input.transaction.instructions');
  checkKitLookups(read, lookupTables, 'input.lookupTables');
  const carried = [...read.signers];
  const fee = m.feePayer;
  let payer: string | undefined;
  if (fee !== undefined) {
    if (!fee || typeof fee !== 'object') throw new InputError('input.transaction.feePayer', 'expected { address } or a kit signer');
    payer = toAddress(fee.address, 'input.transaction.feePayer.address');
    const k = fee as KitSignerLike;
    if (typeof k.signTransactions === 'function' || typeof k.signMessages === 'function' || k.keyPair !== undefined) carried.unshift(k);
  }
  const signers = signersOf(given, carried);
  let instructions = read.instructions;
  let nonce: ReadTransaction['nonce'];
  const life = m.lifetimeConstraint;
  if (life && typeof life === 'object' && 'nonce' in life) {
    // kit put AdvanceNonceAccount first; the sender writes its own from the plan's nonce
    const first = instructions[0];
    const d = first?.data;
    if (!first || addressText(first.programId, 'input.transaction.instructions[0].programAddress') !== SYSTEM_PROGRAM || !d || d.length !== 4 || d[0] !== ADVANCE_NONCE || first.keys.length < 3) {
      throw new InputError('input.transaction.instructions[0]', 'a durable-nonce kit message starts with AdvanceNonceAccount (setTransactionMessageLifetimeUsingDurableNonce puts it there)');
    }
    nonce = { account: addressText(first.keys[0].pubkey, 'input.transaction.instructions[0].accounts[0]'), authority: addressText(first.keys[2].pubkey, 'input.transaction.instructions[0].accounts[2]') };
    if (!signers.some((s) => s.address === nonce!.authority)) {
      throw new InputError('input.signers', `${nonce.authority} signs the nonce advance: pass it as a signer`, { got: nonce.authority });
    }
    instructions = instructions.slice(1);
  }
  return {
    payer: payer ?? signers[0].address,
    instructions: [...instructions],
    version,
    lookupTables: [...(lookupTables ?? [])],
    signers,
    ...(nonce ? { nonce } : {}),
  };
}

/** A compiled message (web3.js's `VersionedMessage.serialize()`, kit's `messageBytes`) decompiled into instructions. */
function fromMessageBytes(msg: Uint8Array, signers: Signer[], lookupTables: readonly LookupTableInput[] | undefined): ReadTransaction {
  const n = (msg[0] & 0x80 ? msg[1] : msg[0]) ?? 0;
  const fake = new Uint8Array(1 + 64 * n + msg.length);
  fake[0] = n; // < 128 signers always fits one compact-u16 byte
  fake.set(msg, 1 + 64 * n);
  const { parts } = parseTransaction(fake);
  const keys: string[] = parts.staticKeys.map((k) => encodeBase58(k));
  const h = parts.header;
  const nStatic = keys.length;
  const writable = (i: number): boolean =>
    (i < h.numRequiredSignatures ? i < h.numRequiredSignatures - h.numReadonlySignedAccounts : i < nStatic - h.numReadonlyUnsignedAccounts);
  const flags = keys.map((_, i) => ({ signer: i < h.numRequiredSignatures, writable: writable(i) }));
  const tables = lookupTables ?? [];
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
  const all = [
    ...keys.map((k, i) => ({ key: k, signer: flags[i].signer, writable: flags[i].writable })),
    ...looked.map((l) => ({ key: l.key, signer: false, writable: l.w })),
  ];
  const instructions: InstructionInput[] = parts.instructions.map((ix) => ({
    programId: keys[ix.programIdIndex],
    keys: Array.from(ix.accounts).map((a) => ({ pubkey: all[a].key, isSigner: all[a].signer, isWritable: all[a].writable })),
    data: new Uint8Array(ix.data),
  }));
  return { payer: keys[0], instructions, version: parts.version, lookupTables: [...tables], signers };
}
