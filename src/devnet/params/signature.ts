/**
 * A signature param checked as Agave's `verify_signature` checks it (`Signature::from_str`, its
 * error's Debug form after "Invalid param: "): over 88 characters or not 64 bytes is `WrongSize`,
 * not base58 (or longer than 64 bytes once decoded) is `Invalid`. Both are −32602.
 */
import { base58Bytes } from '../../solana/index.js';
import { badAgave } from './invalid.js';

/** The longest base58 text of 64 bytes. */
const MAX_BASE58_SIGNATURE_LEN = 88;

/** `v` when it is a signature, else the −32602 Agave answers. */
export function verifySignature(v: unknown): string {
  // serde refuses a non-string before the method runs
  if (typeof v !== 'string') throw badAgave(`Invalid params: invalid type: expected a string, got ${typeof v}.`);
  if (v.length > MAX_BASE58_SIGNATURE_LEN) throw badAgave('Invalid param: WrongSize');
  let bytes: Uint8Array;
  try {
    bytes = base58Bytes(v);
  } catch {
    throw badAgave('Invalid param: Invalid');
  }
  if (bytes.length > 64) throw badAgave('Invalid param: Invalid');
  if (bytes.length !== 64) throw badAgave('Invalid param: WrongSize');
  return v;
}
