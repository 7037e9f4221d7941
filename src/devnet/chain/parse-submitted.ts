/**
 * The devnet's reading of submitted transaction bytes: the solana layer's parser (solana/parse-transaction.ts),
 * so the devnet accepts exactly what cairn builds and checks, with the service's own refusals
 * (errors on field `transaction`, no unsigned messages).
 */
import { CairnError, InputError } from '../../errors/index.js';
import { parseTransaction, type ParsedTransaction } from '../../solana/index.js';

/**
 * Parse signed wire bytes (legacy or v0) with the solana layer's parser (solana/parse-transaction.ts), so the
 * devnet accepts exactly what cairn builds and checks. Throws `InputError` (field `transaction`) on
 * anything malformed, with the parser's detail and byte offset; never reads past the buffer.
 *
 * @example
 * const tx = parseSubmitted(Buffer.from(base64, 'base64'));
 * encodeBase58(tx.signatures[0]); // the transaction's signature
 */
export function parseSubmitted(bytes: Uint8Array): ParsedTransaction {
  if (!(bytes instanceof Uint8Array)) throw new InputError('transaction', 'expected bytes');
  let parsed: ParsedTransaction;
  try {
    parsed = parseTransaction(bytes);
  } catch (e) {
    const detail = e instanceof CairnError && typeof e.context.detail === 'string' ? `${e.context.detail} at byte ${String(e.context.offset)}` : (e as Error).message;
    throw new InputError('transaction', detail, { cause: e });
  }
  // The parser takes a message nobody signed; the service does not.
  if (parsed.signatures.length === 0) throw new InputError('transaction', 'has no signatures');
  return parsed;
}
