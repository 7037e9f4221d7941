/**
 * devnet/'s internal surface: what cairn's other parts take from the devnet beyond devnet/index.ts
 * (cairn-solana/devnet, whose listing api/devnet.api.md fixes). `cairn devnet` reads its flags with
 * the devnet's own checks (the API keys file, the request limits, the fault endpoints); `cairn bench
 * verify` builds its proofs with the devnet's Merkle trees (trees/merkle.ts, which needs no litesvm).
 * No entry point re-exports this file.
 */
export { loadKeysFile } from './http/auth.js';
export { resolveLimits } from './http/limits.js';
export { FAULT_ENDPOINTS } from './faults/endpoints.js';
export { createConcurrentMerkleTree, createIndexedMerkleTree, fromBytes32, toBytes32 } from './trees/merkle.js';
