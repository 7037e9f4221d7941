/**
 * bench/: the benchmarks users run (`cairn bench verify | sign | rpc | landing`), and what the CLI
 * takes from them (it imports this file, never the files beside it). Re-exports only: each family,
 * the proof kinds `verify` measures, the spend cap of a landing run, the family's shape, and the two
 * ways a result is shown (a terminal table, an HTML report).
 */
export { verifyFamily } from './verify-family.js';
export { BENCH_KINDS, type BenchKind } from './proofs.js';
export { signFamily } from './sign-family.js';
export { rpcFamily, RPC_METHODS } from './rpc-family.js';
export { landingFamily } from './landing-family.js';
export { checkCap, parseSol, LAMPORTS_PER_SOL } from './spend-cap.js';
export type { FamilyContext, FamilyResult } from './types.js';
export { renderTable } from './table.js';
export { reportHtml } from './report-html.js';
