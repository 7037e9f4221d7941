/**
 * merkle/'s internal surface: what cairn's other parts take from the verifier beyond merkle/index.ts
 * (cairn-solana/merkle, whose listing api/merkle.api.md fixes). The devnet builds its Bubblegum leaves
 * and tree accounts with the same code the verifier checks them with; mint words its verdicts as the
 * verifier does; the proxy creates its verifier with the internal options (`inlineUpTo`: small
 * answers verified on its own thread), checks its anchor options as the verifier will, and takes its
 * first look at an answer from the scan it has already made (`inspectScanned`). No entry point
 * re-exports this file.
 */
export { TokenStandard, type MetadataArgsV1 } from './cnft/bubblegum/metadata.js';
export type { Creator } from './cnft/bubblegum/leaf-hash.js';
export { encodeTreeAccount } from './cnft/tree-account.js';
export { bad, ok } from './verdict.js';
export { createVerifierWithTestOptions } from './verifier/create-verifier.js';
export { checkAnchorOptions } from './anchor/source.js';
export { inspectScanned, type InspectedBody } from './verifier/inspect-body.js';
