/**
 * Inspection of signed wire bytes before they leave the process: `/fast` rejects a transaction
 * without a `setComputeUnitPrice` instruction or without a tip of at least the minimum to the tip
 * accounts, and a rejection costs a round trip and tells less. Checking here gives a typed error
 * (`SENDER_MISSING_CU_PRICE`, `SENDER_MISSING_TIP`) that says what was found.
 *
 * What counts as a CU price and a tip is read by solana/fast-rules.ts, the same reading the build and
 * the devnet's `/fast` use. The tip is the SUM of the System transfers to tip accounts: the real host
 * documents only "a transfer of at least the minimum tip", so cairn and the devnet agree on one reading rather than refusing what the host
 * accepts (two 500,000-lamport tips pass both).
 */
import { CairnError, ErrorCodes } from '../../errors/index.js';
import { encodeBase58, readFastRules, tipAccountBytes, verifySignature, parseTransaction, type ParsedTransaction } from '../../solana/index.js';

export interface WireSummary {
  parsed: ParsedTransaction;
  /** Base58 of the first signature (the transaction id). */
  signature: string;
  feePayer: string;
  recentBlockhash: string;
  /** µlamports/CU from `setComputeUnitPrice`, undefined when absent. */
  cuPrice?: bigint;
  cuLimit?: number;
  /**
   * System transfers to tip accounts: `lamports` is their sum, `account` the destination of the
   * largest, `transfers` how many there are; undefined when none.
   */
  tip?: { lamports: bigint; account: string; transfers: number };
}

export interface InspectOptions {
  tipAccounts: readonly string[];
  minTipLamports: bigint;
  /** Verify every signature with ed25519 (default true). */
  verifySignatures?: boolean;
}

/** Parse wire bytes and pull out what the sender cares about (no policy checks). */
export function summarizeWire(wire: Uint8Array, tipAccounts: readonly string[]): WireSummary {
  const parsed = parseTransaction(wire);
  const { parts } = parsed;
  const keys = parts.staticKeys;
  const { cuPrice, cuLimit, tip: t } = readFastRules(parts, tipAccountBytes(tipAccounts));
  const tip: WireSummary['tip'] = t ? { lamports: t.lamports, account: encodeBase58(t.largestTo), transfers: t.transfers } : undefined;
  return {
    parsed,
    signature: encodeBase58(parsed.signatures[0] ?? new Uint8Array(64)),
    feePayer: encodeBase58(keys[0]),
    recentBlockhash: encodeBase58(parts.recentBlockhash),
    ...(cuPrice !== undefined ? { cuPrice } : {}),
    ...(cuLimit !== undefined ? { cuLimit } : {}),
    ...(tip ? { tip } : {}),
  };
}

/**
 * Check signed wire bytes are acceptable to `/fast`: parsable, fully signed (signatures verified),
 * with a CU price and a tip of at least the minimum. Returns the summary; throws a typed error.
 *
 * @example
 * const s = assertSendable(wire, { tipAccounts: DEFAULT_TIP_ACCOUNTS, minTipLamports: 1_000_000n });
 * s.signature; // base58 transaction id
 */
export function assertSendable(wire: Uint8Array, o: InspectOptions): WireSummary {
  const s = summarizeWire(wire, o.tipAccounts);
  const { parsed } = s;
  if (parsed.signatures.length === 0) {
    throw new CairnError(ErrorCodes.SENDER_INVALID_TRANSACTION, 'transaction carries no signatures', { context: { field: 'wire' } });
  }
  if (o.verifySignatures !== false) {
    for (let i = 0; i < parsed.signatures.length; i++) {
      const key = parsed.parts.staticKeys[i];
      if (!verifySignature(key, parsed.message, parsed.signatures[i])) {
        throw new CairnError(ErrorCodes.SENDER_INVALID_TRANSACTION, `signature ${i} (signer ${encodeBase58(key)}) is missing or does not verify`, {
          context: { field: 'wire', index: i, signer: encodeBase58(key) },
        });
      }
    }
  }
  if (s.cuPrice === undefined) {
    throw new CairnError(
      ErrorCodes.SENDER_MISSING_CU_PRICE,
      'transaction has no ComputeBudget setComputeUnitPrice instruction; /fast requires one',
      { context: { signature: s.signature } },
    );
  }
  if (!s.tip) {
    throw new CairnError(
      ErrorCodes.SENDER_MISSING_TIP,
      `transaction has no System transfer to a tip account (need ≥ ${o.minTipLamports} lamports to one of ${o.tipAccounts.length} tip accounts)`,
      { context: { signature: s.signature, minTipLamports: o.minTipLamports.toString() } },
    );
  }
  if (s.tip.lamports < o.minTipLamports) {
    throw new CairnError(
      ErrorCodes.SENDER_MISSING_TIP,
      `tip of ${s.tip.lamports} lamports${s.tip.transfers > 1 ? ` (sum of ${s.tip.transfers} transfers)` : ''} to ${s.tip.transfers > 1 ? 'tip accounts' : s.tip.account} is below the minimum ${o.minTipLamports} for this routing mode`,
      { context: { signature: s.signature, tipLamports: s.tip.lamports.toString(), minTipLamports: o.minTipLamports.toString() } },
    );
  }
  return s;
}
