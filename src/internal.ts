/**
 * Hooks for cairn's own test suite, kept out of every entry point: the leak guard's view of every
 * error as it is built and of the registered secrets, and the once-per-process warnings' resetters.
 * Nothing here is part of the public API; it may change in any release.
 */
export { observeErrors } from './errors/internal.js';
export { registeredSecrets } from './redact.js';
// the once-per-process DeprecationWarnings (the client's legacy token metadata, mintCompressedNft)
export { resetDeprecationWarnings } from './rpc/internal.js';
