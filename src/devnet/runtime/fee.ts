/**
 * What a transaction pays, as the runtime charges it: its compute-budget settings and the fee
 * (5,000 lamports per signature plus the priority fee). The chain records it for every executed
 * transaction and `getFeeForMessage` answers with it.
 */
import { address58, isComputeBudgetProgram, COMPUTE_BUDGET_PROGRAM, SYSTEM_PROGRAM, type ParsedTransaction } from '../../solana/index.js';

export interface ComputeBudget {
  /** µlamports per CU, or null when not set. */
  unitPrice: bigint | null;
  unitLimit: number | null;
}

/**
 * Compute-budget settings of a transaction (price in µlamports/CU, or null), for its fee. Read as the
 * runtime charges (a longer instruction still sets it), not by the `/fast` policy of
 * solana/fast-rules.ts, which wants the exact layout.
 */
export function computeBudgetOf(tx: ParsedTransaction): ComputeBudget {
  let unitPrice: bigint | null = null;
  let unitLimit: number | null = null;
  const keys = tx.parts.staticKeys;
  for (const ix of tx.parts.instructions) {
    const program = keys[ix.programIdIndex];
    if (!program || !isComputeBudgetProgram(program)) continue;
    const d = ix.data;
    if (d[0] === 3 && d.length >= 9) {
      unitPrice = new DataView(d.buffer, d.byteOffset + 1, 8).getBigUint64(0, true);
    } else if (d[0] === 2 && d.length >= 5) {
      unitLimit = new DataView(d.buffer, d.byteOffset + 1, 4).getUint32(0, true);
    }
  }
  return { unitPrice, unitLimit };
}

const BUILTIN_PROGRAMS = new Set([
  SYSTEM_PROGRAM,
  COMPUTE_BUDGET_PROGRAM,
  'Vote111111111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
]);

/**
 * The runtime's fee: 5,000 lamports per signature plus ⌈price × limit / 10^6⌉. Without a
 * `setComputeUnitLimit` the limit is 3,000 CU per builtin instruction and 200,000 per other one,
 * capped at 1.4M (Agave's defaults; LiteSVM charges the same, checked on this machine).
 */
export function feeOf(d: ParsedTransaction, budget: ComputeBudget = computeBudgetOf(d)): number {
  const { unitPrice, unitLimit } = budget;
  let limit = unitLimit;
  if (limit === null) {
    limit = 0;
    for (const ix of d.parts.instructions) {
      const key = d.parts.staticKeys[ix.programIdIndex];
      limit += key && BUILTIN_PROGRAMS.has(address58(key)) ? 3_000 : 200_000;
    }
  }
  limit = Math.min(limit, 1_400_000);
  const prio = unitPrice === null ? 0n : (unitPrice * BigInt(limit) + 999_999n) / 1_000_000n;
  return 5_000 * d.parts.header.numRequiredSignatures + Number(prio);
}
