/**
 * rpc/'s internal surface: what the sender, mint and src/internal.ts take from the client beyond
 * rpc/index.ts (the typed client the package exports): the subscription option that hands the sender
 * each notification as it arrives, the once-per-process deprecation warning and its reset for tests,
 * and whether an error proves a call was never acted on (so mint may retry it). No entry point
 * re-exports this file.
 */
export { resetDeprecationWarnings, warnDeprecatedOnce } from './deprecation.js';
export { provesNotActedOn } from './retry/outcome.js';
export { ON_ARRIVAL, type ArrivalOption } from './subscribe/subscriber.js';
