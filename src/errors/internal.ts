/**
 * errors/'s internal surface: what src/internal.ts (the test suite's hooks) takes from errors/ beyond
 * errors/index.ts — the leak guard's observer of every error as it is built. No entry point
 * re-exports this file.
 */
export { observeErrors } from './cairn-error.js';
