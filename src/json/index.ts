/**
 * The JSON structure scanner, one import for its parts: `scanJson` and the resumable `JsonScan`
 * (json-scan.ts) fill a `JsonTape` (json-tape.ts: reading entries, remembered tapes), whose `lazy()`
 * decodes only what is read (lazy-value.ts); scanner-choice.ts picks the native or portable scanner.
 * Kept because the rpc client, the verifier, the CLI, the tests and the benchmarks import from here.
 */
export { JsonScan, scanJson } from './json-scan.js';
export { JsonTape, hasRememberedTape, rememberTape, type ScanOptions } from './json-tape.js';
export { entryOf } from './lazy-value.js';
export { jsonScanBackend } from './scanner-choice.js';
