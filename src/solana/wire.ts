/**
 * The transaction wire format, on bytes: compile instructions into a legacy or v0 message with the
 * exact account ordering `@solana/web3.js` 1.98 uses (so the bytes, and therefore the signatures, are
 * identical), write message and signatures into one buffer, and parse wire bytes back into their
 * parts for inspection. No `PublicKey`, no `Buffer` layouts, no re-verification: this is the hot path
 * of every send (see bench/sender.ts).
 *
 * Ordering rules copied from web3.js because the bytes must match:
 * - legacy (`Transaction.compileMessage`): every account meta in instruction order, then program ids;
 *   dedupe with OR-ed flags; stable sort signers first, then writable, then base58 text with an
 *   `en` collator (case-first lower, not byte order!); fee payer moved to the front.
 * - v0 (`MessageV0.compile`): insertion order of a map seeded with the payer, then per instruction the
 *   program id and its accounts; non-signer non-program keys found in lookup tables move to the
 *   tables (writable pass then readonly pass, per table in order); static keys grouped as writable
 *   signers, readonly signers, writable non-signers, readonly non-signers.
 */
import { CairnError, ErrorCodes, InputError } from '../errors.js';
import { addressBytes, encodeAddress, type AddressLike } from './address.js';
import type { Signer } from './signer.js';

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
  instructions: readonly InstructionInput[];
  /** Base58 text or 32 bytes. */
  recentBlockhash: string | Uint8Array;
  version?: TransactionVersion;
  lookupTables?: readonly LookupTableInput[];
}

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

interface KeyMeta {
  text: string;
  bytes: Uint8Array;
  isSigner: boolean;
  isWritable: boolean;
  isInvoked: boolean;
}

// Byte arrays and PublicKey objects get their base58 text computed once.
const textCache = new WeakMap<object, string>();

function keyOf(a: AddressLike, field: string): { text: string; bytes: Uint8Array } {
  if (typeof a === 'string') return { text: a, bytes: addressBytes(a, field) };
  let text = textCache.get(a as object);
  const bytes = addressBytes(a, field);
  if (text === undefined) {
    text = encodeAddress(bytes);
    textCache.set(a as object, text);
  }
  return { text, bytes };
}

// web3.js sorts legacy keys with String#localeCompare(…, 'en', options); a Collator with the same
// locale and options is the same comparison, built once.
const collator = new Intl.Collator('en', {
  localeMatcher: 'best fit',
  usage: 'sort',
  sensitivity: 'variant',
  ignorePunctuation: false,
  numeric: false,
  caseFirst: 'lower',
});

function checkInstructions(instructions: readonly InstructionInput[]): void {
  if (!Array.isArray(instructions)) throw new InputError('instructions', 'expected an array of instructions');
  for (let i = 0; i < instructions.length; i++) {
    const ix = instructions[i];
    if (!ix || typeof ix !== 'object') throw new InputError(`instructions[${i}]`, 'expected an instruction object');
    if (!Array.isArray(ix.keys)) throw new InputError(`instructions[${i}].keys`, 'expected an array of account metas');
    if (!(ix.data instanceof Uint8Array)) throw new InputError(`instructions[${i}].data`, 'expected a Uint8Array');
  }
}

function blockhashBytes(b: string | Uint8Array): Uint8Array {
  // Cached like an address: a bot signs hundreds of transactions per blockhash.
  if (typeof b === 'string') return addressBytes(b, 'recentBlockhash');
  if (b instanceof Uint8Array && b.length === 32) return b;
  throw new InputError('recentBlockhash', 'expected base58 text or 32 bytes');
}

/** Compile instructions into message parts, ordered exactly as web3.js 1.98 orders them. */
export function compileMessage(input: CompileInput): MessageParts {
  checkInstructions(input.instructions);
  const version = input.version ?? 'legacy';
  if (version === 'legacy') {
    if (input.lookupTables && input.lookupTables.length > 0) {
      throw new InputError('lookupTables', 'address lookup tables need a v0 transaction (version: 0)');
    }
    return compileLegacy(input);
  }
  if (version === 0) return compileV0(input);
  throw new InputError('version', `expected 'legacy' or 0, got ${JSON.stringify(version)}`);
}

function compileLegacy(input: CompileInput): MessageParts {
  const payer = keyOf(input.payer, 'payer');
  const ixs = input.instructions;
  const unique: KeyMeta[] = [];
  const index = new Map<string, number>();
  const add = (k: { text: string; bytes: Uint8Array }, isSigner: boolean, isWritable: boolean): void => {
    const at = index.get(k.text);
    if (at === undefined) {
      index.set(k.text, unique.length);
      unique.push({ text: k.text, bytes: k.bytes, isSigner, isWritable, isInvoked: false });
    } else {
      const m = unique[at];
      m.isWritable ||= isWritable;
      m.isSigner ||= isSigner;
    }
  };
  const programs: { text: string; bytes: Uint8Array }[] = [];
  const programSeen = new Set<string>();
  const ixKeys: { text: string }[][] = new Array(ixs.length);
  const ixPrograms: string[] = new Array(ixs.length);
  for (let i = 0; i < ixs.length; i++) {
    const ix = ixs[i];
    const keys = ix.keys;
    const row: { text: string }[] = new Array(keys.length);
    for (let j = 0; j < keys.length; j++) {
      const k = keyOf(keys[j].pubkey, `instructions[${i}].keys[${j}].pubkey`);
      row[j] = k;
      add(k, !!keys[j].isSigner, !!keys[j].isWritable);
    }
    ixKeys[i] = row;
    const p = keyOf(ix.programId, `instructions[${i}].programId`);
    ixPrograms[i] = p.text;
    if (!programSeen.has(p.text)) {
      programSeen.add(p.text);
      programs.push(p);
    }
  }
  for (const p of programs) add(p, false, false);
  unique.sort((x, y) => {
    if (x.isSigner !== y.isSigner) return x.isSigner ? -1 : 1;
    if (x.isWritable !== y.isWritable) return x.isWritable ? -1 : 1;
    return collator.compare(x.text, y.text);
  });
  const payerAt = unique.findIndex((m) => m.text === payer.text);
  if (payerAt > -1) {
    const [m] = unique.splice(payerAt, 1);
    m.isSigner = true;
    m.isWritable = true;
    unique.unshift(m);
  } else {
    unique.unshift({ text: payer.text, bytes: payer.bytes, isSigner: true, isWritable: true, isInvoked: false });
  }
  let numRequiredSignatures = 0;
  let numReadonlySignedAccounts = 0;
  let numReadonlyUnsignedAccounts = 0;
  const signed: KeyMeta[] = [];
  const unsigned: KeyMeta[] = [];
  for (const m of unique) {
    if (m.isSigner) {
      signed.push(m);
      numRequiredSignatures++;
      if (!m.isWritable) numReadonlySignedAccounts++;
    } else {
      unsigned.push(m);
      if (!m.isWritable) numReadonlyUnsignedAccounts++;
    }
  }
  const ordered = signed.concat(unsigned);
  if (ordered.length > 256) throw new InputError('instructions', `too many accounts: ${ordered.length} > 256`);
  const pos = new Map<string, number>();
  for (let i = 0; i < ordered.length; i++) pos.set(ordered[i].text, i);
  const instructions: CompiledInstruction[] = new Array(ixs.length);
  for (let i = 0; i < ixs.length; i++) {
    const row = ixKeys[i];
    const accounts = new Uint8Array(row.length);
    for (let j = 0; j < row.length; j++) accounts[j] = pos.get(row[j].text)!;
    instructions[i] = { programIdIndex: pos.get(ixPrograms[i])!, accounts, data: ixs[i].data };
  }
  return {
    version: 'legacy',
    header: { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts },
    staticKeys: ordered.map((m) => m.bytes),
    recentBlockhash: blockhashBytes(input.recentBlockhash),
    instructions,
    lookups: [],
  };
}

function tableOf(t: LookupTableInput, i: number): { key: Uint8Array; addresses: string[] } {
  if (!t || typeof t !== 'object') throw new InputError(`lookupTables[${i}]`, 'expected { key, addresses }');
  const list = 'addresses' in t ? t.addresses : (t as { state?: { addresses?: readonly AddressLike[] } }).state?.addresses;
  if (!Array.isArray(list)) throw new InputError(`lookupTables[${i}].addresses`, 'expected an array of addresses');
  return {
    key: keyOf(t.key, `lookupTables[${i}].key`).bytes,
    addresses: list.map((a, j) => keyOf(a, `lookupTables[${i}].addresses[${j}]`).text),
  };
}

function compileV0(input: CompileInput): MessageParts {
  const payer = keyOf(input.payer, 'payer');
  const ixs = input.instructions;
  const map = new Map<string, KeyMeta>();
  const meta = (k: { text: string; bytes: Uint8Array }): KeyMeta => {
    let m = map.get(k.text);
    if (m === undefined) {
      m = { text: k.text, bytes: k.bytes, isSigner: false, isWritable: false, isInvoked: false };
      map.set(k.text, m);
    }
    return m;
  };
  const pm = meta(payer);
  pm.isSigner = true;
  pm.isWritable = true;
  const ixKeys: string[][] = new Array(ixs.length);
  const ixPrograms: string[] = new Array(ixs.length);
  for (let i = 0; i < ixs.length; i++) {
    const ix = ixs[i];
    const p = keyOf(ix.programId, `instructions[${i}].programId`);
    meta(p).isInvoked = true;
    ixPrograms[i] = p.text;
    const row: string[] = new Array(ix.keys.length);
    for (let j = 0; j < ix.keys.length; j++) {
      const a = ix.keys[j];
      const k = keyOf(a.pubkey, `instructions[${i}].keys[${j}].pubkey`);
      const m = meta(k);
      m.isSigner ||= !!a.isSigner;
      m.isWritable ||= !!a.isWritable;
      row[j] = k.text;
    }
    ixKeys[i] = row;
  }
  const lookups: AddressTableLookup[] = [];
  const fromTablesW: string[] = [];
  const fromTablesR: string[] = [];
  const tables = input.lookupTables ?? [];
  if (!Array.isArray(tables)) throw new InputError('lookupTables', 'expected an array');
  for (let t = 0; t < tables.length; t++) {
    const table = tableOf(tables[t], t);
    const drain = (writable: boolean, into: string[]): number[] => {
      const idx: number[] = [];
      for (const [text, m] of map) {
        if (m.isSigner || m.isInvoked || m.isWritable !== writable) continue;
        const at = table.addresses.indexOf(text);
        if (at >= 0) {
          if (at >= 256) throw new InputError(`lookupTables[${t}]`, 'lookup table index exceeds 255');
          idx.push(at);
          into.push(text);
          map.delete(text);
        }
      }
      return idx;
    };
    const w = drain(true, fromTablesW);
    const r = drain(false, fromTablesR);
    if (w.length || r.length) lookups.push({ key: table.key, writableIndexes: w, readonlyIndexes: r });
  }
  const ws: KeyMeta[] = [];
  const rs: KeyMeta[] = [];
  const wn: KeyMeta[] = [];
  const rn: KeyMeta[] = [];
  for (const m of map.values()) (m.isSigner ? (m.isWritable ? ws : rs) : m.isWritable ? wn : rn).push(m);
  const ordered = ws.concat(rs, wn, rn);
  if (ordered.length > 256) throw new InputError('instructions', `too many static accounts: ${ordered.length} > 256`);
  const pos = new Map<string, number>();
  let n = 0;
  for (const m of ordered) pos.set(m.text, n++);
  for (const t of fromTablesW) pos.set(t, n++);
  for (const t of fromTablesR) pos.set(t, n++);
  const instructions: CompiledInstruction[] = new Array(ixs.length);
  for (let i = 0; i < ixs.length; i++) {
    const row = ixKeys[i];
    const accounts = new Uint8Array(row.length);
    for (let j = 0; j < row.length; j++) accounts[j] = pos.get(row[j])!;
    instructions[i] = { programIdIndex: pos.get(ixPrograms[i])!, accounts, data: ixs[i].data };
  }
  return {
    version: 0,
    header: {
      numRequiredSignatures: ws.length + rs.length,
      numReadonlySignedAccounts: rs.length,
      numReadonlyUnsignedAccounts: rn.length,
    },
    staticKeys: ordered.map((m) => m.bytes),
    recentBlockhash: blockhashBytes(input.recentBlockhash),
    instructions,
    lookups,
  };
}

function compactLen(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : 3;
}

function writeCompact(buf: Uint8Array, at: number, n: number): number {
  let rem = n;
  for (;;) {
    const elem = rem & 0x7f;
    rem >>= 7;
    if (rem === 0) {
      buf[at++] = elem;
      return at;
    }
    buf[at++] = elem | 0x80;
  }
}

/** Size in bytes of the encoded message. */
export function messageSize(p: MessageParts): number {
  let n = (p.version === 0 ? 1 : 0) + 3 + compactLen(p.staticKeys.length) + 32 * p.staticKeys.length + 32;
  n += compactLen(p.instructions.length);
  for (const ix of p.instructions) {
    n += 1 + compactLen(ix.accounts.length) + ix.accounts.length + compactLen(ix.data.length) + ix.data.length;
  }
  if (p.version === 0) {
    n += compactLen(p.lookups.length);
    for (const l of p.lookups) {
      n += 32 + compactLen(l.writableIndexes.length) + l.writableIndexes.length + compactLen(l.readonlyIndexes.length) + l.readonlyIndexes.length;
    }
  }
  return n;
}

/** Write the message into `buf` at `at`; returns the end offset. */
export function writeMessage(p: MessageParts, buf: Uint8Array, at: number): number {
  if (p.version === 0) buf[at++] = 0x80;
  buf[at++] = p.header.numRequiredSignatures;
  buf[at++] = p.header.numReadonlySignedAccounts;
  buf[at++] = p.header.numReadonlyUnsignedAccounts;
  at = writeCompact(buf, at, p.staticKeys.length);
  for (const k of p.staticKeys) {
    buf.set(k, at);
    at += 32;
  }
  buf.set(p.recentBlockhash, at);
  at += 32;
  at = writeCompact(buf, at, p.instructions.length);
  for (const ix of p.instructions) {
    buf[at++] = ix.programIdIndex;
    at = writeCompact(buf, at, ix.accounts.length);
    for (let i = 0; i < ix.accounts.length; i++) buf[at++] = ix.accounts[i];
    at = writeCompact(buf, at, ix.data.length);
    buf.set(ix.data, at);
    at += ix.data.length;
  }
  if (p.version === 0) {
    at = writeCompact(buf, at, p.lookups.length);
    for (const l of p.lookups) {
      buf.set(l.key, at);
      at += 32;
      at = writeCompact(buf, at, l.writableIndexes.length);
      for (let i = 0; i < l.writableIndexes.length; i++) buf[at++] = l.writableIndexes[i];
      at = writeCompact(buf, at, l.readonlyIndexes.length);
      for (let i = 0; i < l.readonlyIndexes.length; i++) buf[at++] = l.readonlyIndexes[i];
    }
  }
  return at;
}

/** The encoded message bytes. */
export function encodeMessage(p: MessageParts): Uint8Array {
  const out = new Uint8Array(messageSize(p));
  writeMessage(p, out, 0);
  return out;
}

function tooLarge(size: number): CairnError {
  return new CairnError(ErrorCodes.SENDER_INVALID_TRANSACTION, `transaction is ${size} bytes, the limit is ${MAX_TRANSACTION_SIZE}`, {
    context: { size, limit: MAX_TRANSACTION_SIZE },
  });
}

/**
 * Encode and sign in one buffer: compact signature count, the signatures (one per required signer,
 * in key order), the message. Every required signer must be among `signers`.
 *
 * @example
 * const parts = compileMessage({ payer: payer.address, instructions, recentBlockhash });
 * const { wire, signature } = signMessageParts(parts, [payer]);
 */
export function signMessageParts(p: MessageParts, signers: readonly Signer[]): { wire: Uint8Array; message: Uint8Array; signatures: Uint8Array[] } {
  const nSig = p.header.numRequiredSignatures;
  const sigLen = compactLen(nSig) + 64 * nSig;
  const size = sigLen + messageSize(p);
  if (size > MAX_TRANSACTION_SIZE) throw tooLarge(size);
  const wire = new Uint8Array(size);
  const end = writeMessage(p, wire, sigLen);
  const message = wire.subarray(sigLen, end);
  let at = writeCompact(wire, 0, nSig);
  const signatures: Uint8Array[] = new Array(nSig);
  for (let i = 0; i < nSig; i++) {
    const key = p.staticKeys[i];
    let signer: Signer | undefined;
    for (const s of signers) {
      if (bytesEqual(s.publicKey, key)) {
        signer = s;
        break;
      }
    }
    if (!signer) {
      throw new InputError('signers', `missing a signer for required account ${encodeAddress(key)}`, { expected: encodeAddress(key) });
    }
    const sig = signer.sign(message);
    wire.set(sig, at);
    signatures[i] = wire.subarray(at, at + 64);
    at += 64;
  }
  for (const s of signers) {
    let used = false;
    for (let i = 0; i < nSig; i++) if (bytesEqual(s.publicKey, p.staticKeys[i])) used = true;
    if (!used) throw new InputError('signers', `signer ${s.address} is not a required signer of this transaction`);
  }
  return { wire, message, signatures };
}

/** Wire bytes from a message and its signatures (zero-filled where a signature is missing). */
export function serializeTransaction(signatures: readonly (Uint8Array | null)[], message: Uint8Array): Uint8Array {
  const sigLen = compactLen(signatures.length) + 64 * signatures.length;
  const wire = new Uint8Array(sigLen + message.length);
  let at = writeCompact(wire, 0, signatures.length);
  for (const s of signatures) {
    if (s) wire.set(s, at);
    at += 64;
  }
  wire.set(message, at);
  if (wire.length > MAX_TRANSACTION_SIZE) throw tooLarge(wire.length);
  return wire;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function invalid(detail: string, offset: number): CairnError {
  return new CairnError(ErrorCodes.SENDER_INVALID_TRANSACTION, `invalid transaction bytes: ${detail} (at byte ${offset})`, {
    context: { detail, offset },
  });
}

/**
 * Parse wire bytes into signatures, message bytes and message parts. Throws
 * `SENDER_INVALID_TRANSACTION` naming what is wrong and where.
 */
export function parseTransaction(wire: Uint8Array): ParsedTransaction {
  if (!(wire instanceof Uint8Array)) throw new InputError('wire', 'expected a Uint8Array of transaction bytes');
  let at = 0;
  const need = (n: number, what: string): void => {
    if (at + n > wire.length) throw invalid(`truncated ${what}`, at);
  };
  const compact = (what: string): number => {
    let len = 0;
    let size = 0;
    for (;;) {
      need(1, what);
      const elem = wire[at++];
      len |= (elem & 0x7f) << (size * 7);
      size++;
      if ((elem & 0x80) === 0) break;
      if (size >= 3) throw invalid(`bad compact-u16 ${what}`, at);
    }
    return len;
  };
  if (wire.length > MAX_TRANSACTION_SIZE) throw invalid(`${wire.length} bytes exceeds ${MAX_TRANSACTION_SIZE}`, 0);
  const nSig = compact('signature count');
  need(64 * nSig, 'signatures');
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < nSig; i++) {
    signatures.push(wire.subarray(at, at + 64));
    at += 64;
  }
  const msgStart = at;
  need(1, 'message');
  let version: TransactionVersion = 'legacy';
  if (wire[at] & 0x80) {
    const v = wire[at] & 0x7f;
    if (v !== 0) throw invalid(`unsupported message version ${v}`, at);
    version = 0;
    at++;
  }
  need(3, 'header');
  const header = { numRequiredSignatures: wire[at], numReadonlySignedAccounts: wire[at + 1], numReadonlyUnsignedAccounts: wire[at + 2] };
  at += 3;
  if (header.numRequiredSignatures !== nSig) {
    throw invalid(`${nSig} signatures for ${header.numRequiredSignatures} required signers`, msgStart);
  }
  const nKeys = compact('account count');
  need(32 * nKeys, 'account keys');
  const staticKeys: Uint8Array[] = [];
  for (let i = 0; i < nKeys; i++) {
    staticKeys.push(wire.subarray(at, at + 32));
    at += 32;
  }
  if (nKeys < header.numRequiredSignatures) throw invalid('fewer accounts than required signers', at);
  need(32, 'recent blockhash');
  const recentBlockhash = wire.subarray(at, at + 32);
  at += 32;
  const nIx = compact('instruction count');
  const instructions: CompiledInstruction[] = [];
  for (let i = 0; i < nIx; i++) {
    need(1, `instruction ${i}`);
    const programIdIndex = wire[at++];
    const nAcc = compact(`instruction ${i} account count`);
    need(nAcc, `instruction ${i} accounts`);
    const accounts = wire.subarray(at, at + nAcc);
    at += nAcc;
    const nData = compact(`instruction ${i} data length`);
    need(nData, `instruction ${i} data`);
    const data = wire.subarray(at, at + nData);
    at += nData;
    instructions.push({ programIdIndex, accounts, data });
  }
  const lookups: AddressTableLookup[] = [];
  if (version === 0) {
    const nL = compact('lookup count');
    for (let i = 0; i < nL; i++) {
      need(32, `lookup ${i} key`);
      const key = wire.subarray(at, at + 32);
      at += 32;
      const nw = compact(`lookup ${i} writable count`);
      need(nw, `lookup ${i} writable indexes`);
      const writableIndexes = wire.subarray(at, at + nw);
      at += nw;
      const nr = compact(`lookup ${i} readonly count`);
      need(nr, `lookup ${i} readonly indexes`);
      const readonlyIndexes = wire.subarray(at, at + nr);
      at += nr;
      lookups.push({ key, writableIndexes, readonlyIndexes });
    }
  }
  if (at !== wire.length) throw invalid(`${wire.length - at} trailing bytes`, at);
  let total = nKeys;
  for (const l of lookups) total += l.writableIndexes.length + l.readonlyIndexes.length;
  for (let i = 0; i < instructions.length; i++) {
    const ix = instructions[i];
    if (ix.programIdIndex >= nKeys) throw invalid(`instruction ${i} program index ${ix.programIdIndex} is not a static key`, msgStart);
    for (let j = 0; j < ix.accounts.length; j++) {
      if (ix.accounts[j] >= total) throw invalid(`instruction ${i} account index ${ix.accounts[j]} out of range`, msgStart);
    }
  }
  return {
    signatures,
    message: wire.subarray(msgStart, at),
    parts: { version, header, staticKeys, recentBlockhash, instructions, lookups },
  };
}
