/**
 * The devnet's durable-nonce check, as a real validator's `check_transaction_age` makes it: a
 * transaction whose blockhash is not a recent one is still valid when its FIRST instruction is the
 * System program's AdvanceNonceAccount on a writable, System-owned, initialized nonce account whose
 * stored nonce equals the message's blockhash, and the account's authority signs that instruction.
 * The chain runs LiteSVM without its own blockhash check (blockhash-ring.ts says why), so without
 * this every nonce transaction would be dropped as BlockhashNotFound. Once the nonce moved (the
 * transaction itself advanced it, or anyone else did), its signed bytes fail here forever.
 */
import { address58 } from '../solana/base58.js';
import { SYSTEM_PROGRAM } from '../solana/instructions.js';
import { advancedNonceOf, NONCE_ACCOUNT_LENGTH, parseNonceAccount } from '../solana/nonce.js';
import type { MessageParts } from '../solana/wire.js';
import type { AccountRead } from './transaction-detail.js';

/**
 * Whether `parts` is a durable-nonce message the account at its nonce address accepts now.
 *
 * @example
 * if (!ring.isValidBytes(parts.recentBlockhash, slot) && !isDurableNonceValid(parts, readAccount)) drop(p, 'BlockhashNotFound');
 */
export function isDurableNonceValid(parts: MessageParts, readAccount: (address: string) => Pick<AccountRead, 'owner' | 'data'> | null): boolean {
  const found = advancedNonceOf(parts.instructions, parts.staticKeys);
  if (!found || found.authorityIndex === undefined) return false;
  const { header, staticKeys } = parts;
  const n = staticKeys.length;
  const i = found.nonceIndex;
  // Only static keys: a nonce account loaded through a lookup table is refused (as by the runtime).
  const writable = i < header.numRequiredSignatures ? i < header.numRequiredSignatures - header.numReadonlySignedAccounts : i < n - header.numReadonlyUnsignedAccounts;
  if (i >= n || !writable) return false;
  const account = readAccount(address58(staticKeys[i]!));
  if (!account || account.owner !== SYSTEM_PROGRAM || account.data.length !== NONCE_ACCOUNT_LENGTH) return false;
  let state;
  try {
    state = parseNonceAccount(account.data);
  } catch {
    return false;
  }
  if (state.state !== 'initialized' || state.nonce !== address58(parts.recentBlockhash)) return false;
  const a = found.authorityIndex;
  return a < header.numRequiredSignatures && a < n && address58(staticKeys[a]!) === state.authority;
}
