/**
 * Message parts to bytes: the size first (so a transaction is written into one buffer, signatures
 * and message together: sign-message.ts), then the bytes, in the order the runtime reads them.
 */
import { compactLen, writeCompact } from './shortvec.js';
import type { MessageParts } from './wire-types.js';

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
