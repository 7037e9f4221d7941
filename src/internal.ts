/**
 * Hooks for cairn's own test suite, kept out of every entry point: the once-per-process warnings'
 * resetters. (The leak guard takes its view of every error as it is built and of the registered
 * secrets straight from errors/internal.ts and redact.ts: it loads before every test file, and this
 * file would bring the client's modules with it.) Nothing here is part of the public API; it may
 * change in any release.
 */
// the once-per-process DeprecationWarnings (the client's legacy token metadata, mintCompressedNft)
export { resetDeprecationWarnings } from './rpc/internal.js';
