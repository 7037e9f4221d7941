/**
 * JSON in and out of the wire without losing u64 precision: compression responses carry u64
 * `lamports`/`amount`, which `JSON.parse` would round. The parser is json/lossless.ts, shared with
 * the Merkle engine; the rpc client's name for it gives integers beyond `Number.MAX_SAFE_INTEGER` back
 * as `bigint`.
 */
import { parseLossless } from '../json/index.js';

export { stringifyJson } from '../json/index.js';

/**
 * Parse JSON, giving integers above 2^53 back as `bigint`. Throws `SyntaxError` on bad JSON, and
 * `CairnError` `INPUT_TOO_LARGE` (context: field `json`, the limit, the offset) for a number longer
 * than 40 characters or nesting deeper than 1,024 levels.
 *
 * @example
 * parseJson('{"amount":18446744073709551615}') // { amount: 18446744073709551615n }
 */
export function parseJson(text: string): unknown {
  return parseLossless(text, 'bigint');
}
