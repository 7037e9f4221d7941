/**
 * A base58 address from a caller (an airdrop's recipient, a genesis account, a balance query) as
 * its 32 bytes, refused as an `InputError` on the caller's field when it is not one.
 */
import { base58TooLong } from '../../base58-bound.js';
import { InputError } from '../../errors/index.js';
import { base58Bytes } from '../../solana/index.js';

export function decodeAddress(address: string, field: string): Uint8Array {
  if (base58TooLong(address, 32)) throw new InputError(field, `expected a 32-byte address, got ${address.length} characters`);
  let b: Uint8Array;
  try {
    b = base58Bytes(address);
  } catch (cause) {
    throw new InputError(field, `not a base58 address: ${JSON.stringify(address)}`, { cause });
  }
  if (b.length !== 32) throw new InputError(field, `expected a 32-byte address, got ${b.length} bytes`);
  return b;
}
