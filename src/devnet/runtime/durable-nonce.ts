/**
 * The devnet's durable-nonce handling, as a real validator's `check_transaction_age` and its
 * failure path make it. A transaction whose blockhash is not a recent one is still valid when its
 * FIRST instruction is the System program's AdvanceNonceAccount on a writable, System-owned,
 * initialized nonce account whose stored nonce equals the message's blockhash, the account's
 * authority signs that instruction, and the nonce can advance in this block (it does not already
 * hold the value this block's blockhash gives). The chain runs LiteSVM without its own blockhash
 * check (chain/blockhashes.ts says why), so without this every nonce transaction would be dropped as
 * BlockhashNotFound. The validator advances the nonce before executing, to the value its current
 * blockhash gives, and keeps it advanced when the transaction fails (its `RollbackAccounts` hold the
 * advanced nonce account beside the fee payer's debit). LiteSVM does neither as a validator: a
 * failure rolls back everything but the fee payer, so the nonce stays usable, and its
 * AdvanceNonceAccount derives the new value from the transaction's own blockhash — the old nonce —
 * so the values form a chain anyone can compute ahead. The chain therefore writes the nonce account
 * itself after every landed nonce transaction (`storeAdvancedNonce`), from the devnet's blockhash.
 * Once the nonce moved, for whatever reason, its signed bytes fail here forever.
 */
import type { LiteSVM } from 'litesvm';
import { address58, decodeBase58, SYSTEM_PROGRAM, advancedNonceOf, NONCE_ACCOUNT_LENGTH, parseNonceAccount, type MessageParts } from '../../solana/index.js';
import type { AccountRead } from './meta.js';
import type { AccountView } from '../chain/contract.js';

/** What an advance stores as the nonce's fee calculator: the 5,000 lamports per signature the
 * devnet charges (fee.ts), as LiteSVM's own AdvanceNonceAccount writes it. */
export const NONCE_LAMPORTS_PER_SIGNATURE = 5_000n;

type ReadNonce = (address: string) => Pick<AccountRead, 'owner' | 'data'> | null;

/**
 * The nonce account `parts` advances when it is a durable-nonce message that account accepts now,
 * else null. With `nextNonce` (the value an advance stores in this block), a nonce already holding
 * it is refused, as by the validator: it cannot advance twice within one blockhash.
 *
 * @example
 * const nonce = durableNonceAccountOf(parts, readAccount, nextDurableNonce());
 * if (nonce === null) drop(p, 'BlockhashNotFound');
 */
export function durableNonceAccountOf(parts: MessageParts, readAccount: ReadNonce, nextNonce?: string): string | null {
  const found = advancedNonceOf(parts.instructions, parts.staticKeys);
  if (!found || found.authorityIndex === undefined) return null;
  const { header, staticKeys } = parts;
  const n = staticKeys.length;
  const i = found.nonceIndex;
  // Only static keys: a nonce account loaded through a lookup table is refused (as by the runtime).
  const writable =
    i < header.numRequiredSignatures ? i < header.numRequiredSignatures - header.numReadonlySignedAccounts : i < n - header.numReadonlyUnsignedAccounts;
  if (i >= n || !writable) return null;
  const address = address58(staticKeys[i]!);
  const account = readAccount(address);
  if (!account || account.owner !== SYSTEM_PROGRAM || account.data.length !== NONCE_ACCOUNT_LENGTH) return null;
  let state;
  try {
    state = parseNonceAccount(account.data);
  } catch {
    return null;
  }
  if (state.state !== 'initialized' || state.nonce !== address58(parts.recentBlockhash) || state.nonce === nextNonce) return null;
  const a = found.authorityIndex;
  return a < header.numRequiredSignatures && a < n && address58(staticKeys[a]!) === state.authority ? address : null;
}

/**
 * Store `nonce` in the nonce account at `address` — what the validator commits for a landed
 * durable-nonce transaction, failed or not. Version, state and authority stay as they stand (the
 * transaction may have re-authorized it); the fee calculator becomes `NONCE_LAMPORTS_PER_SIGNATURE`;
 * lamports stay as LiteSVM left them (the fee already taken when the nonce account also paid it).
 * An account the transaction closed or emptied of its nonce is left alone.
 *
 * @example
 * if (nonceAccount !== null) storeAdvancedNonce(svm, nonceAccount, durableNonceFromBlockhash(ring.latest().bytes));
 */
export function storeAdvancedNonce(svm: LiteSVM, address: string, nonce: string): void {
  const a = svm.getAccount(address as never);
  if (!a.exists || a.programAddress !== SYSTEM_PROGRAM) return;
  const data = advancedNonceData(a.data, nonce);
  if (data !== null) svm.setAccount({ ...a, data } as never);
}

/**
 * A nonce account's bytes holding `nonce` and the devnet's fee calculator; null when they are not an
 * initialized nonce account's (withdrawn to zero, closed, resized), which is then left as it is.
 */
function advancedNonceData(bytes: Uint8Array, nonce: string): Uint8Array | null {
  if (bytes.length !== NONCE_ACCOUNT_LENGTH) return null;
  const data = Uint8Array.from(bytes);
  const view = new DataView(data.buffer);
  if (view.getUint32(4, true) !== 1) return null; // not initialized
  data.set(decodeBase58(nonce, 32, 'nonce'), 40);
  view.setBigUint64(72, NONCE_LAMPORTS_PER_SIGNATURE, true);
  return data;
}

/** A simulation's view of a nonce account, advanced as the chain will store it when the transaction lands. */
export function withAdvancedNonce(view: AccountView, nonce: string): AccountView {
  if (view.owner !== SYSTEM_PROGRAM) return view;
  const data = advancedNonceData(view.data, nonce);
  return data === null ? view : { ...view, data };
}
