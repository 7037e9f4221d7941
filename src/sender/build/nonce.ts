/**
 * Reading durable nonces for the sender: the value a nonce intent signs with (builder.ts) and, for the
 * tracker, whether the values its signed bytes carry are still the ones their accounts hold
 * (confirm/tracker.ts). Reads are at `confirmed`: a nonce seen moved there has moved for good (a confirmed
 * block is not rolled back in practice), and only then may a new signature be journaled.
 */
import { CairnError, ErrorCodes, InputError } from '../../errors/index.js';
import { parseNonceAccount, SYSTEM_PROGRAM } from '../../solana/index.js';
import type { AccountInfo } from '../../rpc/index.js';
import type { SenderRpc } from '../client/rpc.js';

/** What an account holds as a nonce: its value and authority, or null when it holds none (gone, not a nonce, uninitialized). */
export type NonceHeld = { value: string; authority: string } | null;

/** The nonce an account's info holds (null: none). */
function nonceHeld(info: AccountInfo | null): NonceHeld {
  if (!info || info.owner !== SYSTEM_PROGRAM) return null;
  const d = info.data;
  if (!Array.isArray(d) || typeof d[0] !== 'string') return null;
  const bytes = new Uint8Array(Buffer.from(d[0], 'base64'));
  try {
    const s = parseNonceAccount(bytes);
    return s.state === 'initialized' ? { value: s.nonce!, authority: s.authority! } : null;
  } catch {
    return null;
  }
}

/** The rpc's account reads, or an InputError naming the client when it has none. */
export function accountReader(rpc: SenderRpc): (accounts: string[], signal: AbortSignal) => Promise<NonceHeld[]> {
  return async (accounts, signal) => {
    if (rpc.getMultipleAccounts) {
      const infos = await rpc.getMultipleAccounts(accounts, { commitment: 'confirmed', encoding: 'base64' }, { signal });
      return infos.map(nonceHeld);
    }
    if (rpc.getAccountInfo) {
      const get = rpc.getAccountInfo;
      return Promise.all(accounts.map(async (a) => nonceHeld(await get(a, { commitment: 'confirmed', encoding: 'base64' }, { signal }))));
    }
    throw new InputError('client', 'durable-nonce intents read their nonce accounts: use a client with getMultipleAccounts or getAccountInfo (cairn\'s createClient has both)');
  };
}

/**
 * The nonce value to sign with: what `account` holds now, checked against the intent's authority.
 * A nonce account that holds none, or under another authority, fails the build (nothing is signed).
 */
export async function currentNonce(rpc: SenderRpc, account: string, authority: string, signal: AbortSignal): Promise<string> {
  const [held] = await accountReader(rpc)([account], signal);
  if (!held) {
    throw new CairnError(ErrorCodes.SENDER_INVALID_TRANSACTION, `nonce account ${account} holds no durable nonce (missing, not System-owned, or not initialized)`, { context: { account } });
  }
  if (held.authority !== authority) {
    throw new CairnError(ErrorCodes.SENDER_INVALID_TRANSACTION, `nonce account ${account} is under authority ${held.authority}, not ${authority}`, { context: { account, authority: held.authority } });
  }
  return held.value;
}
