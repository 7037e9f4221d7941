/**
 * The Merkle engine's input text: the byte cap it is held to (`DEFAULT_MAX_BYTES`) and lossless JSON.
 * Compression numbers (`lamports`, `amount`) are u64 and may exceed 2^53; JSON.parse would round them
 * silently. The parser is json/lossless.ts (shared with the rpc client); here long integers come back
 * as decimal strings, which the field decoders accept. Input over the cap is an `InputTooLargeError`
 * (code `INPUT_TOO_LARGE`, src/errors/input.ts).
 */
import { parseLossless } from '../json/index.js';

/**
 * Parse JSON text, keeping integers of 16 or more digits exact (as decimal strings). Throws
 * `SyntaxError` on bad JSON, and `INPUT_TOO_LARGE` for a number longer than 40 characters or nesting
 * deeper than 1,024 levels (json/long-integers.ts: the limits the tape scanners hold a text to).
 *
 * @example
 * parseJsonLossless('{"lamports":18446744073709551615}') // { lamports: '18446744073709551615' }
 */
export function parseJsonLossless(text: string): unknown {
  return parseLossless(text, 'string');
}

/** The default cap on input bytes: the verifier's `maxBytes` and `cairn verify --max-bytes`. */
export const DEFAULT_MAX_BYTES = 1 << 30;
