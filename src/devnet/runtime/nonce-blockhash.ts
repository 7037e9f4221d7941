/**
 * The blockhash a nonce instruction reads, as a validator gives it: the bank's current blockhash.
 * LiteSVM hands its System program the transaction's own recent blockhash instead, so a nonce
 * created under blockhash B and advanced by a plain transaction signed with the same B (still
 * valid, slots later) fails with Custom 7 "nonce can only advance once per slot", and an
 * InitializeNonceAccount stores a value anyone can compute ahead. For a transaction (under a recent
 * blockhash) holding a System InitializeNonceAccount or AdvanceNonceAccount, the chain therefore
 * checks the signatures itself and hands LiteSVM the bytes with the devnet's current blockhash in
 * the message, signature check off — what the runtime would have computed.
 */
import { address58, SYSTEM_ADVANCE_NONCE, verifySignature, type ParsedTransaction } from '../../solana/index.js';

const SYSTEM_INITIALIZE_NONCE = 6;
const SYSTEM_PROGRAM = '11111111111111111111111111111111';

/** Whether the message has a System nonce instruction whose value comes from the blockhash. */
function readsNonceBlockhash(d: ParsedTransaction): boolean {
  const keys = d.parts.staticKeys;
  return d.parts.instructions.some((ix) => {
    const k = keys[ix.programIdIndex];
    if (!k || address58(k) !== SYSTEM_PROGRAM || ix.data.length < 4) return false;
    const v = ix.data[0]! | (ix.data[1]! << 8) | (ix.data[2]! << 16) | (ix.data[3]! << 24);
    return v === SYSTEM_ADVANCE_NONCE || v === SYSTEM_INITIALIZE_NONCE;
  });
}

/**
 * `wire` with `bankBlockhash` as its recent blockhash when it holds a nonce instruction and every
 * signature verifies (execute it with LiteSVM's signature check off); null otherwise (execute the
 * original, which LiteSVM checks as usual).
 */
export function withBankBlockhash(d: ParsedTransaction, wire: Uint8Array, bankBlockhash: Uint8Array, checkSignatures = true): Uint8Array | null {
  if (!readsNonceBlockhash(d)) return null;
  const n = d.signatures.length;
  if (n > d.parts.staticKeys.length) return null;
  if (checkSignatures) for (let i = 0; i < n; i++) if (!verifySignature(d.parts.staticKeys[i]!, d.message, d.signatures[i]!)) return null;
  const out = Uint8Array.from(wire);
  out.set(bankBlockhash, d.parts.recentBlockhash.byteOffset - wire.byteOffset);
  return out;
}
