/**
 * `parseTransaction`: wire bytes back into signatures, message bytes and message parts, for inspection
 * (the sender's `inspect`, the devnet's intake). Every part is a view into the wire bytes; nothing is
 * re-verified. A malformed transaction throws `SENDER_INVALID_TRANSACTION` naming what and where.
 */
import { CairnError, ErrorCodes, InputError } from '../errors/index.js';
import { MAX_TRANSACTION_SIZE, type AddressTableLookup, type CompiledInstruction, type MessageHeader, type ParsedTransaction, type TransactionVersion } from './wire-types.js';

function invalid(detail: string, offset: number): CairnError {
  return new CairnError(ErrorCodes.SENDER_INVALID_TRANSACTION, `invalid transaction bytes: ${detail} (at byte ${offset})`, {
    context: { detail, offset },
  });
}

/** A read position in wire bytes; every read checks the bytes are there first. */
class WireCursor {
  at = 0;
  constructor(readonly wire: Uint8Array) {}

  need(n: number, what: string): void {
    if (this.at + n > this.wire.length) throw invalid(`truncated ${what}`, this.at);
  }

  /** A compact-u16 (shortvec.ts), at most 3 bytes. */
  compact(what: string): number {
    let len = 0;
    let size = 0;
    for (;;) {
      this.need(1, what);
      const elem = this.wire[this.at++]!;
      len |= (elem & 0x7f) << (size * 7);
      size++;
      if ((elem & 0x80) === 0) break;
      if (size >= 3) throw invalid(`bad compact-u16 ${what}`, this.at);
    }
    return len;
  }

  /** `n` bytes, after `need(n, what)`. */
  take(n: number, what: string): Uint8Array {
    this.need(n, what);
    const out = this.wire.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  /** A compact count, then that many bytes (an index list, instruction data). */
  list(count: string, what: string): Uint8Array {
    const n = this.compact(count);
    return this.take(n, what);
  }
}

/**
 * Parse wire bytes into signatures, message bytes and message parts. Throws
 * `SENDER_INVALID_TRANSACTION` naming what is wrong and where.
 *
 * @example
 * const { signatures, parts } = parseTransaction(wire);
 * parts.header.numRequiredSignatures === signatures.length;
 */
export function parseTransaction(wire: Uint8Array): ParsedTransaction {
  if (!(wire instanceof Uint8Array)) throw new InputError('wire', 'expected a Uint8Array of transaction bytes');
  const r = new WireCursor(wire);
  if (wire.length > MAX_TRANSACTION_SIZE) throw invalid(`${wire.length} bytes exceeds ${MAX_TRANSACTION_SIZE}`, 0);
  const nSig = r.compact('signature count');
  r.need(64 * nSig, 'signatures');
  const signatures: Uint8Array[] = [];
  for (let i = 0; i < nSig; i++) signatures.push(r.take(64, 'signatures'));
  const msgStart = r.at;
  const version = readVersion(r);
  const header = readHeader(r, nSig, msgStart);
  const nKeys = r.compact('account count');
  r.need(32 * nKeys, 'account keys');
  const staticKeys: Uint8Array[] = [];
  for (let i = 0; i < nKeys; i++) staticKeys.push(r.take(32, 'account keys'));
  if (nKeys < header.numRequiredSignatures) throw invalid('fewer accounts than required signers', r.at);
  const recentBlockhash = r.take(32, 'recent blockhash');
  const instructions = readInstructions(r);
  const lookups = version === 0 ? readLookups(r) : [];
  if (r.at !== wire.length) throw invalid(`${wire.length - r.at} trailing bytes`, r.at);
  checkIndexes(instructions, lookups, nKeys, msgStart);
  return {
    signatures,
    message: wire.subarray(msgStart, r.at),
    parts: { version, header, staticKeys, recentBlockhash, instructions, lookups },
  };
}

/** A v0 message opens with 0x80 | version; a legacy one with its header. */
function readVersion(r: WireCursor): TransactionVersion {
  r.need(1, 'message');
  const first = r.wire[r.at]!;
  if ((first & 0x80) === 0) return 'legacy';
  const v = first & 0x7f;
  if (v !== 0) throw invalid(`unsupported message version ${v}`, r.at);
  r.at++;
  return 0;
}

function readHeader(r: WireCursor, nSig: number, msgStart: number): MessageHeader {
  r.need(3, 'header');
  const w = r.wire;
  const header = { numRequiredSignatures: w[r.at]!, numReadonlySignedAccounts: w[r.at + 1]!, numReadonlyUnsignedAccounts: w[r.at + 2]! };
  r.at += 3;
  if (header.numRequiredSignatures !== nSig) {
    throw invalid(`${nSig} signatures for ${header.numRequiredSignatures} required signers`, msgStart);
  }
  return header;
}

function readInstructions(r: WireCursor): CompiledInstruction[] {
  const nIx = r.compact('instruction count');
  const instructions: CompiledInstruction[] = [];
  for (let i = 0; i < nIx; i++) {
    r.need(1, `instruction ${i}`);
    const programIdIndex = r.wire[r.at++]!;
    const accounts = r.list(`instruction ${i} account count`, `instruction ${i} accounts`);
    const data = r.list(`instruction ${i} data length`, `instruction ${i} data`);
    instructions.push({ programIdIndex, accounts, data });
  }
  return instructions;
}

function readLookups(r: WireCursor): AddressTableLookup[] {
  const nL = r.compact('lookup count');
  const lookups: AddressTableLookup[] = [];
  for (let i = 0; i < nL; i++) {
    const key = r.take(32, `lookup ${i} key`);
    const writableIndexes = r.list(`lookup ${i} writable count`, `lookup ${i} writable indexes`);
    const readonlyIndexes = r.list(`lookup ${i} readonly count`, `lookup ${i} readonly indexes`);
    lookups.push({ key, writableIndexes, readonlyIndexes });
  }
  return lookups;
}

/** Every program index must name a static key, every account index a static or looked-up one. */
function checkIndexes(instructions: readonly CompiledInstruction[], lookups: readonly AddressTableLookup[], nKeys: number, msgStart: number): void {
  let total = nKeys;
  for (const l of lookups) total += l.writableIndexes.length + l.readonlyIndexes.length;
  for (let i = 0; i < instructions.length; i++) {
    const ix = instructions[i]!;
    if (ix.programIdIndex >= nKeys) throw invalid(`instruction ${i} program index ${ix.programIdIndex} is not a static key`, msgStart);
    for (let j = 0; j < ix.accounts.length; j++) {
      if (ix.accounts[j]! >= total) throw invalid(`instruction ${i} account index ${ix.accounts[j]} out of range`, msgStart);
    }
  }
}
