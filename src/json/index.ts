/**
 * json/: cairn's JSON reader, and what the RPC client, the verifier and the devnet take from it
 * (they import this file, never the files beside it). Re-exports only: the structure scanner —
 * `scanJson` and the resumable `JsonScan` (json-scan.ts) fill a `JsonTape` (json-tape.ts: reading
 * entries, remembered tapes), whose `lazy()` decodes only what is read (lazy-value.ts);
 * scanner-choice.ts picks the native or portable scanner — the tape's entry tags and bounds
 * (tape-format.ts), and the lossless parser and writer (lossless.ts: integers past 2^53 kept exact).
 */
export { JsonScan, scanJson } from './json-scan.js';
export { JsonTape, hasRememberedTape, rememberTape, type ScanOptions } from './json-tape.js';
export { entryOf } from './lazy-value.js';
export { jsonScanBackend } from './scanner-choice.js';
export { ENTRY, F_ESCAPED, MAX_NUMBER_CHARS, T_ARRAY, T_NULL, T_OBJECT, T_STRING, T_TRUE } from './tape-format.js';
export { parseLossless, stringifyJson } from './lossless.js';
