/**
 * Transactions as sent: the compact signature count, one 64-byte signature per required signer in key
 * order, then the message, in one buffer no larger than `MAX_TRANSACTION_SIZE`.
 */
import { CairnError, ErrorCodes, InputError } from '../errors/index.js';
import { encodeAddress } from './address.js';
import { bytesEqual } from './bytes-equal.js';
import { messageSize, writeMessage } from './encode-message.js';
import { compactLen, writeCompact } from './shortvec.js';
import type { Signer } from './signer.js';
import { MAX_TRANSACTION_SIZE, type MessageParts } from './wire-types.js';

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
